/* SIGINT and SIGTERM during run and sweep: the handler that records them.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "interrupt.h"

#include <string.h>

static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
    caught = sig;
}

void dc_cli_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int dc_cli_interrupted(void)
{
    return caught;
}

const volatile sig_atomic_t *dc_cli_interrupt_flag(void)
{
    return &caught;
}

int dc_cli_signal_status(int sig)
{
    return 128 + sig;
}

const char *dc_cli_signal_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

/* The process's heap set up once at start: grown in large steps, on transparent huge pages where the kernel offers them.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Why.  A run of a few tens of thousands of jobs touches 10-30 MB of heap
 * (the jobs' records, the trace's rows and its in-memory HDF5 image), and
 * the kernel gave it 4 KiB at a time: on a replay of the ITP cluster08
 * trace (10,226 jobs, trace on) 5,420 page faults, a quarter of the
 * process's CPU time (perf: exc_page_fault and what it calls), as much as
 * the simulation.  One fault per 2 MiB huge page instead costs the same
 * zeroing and none of the 511 other traps, memory-cgroup charges and LRU
 * insertions.
 *
 * What.  glibc's malloc is told (mallopt) to grow its main heap by 32 MiB
 * past each request (M_TOP_PAD), to give nothing back below 64 MiB of free
 * top (M_TRIM_THRESHOLD: pages given back are faulted again when the heap
 * grows back), and to take blocks up to 32 MiB (the largest it allows)
 * from that heap rather than from mmap (M_MMAP_THRESHOLD: a mapped block is
 * faulted page by page and unmapped at its free).  One allocation then
 * makes the heap grow once, and the range it grew by, which holds nothing
 * but heap, is advised MADV_HUGEPAGE, which the kernel honours when
 * /sys/kernel/mm/transparent_hugepage/enabled is "madvise" or "always" (a
 * no-op under "never").  This is what glibc's own tunable
 * GLIBC_TUNABLES=glibc.malloc.hugetlb=1:glibc.malloc.top_pad=33554432 does,
 * which a program cannot set for itself once started.  A heap that grows
 * past the first 32 MiB (a run of a million jobs) grows in 4 KiB pages as
 * before, in 32 MiB steps.
 *
 * Nothing here changes a result: it is where the bytes lie, not what they
 * hold.  Under valgrind or AddressSanitizer, whose allocators do not use
 * the program's break, the heap does not move and nothing is advised.
 * Cost: up to 2 MiB more resident memory per huge page partly used. */
#include "cli.h"

#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define HEAP_STEP_BYTES (32u << 20) /* the heap's growth past a request */
#define HEAP_TRIM_BYTES (64u << 20) /* free top kept */
#define HUGE_SPAN_BYTES (30u << 20) /* advised: the first growth (a block below M_MMAP_THRESHOLD) */
#define HUGE_PAGE_BYTES ((uintptr_t)2 << 20)

void dc_cli_heap_setup(void)
{
#if defined(M_TOP_PAD) && defined(M_TRIM_THRESHOLD) && defined(M_MMAP_THRESHOLD) && defined(MADV_HUGEPAGE)
    if (mallopt(M_MMAP_THRESHOLD, (int)HEAP_STEP_BYTES) != 1 || mallopt(M_TRIM_THRESHOLD, (int)HEAP_TRIM_BYTES) != 1)
        return;
    long page = sysconf(_SC_PAGESIZE);
    /* malloc's first call makes its heap (132 KiB, for its thread cache):
     * made here, so that the heap grows once more below, into the span */
    void *volatile made = malloc(1); /* volatile: a malloc and free of nothing read would be dropped by the compiler */
    free(made);
    char *brk0 = sbrk(0);
    if (page <= 0 || brk0 == (char *)-1)
        return;
    /* A huge page is used only where a fault finds its whole 2 MiB range
     * untouched and advised.  So: the break is moved to one page before a
     * huge page's boundary (the bytes skipped are address space only,
     * never touched; malloc takes a break moved by someone else as it
     * comes); the first block, HUGE_SPAN_BYTES past that boundary, makes
     * the heap grow by it; malloc writes only its header (in the page
     * before the boundary) and the top's header after it (past the span);
     * the span, advised before anything touches it, takes huge pages from
     * its first byte on (libhdf5's metadata cache, the scenario's schema,
     * the jobs).  A heap begun before main would be continued past the
     * gap: then nothing is advised. */
    uintptr_t target = (((uintptr_t)brk0 + (uintptr_t)page + HUGE_PAGE_BYTES - 1) & ~(HUGE_PAGE_BYTES - 1)) -
                       (uintptr_t)page;
    if (sbrk((intptr_t)(target - (uintptr_t)brk0)) == (void *)-1)
        return;
    char *start = sbrk(0);
    char *volatile first = malloc(HUGE_SPAN_BYTES + (size_t)page - 16);
    if (first && start != (char *)-1 && first == start + 16 && (char *)sbrk(0) >= start + page + HUGE_SPAN_BYTES)
        (void)madvise(start + page, HUGE_SPAN_BYTES, MADV_HUGEPAGE); /* advice: refused or not, the heap works */
    free(first);
    (void)mallopt(M_TOP_PAD, (int)HEAP_STEP_BYTES);
#endif
}

/* A battery between a solar array and a load: energy bookkeeping and the instant it empties or
 * fills.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "battery.h"

#include <math.h>

double dc_battery_apply(dc_battery *b, double net_w, double dt_s)
{
    if (net_w >= 0.0) {
        b->charge_j = fmin(b->capacity_j, b->charge_j + b->charge_eff * net_w * dt_s);
        return 0.0;
    }
    double need_j = -net_w * dt_s / b->discharge_eff;
    double avail_j = b->charge_j - b->min_charge_j;
    if (need_j <= avail_j) {
        b->charge_j -= need_j;
        return 0.0;
    }
    b->charge_j = b->min_charge_j;
    return (need_j - avail_j) * b->discharge_eff;
}

double dc_battery_time_to_floor_s(const dc_battery *b, double deficit_w)
{
    if (deficit_w <= 0.0)
        return INFINITY;
    return (b->charge_j - b->min_charge_j) * b->discharge_eff / deficit_w;
}

double dc_battery_max_deficit_w(const dc_battery *b, double dt_s)
{
    return dt_s > 0.0 ? (b->charge_j - b->min_charge_j) * b->discharge_eff / dt_s : INFINITY;
}

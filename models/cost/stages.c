/* Cost of capacity over time: one delivery stage's rent, purchase, depreciation and residual value.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "stages.h"

#include <math.h>

#include "cost.h"

dc_cost_stage_figures dc_cost_stage(const dc_cluster_stage *st, const dc_cost_stage_prices *p, double t_s)
{
    dc_cost_stage_figures f = {.bought_s = NAN};
    const double year_s = DC_HOURS_PER_COST_YEAR * 3600.0;
    double a = st->arrive_s, r = st->leave_s < t_s ? st->leave_s : t_s;
    if (!(r > a))
        return f;
    double g = st->nodes * p->gpus_per_node, pr = p->on_demand_usd;
    f.present_gpu_h = g * (r - a) / 3600.0;
    bool rent_then_buy = st->rent_until_s > -INFINITY;
    double o = rent_then_buy ? fmax(a, st->rent_until_s) : a;
    double share = rent_then_buy ? (o < r ? 1.0 : 0.0) : p->owned;
    double a_y = a / year_s;
    if (rent_then_buy) {
        double rent_end = o < r ? o : r;
        f.rented_gpu_h = g * (rent_end - a) / 3600.0;
        f.on_demand_usd = f.rented_gpu_h * pr;
        f.npv_usd += f.on_demand_usd / ((rent_end - a) / year_s) * dc_cost_pv_const(p->delta, a_y, rent_end / year_s);
    } else if (share < 1.0) {
        double f_r = (1.0 - share) * p->reserved_share, f_d = (1.0 - share) * (1.0 - p->reserved_share);
        double h = (r - a) / 3600.0, over_h = h > p->commit_h ? h - p->commit_h : 0.0;
        f.rented_gpu_h = (1.0 - share) * f.present_gpu_h;
        f.on_demand_usd = f_d * g * h * pr;
        double commit = f_r * g * p->commit_h * pr * (1.0 - p->reserved_discount), over = f_r * g * over_h * pr;
        f.reserved_usd = commit + over;
        double commit_y = p->commit_h / DC_HOURS_PER_COST_YEAR, r_y = r / year_s;
        f.npv_usd += f.on_demand_usd / (h / DC_HOURS_PER_COST_YEAR) * dc_cost_pv_const(p->delta, a_y, r_y);
        if (commit_y > 0.0)
            f.npv_usd += commit / commit_y * dc_cost_pv_const(p->delta, a_y, a_y + commit_y);
        if (over_h > 0.0)
            f.npv_usd += over / (over_h / DC_HOURS_PER_COST_YEAR) * dc_cost_pv_const(p->delta, a_y + commit_y, r_y);
    }
    if (!(share > 0.0) || !(o < r))
        return f;
    double u_y = (r - o) / year_s, o_y = o / year_s;
    f.bought_s = o;
    f.sold = st->leave_s <= t_s;
    f.owned_gpu_h = share * g * (r - o) / 3600.0;
    f.owned_node_y = share * st->nodes * u_y;
    f.capex_usd = share * (1.0 + p->spares_fraction) * (g * p->gpu_usd + st->nodes * p->server_usd);
    double res = p->residual_fraction * f.capex_usd;
    dc_cost_capital c = dc_cost_capital_over(f.capex_usd, res, p->life_y, p->interest_rate, u_y);
    f.depreciation_usd = c.depreciation_usd;
    f.interest_usd = c.interest_usd;
    f.book_usd = c.book_value_usd;
    if (f.capex_usd > 0.0) { /* cost.h's capital flow, shifted to o */
        double d = (f.capex_usd - res) / p->life_y, m = u_y < p->life_y ? u_y : p->life_y, i = p->interest_rate;
        double pv = (d + i * f.capex_usd) * dc_cost_pv_const(p->delta, 0.0, m) - i * d * dc_cost_pv_linear(p->delta, 0.0, m);
        if (u_y > p->life_y)
            pv += i * res * dc_cost_pv_const(p->delta, p->life_y, u_y);
        f.npv_usd += exp(-p->delta * o_y) * pv;
    }
    return f;
}

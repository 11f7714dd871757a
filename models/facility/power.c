/* The power model: IT and facility power, DVFS and caps, throttling, energy, cost and PUE.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The power model (see power.h).
 *
 * Implementation notes:
 *  - refresh() recomputes everything from the cluster's state; it banks the
 *    integrals first, so every figure is a step function integrated exactly.
 *    It publishes "it_power" from inside and guards against re-entry (the
 *    cooling model answers with its cooling power and perhaps a new heat
 *    limit, which only marks the state dirty for another round).
 *  - Speed matters: a training job changes phase twice per checkpoint, so
 *    the flagship refreshes some 30,000 times.  With one job, compute()
 *    remembers its outputs for the last few input states (phase, nodes
 *    held, spares on, heat limit...), which recur.
 *  - With many jobs (a stream of thousands), a computation visits only the
 *    jobs in play (holding nodes, or restarting, running, checkpointing or
 *    hung), kept in job order so that every sum is bit for bit the sum
 *    over all jobs; its cost follows the jobs running, not those defined.
 *  - Speed factors are applied in a zero-delay event, never from inside a
 *    signal handler: a job that publishes "job_phase" on entering RUNNING
 *    schedules its next milestone after publishing, so a speed change made
 *    synchronously there would make it schedule two.  The factors change
 *    within the same instant, so no work is mis-accounted.
 *  - The per-GPU limit C that meets a cap solves
 *    base + sum_j n_j clamp(C, lo_j, hi_j) = cap, a piecewise-linear
 *    equation solved exactly between its breakpoints (C = (cap - base) / n
 *    for one computing job; powercap.h for many, without sorting).
 *  - With several jobs and the throttle policy, a computing job's cap and
 *    heat factors follow its utilisation class's speed clock (pw_class,
 *    cluster.h): on_apply sets each class's factors once and binds a job
 *    only when its class changes, so a move of the limit costs one clock
 *    change per class, not a factor set per job (docs/DEVELOPING.md).
 *  - power.response_s > 0: a job's change between computing and
 *    checkpointing is seen response_s after it, and never when undone
 *    sooner (lag_phase; every read of a phase goes through phase_of), so
 *    a checkpoint write shorter than it costs no computation at either
 *    end and a longer one keeps its length, seen late at both.
 *  - After the factors are applied nothing is recomputed unless another
 *    model changed an input meanwhile; the speeds of (utilisation, limit)
 *    pairs are remembered, since the jobs under one cap share its limit.
 *  - With 8 jobs or more (one node type, speed clocks) the sums are kept
 *    incrementally instead (compute_inc): integer GPU counts per state line
 *    (what a GPU draws with its share of its host) and per utilisation
 *    class, updated only for the jobs whose inputs changed (a phase or
 *    another model's factor through their signals, a boot, held nodes as
 *    the cluster notes them: dc_cluster_note_held_changes), so a
 *    computation costs O(classes + changed jobs).  The same equations over
 *    the lines and classes instead of the jobs in job order: the figures
 *    may differ in the last digits from compute_full's, and runs with
 *    fewer jobs keep compute_full, bit for bit (every shipped scenario). */
#include "power.h"

#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfgget.h"
#include "cluster.h"
#include "environment.h"
#include "powercap.h"
#include "swing.h"
#include "workload/inference.h"

const dc_param dc_power_params[] = {
    {"power", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "electrical power of GPUs, hosts, network and storage, caps, losses, energy and cost; absent: not computed"},
    {"power.gpu", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL, "one GPU: power against utilisation and clock"},
    {"power.gpu.idle_w", DC_PARAM_FLOAT, 0, "W", 70, NULL, 0, 1e4, NULL,
     "power of an idle GPU (clocks up, nothing running; includes leakage)"},
    {"power.gpu.peak_w", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "W", 700, NULL, 0, 1e4, NULL,
     "power at full utilisation and full clock (H100 SXM: 700 W TDP)"},
    {"power.gpu.min_cap_w", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "W", 200, NULL, 0, 1e4, NULL,
     "lowest power limit the GPU accepts (H100 SXM: 200 W); sets its lowest clock"},
    {"power.gpu.cap_w", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "W", 0, NULL, 0, 1e4, NULL,
     "a power limit on every GPU (nvidia-smi -pl), between min_cap_w and peak_w; absent: none"},
    {"power.gpu.compute_bound_fraction", DC_PARAM_FLOAT, 0, "", 0.8, NULL, 0, 1, NULL,
     "share of a step's time at full clock that scales with the clock (1: throughput linear in clock; 0: flat)"},
    {"power.gpu.util_running", DC_PARAM_FLOAT, 0, "", 1.0, NULL, 0, 1, NULL,
     "utilisation (share of peak minus idle power) while the job computes"},
    {"power.gpu.util_checkpointing", DC_PARAM_FLOAT, 0, "", 0.1, NULL, 0, 1, NULL,
     "utilisation while the job writes a checkpoint (GPUs mostly wait for I/O)"},
    {"power.gpu.util_restarting", DC_PARAM_FLOAT, 0, "", 0.1, NULL, 0, 1, NULL,
     "utilisation while the job restarts (reading the checkpoint, warming up)"},
    {"power.node", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL, "one node besides its GPUs"},
    {"power.node.host_w", DC_PARAM_FLOAT, 0, "W", 2800, NULL, 0, 1e6, NULL,
     "host overhead (CPUs, memory, NICs, fans, PSU losses) while its job restarts, runs or checkpoints"},
    {"power.node.host_idle_w", DC_PARAM_FLOAT, 0, "W", 1000, NULL, 0, 1e6, NULL,
     "host overhead of an idle spare or of a node whose job waits"},
    {"power.network", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL, "switches (always on)"},
    {"power.network.switches", DC_PARAM_INT, 0, "", 0, NULL, 0, 1e7, NULL, "number of switches"},
    {"power.network.switch_w", DC_PARAM_FLOAT, 0, "W", 750, NULL, 0, 1e6, NULL, "power of one switch"},
    {"power.storage", DC_PARAM_LIST, 0, "", 0, NULL, 0, 0, NULL, "storage tiers"},
    {"power.storage.[].name", DC_PARAM_STRING, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL, "tier name"},
    {"power.storage.[].idle_kw", DC_PARAM_FLOAT, DC_PARAM_REQUIRED, "kW", 0, NULL, 0, 1e6, NULL,
     "power of the tier when no job checkpoints or restarts"},
    {"power.storage.[].active_kw", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "kW", 0, NULL, 0, 1e6, NULL,
     "power while a job checkpoints or restarts (default: idle_kw)"},
    {"power.site_cap_mw", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "MW", 0, NULL, 0, 1e5,
     NULL, "cap on the site's IT power; absent: none"},
    {"power.rack_cap_kw", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "kW", 0, NULL, 0, 1e5,
     NULL, "cap on each rack's IT power, met by a per-GPU limit; absent: none"},
    {"power.cap_policy", DC_PARAM_STRING, 0, "", 0, "throttle", 0, 0, "throttle|hold",
     "when demand exceeds the site cap: throttle all computing GPUs evenly, or hold jobs that do not fit"},
    {"power.ups_efficiency", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "", 0.96, NULL, 0, 1, NULL,
     "UPS efficiency on the IT path (double conversion: 0.94-0.97)"},
    {"power.pdu_efficiency", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "", 0.99, NULL, 0, 1, NULL,
     "power distribution (PDUs, transformers) efficiency on the IT path"},
    {"power.response_s", DC_PARAM_FLOAT, 0, "s", 0, NULL, 0, 3600, NULL,
     "how long a job's change between computing and writing a checkpoint lasts before the power model sees it "
     "(the facility's meters and cap controllers act on averages over about a second); a change undone sooner is "
     "never seen; 0: every change at once"},
    {"power.idle_shutdown", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "power idle nodes off; absent: idle nodes stay on"},
    {"power.idle_shutdown.after_s", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "s", 3600, NULL, 0, 1e9, NULL,
     "idle time before a node powers off"},
    {"power.idle_shutdown.power_up_s", DC_PARAM_FLOAT, 0, "s", 300, NULL, 0, 1e6, NULL,
     "boot time of a powered-off node once a job takes it"},
    {0},
};

/* The single job's remembered states (compute): after a failure the
 * idle nodes' count and the job's nodes come back to earlier values, so
 * more entries than the two phases of one configuration hit again; 4
 * entries missed 2,843 of the flagship's 24,807 computations, 8 miss
 * 1,506 (16: 851, but the scan of a miss costs more than it saves). */
#define MEMO_SIZE 8

/* Incremental sums from this many jobs on (with fewer, compute_full's
 * sums in job order, bit for bit those of every earlier run). */
#define INC_MIN_JOBS 8

typedef struct memo_key {
    int phase;
    uint32_t held, idle_on;
    bool stalled;
    double other, heat_limit_w;
} memo_key;

typedef struct job_pw {
    double ready_at_s;       /* powered-off nodes it took are up from then */
    /* power.response_s: the phase the power sees (its own, or while lag
     * the one it left less than response_s ago, until lag_ev); before
     * other: not a memo entry's (memo_restore) */
    dc_event_handle lag_ev;
    dc_job_phase seen;
    bool lag;
    double other;            /* product of other models' speed factors (kept on "job_speed") */
    dc_event_handle ready_ev;
    /* this instant's computation */
    double n_gpu;            /* computing GPUs (0: not computing) */
    double own_w;            /* IT power of the nodes it holds (GPUs and hosts) */
    double util, lo_w, hi_w, cap_w, heat_w;
    bool held;               /* hold policy: does not fit under the site cap */
    bool stalled;            /* waiting for a boot */
    /* the last clock computation: (util, cap, heat) -> speeds */
    double m_util, m_cap, m_heat, m_scap, m_sheat;
    /* factors wanted, applied by the deferred event */
    double want_cap, want_heat, want_up;
    bool want_set;
    int type;                /* node type of the nodes it holds (cluster.types; 0 with one type) */
    int32_t cls, want_cls;   /* speed clocks: its class's clock it is bound to, and the one it should be (-1: none) */
    dc_job_phase phase;      /* its phase at this instant's computation */
    bool in_play;            /* then: held nodes, or restarting, running, checkpointing, hung */
    /* incremental sums (p->inc): what the job adds to them */
    int8_t st;               /* its state's line (ST_*; -1: none) */
    bool storage;            /* checkpointing or restarting: the storage is active */
    bool dirty;              /* in dirty: its inputs changed since it was summed */
    bool in_apply;           /* in apply: its factors or clock may need setting */
    uint32_t units;          /* the GPUs it holds */
} job_pw;

/* The incremental sums' lines: the GPUs of the jobs in play by what each
 * GPU draws (with its share of its node's host), a computing GPU's own
 * power apart (its class's limit). */
enum { ST_RUN_COMP, ST_RUN_IDLE, ST_CKPT, ST_RESTART, ST_DETECT, ST_IDLE, N_ST };

/* One node type's power figures (cluster.types; the power section's where
 * the type gives none) and, with several types, its nodes' IT power (their
 * hosts and GPUs) and its integral. */
typedef struct type_pw {
    dc_gpu_power gpu;
    double gpn;              /* its GPUs per node: the cluster's, or 0 (a CPU-only type: its nodes draw host power only) */
    double host_w, host_idle_w, f_min, node_idle_w, node_ckpt_w, node_restart_w;
    double static_cap_w;     /* its GPUs' limit: power.gpu.cap_w and what the rack cap leaves after its host_w */
    double gpu_f_min;        /* dc_gpu_min_freq of its GPU (speed_at: one cube root per speed, not two) */
    uint32_t n_off;
    double it_w, e_j;
} type_pw;

/* A utilisation class (speed clocks): the computing jobs of one node type
 * and one utilisation share their power range, so under one per-GPU limit
 * their cap and heat factors are the same; they are bound to its clock
 * (cluster.h), whose factors are set once per change for all of them. */
typedef struct pw_class {
    int type;
    uint32_t apos;           /* (jobs > 0) its index in acls and agpus */
    double util;
    dc_vclock *clock;
    uint32_t members;        /* jobs bound to its clock */
    uint64_t round;          /* the last computation that wanted it */
    double want[DC_VCLOCK_LEVELS]; /* its factors then, in the clock's source order */
    /* the last speeds computed: (cap, heat limits) -> speeds, the same for
     * every job of the class */
    double m_cap, m_heat, m_scap, m_sheat;
    double h_cap, h_scap;    /* the cap before m_cap and its speed (NaN: none) */
    uint64_t solve_id;       /* solve_limit: its entry's solve */
    size_t slot;             /* and its index there */
    /* incremental sums (p->inc): the computing jobs of the class, their
     * GPUs, the class's power range and its limits at the last computation */
    uint32_t jobs;
    int64_t gpus;            /* (signed: one instruction to a double) */
    double lo_w, hi_w, cap_w, heat_w;
} pw_class;

/* The site cap's solutions remembered (incremental sums: compute_inc).
 * The limit is a function of the budget and of the classes' (GPUs, lo_w,
 * hi_w) in acls's order, not of the solver's guess (powercap.h), and a
 * state comes back often: a job's checkpoint takes its GPUs out of their
 * class and gives them back a moment later, so the state after it is that
 * before it, bit for bit (every sum is made again from the same counts in
 * the same order).  In bench/shared.cfg 49% of the refreshes find the
 * state of two refreshes before, 57% one of the last eight.  An entry is
 * the input (the base power, the cap, the classes and their GPUs) and what
 * the passes over the classes and the solver made of it (the limit, each
 * class's cap and speed there, the sums): the same figures, without the
 * solve, the speeds' look-ups and the sums.  A class's slot that takes
 * another (type, utilisation) forgets every entry (its range and speeds
 * are another's). */
#define CAP_MEMO 4
typedef struct cap_val {
    double cap_w, speed;     /* a class's limit and its speed there */
} cap_val;

/* The answer's sums: compute_inc's full and floor powers, the limit, the
 * demand and the pass's throttle. */
typedef struct cap_fig {
    double full_w, floor_w, lim_w, demand_w, thr;
} cap_fig;

typedef struct cap_memo {
    void *block;             /* val, gpus and cls in one allocation */
    uint32_t *cls;           /* the key: acls and agpus as they were */
    int64_t *gpus;
    cap_val *val;            /* the answer, class by class */
    size_t n, cap;           /* classes (n = SIZE_MAX: empty), room */
    double base_w, site_cap_w;
    cap_fig fig;
    bool solved;             /* lim_w came from dc_powercap_solve_near (the next guess) */
    uint64_t used;           /* the computation that last made or found it */
} cap_memo;

/* Remembered GPU speeds (speed_at), direct-mapped. */
#define SPEED_CACHE 1024
/* With incremental sums (many jobs, many classes under one moving limit)
 * 2^SPEED_CACHE_MANY_BITS entries, allocated at start: bench/shared.cfg's
 * 13 classes under a limit that moves at every change fill 1,024 and lose
 * entries they come back to. */
#define SPEED_CACHE_MANY_BITS 12

typedef struct speed_entry {
    int type;
    double util, cap_w, speed;
} speed_entry;

typedef struct memo_entry {
    bool valid;
    memo_key key;
    double it_w, demand_w, floor_w, throttle_cap, throttle_heat;
    bool cap_on, heat_on, any_computing;
    job_pw job;
} memo_entry;

struct dc_power {
    dc_sim *sim;
    dc_cluster *c;
    bool enabled, started;
    dc_gpu_power gpu;
    double f_min;
    double u_run, u_ckpt, u_restart;
    double gpu_cap_w, rack_gpu_cap_w, site_cap_w;
    double rack_node_w;      /* the rack cap's share of one node (INFINITY: no rack cap) */
    bool hold;
    double host_w, host_idle_w, network_w, storage_idle_w, storage_active_w;
    double eta, loss_per_w; /* (1 / eta - 1: the losses per watt of IT power) */

    double response_s;       /* power.response_s (0: none) */
    uint64_t n_unseen;       /* changes undone within it */

    bool idle_shutdown;
    double off_after_s, power_up_s;
    uint8_t *off;
    uint32_t *off_list;
    size_t n_off;
    dc_event_handle off_timer;
    double off_timer_at;
    uint64_t n_boots;

    double heat_limit_w, cooling_w, overhead_w;
    int src_cap, src_heat, src_up;
    int32_t n_jobs;
    job_pw *jobs;
    /* The inference service's job (-1: none) and the IT energy of its
     * nodes since 0, the only job's energy a figure needs (not in job_pw:
     * memo entries copy it). */
    int32_t inf_job;
    double inf_e_j;
    dc_powercap_job *cw; /* scratch: the computing jobs' power ranges (solve_limit) */
    double guess_cap, guess_heat; /* solve_limit's last answers, where the next search starts */
    cap_memo cap_memo[CAP_MEMO]; /* (incremental sums) compute_inc's last site-cap solutions */
    bool cap_memo_off;       /* (dc_power_set_cap_memo: off in a test) */
    uint64_t cap_memo_hits;  /* computations a remembered solution answered */
    /* Throughput at (utilisation, per-GPU limit): the jobs under one site
     * cap share the limit, and many share a utilisation, so a refresh that
     * moves the limit computes a few speeds (two cube roots each), not one
     * per job. */
    speed_entry speed_small[SPEED_CACHE];
    speed_entry *speeds;     /* speed_small, or (incremental sums) the larger table */
    int speed_shift;         /* 64 - log2 of its entries */
    /* The jobs in play, ascending: every job that holds nodes or restarts,
     * runs, checkpoints or hangs (and perhaps some that stopped since the
     * last computation, dropped by it).  compute_full iterates these only,
     * in job order, so its sums are those over all jobs (the others add
     * exactly 0).  Jobs that changed phase or speed wait in pend until the
     * next computation merges them. */
    int32_t *act, *act_tmp, *pend;
    size_t n_act, n_pend;
    /* This computation's jobs with computing GPUs (n_gpu > 0 after the
     * first pass; the hold policy may zero some), in act's order: the
     * passes over the caps visit these only (the others add exactly 0).
     * It lives in pend's buffer, empty while compute_full runs (act_update
     * merged it, and nothing notes a job before the computation ends). */
    int32_t *comp;
    size_t n_comp;
    uint8_t *in_act; /* in act or in pend */
    bool apply_pending, applying;
    bool missed; /* an input changed while applying (on_apply refreshes) */
    bool other_sources; /* speed sources registered by other models */
    int other_src[DC_MAX_SPEED_SOURCES]; /* their indices, ascending */
    size_t n_other_src;
    memo_entry memo[MEMO_SIZE];
    int memo_next, memo_last, memo_prev; /* the entries of the last two computations */
    bool pair_on;            /* memo_pair wanted (dc_power_set_pair_memo: off in a test) */
    bool pair_fast;          /* and taken: one job and one node type (set at start) */
    uint64_t pair_hits;      /* computations it answered */
    /* Speed clocks (throttle policy, several jobs): the computing jobs'
     * cap and heat factors follow their utilisation class's clock. */
    bool clocks;
    int lvl_cap, lvl_heat;   /* the two sources' levels on a clock */
    pw_class *cls;
    size_t n_cls, cap_cls;
    /* (incremental sums) the classes with computing jobs (jobs > 0),
     * ascending (at most cap_cls), so that the sums visit these only, in
     * class order, as a pass over every class skipping the others did; and
     * how many classes this computation wanted (round == p->round: its
     * computing classes and those class_of found): when none but these,
     * on_apply sets their clocks from acls. */
    uint32_t *acls;
    int64_t *agpus;          /* (incremental sums) their GPUs, in acls's order: cap_memo's key */
    size_t n_acls, n_wanted;
    /* (incremental sums) the classes of acls whose clock's factors this
     * computation changes, in acls's order: on_apply sets these (setting
     * the others would change nothing) */
    uint32_t *sets;
    size_t n_sets;
    uint64_t round, solve_id;
    /* Incremental sums (many jobs: INC_MIN_JOBS or more, one node type,
     * speed clocks): a computation updates the jobs whose inputs changed
     * (dirty: a phase, another model's factor, a boot; the cluster notes
     * held nodes) and sums GPUs per state line and per class, so it costs
     * O(classes + changed jobs), not O(jobs in play).  Jobs whose factors
     * or clock may need setting wait in apply for on_apply. */
    bool inc;
    uint64_t st_gpus[N_ST];
    double st_w[N_ST];       /* per GPU of each line */
    uint32_t n_storage;      /* jobs checkpointing or restarting */
    int32_t *chg, *apply;     /* (chg: the dirty jobs) */
    size_t n_chg, n_apply;
    /* constants of the scenario, for compute() */
    double gpn, static_cap_w, node_idle_w, node_ckpt_w, node_restart_w;
    type_pw *tp;     /* per node type (one entry: the power section's) */
    size_t n_tp;
    bool typed;      /* cluster.types given: the chip table's power per GPU */

    /* the state in force */
    double it_w, demand_w, floor_w, loss_w, facility_w;
    double throttle_cap, throttle_heat;
    bool cap_on, heat_on, any_computing;
    double price, carbon;
    bool priced, carbon_on; /* isfinite(price), isfinite(carbon) (set with them) */
    bool bank_more;  /* bank's rarer sums may add: idle shutdown, the inference job or several types */

    bool busy, dirty;
    /* A refresh wanted by another model's change, run once at the end of
     * the instant (on_deferred) or when the power is read first. */
    dc_event_handle defer_ev;

    /* integrals since 0, banked at every change */
    double last_s;
    double e_it_j, e_loss_j, e_cool_j, e_over_j, e_fac_j, cost_usd, carbon_kg, priced_j;
    double cap_throttled_s, heat_throttled_s, off_node_s;

    int sig_it;
    double last_rec[8];
    dc_series *s_it, *s_cool, *s_fac, *s_pue, *s_thr, *s_thr_cap, *s_thr_heat, *s_off;
    /* Without these two series (no trace): the IT power's peak, the
     * facility power's peak and swings (1 min, 1 h) as the run goes; with
     * them, over them at the end (the same figures; the series are there
     * anyway, and the scan over them costs less than the streams). */
    bool swing_stream;
    dc_swing *st_it, *st_fac;
    bool series_on; /* any of the other series records (else record() skips them) */
    bool rec_it, rec_fac; /* the IT and facility power series record (else record() skips the calls) */
};

dc_power *dc_power_of(dc_sim *sim)
{
    dc_power *p = dc_sim_model(sim, "power");
    return p && p->enabled ? p : NULL;
}

static void refresh(dc_power *p);
static void inc_note(dc_power *p, int32_t j);

/* A refresh deferred to the end of the instant runs now, before the
 * power is read (not while it is being computed: then it is fresh). */
static void flush(dc_power *p)
{
    if (p->defer_ev != DC_EVENT_NONE && !p->busy)
        refresh(p);
}

double dc_power_it_w(dc_power *p)
{
    flush(p);
    return p->it_w;
}

double dc_power_demand_w(dc_power *p)
{
    flush(p);
    return p->demand_w;
}

double dc_power_floor_w(dc_power *p)
{
    flush(p);
    return p->floor_w;
}

/* ---------- closed forms ---------- */

double dc_gpu_power_w(const dc_gpu_power *g, double util, double freq)
{
    return g->idle_w + util * (g->peak_w - g->idle_w) * freq * freq * freq;
}

double dc_gpu_min_freq(const dc_gpu_power *g)
{
    double x = (g->min_cap_w - g->idle_w) / (g->peak_w - g->idle_w);
    return x <= 0.0 ? 0.0 : x >= 1.0 ? 1.0 : cbrt(x);
}

double dc_gpu_freq_for_cap(const dc_gpu_power *g, double util, double cap_w)
{
    double fmin = dc_gpu_min_freq(g);
    double dyn = util * (g->peak_w - g->idle_w);
    if (dyn <= 0.0)
        return 1.0;
    double x = (cap_w - g->idle_w) / dyn;
    double f = x >= 1.0 ? 1.0 : x <= 0.0 ? 0.0 : cbrt(x);
    return f < fmin ? fmin : f;
}

double dc_gpu_speed(const dc_gpu_power *g, double freq)
{
    double b = g->compute_bound;
    if (freq >= 1.0)
        return 1.0;
    if (freq <= 0.0)
        return b > 0.0 ? 0.0 : 1.0;
    return 1.0 / (b / freq + (1.0 - b));
}

/* Sliding-window range of a step function: for each segment j, the segments
 * i <= j that can share a window with it are those that end (t[i+1]) no
 * earlier than t[j] - width; monotone deques keep their max and min. */
double dc_power_swing(const double *t, const double *v, size_t n, double end_s, double width_s)
{
    if (n == 0)
        return 0.0;
    size_t *qmax = malloc(n * sizeof *qmax), *qmin = malloc(n * sizeof *qmin);
    if (!qmax || !qmin) {
        free(qmax);
        free(qmin);
        return NAN;
    }
    size_t hmax = 0, tmax = 0, hmin = 0, tmin = 0, first = 0;
    double best = 0.0;
    for (size_t j = 0; j < n; j++) {
        if (t[j] > end_s)
            break;
        while (tmax > hmax && v[qmax[tmax - 1]] <= v[j])
            tmax--;
        qmax[tmax++] = j;
        while (tmin > hmin && v[qmin[tmin - 1]] >= v[j])
            tmin--;
        qmin[tmin++] = j;
        /* segment i ends at t[i + 1] */
        while (first < j && t[first + 1] < t[j] - width_s)
            first++;
        while (qmax[hmax] < first)
            hmax++;
        while (qmin[hmin] < first)
            hmin++;
        double r = v[qmax[hmax]] - v[qmin[hmin]];
        if (r > best)
            best = r;
    }
    free(qmax);
    free(qmin);
    return best;
}

/* dc_power_swing for two widths in one pass (the power model's minute and
 * hour): the monotone deques are the wide window's, and the narrow window
 * keeps its own first segment and heads into them (its deque is the part
 * of the wide one's from its first on, so a head the pops went past is
 * clamped to the point just pushed).  The ranges are the windows' exact
 * maxima minus minima: dc_power_swing's figures bit for bit, at about half
 * the cost of two calls (one set of deques, no calls per point). */
void dc_power_swing2(const double *t, const double *v, size_t n, double end_s, double narrow_s, double wide_s,
                     double *narrow, double *wide)
{
    *narrow = *wide = 0.0;
    if (n == 0)
        return;
    size_t *qmax = malloc(2 * n * sizeof *qmax), *qmin = qmax + n;
    if (!qmax) {
        *narrow = *wide = NAN;
        return;
    }
    size_t tmax = 0, tmin = 0, hmax = 0, hmin = 0, first = 0; /* the wide window */
    size_t nhmax = 0, nhmin = 0, nfirst = 0;                  /* the narrow one */
    double best = 0.0, nbest = 0.0;
    for (size_t j = 0; j < n; j++) {
        double x = v[j], tj = t[j];
        if (tj > end_s)
            break;
        while (tmax > hmax && v[qmax[tmax - 1]] <= x)
            tmax--;
        qmax[tmax++] = j;
        while (tmin > hmin && v[qmin[tmin - 1]] >= x)
            tmin--;
        qmin[tmin++] = j;
        /* segment i ends at t[i + 1] */
        while (first < j && t[first + 1] < tj - wide_s)
            first++;
        while (qmax[hmax] < first)
            hmax++;
        while (qmin[hmin] < first)
            hmin++;
        double r = v[qmax[hmax]] - v[qmin[hmin]];
        if (r > best)
            best = r;
        while (nfirst < j && t[nfirst + 1] < tj - narrow_s)
            nfirst++;
        nhmax = nhmax < tmax ? nhmax : tmax - 1;
        nhmin = nhmin < tmin ? nhmin : tmin - 1;
        while (qmax[nhmax] < nfirst)
            nhmax++;
        while (qmin[nhmin] < nfirst)
            nhmin++;
        r = v[qmax[nhmax]] - v[qmin[nhmin]];
        if (r > nbest)
            nbest = r;
    }
    free(qmax);
    *narrow = nbest;
    *wide = best;
}

/* ---------- the state ---------- */

static void bank(dc_power *p)
{
    double now = dc_sim_now(p->sim);
    double dt = now - p->last_s;
    if (dt > 0.0) {
        p->e_it_j += p->it_w * dt;
        p->e_loss_j += p->loss_w * dt;
        p->e_cool_j += p->cooling_w * dt;
        p->e_over_j += p->overhead_w * dt;
        p->e_fac_j += p->facility_w * dt;
        if (p->priced) {
            p->cost_usd += p->facility_w * dt / 3.6e6 * p->price;
            p->priced_j += p->facility_w * dt;
        }
        if (p->carbon_on)
            p->carbon_kg += p->facility_w * dt / 3.6e6 * p->carbon;
        if (p->cap_on)
            p->cap_throttled_s += dt;
        if (p->heat_on)
            p->heat_throttled_s += dt;
        if (p->bank_more) {
            if (p->n_off > 0) /* (else it adds +0) */
                p->off_node_s += dt * (double)p->n_off;
            if (p->inf_job >= 0 && p->in_act[p->inf_job]) /* (out of play: it held nothing since the last computation) */
                p->inf_e_j += p->jobs[p->inf_job].own_w * dt;
            for (size_t t = 0; p->n_tp > 1 && t < p->n_tp; t++)
                p->tp[t].e_j += p->tp[t].it_w * dt;
        }
    }
    p->last_s = now;
}

/* Records a value unless it equals the last one recorded (the series would
 * drop it anyway; this spares the call and its cache misses). */
static void rec(dc_series *s, double *last, double now, double v)
{
    if (!(v == *last)) {
        *last = v;
        dc_series_record(s, now, v);
    }
}

static void record(dc_power *p)
{
    double now = dc_sim_now(p->sim);
    p->loss_w = p->it_w * p->loss_per_w;
    p->facility_w = p->it_w + p->loss_w + p->cooling_w + p->overhead_w;
    if (!(p->it_w == p->last_rec[0])) { /* (rec, and the peak) */
        p->last_rec[0] = p->it_w;
        if (p->rec_it)
            dc_series_record(p->s_it, now, p->it_w);
        if (p->swing_stream)
            dc_swing_record(p->st_it, now, p->it_w);
    }
    if (p->series_on)
        rec(p->s_cool, &p->last_rec[1], now, p->cooling_w);
    if (!(p->facility_w == p->last_rec[2])) { /* (rec, the peak and the swings) */
        p->last_rec[2] = p->facility_w;
        if (p->rec_fac)
            dc_series_record(p->s_fac, now, p->facility_w);
        if (p->swing_stream)
            dc_swing_record(p->st_fac, now, p->facility_w);
    }
    if (!p->series_on)
        return;
    rec(p->s_pue, &p->last_rec[3], now, p->it_w > 0.0 ? p->facility_w / p->it_w : NAN);
    if (p->any_computing) {
        rec(p->s_thr_cap, &p->last_rec[4], now, p->throttle_cap);
        rec(p->s_thr_heat, &p->last_rec[5], now, p->throttle_heat);
        rec(p->s_thr, &p->last_rec[6], now, p->throttle_cap * p->throttle_heat);
    }
    if (p->s_off)
        rec(p->s_off, &p->last_rec[7], now, (double)p->n_off);
}

static void on_apply(dc_sim *sim, void *ctx, uint64_t arg);
static void on_ready(dc_sim *sim, void *ctx, uint64_t job);

/* Powered-off nodes that left the idle list: taken by a job (it must wait
 * for the boot) or failed. */
static void scan_off(dc_power *p)
{
    double now = dc_sim_now(p->sim);
    for (size_t i = 0; i < p->n_off;) {
        uint32_t node = p->off_list[i];
        dc_node_state st = dc_cluster_node_state(p->c, node);
        if (st == DC_NODE_IDLE) {
            i++;
            continue;
        }
        p->off[node] = 0;
        p->off_list[i] = p->off_list[--p->n_off];
        p->tp[dc_cluster_node_type(p->c, node)].n_off--;
        if (st == DC_NODE_BUSY) {
            int32_t j = dc_cluster_node_job(p->c, node);
            job_pw *jp = &p->jobs[j];
            p->n_boots++;
            if (now + p->power_up_s > jp->ready_at_s) {
                jp->ready_at_s = now + p->power_up_s;
                dc_sim_cancel(p->sim, &jp->ready_ev);
                jp->ready_ev = dc_sim_at(p->sim, jp->ready_at_s, on_ready, p, (uint64_t)j);
                if (p->inc)
                    inc_note(p, j); /* stalled now */
            }
        }
    }
}

static double job_hi(const job_pw *jp, bool use_cap) { return use_cap ? jp->cap_w : jp->hi_w; }

/* The largest C with sum n_j clamp(C, lo_j, hi_j) <= target over the
 * computing jobs, in job order (powercap.h); uses hi_w (or cap_w when
 * use_cap) as each job's upper end. */
static double solve_limit(dc_power *p, double target, bool use_cap)
{
    /* one computing job (the usual case): C = target / n, clamped by the caller */
    int32_t only = -1, n_comp = 0;
    for (size_t k = 0; k < p->n_comp; k++)
        if (p->jobs[p->comp[k]].n_gpu > 0.0) {
            only = p->comp[k];
            n_comp++;
        }
    if (n_comp == 1)
        return target / p->jobs[only].n_gpu;
    size_t n = 0;
    /* With speed clocks, one entry per utilisation class (its jobs share
     * their range, and the limit caps them alike: cap_w too): n_gpu summed,
     * in the order the classes first appear. */
    uint64_t id = ++p->solve_id;
    for (size_t k = 0; k < p->n_comp; k++) {
        const job_pw *jp = &p->jobs[p->comp[k]];
        if (!(jp->n_gpu > 0.0))
            continue;
        pw_class *q = p->clocks && jp->want_cls >= 0 ? &p->cls[jp->want_cls] : NULL;
        if (q && q->solve_id == id) {
            p->cw[q->slot].n_gpu += jp->n_gpu;
            continue;
        }
        if (q) {
            q->solve_id = id;
            q->slot = n;
        }
        p->cw[n++] = (dc_powercap_job){jp->n_gpu, jp->lo_w, job_hi(jp, use_cap)};
    }
    if (n == 0)
        return INFINITY;
    return dc_powercap_solve(p->cw, n, target, use_cap ? &p->guess_heat : &p->guess_cap);
}

/* The speed of entry e's miss: computed and kept there. */
static __attribute__((noinline)) double speed_miss(dc_power *p, speed_entry *e, int type, double util,
                                                   double cap_w)
{
    const type_pw *tp = &p->tp[type];
    e->type = type;
    e->util = util;
    e->cap_w = cap_w;
    /* dc_gpu_freq_for_cap with its lowest clock computed once */
    double dyn = util * (tp->gpu.peak_w - tp->gpu.idle_w), f = 1.0;
    if (dyn > 0.0) {
        double x = (cap_w - tp->gpu.idle_w) / dyn;
        f = x >= 1.0 ? 1.0 : x <= 0.0 ? 0.0 : cbrt(x);
        f = f < tp->gpu_f_min ? tp->gpu_f_min : f;
    }
    e->speed = dc_gpu_speed(&tp->gpu, f);
    return e->speed;
}

/* dc_gpu_speed(dc_gpu_freq_for_cap(util, cap_w)) for a GPU of the type,
 * remembered (the look-up inline: 1.6 M a month in bench/shared.cfg, about
 * half of them found; a miss out of line). */
static inline double speed_at(dc_power *p, int type, double util, double cap_w)
{
    uint64_t a, b;
    memcpy(&a, &util, sizeof a);
    memcpy(&b, &cap_w, sizeof b);
    uint64_t h = (a ^ (b * UINT64_C(0x9e3779b97f4a7c15)) ^ (uint64_t)type) * UINT64_C(0xff51afd7ed558ccd);
    speed_entry *e = &p->speeds[h >> p->speed_shift];
    if (e->type != type || e->util != util || e->cap_w != cap_w)
        return speed_miss(p, e, type, util, cap_w);
    return e->speed;
}

static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }
/* (fmin is a library call at -O2 without -ffast-math; this runs per change) */
static double mind(double a, double b) { return a < b ? a : b; }

static int cmp_job(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Job j joins the jobs in play at the next computation (with incremental
 * sums: is summed again then). */
static __attribute__((noinline)) void act_add(dc_power *p, int32_t j)
{
    if (p->inc) {
        if (j >= 0 && j < p->n_jobs)
            inc_note(p, j);
        return;
    }
    p->in_act[j] = 1;
    p->pend[p->n_pend++] = j;
    dc_cluster_job_track(p->c, j, true);
}

/* (inline: a job in act already, as the one job always is, costs a test;
 * the rest out of line) */
static inline void act_note(dc_power *p, int32_t j)
{
    if (p->inc || (j >= 0 && j < p->n_jobs && !p->in_act[j]))
        act_add(p, j);
}

/* Job j's phase as the power sees it (power.response_s). */
static inline dc_job_phase phase_of(const dc_power *p, int32_t j)
{
    return p->jobs[j].lag ? p->jobs[j].seen : dc_cluster_job_phase(p->c, j);
}

static bool in_play(const dc_power *p, int32_t j)
{
    const dc_cluster *c = p->c;
    dc_job_phase ph = phase_of(p, j);
    return dc_cluster_job_held_nodes(c, j) > 0
           || (ph != DC_JOB_PENDING && ph != DC_JOB_WAITING && ph != DC_JOB_DONE);
}

/* Merges the noted jobs into act; then makes sure every job that holds
 * nodes is there: the nodes held by the jobs in play must be all the busy
 * nodes (a job takes nodes without a signal, e.g. a waiting job refilled
 * piecemeal; then, rarely, every job is looked at). */
static void act_update(dc_power *p)
{
    const dc_cluster *c = p->c;
    for (int pass = 0; pass < 2; pass++) {
        if (p->n_pend > 0) {
            qsort(p->pend, p->n_pend, sizeof *p->pend, cmp_job);
            size_t a = 0, b = 0, n = 0;
            while (a < p->n_act || b < p->n_pend)
                p->act_tmp[n++] = b == p->n_pend || (a < p->n_act && p->act[a] < p->pend[b]) ? p->act[a++]
                                                                                          : p->pend[b++];
            int32_t *t = p->act;
            p->act = p->act_tmp;
            p->act_tmp = t;
            p->n_act = n;
            p->n_pend = 0;
        }
        if (pass == 1 || (p->n_jobs == 1 && p->n_act == 1))
            break; /* (one job: it is always in play) */
        /* in GPUs (shares of a node count theirs), summed by the cluster
         * over the jobs in act (those marked by act_note), and CPU jobs' nodes */
        if (dc_cluster_tracked_held_gpus(c) == dc_cluster_busy_gpus(c)
            && dc_cluster_tracked_cpu_nodes(c) == dc_cluster_busy_cpu_nodes(c)) /* CPU jobs hold no GPU */
            break;
        for (int32_t j = 0; j < p->n_jobs; j++)
            if (dc_cluster_job_held_nodes(c, j) > 0)
                act_note(p, j);
    }
}

/* Drops the jobs no longer in play (after a computation that saw them
 * stop: their n_gpu is 0 and want_set false). */
static void act_prune(dc_power *p)
{
    if (p->n_jobs == 1)
        return; /* job 0 stays: the memo restores its state */
    size_t n = 0;
    for (size_t k = 0; k < p->n_act; k++) {
        int32_t j = p->act[k];
        if (p->jobs[j].in_play) { /* as compute_full saw it: nothing changed since */
            p->act[n++] = j;
        } else {
            p->in_act[j] = 0;
            dc_cluster_job_track(p->c, j, false);
            job_pw *jp = &p->jobs[j];
            if (jp->cls >= 0) { /* not running: quietly (cluster.h) */
                p->cls[jp->cls].members--;
                jp->cls = -1;
                dc_cluster_drop_job_clock(p->c, j);
            }
        }
    }
    p->n_act = n;
}

/* Class k is wanted by this computation (its clock is set by on_apply). */
static void want_class(dc_power *p, size_t k)
{
    pw_class *q = &p->cls[k];
    if (q->round != p->round) {
        q->round = p->round;
        p->n_wanted++;
    }
}

/* Class k gains its first computing job, or loses its last (incremental
 * sums): it joins or leaves acls, kept ascending. */
static void class_active(dc_power *p, uint32_t k, bool on)
{
    size_t i = p->n_acls;
    while (i > 0 && p->acls[i - 1] > k)
        i--;
    if (on) {
        memmove(&p->acls[i + 1], &p->acls[i], (p->n_acls - i) * sizeof *p->acls);
        memmove(&p->agpus[i + 1], &p->agpus[i], (p->n_acls - i) * sizeof *p->agpus);
        p->acls[i] = k;
        p->agpus[i] = p->cls[k].gpus;
        p->n_acls++;
    } else {
        assert(i > 0 && p->acls[i - 1] == k);
        memmove(&p->acls[i - 1], &p->acls[i], (p->n_acls - i) * sizeof *p->acls);
        memmove(&p->agpus[i - 1], &p->agpus[i], (p->n_acls - i) * sizeof *p->agpus);
        p->n_acls--;
        i--;
    }
    for (; i < p->n_acls; i++) /* (the classes that moved, and the one added) */
        p->cls[p->acls[i]].apos = (uint32_t)i;
}

/* Forgets every remembered site-cap solution. */
static void cap_memo_clear(dc_power *p)
{
    for (size_t e = 0; e < CAP_MEMO; e++)
        p->cap_memo[e].n = SIZE_MAX;
}

/* The class of a computing job (its type and utilisation as computed):
 * the one it is bound to when it matches, else one that does, else an
 * unused one (no job bound, not wanted by this computation), else a new
 * one; -1 when out of memory (the run fails). */
static int32_t class_of(dc_power *p, const job_pw *jp)
{
    if (jp->cls >= 0 && p->cls[jp->cls].type == jp->type && p->cls[jp->cls].util == jp->util) {
        want_class(p, (size_t)jp->cls);
        return jp->cls;
    }
    size_t free_k = p->n_cls;
    for (size_t k = 0; k < p->n_cls; k++) {
        pw_class *q = &p->cls[k];
        if (q->type == jp->type && q->util == jp->util) {
            want_class(p, k);
            return (int32_t)k;
        }
        if (free_k == p->n_cls && q->members == 0 && q->jobs == 0 && q->round != p->round)
            free_k = k;
    }
    if (free_k == p->n_cls) {
        if (p->n_cls == p->cap_cls) {
            size_t ncap = p->cap_cls ? 2 * p->cap_cls : 16;
            pw_class *g = realloc(p->cls, ncap * sizeof *g);
            if (g)
                p->cls = g;
            uint32_t *a = g ? realloc(p->acls, ncap * sizeof *a) : NULL;
            if (!a) {
                dc_sim_fail(p->sim, DC_ENOMEM, "out of memory");
                return -1;
            }
            p->acls = a;
            int64_t *ag = realloc(p->agpus, ncap * sizeof *ag);
            if (!ag) {
                dc_sim_fail(p->sim, DC_ENOMEM, "out of memory");
                return -1;
            }
            p->agpus = ag;
            uint32_t *st = realloc(p->sets, ncap * sizeof *st);
            if (!st) {
                dc_sim_fail(p->sim, DC_ENOMEM, "out of memory");
                return -1;
            }
            p->sets = st;
            p->cap_cls = ncap;
        }
        dc_vclock *k = dc_cluster_new_clock(p->c);
        if (!k) {
            dc_sim_fail(p->sim, DC_ENOMEM, "out of memory");
            return -1;
        }
        p->cls[p->n_cls++] = (pw_class){.clock = k};
    }
    pw_class *q = &p->cls[free_k];
    cap_memo_clear(p); /* (the slot's range and speeds: another class's) */
    q->type = jp->type;
    q->util = jp->util;
    want_class(p, free_k);
    q->m_cap = q->m_heat = q->h_cap = NAN; /* no speeds of this key yet */
    q->lo_w = jp->lo_w; /* (a function of the type and utilisation) */
    q->hi_w = jp->hi_w;
    return (int32_t)free_k;
}

static void compute_full(dc_power *p)
{
    dc_cluster *c = p->c;
    double gpn = p->gpn, node_idle_w = p->node_idle_w;
    double now = dc_sim_now(p->sim);
    double base = p->network_w;
    assert(p->n_pend == 0);
    p->round++;
    p->n_wanted = 0;
    p->comp = p->pend;
    p->n_comp = 0;
    bool storage_active = false;
    /* Idle nodes still on, and the free GPUs of shared nodes: each a
     * gpus_per_node-th of an idle node (its GPU idle, its share of the host
     * at host_idle_w), as gpu_hours.idle_spare counts them. */
    if (p->n_tp > 1) { /* mixed hardware: each type's idle nodes at its power */
        for (size_t t = 0; t < p->n_tp; t++) {
            p->tp[t].it_w = (double)(dc_cluster_type_idle_count(c, t) - p->tp[t].n_off) * p->tp[t].node_idle_w;
            uint64_t free_gpus = dc_cluster_type_shared_free_gpus(c, t);
            if (free_gpus > 0)
                p->tp[t].it_w += (double)free_gpus * (p->tp[t].node_idle_w / gpn);
            base += p->tp[t].it_w;
        }
    } else {
        base += (double)(dc_cluster_idle_count(c) - p->n_off) * node_idle_w;
        uint64_t free_gpus = dc_cluster_shared_free_gpus(c);
        if (free_gpus > 0)
            base += (double)free_gpus * (node_idle_w / gpn);
    }

    for (size_t k = 0; k < p->n_act; k++) {
        int32_t j = p->act[k];
        job_pw *jp = &p->jobs[j];
        uint32_t n_held;
        const uint32_t *held_list = p->n_tp > 1 ? dc_cluster_job_node_list(c, j, &n_held) : NULL;
        jp->type = held_list && n_held > 0 ? dc_cluster_node_type(c, held_list[0]) : 0;
        const type_pw *tp = &p->tp[jp->type];
        /* nodes' worth: a share is a fraction; a CPU job's nodes hold no GPU */
        double held = tp->gpn > 0.0 ? (double)dc_cluster_job_held_gpus(c, j) / gpn
                                    : (double)dc_cluster_job_held_nodes(c, j);
        node_idle_w = tp->node_idle_w;
        jp->n_gpu = 0.0;
        jp->want_cls = jp->cls; /* (not computing: as it is) */
        jp->held = false;
        jp->stalled = false;
        double before = base;
        jp->phase = phase_of(p, j);
        jp->in_play = held > 0.0 || (jp->phase != DC_JOB_PENDING && jp->phase != DC_JOB_WAITING
                                     && jp->phase != DC_JOB_DONE); /* in_play(c, j) */
        switch (jp->phase) {
        case DC_JOB_RUNNING: {
            double other = jp->other; /* other models' factors: a stalled GPU idles */
            jp->stalled = now < jp->ready_at_s;
            base += held * tp->host_w;
            if (jp->stalled || other <= 0.0 || held == 0 || tp->gpn == 0.0) {
                base += held * tp->gpn * tp->gpu.idle_w;
                break;
            }
            jp->n_gpu = held * gpn;
            p->comp[p->n_comp++] = j;
            jp->util = p->u_run * other;
            jp->hi_w = mind(dc_gpu_power_w(&tp->gpu, jp->util, 1.0), tp->static_cap_w);
            jp->lo_w = mind(dc_gpu_power_w(&tp->gpu, jp->util, tp->f_min), jp->hi_w);
            if (p->clocks)
                jp->want_cls = class_of(p, jp);
            break;
        }
        case DC_JOB_CHECKPOINTING:
            storage_active = true;
            base += held * tp->node_ckpt_w;
            break;
        case DC_JOB_RESTARTING:
            storage_active = true;
            base += held * tp->node_restart_w;
            break;
        case DC_JOB_DETECTING: /* hung until a watchdog notices: hosts up, GPUs idle */
            base += held * (tp->host_w + tp->gpn * tp->gpu.idle_w);
            break;
        case DC_JOB_PENDING:
        case DC_JOB_WAITING:
        case DC_JOB_DONE:
            base += held * node_idle_w;
            break;
        }
        jp->own_w = base - before; /* its hosts, and its GPUs unless they compute (added below) */
    }
    base += storage_active ? p->storage_active_w : p->storage_idle_w;

    /* The site cap. */
    if (isfinite(p->site_cap_w) && p->hold) {
        double total = base;
        for (size_t k = 0; k < p->n_comp; k++)
            total += p->jobs[p->comp[k]].n_gpu * p->tp[p->jobs[p->comp[k]].type].gpu.idle_w;
        for (size_t k = 0; k < p->n_comp; k++) {
            job_pw *jp = &p->jobs[p->comp[k]];
            if (jp->n_gpu <= 0.0)
                continue;
            double idle_w = p->tp[jp->type].gpu.idle_w, add = jp->n_gpu * (jp->hi_w - idle_w);
            if (total + add <= p->site_cap_w) {
                total += add;
                jp->cap_w = jp->hi_w;
            } else {
                jp->held = true;
                base += jp->n_gpu * idle_w;
                jp->own_w += jp->n_gpu * idle_w;
                jp->n_gpu = 0.0;
            }
        }
    } else {
        double full = base;
        for (size_t k = 0; k < p->n_comp; k++) {
            const job_pw *jp = &p->jobs[p->comp[k]];
            full += jp->n_gpu * jp->hi_w;
        }
        double lim = full > p->site_cap_w ? solve_limit(p, p->site_cap_w - base, false) : INFINITY;
        for (size_t k = 0; k < p->n_comp; k++) {
            job_pw *jp = &p->jobs[p->comp[k]];
            jp->cap_w = clampd(lim, jp->lo_w, jp->hi_w);
        }
    }
    double demand = base, floor_w = base;
    for (size_t k = 0; k < p->n_comp; k++) {
        const job_pw *jp = &p->jobs[p->comp[k]];
        demand += jp->n_gpu * (jp->n_gpu > 0.0 ? jp->cap_w : 0.0);
        floor_w += jp->n_gpu * (jp->n_gpu > 0.0 ? jp->lo_w : 0.0);
    }

    /* The heat limit. */
    double hl = p->heat_limit_w < demand ? solve_limit(p, p->heat_limit_w - base, true) : INFINITY;
    double it = base;
    p->cap_on = p->heat_on = p->any_computing = false;
    p->throttle_cap = p->throttle_heat = 1.0;
    for (size_t k = 0; k < p->n_act; k++) {
        int32_t j = p->act[k];
        job_pw *jp = &p->jobs[j];
        bool running = jp->phase == DC_JOB_RUNNING;
        jp->want_set = running;
        jp->want_up = jp->stalled ? 0.0 : 1.0;
        if (jp->held) {
            jp->want_cap = 0.0;
            jp->want_heat = 1.0;
            p->cap_on = true;
            continue;
        }
        if (jp->n_gpu <= 0.0) {
            /* not computing: its factors stay as they were */
            jp->want_set = running && jp->stalled;
            const double *f = dc_cluster_job_speed_factors(c, j);
            jp->want_cap = f[p->src_cap];
            jp->want_heat = f[p->src_heat];
            continue;
        }
        jp->heat_w = clampd(hl, jp->lo_w, jp->cap_w);
        it += jp->n_gpu * jp->heat_w;
        jp->own_w += jp->n_gpu * jp->heat_w;
        pw_class *q = p->clocks && jp->want_cls >= 0 ? &p->cls[jp->want_cls] : NULL;
        if (q) { /* its class's speeds, computed once for all its jobs */
            if (jp->cap_w != q->m_cap || jp->heat_w != q->m_heat) {
                q->m_cap = jp->cap_w;
                q->m_heat = jp->heat_w;
                q->m_scap = speed_at(p, jp->type, jp->util, jp->cap_w);
                q->m_sheat = jp->heat_w == jp->cap_w ? q->m_scap : speed_at(p, jp->type, jp->util, jp->heat_w);
            }
            jp->m_scap = q->m_scap;
            jp->m_sheat = q->m_sheat;
        } else if (jp->util != jp->m_util || jp->cap_w != jp->m_cap || jp->heat_w != jp->m_heat) {
            jp->m_util = jp->util;
            jp->m_cap = jp->cap_w;
            jp->m_heat = jp->heat_w;
            jp->m_scap = speed_at(p, jp->type, jp->util, jp->cap_w);
            /* (no heat limit below the cap: the same speed) */
            jp->m_sheat = jp->heat_w == jp->cap_w ? jp->m_scap : speed_at(p, jp->type, jp->util, jp->heat_w);
        }
        double s_cap = jp->m_scap, s_heat = jp->m_sheat;
        jp->want_cap = s_cap;
        jp->want_heat = s_cap > 0.0 ? s_heat / s_cap : 1.0;
        if (q) {
            q->want[p->lvl_cap] = jp->want_cap;
            q->want[p->lvl_heat] = jp->want_heat;
        }
        if (!p->any_computing || s_cap < p->throttle_cap)
            p->throttle_cap = s_cap;
        if (!p->any_computing || jp->want_heat < p->throttle_heat)
            p->throttle_heat = jp->want_heat;
        p->any_computing = true;
        p->cap_on = p->cap_on || s_cap < 1.0;
        p->heat_on = p->heat_on || jp->want_heat < 1.0;
    }
    p->it_w = it;
    p->demand_w = demand;
    p->floor_w = floor_w;
    for (size_t k = 0; p->n_tp > 1 && k < p->n_act; k++) /* each type's nodes: idle (above) and held */
        p->tp[p->jobs[p->act[k]].type].it_w += p->jobs[p->act[k]].own_w;
}

/* ---------- incremental sums (p->inc) ---------- */

/* Job j's inputs changed: it is summed again at the next computation. */
static void inc_note(dc_power *p, int32_t j)
{
    job_pw *jp = &p->jobs[j];
    if (!jp->dirty) {
        jp->dirty = true;
        p->chg[p->n_chg++] = j;
    }
}

/* Job j's factors or clock may need setting: on_apply looks at it. */
static void apply_note(dc_power *p, int32_t j)
{
    job_pw *jp = &p->jobs[j];
    if (!jp->in_apply) {
        jp->in_apply = true;
        p->apply[p->n_apply++] = j;
    }
}

/* Takes job j out of the sums and puts it back as it is now: its state
 * line, its class, the storage, whether it is in play, and the factors
 * it wants (as compute_full decides them, one type of node). */
static void inc_update(dc_power *p, int32_t j)
{
    const dc_cluster *c = p->c;
    job_pw *jp = &p->jobs[j];
    jp->dirty = false;
    if (jp->st >= 0) {
        p->st_gpus[jp->st] -= jp->units;
        if (jp->st == ST_RUN_COMP) {
            pw_class *q = &p->cls[jp->want_cls];
            q->gpus -= jp->units;
            if (--q->jobs == 0)
                class_active(p, (uint32_t)jp->want_cls, false);
            else
                p->agpus[q->apos] = q->gpus;
        }
    }
    if (jp->storage)
        p->n_storage--;
    jp->st = -1;
    jp->storage = false;
    jp->units = dc_cluster_job_held_gpus(c, j);
    jp->phase = phase_of(p, j);
    jp->in_play = jp->units > 0 || (jp->phase != DC_JOB_PENDING && jp->phase != DC_JOB_WAITING
                                    && jp->phase != DC_JOB_DONE); /* in_play(c, j) */
    jp->n_gpu = 0.0;
    jp->want_cls = jp->cls; /* (not computing: as it is) */
    jp->stalled = false;
    int8_t st = ST_IDLE;
    switch (jp->phase) {
    case DC_JOB_RUNNING: {
        const type_pw *tp = &p->tp[0];
        jp->stalled = dc_sim_now(p->sim) < jp->ready_at_s;
        st = ST_RUN_IDLE;
        if (jp->stalled || jp->other <= 0.0 || jp->units == 0)
            break;
        jp->util = p->u_run * jp->other;
        jp->hi_w = mind(dc_gpu_power_w(&tp->gpu, jp->util, 1.0), tp->static_cap_w);
        jp->lo_w = mind(dc_gpu_power_w(&tp->gpu, jp->util, tp->f_min), jp->hi_w);
        int32_t k = class_of(p, jp);
        if (k < 0)
            break; /* out of memory: the run fails */
        jp->want_cls = k;
        jp->n_gpu = jp->units;
        st = ST_RUN_COMP;
        p->cls[k].gpus += jp->units;
        if (p->cls[k].jobs++ == 0)
            class_active(p, (uint32_t)k, true);
        else
            p->agpus[p->cls[k].apos] = p->cls[k].gpus;
        break;
    }
    case DC_JOB_CHECKPOINTING:
        st = ST_CKPT;
        jp->storage = true;
        break;
    case DC_JOB_RESTARTING:
        st = ST_RESTART;
        jp->storage = true;
        break;
    case DC_JOB_DETECTING:
        st = ST_DETECT;
        break;
    case DC_JOB_PENDING:
    case DC_JOB_WAITING:
    case DC_JOB_DONE:
        break;
    }
    if (jp->storage)
        p->n_storage++;
    if (jp->in_play) {
        jp->st = st;
        p->st_gpus[st] += jp->units;
        p->in_act[j] = 1;
    } else {
        p->in_act[j] = 0; /* out of play: as act_prune drops it */
        if (jp->cls >= 0) {
            p->cls[jp->cls].members--;
            jp->cls = -1;
            dc_cluster_drop_job_clock(p->c, j);
        }
        jp->want_cls = -1;
    }
    /* its factors, as compute_full's last pass */
    bool running = jp->phase == DC_JOB_RUNNING;
    jp->want_up = jp->stalled ? 0.0 : 1.0;
    jp->want_set = jp->n_gpu > 0.0 ? running : running && jp->stalled;
    if (!(jp->n_gpu > 0.0)) {
        const double *f = dc_cluster_job_speed_factors(c, j);
        jp->want_cap = f[p->src_cap];
        jp->want_heat = f[p->src_heat];
    }
    if (jp->want_set) {
        const double *f = dc_cluster_job_speed_factors(c, j);
        bool need = jp->cls != jp->want_cls || (p->src_up >= 0 && f[p->src_up] != jp->want_up);
        if (need)
            apply_note(p, j);
    }
}

/* What compute_inc's pass over the classes gathers from their speeds. */
typedef struct class_acc {
    bool change, any, cap_on, heat_on;
    double thr_cap, thr_heat;
} class_acc;

/* Class q's wanted factors (cap speed s_cap, heat factor w_heat, at the
 * clock's levels lc and lh); true when its clock's factors differ from
 * them (on_apply must set it). */
static inline bool class_set_want(pw_class *q, double s_cap, double w_heat, int lc, int lh)
{
    q->want[lc] = s_cap;
    q->want[lh] = w_heat;
    const double *kf = dc_vclock_factors(q->clock);
    return kf[0] != q->want[0] || kf[1] != q->want[1];
}

/* Class q's speed at limit cap: m_cap's when it is that one, else h_cap's
 * (the limit before, to which a limit that moves and comes back returns)
 * or the cache's, m_cap's becoming h_cap's (the caller sets m_cap). */
static inline double class_cap_speed(dc_power *p, pw_class *q, double cap)
{
    if (cap == q->m_cap)
        return q->m_scap;
    double s = cap == q->h_cap ? q->h_scap : speed_at(p, q->type, q->util, cap);
    q->h_cap = q->m_cap;
    q->h_scap = q->m_scap;
    return s;
}

/* Class q's speeds under limits cap and heat (remembered: the last pair,
 * and the speed of the cap before, to which a limit that moves and comes
 * back returns), its factors wanted, and what the pass gathers. */
static inline void class_want(dc_power *p, pw_class *q, double cap, double heat, int lc, int lh, class_acc *acc)
{
    if (cap != q->m_cap || heat != q->m_heat) {
        double s = class_cap_speed(p, q, cap);
        q->m_cap = cap;
        q->m_heat = heat;
        q->m_scap = s;
        q->m_sheat = heat == cap ? s : speed_at(p, q->type, q->util, heat);
    }
    double s_cap = q->m_scap, s_heat = q->m_sheat, w_heat = s_cap > 0.0 ? s_heat / s_cap : 1.0;
    if (class_set_want(q, s_cap, w_heat, lc, lh)) {
        acc->change = true;
        p->sets[p->n_sets++] = (uint32_t)(q - p->cls);
    }
    if (!acc->any || s_cap < acc->thr_cap)
        acc->thr_cap = s_cap;
    if (!acc->any || w_heat < acc->thr_heat)
        acc->thr_heat = w_heat;
    acc->any = true;
    acc->cap_on = acc->cap_on || s_cap < 1.0;
    acc->heat_on = acc->heat_on || w_heat < 1.0;
}

/* The entry of cap_memo whose input is this one (NULL: none): the base
 * power and the site cap, acls and agpus, bit for bit. */
static cap_memo *cap_memo_find(dc_power *p, double base_w, size_t na)
{
    for (size_t e = 0; e < CAP_MEMO; e++) {
        cap_memo *m = &p->cap_memo[e];
        if (m->n == na && m->base_w == base_w && m->site_cap_w == p->site_cap_w
            && (na == 0 /* (then the arrays may be NULL, which memcmp must not get) */
                || (memcmp(m->gpus, p->agpus, na * sizeof *m->gpus) == 0
                    && memcmp(m->cls, p->acls, na * sizeof *m->cls) == 0))) {
            m->used = p->round;
            return m;
        }
    }
    return NULL;
}

/* This computation's input and solution, in the entry used longest ago
 * (none when its arrays cannot grow: the memo is only a saving). */
static void cap_memo_store(dc_power *p, double base_w, size_t na, cap_fig fig, bool solved)
{
    cap_memo *m = &p->cap_memo[0];
    for (size_t e = 1; e < CAP_MEMO; e++)
        if (p->cap_memo[e].used < m->used)
            m = &p->cap_memo[e];
    m->n = SIZE_MAX; /* (empty until complete) */
    if (na > m->cap) { /* (its content is dropped: the entry is empty) */
        size_t cap = na > 2 * m->cap ? na : 2 * m->cap;
        free(m->block);
        /* the answers, the GPUs, the classes: each part aligned for the next */
        char *b = malloc(cap * (sizeof *m->val + sizeof *m->gpus + sizeof *m->cls));
        m->block = b;
        m->cap = b ? cap : 0;
        if (!b)
            return;
        m->val = (cap_val *)b;
        m->gpus = (int64_t *)(b + cap * sizeof *m->val);
        m->cls = (uint32_t *)(b + cap * (sizeof *m->val + sizeof *m->gpus));
    }
    const pw_class *cls = p->cls;
    const uint32_t *acls = p->acls;
    const int64_t *agpus = p->agpus;
    for (size_t a = 0; a < na; a++) { /* (a few classes: no library call) */
        const pw_class *q = &cls[acls[a]];
        m->cls[a] = acls[a];
        m->gpus[a] = agpus[a];
        m->val[a] = (cap_val){q->cap_w, q->m_scap};
    }
    m->n = na;
    m->base_w = base_w;
    m->site_cap_w = p->site_cap_w;
    m->fig = fig;
    m->solved = solved;
    m->used = p->round;
}

/* compute_full's figures from the sums: the jobs whose inputs changed
 * summed again, then the classes' limits (the same equations, over the
 * classes' GPUs in class order instead of the jobs in job order). */
static bool compute_inc(dc_power *p)
{
    dc_cluster *c = p->c;
    p->round++;
    p->n_wanted = 0;
    const int32_t *changed;
    size_t n_changed = dc_cluster_held_changes(c, &changed);
    for (size_t k = 0; k < n_changed; k++)
        inc_note(p, changed[k]);
    dc_cluster_held_changes_clear(c);
    for (size_t k = 0; k < p->n_chg; k++)
        inc_update(p, p->chg[k]);
    p->n_chg = 0;

    double base = p->network_w;
    base += (double)(dc_cluster_idle_count(c) - p->n_off) * p->node_idle_w;
    uint64_t free_gpus = dc_cluster_shared_free_gpus(c);
    if (free_gpus > 0)
        base += (double)free_gpus * (p->node_idle_w / p->gpn);
    for (int s = 0; s < N_ST; s++)
        if (p->st_gpus[s] > 0)
            base += (double)p->st_gpus[s] * p->st_w[s];
    base += p->n_storage > 0 ? p->storage_active_w : p->storage_idle_w;

    /* the site cap over the classes with computing GPUs (kept in locals:
     * the stores through q would make the compiler reload p's fields) */
    const uint32_t *acls = p->acls;
    size_t na = p->n_acls;
    pw_class *cls = p->cls;
    dc_powercap_job *cw = p->cw;
    /* (No class is marked wanted here: every class this computation wants
     * is in acls, those class_of found included, since each has the job it
     * was found for; on_apply sets the clocks of acls's classes.) */
    /* (and the breakpoints around the solver's guess, as
     * dc_powercap_solve would find them in a pass of its own) */
    pw_class *only = na > 0 ? &cls[acls[na - 1]] : NULL;
    int lc = p->lvl_cap, lh = p->lvl_heat;
    uint32_t *sets = p->sets;
    size_t n_sets = 0;
    double full, floor_w, lim, demand, thr;
    cap_memo *m = p->cap_memo_off ? NULL : cap_memo_find(p, base, na);
    if (m) { /* (the solver would leave its answer as the next guess) */
        p->cap_memo_hits++;
        full = m->fig.full_w;
        floor_w = m->fig.floor_w;
        lim = m->fig.lim_w;
        if (m->solved)
            p->guess_cap = lim;
        demand = m->fig.demand_w;
        thr = m->fig.thr;
        const cap_val *val = m->val;
        for (size_t a = 0; a < na; a++) { /* the pass below, its answers remembered */
            uint32_t k = acls[a];
            pw_class *q = &cls[k];
            q->cap_w = q->heat_w = val[a].cap_w;
            if (class_set_want(q, val[a].speed, 1.0, lc, lh))
                sets[n_sets++] = k;
        }
    } else {
        double x = p->guess_cap, below = -INFINITY, above = INFINITY;
        full = floor_w = base;
        for (size_t a = 0; a < na; a++) {
            pw_class *q = &cls[acls[a]];
            double g = (double)q->gpus, u = q->lo_w, v = q->hi_w;
            full += g * v;
            floor_w += g * u;
            cw[a] = (dc_powercap_job){g, u, v};
            dc_powercap_bracket(u, x, &below, &above);
            dc_powercap_bracket(v, x, &below, &above);
        }
        lim = INFINITY;
        bool solved = full > p->site_cap_w && na > 1;
        if (full > p->site_cap_w)
            lim = na == 1 ? (p->site_cap_w - base) / (double)only->gpus
                          : dc_powercap_solve_near(cw, na, p->site_cap_w - base, &p->guess_cap, below, above);
        /* The caps and, in the same pass, the speeds as they are when the heat
         * limit does not bind (no heat limit below the demand, the usual case):
         * each class's heat limit clampd(INFINITY, lo, cap), which is cap (cap
         * is within [lo, hi], lo <= hi), and IT power the demand, the same sum.
         * When the demand turns out above the heat limit, the pass below
         * computes them again with it (the same figures as when the two passes
         * were always made: every value is overwritten there). */
        /* That pass is class_want with heat = cap, written out: the heat factor
         * is s / s = 1 (1 too for a speed of 0), the pass's throttle its lowest
         * cap speed (none: 1), on when below 1, the heat throttle 1 and off. */
        demand = base;
        thr = INFINITY;
        for (size_t a = 0; a < na; a++) {
            uint32_t k = acls[a];
            pw_class *q = &cls[k];
            double g = (double)q->gpus, cap = clampd(lim, q->lo_w, q->hi_w);
            q->cap_w = cap;
            q->heat_w = cap;
            demand += g * cap;
            if (cap != q->m_cap || cap != q->m_heat) {
                double sp = class_cap_speed(p, q, cap);
                q->m_cap = q->m_heat = cap;
                q->m_scap = q->m_sheat = sp;
            }
            double s_cap = q->m_scap;
            if (class_set_want(q, s_cap, 1.0, lc, lh))
                sets[n_sets++] = k;
            thr = s_cap < thr ? s_cap : thr;
        }
        if (!p->cap_memo_off)
            cap_memo_store(p, base, na, (cap_fig){full, floor_w, lim, demand, thr}, solved);
    }
    p->n_sets = n_sets;
    class_acc acc = {.change = n_sets > 0, .any = na > 0, .thr_cap = na > 0 ? thr : 1.0, .thr_heat = 1.0};
    acc.cap_on = acc.thr_cap < 1.0;
    double it = demand;
    if (p->heat_limit_w < demand) { /* the heat limit binds */
        for (size_t a = 0; a < na; a++) { /* (all of it: a remembered solution left cw as it was) */
            const pw_class *q = &cls[acls[a]];
            cw[a] = (dc_powercap_job){(double)q->gpus, q->lo_w, q->cap_w};
        }
        double hl = na == 1 ? (p->heat_limit_w - base) / (double)only->gpus
                            : dc_powercap_solve(cw, na, p->heat_limit_w - base, &p->guess_heat);
        it = base;
        p->n_sets = 0;
        acc = (class_acc){.thr_cap = 1.0, .thr_heat = 1.0};
        for (size_t a = 0; a < na; a++) {
            pw_class *q = &cls[acls[a]];
            double cap = q->cap_w, heat = clampd(hl, q->lo_w, cap);
            q->heat_w = heat;
            it += (double)q->gpus * heat;
            class_want(p, q, cap, heat, lc, lh, &acc);
        }
    }
    bool change = acc.change, any = acc.any, cap_on = acc.cap_on, heat_on = acc.heat_on;
    double thr_cap = acc.thr_cap, thr_heat = acc.thr_heat;
    p->cap_on = cap_on;
    p->heat_on = heat_on;
    p->any_computing = any;
    p->throttle_cap = thr_cap;
    p->throttle_heat = thr_heat;
    p->it_w = it;
    p->demand_w = demand;
    p->floor_w = floor_w;
    if (p->inf_job >= 0 && p->in_act[p->inf_job]) { /* the one job's power a figure needs */
        job_pw *jp = &p->jobs[p->inf_job];
        jp->own_w = (double)jp->units * p->st_w[jp->st];
        if (jp->st == ST_RUN_COMP)
            jp->own_w += (double)jp->units * p->cls[jp->want_cls].heat_w;
    }
    return change || p->n_apply > 0;
}

static double other_factor(const dc_power *p, int32_t j);

void dc_power_set_pair_memo(dc_power *p, bool on) { p->pair_on = on; }

uint64_t dc_power_pair_hits(const dc_power *p) { return p->pair_hits; }

void dc_power_set_cap_memo(dc_power *p, bool on) { p->cap_memo_off = !on; }

uint64_t dc_power_cap_memo_hits(const dc_power *p) { return p->cap_memo_hits; }

/* The sums recounted from every job (tests). */
int dc_power_sums_agree(dc_power *p)
{
    flush(p);
    if (!p->inc)
        return -1;
    uint64_t st[N_ST] = {0};
    int64_t *gpus = calloc(p->n_cls + 1, sizeof *gpus);
    uint32_t storage = 0, *jobs = calloc(p->n_cls + 1, sizeof *jobs);
    uint8_t *later = calloc((size_t)p->n_jobs + 1, 1);
    bool ok = gpus && jobs && later;
    /* (held nodes changed with no signal since the last computation: the
     * next one sums them, as it would without this check) */
    const int32_t *changed;
    size_t n_changed = dc_cluster_held_changes(p->c, &changed);
    for (size_t k = 0; ok && k < n_changed; k++)
        later[changed[k]] = 1;
    for (int32_t j = 0; ok && j < p->n_jobs; j++) {
        const job_pw *jp = &p->jobs[j];
        dc_job_phase ph = phase_of(p, j);
        uint32_t units = later[j] ? jp->units : dc_cluster_job_held_gpus(p->c, j);
        bool play = later[j] ? (bool)p->in_act[j] : in_play(p, j);
        ok = !jp->dirty && play == (bool)p->in_act[j] && (!play || units == jp->units) && ph == jp->phase;
        if (ph == DC_JOB_CHECKPOINTING || ph == DC_JOB_RESTARTING)
            storage++;
        if (!ok || !play)
            continue;
        /* its line from the cluster's state, not from what the sums hold */
        double other = other_factor(p, j);
        int line = ph == DC_JOB_CHECKPOINTING ? ST_CKPT : ph == DC_JOB_RESTARTING ? ST_RESTART
                   : ph == DC_JOB_DETECTING   ? ST_DETECT
                   : ph != DC_JOB_RUNNING     ? ST_IDLE
                   : dc_sim_now(p->sim) < jp->ready_at_s || other <= 0.0 || units == 0 ? ST_RUN_IDLE
                                                                                         : ST_RUN_COMP;
        ok = line == jp->st && other == jp->other;
        st[line] += units;
        if (ok && line == ST_RUN_COMP) {
            gpus[jp->want_cls] += units;
            jobs[jp->want_cls]++;
            ok = p->cls[jp->want_cls].type == jp->type && p->cls[jp->want_cls].util == p->u_run * other;
        }
    }
    ok = ok && storage == p->n_storage && memcmp(st, p->st_gpus, sizeof st) == 0;
    size_t a = 0; /* and acls: the classes with computing jobs, ascending */
    for (size_t k = 0; ok && k < p->n_cls; k++) {
        ok = gpus[k] == p->cls[k].gpus && jobs[k] == p->cls[k].jobs;
        if (ok && jobs[k] > 0)
            ok = a < p->n_acls && p->acls[a++] == k;
    }
    ok = ok && a == p->n_acls;
    free(gpus);
    free(jobs);
    free(later);
    return ok ? 1 : 0;
}

static bool same_key(const memo_key *a, const memo_key *b)
{
    /* (the counts first: a large cluster's failures and repairs move the
     * idle count at every computation, the rest seldom changes) */
    return a->idle_on == b->idle_on && a->held == b->held && a->phase == b->phase && a->stalled == b->stalled
           && a->other == b->other && a->heat_limit_w == b->heat_limit_w;
}

/* The inputs of compute_full for one job (all else is fixed for the run). */
static void memo_key_now(const dc_power *p, memo_key *k)
{
    const dc_cluster *c = p->c;
    k->phase = (int)phase_of(p, 0);
    k->held = dc_cluster_job_held_nodes(c, 0);
    k->idle_on = dc_cluster_idle_count(c) - (uint32_t)p->n_off;
    k->stalled = k->phase == DC_JOB_RUNNING && dc_sim_now(p->sim) < p->jobs[0].ready_at_s;
    k->other = p->jobs[0].other;
    k->heat_limit_w = p->heat_limit_w;
}

/* A memo entry's outputs made the state in force (the job's boot time,
 * its boot event and its other models' factor stay: they are not
 * outputs, and the factor equals the entry's, being in its key).  The
 * job's part is copied from the factor on in 16-byte blocks, the factor
 * and the boot event put back after: a plain copy of the struct (or of a
 * size that is not whole blocks) gcc makes a rep movs, which runs (and
 * callgrind counts) a word at a time, 40 where these are 22. */
#define MEMO_JOB_FROM offsetof(job_pw, other)
typedef double memo_block __attribute__((vector_size(16)));
static_assert((sizeof(job_pw) - MEMO_JOB_FROM) % 16 == 0, "the restored part is whole 16-byte blocks");
static_assert(offsetof(job_pw, ready_at_s) < MEMO_JOB_FROM, "the boot time comes first");

static inline void memo_restore(dc_power *p, const memo_entry *e)
{
    p->it_w = e->it_w;
    p->demand_w = e->demand_w;
    p->floor_w = e->floor_w;
    p->throttle_cap = e->throttle_cap;
    p->throttle_heat = e->throttle_heat;
    p->cap_on = e->cap_on;
    p->heat_on = e->heat_on;
    p->any_computing = e->any_computing;
    job_pw *jp = &p->jobs[0];
    dc_event_handle ev = jp->ready_ev;
    double other = jp->other;
    char *to = (char *)jp + MEMO_JOB_FROM;
    const char *from = (const char *)&e->job + MEMO_JOB_FROM;
#pragma GCC unroll 16
    for (size_t i = 0; i < (sizeof *jp - MEMO_JOB_FROM) / 16; i++) {
        memo_block b;
        memcpy(&b, from + 16 * i, 16);
        memcpy(to + 16 * i, &b, 16);
    }
    jp->ready_ev = ev;
    jp->other = other; /* equal to the memo's (it is in the key), kept all the same */
    if (jp->n_gpu <= 0.0 && !jp->held) { /* not computing: factors as they are */
        jp->want_cap = dc_cluster_job_speed_factor(p->c, 0, p->src_cap);
        jp->want_heat = dc_cluster_job_speed_factor(p->c, 0, p->src_heat);
    }
}

/* The paired memo (one job, one node type, the job in play and nothing
 * noted since): a job alternating between two states (computing and
 * checkpointing) is back in the state of the computation before last, so
 * that entry's key is compared with the inputs as they are read, field by
 * field (the comparisons of same_key, without a key built), and on a match
 * restored; false (nothing changed) sends the computation to the general
 * path, which finds the same entries the same way.  Off in a test
 * (dc_power_set_pair_memo), where every computation takes the general path. */
static inline bool memo_pair(dc_power *p)
{
    int prev = p->memo_prev;
    const memo_entry *e = &p->memo[prev];
    const dc_cluster *c = p->c;
    if (!e->valid || e->key.idle_on != dc_cluster_idle_count(c) - (uint32_t)p->n_off
        || e->key.held != dc_cluster_job_held_nodes(c, 0))
        return false; /* (the counts first, as in same_key) */
    int phase = (int)phase_of(p, 0);
    if (e->key.phase != phase || e->key.other != p->jobs[0].other || e->key.heat_limit_w != p->heat_limit_w
        || e->key.stalled != (phase == DC_JOB_RUNNING && dc_sim_now(p->sim) < p->jobs[0].ready_at_s))
        return false;
    p->memo_prev = p->memo_last;
    p->memo_last = prev;
    p->pair_hits++;
    memo_restore(p, e);
    return true;
}

/* Whether job j's factors or clock differ from what this computation
 * wants (on_apply would change them). */
static inline bool wants_change(const dc_power *p, int32_t j)
{
    const job_pw *jp = &p->jobs[j];
    if (!jp->want_set)
        return false;
    const double *f = dc_cluster_job_speed_factors(p->c, j);
    if (jp->want_cls >= 0) { /* on a clock */
        const pw_class *q = &p->cls[jp->want_cls];
        const double *kf = dc_vclock_factors(q->clock);
        return jp->cls != jp->want_cls || kf[0] != q->want[0] || kf[1] != q->want[1]
               || (p->src_up >= 0 && f[p->src_up] != jp->want_up);
    }
    return f[p->src_cap] != jp->want_cap || f[p->src_heat] != jp->want_heat
           || (p->src_up >= 0 && f[p->src_up] != jp->want_up);
}

/* A computation that wants speeds changed: on_apply sets them at the end
 * of this instant, once however many computations want it (none while one
 * is pending or running: it applies the last computation's wants). */
static inline void schedule_apply(dc_power *p, bool change)
{
    if (change && !p->apply_pending && !p->applying) {
        p->apply_pending = true;
        dc_sim_after(p->sim, 0.0, on_apply, p, 0);
    }
}

/* The speed changes of the one job in play, as compute's loop over act. */
static inline void change_one(dc_power *p)
{
    schedule_apply(p, wants_change(p, 0));
}

/* compute_full, or its remembered outputs when a single job is back in a
 * state seen before (a job alternates between computing and checkpointing
 * thousands of times); then the speed changes to apply. */
static bool compute_inc(dc_power *p);

static void compute(dc_power *p)
{
    if (p->inc) {
        schedule_apply(p, compute_inc(p));
        return;
    }
    if (p->pair_fast && p->n_pend == 0 && p->n_act == 1 && memo_pair(p)) {
        change_one(p); /* (act_update and act_prune: nothing to do, the one job in play and none noted) */
        return;
    }
    act_update(p);
    if (p->n_jobs == 1 && p->n_tp <= 1) {
        memo_key k;
        memo_key_now(p, &k);
        /* the entry of two computations ago first: a job alternating
         * between two states is back in it (keys are unique: an entry is
         * made only when none matches) */
        int hit = -1, prev = p->memo_prev;
        if (p->memo[prev].valid && same_key(&p->memo[prev].key, &k))
            hit = prev;
        for (int i = 0; i < MEMO_SIZE && hit < 0; i++)
            if (i != prev && p->memo[i].valid && same_key(&p->memo[i].key, &k))
                hit = i;
        p->memo_prev = p->memo_last;
        p->memo_last = hit >= 0 ? hit : p->memo_next;
        if (hit >= 0) {
            memo_restore(p, &p->memo[hit]);
        } else {
            compute_full(p);
            memo_entry *e = &p->memo[p->memo_next];
            p->memo_next = (p->memo_next + 1) % MEMO_SIZE;
            *e = (memo_entry){.valid = true, .key = k, .it_w = p->it_w, .demand_w = p->demand_w,
                              .floor_w = p->floor_w, .throttle_cap = p->throttle_cap,
                              .throttle_heat = p->throttle_heat, .cap_on = p->cap_on, .heat_on = p->heat_on,
                              .any_computing = p->any_computing, .job = p->jobs[0]};
        }
    } else {
        compute_full(p);
    }
    act_prune(p);

    /* Schedule the speed changes (see the notes at the top). */
    bool change = false;
    for (size_t k = 0; k < p->n_act && !change; k++)
        change = wants_change(p, p->act[k]);
    schedule_apply(p, change);
}

static void on_off_timer(dc_sim *sim, void *ctx, uint64_t arg);

/* The first idle node still on, and when it powers off. */
static int32_t off_candidate(const dc_power *p)
{
    int32_t n = dc_cluster_idle_first(p->c);
    while (n >= 0 && p->off[n])
        n = dc_cluster_idle_next(p->c, (uint32_t)n);
    return n;
}

static void schedule_off_timer(dc_power *p)
{
    int32_t n = off_candidate(p);
    double at = n >= 0 ? dc_cluster_node_idle_since_s(p->c, (uint32_t)n) + p->off_after_s : INFINITY;
    if (p->off_timer != DC_EVENT_NONE && at == p->off_timer_at)
        return;
    dc_sim_cancel(p->sim, &p->off_timer);
    p->off_timer_at = at;
    if (isfinite(at))
        p->off_timer = dc_sim_at(p->sim, at, on_off_timer, p, 0);
}

/* Recomputes the state of this instant.  "it_power" is published from
 * inside, while busy: the cooling model answers with its cooling power
 * (stored, recorded once below) and perhaps a new heat limit (a nested
 * refresh that only marks the state dirty, so the loop computes again). */
static void refresh(dc_power *p)
{
    if (!p->enabled || !p->started)
        return;
    if (p->busy) {
        p->dirty = true;
        return;
    }
    p->busy = true;
    if (p->defer_ev != DC_EVENT_NONE)
        dc_sim_cancel(p->sim, &p->defer_ev); /* this refresh covers it */
    bank(p);
    int rounds = 0;
    do {
        p->dirty = false;
        double old_it = p->it_w, old_d = p->demand_w, old_f = p->floor_w;
        if (p->idle_shutdown)
            scan_off(p);
        compute(p);
        if (p->it_w != old_it || p->demand_w != old_d || p->floor_w != old_f)
            dc_sim_publish(p->sim, p->sig_it, NULL);
    } while (p->dirty && ++rounds < 8);
    record(p);
    if (p->idle_shutdown)
        schedule_off_timer(p);
    p->busy = false;
}

static void on_apply(dc_sim *sim, void *ctx, uint64_t arg)
{
    dc_power *p = ctx;
    /* a change since the last computation: compute first, so the wants
     * are this instant's (apply_pending still set: no second apply) */
    if (p->defer_ev != DC_EVENT_NONE)
        refresh(p);
    p->apply_pending = false;
    /* The wants are those of the last refresh, which saw the state of this
     * instant (every change refreshes).  Each factor set publishes
     * "job_speed"; those refreshes are skipped: our own factors do not
     * change the power, only other models' would. */
    p->applying = true;
    p->missed = false;
    /* the clocks of the classes this computation wanted: one change each
     * for all their jobs */
    if (p->inc) { /* (the computing classes are those wanted: those whose factors change) */
        const uint32_t *sets = p->sets; /* (in locals: the sets could alias p's fields) */
        pw_class *cls = p->cls;
        for (size_t a = 0, n = p->n_sets; a < n; a++)
            dc_vclock_set(cls[sets[a]].clock, cls[sets[a]].want);
    } else { /* (in class order: the sets may move engine events) */
        for (size_t k = 0; p->clocks && k < p->n_cls; k++)
            if (p->cls[k].round == p->round)
                dc_vclock_set(p->cls[k].clock, p->cls[k].want);
    }
    /* (incremental sums: only the jobs noted in apply may need a change) */
    size_t n_look = p->inc ? p->n_apply : p->n_act;
    for (size_t k = 0; k < n_look; k++) {
        int32_t j = p->inc ? p->apply[k] : p->act[k];
        job_pw *jp = &p->jobs[j];
        jp->in_apply = false;
        if (!jp->want_set)
            continue;
        if (jp->want_cls >= 0) {
            if (jp->cls != jp->want_cls) {
                if (jp->cls >= 0)
                    p->cls[jp->cls].members--;
                p->cls[jp->want_cls].members++;
                jp->cls = jp->want_cls;
                dc_cluster_set_job_clock(p->c, j, p->cls[jp->cls].clock);
            }
            if (p->src_up >= 0)
                dc_cluster_set_job_speed(p->c, j, p->src_up, jp->want_up);
            continue;
        }
        double cap = jp->want_cap, heat = jp->want_heat, up = jp->want_up;
        dc_cluster_set_job_speed(p->c, j, p->src_cap, cap);
        dc_cluster_set_job_speed(p->c, j, p->src_heat, heat);
        if (p->src_up >= 0)
            dc_cluster_set_job_speed(p->c, j, p->src_up, up);
    }
    if (p->inc)
        p->n_apply = 0;
    p->applying = false;
    /* Only a change another model made meanwhile can move the power; with
     * none, a refresh would find this instant's state unchanged. */
    if (p->other_sources && p->missed)
        refresh(p);
}

static void on_ready(dc_sim *sim, void *ctx, uint64_t job)
{
    dc_power *p = ctx;
    p->jobs[job].ready_ev = DC_EVENT_NONE;
    if (p->inc)
        inc_note(p, (int32_t)job); /* no longer stalled */
    refresh(p);
}

static void on_off_timer(dc_sim *sim, void *ctx, uint64_t arg)
{
    dc_power *p = ctx;
    p->off_timer = DC_EVENT_NONE;
    int32_t n = off_candidate(p);
    if (n >= 0 && dc_cluster_node_idle_since_s(p->c, (uint32_t)n) + p->off_after_s <= dc_sim_now(sim)) {
        bank(p);
        p->off[n] = 1;
        p->off_list[p->n_off++] = (uint32_t)n;
        p->tp[dc_cluster_node_type(p->c, (uint32_t)n)].n_off++;
    }
    refresh(p);
}

static void on_deferred(dc_sim *sim, void *ctx, uint64_t arg)
{
    dc_power *p = ctx;
    (void)sim;
    (void)arg;
    p->defer_ev = DC_EVENT_NONE;
    refresh(p);
}

/* Another model's change: the state is recomputed once at the end of the
 * instant, however many changes it holds (a job ending frees its nodes,
 * then changes phase; a failure takes a node, then the job restarts), so
 * that the power never shows a state that lasted no time (it would count
 * in peaks and swings) and a burst of changes costs one computation.
 * Readers of the power (dc_power_it_w...) get it computed first. */
static void on_signal(dc_sim *sim, void *ctx, const void *payload)
{
    dc_power *p = ctx;
    (void)payload;
    if (p->applying) {
        p->missed = true; /* on_apply refreshes once when it is done */
        return;
    }
    if (!p->enabled || !p->started)
        return;
    if (p->busy) { /* a change made while computing: compute again */
        p->dirty = true;
        return;
    }
    if (p->defer_ev == DC_EVENT_NONE)
        p->defer_ev = dc_sim_after(sim, 0.0, on_deferred, p, 0);
}

/* The product of the speed factors other models set on job j, in source
 * order (1 when there are none). */
static double other_factor(const dc_power *p, int32_t j)
{
    double other = 1.0;
    if (p->other_sources) {
        const double *f = dc_cluster_job_speed_factors(p->c, j);
        for (size_t k = 0; k < p->n_other_src; k++)
            other *= f[p->other_src[k]];
    }
    return other;
}

/* "job_phase" and "job_speed": the job is in play (or was); a speed factor
 * changes only through dc_cluster_set_job_speed, which publishes
 * "job_speed", so the product kept per job is always current. */
static void on_job_signal(dc_sim *sim, void *ctx, const void *payload)
{
    dc_power *p = ctx;
    if (p->started && payload)
        act_note(p, ((const dc_job_event *)payload)->job);
    on_signal(sim, ctx, payload);
}

/* power.response_s: a job's change between computing and checkpointing is
 * seen response_s after it (on_lag), and never when it is undone sooner
 * (a checkpoint write shorter than response_s, or a computing spell
 * between two checkpoints); any other change is seen at once and ends a
 * lag.  Seen late on both ends, a long checkpoint keeps its length. */
static bool swaps(dc_job_phase a, dc_job_phase b)
{
    return (a == DC_JOB_RUNNING && b == DC_JOB_CHECKPOINTING) || (a == DC_JOB_CHECKPOINTING && b == DC_JOB_RUNNING);
}

static void on_lag(dc_sim *sim, void *ctx, uint64_t job);

/* Job j published "job_phase": true when the power does not see it yet
 * (nothing to compute). */
static bool lag_phase(dc_power *p, int32_t j)
{
    job_pw *jp = &p->jobs[j];
    dc_job_phase ph = dc_cluster_job_phase(p->c, j);
    if (jp->lag) {
        if (swaps(jp->seen, ph))
            return true; /* (still away from the phase seen) */
        jp->lag = false;
        dc_sim_cancel(p->sim, &jp->lag_ev);
        if (ph == jp->seen) { /* back within response_s: never seen */
            p->n_unseen++;
            return true;
        }
    } else if (swaps(jp->seen, ph)) {
        jp->lag = true;
        jp->lag_ev = dc_sim_after(p->sim, p->response_s, on_lag, p, (uint64_t)j);
        return true;
    }
    jp->seen = ph;
    return false;
}

/* "job_phase" with power.response_s > 0 (without it on_job_signal, as
 * before: this test costs the flagship 0.4 M instructions). */
static void on_job_phase(dc_sim *sim, void *ctx, const void *payload)
{
    dc_power *p = ctx;
    if (p->started && payload) {
        int32_t j = ((const dc_job_event *)payload)->job;
        if (j >= 0 && j < p->n_jobs && lag_phase(p, j))
            return;
    }
    on_job_signal(sim, ctx, payload);
}

/* Job j's change has lasted response_s: the power sees it now. */
static void on_lag(dc_sim *sim, void *ctx, uint64_t job)
{
    dc_power *p = ctx;
    job_pw *jp = &p->jobs[job];
    jp->lag_ev = DC_EVENT_NONE;
    jp->lag = false;
    jp->seen = dc_cluster_job_phase(p->c, (int32_t)job);
    on_job_signal(sim, ctx, &(dc_job_event){.job = (int32_t)job});
}

static void on_job_speed(dc_sim *sim, void *ctx, const void *payload)
{
    dc_power *p = ctx;
    if (p->started && payload) {
        int32_t j = ((const dc_job_event *)payload)->job;
        if (j >= 0 && j < p->n_jobs) {
            double other = other_factor(p, j);
            if (p->applying && p->in_act[j] && other == p->jobs[j].other)
                return; /* one of our own factors (on_apply): the power is as computed */
            p->jobs[j].other = other;
        }
    }
    on_job_signal(sim, ctx, payload);
}

/* The environment's price and carbon intensity now (NaN: none), and the
 * flags bank tests for them. */
static void set_tariff(dc_power *p, dc_environment *env)
{
    p->price = env ? dc_environment_price(env) : NAN;
    p->carbon = env ? dc_environment_carbon(env) : NAN;
    p->priced = isfinite(p->price);
    p->carbon_on = isfinite(p->carbon);
}

static void on_tariff(dc_sim *sim, void *ctx, const void *payload)
{
    dc_power *p = ctx;
    if (!p->started)
        return;
    bank(p);
    set_tariff(p, dc_environment_of(sim));
}

void dc_power_set_heat_limit(dc_power *p, double limit_w)
{
    if (limit_w == p->heat_limit_w)
        return;
    p->heat_limit_w = limit_w;
    refresh(p);
}

void dc_power_set_cooling_w(dc_power *p, double cooling_w)
{
    if (cooling_w == p->cooling_w)
        return;
    if (!p->busy) /* (refresh, which publishes "it_power", banked to now first) */
        bank(p);
    p->cooling_w = cooling_w;
    if (!p->busy) /* else refresh records it */
        record(p);
}

void dc_power_set_overhead_w(dc_power *p, double overhead_w)
{
    if (overhead_w == p->overhead_w)
        return;
    bank(p);
    p->overhead_w = overhead_w;
    if (!p->busy)
        record(p);
}

/* ---------- setup ---------- */

static double get_float(const config_setting_t *g, const char *key, double def)
{
    double v = def;
    if (g)
        dc_cfg_lookup_float(g, key, &v);
    return v;
}

static int check_gpu(dc_power *p, const dc_scenario *sc, config_setting_t *g, dc_error *err)
{
    if (!(p->gpu.idle_w < p->gpu.peak_w))
        return dc_scenario_error_at(sc, dc_cfg_member(g, "idle_w"), err,
                                    "idle_w (%g W) must be below peak_w (%g W)", p->gpu.idle_w, p->gpu.peak_w);
    if (!(p->gpu.min_cap_w > p->gpu.idle_w && p->gpu.min_cap_w <= p->gpu.peak_w))
        return dc_scenario_error_at(sc, dc_cfg_member(g, "min_cap_w"), err,
                                    "min_cap_w must lie above idle_w (%g W) and at most peak_w (%g W) (got %g W)",
                                    p->gpu.idle_w, p->gpu.peak_w, p->gpu.min_cap_w);
    config_setting_t *cap = g ? dc_cfg_member(g, "cap_w") : NULL;
    if (cap && (p->gpu_cap_w < p->gpu.min_cap_w || p->gpu_cap_w > p->gpu.peak_w))
        return dc_scenario_error_at(sc, cap, err, "a GPU power cap must lie in [min_cap_w, peak_w] = [%g, %g] W (got %g W)",
                                    p->gpu.min_cap_w, p->gpu.peak_w, p->gpu_cap_w);
    return DC_OK;
}

/* A GPU's static limit on a node whose host draws host_w: power.gpu.cap_w
 * and the rack cap's share of the node after its host. */
static double type_static_cap_w(const dc_power *p, double host_w)
{
    double rack = isfinite(p->rack_node_w) ? (p->rack_node_w - host_w) / dc_cluster_gpus_per_node(p->c) : INFINITY;
    return fmin(p->gpu_cap_w, rack);
}

/* The least a node of type t can draw whatever it does (its GPUs at their
 * lowest limit computing, checkpointing, restarting or idle; its host busy
 * or idle), with the type's own power figures (cluster.types) where it
 * gives them. */
static double node_floor_w(const dc_power *p, size_t t, double static_cap)
{
    const dc_cluster_type *ty = dc_cluster_type_at(p->c, t);
    if (dc_cluster_type_count(p->c) > 1)
        static_cap = type_static_cap_w(p, isnan(ty->host_w) ? p->host_w : ty->host_w);
    dc_gpu_power g = p->gpu;
    g.idle_w = isnan(ty->gpu_idle_w) ? g.idle_w : ty->gpu_idle_w;
    g.peak_w = isnan(ty->gpu_peak_w) ? g.peak_w : ty->gpu_peak_w;
    double host_w = isnan(ty->host_w) ? p->host_w : ty->host_w;
    double host_idle_w = isnan(ty->host_idle_w) ? p->host_idle_w : ty->host_idle_w;
    double f_min = dc_cluster_type_count(p->c) > 1 ? dc_gpu_min_freq(&g) : p->f_min, gpn = ty->gpus_per_node;
    double lo_run = fmin(dc_gpu_power_w(&g, p->u_run, f_min), static_cap);
    double ck = fmin(dc_gpu_power_w(&g, p->u_ckpt, 1.0), static_cap);
    double rs = fmin(dc_gpu_power_w(&g, p->u_restart, 1.0), static_cap);
    double busy = host_w + gpn * fmax(fmax(lo_run, ck), fmax(rs, g.idle_w));
    return fmax(busy, host_idle_w + gpn * g.idle_w);
}

/* The most the nodes present at once can be made to draw at least: the sum
 * over nodes of node_floor_w, at the worst instant of the delivery stages
 * (absent nodes draw nothing; the sum only grows at an arrival). */
static double site_floor_w(const dc_power *p, double static_cap)
{
    const dc_cluster *c = p->c;
    size_t ns = dc_cluster_stage_count(c), nt = dc_cluster_type_count(c);
    double worst = 0.0;
    for (size_t a = 0; a < ns; a++) { /* at stage a's arrival */
        double at_s = dc_cluster_stage_at(c, a)->arrive_s, sum = 0.0;
        for (size_t k = 0; k < ns; k++) {
            const dc_cluster_stage *st = dc_cluster_stage_at(c, k);
            if (!(st->arrive_s <= at_s && at_s < st->leave_s))
                continue;
            for (size_t t = 0; t < nt; t++) { /* the stage's nodes of each type */
                const dc_cluster_type *ty = dc_cluster_type_at(c, t);
                double lo = fmax(st->first, ty->first), hi = fmin(st->first + st->nodes, ty->first + ty->nodes);
                if (hi > lo)
                    sum += (hi - lo) * node_floor_w(p, t, static_cap);
            }
        }
        worst = fmax(worst, sum);
    }
    return worst;
}

static int power_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    dc_power *p = state;
    p->sim = sim;
    p->src_cap = p->src_heat = p->src_up = -1;
    p->inf_job = -1;
    p->speeds = p->speed_small;
    p->speed_shift = 54;
    config_setting_t *g = dc_scenario_lookup(sc, "power");
    if (!g)
        return DC_OK;
    p->enabled = true;
    p->pair_on = true; /* (a test may turn it off before the run) */
    p->c = dc_cluster_of(sim);
    config_setting_t *gg = dc_cfg_member(g, "gpu");
    config_setting_t *ng = dc_cfg_member(g, "node");
    config_setting_t *wg = dc_cfg_member(g, "network");
    p->gpu.idle_w = get_float(gg, "idle_w", 70);
    p->gpu.peak_w = get_float(gg, "peak_w", 700);
    p->gpu.min_cap_w = get_float(gg, "min_cap_w", 200);
    p->gpu.compute_bound = get_float(gg, "compute_bound_fraction", 0.8);
    p->gpu_cap_w = get_float(gg, "cap_w", INFINITY);
    p->u_run = get_float(gg, "util_running", 1.0);
    p->u_ckpt = get_float(gg, "util_checkpointing", 0.1);
    p->u_restart = get_float(gg, "util_restarting", 0.1);
    int rc = check_gpu(p, sc, gg, err);
    if (rc != DC_OK)
        return rc;
    p->f_min = dc_gpu_min_freq(&p->gpu);
    /* mixed hardware: each type's GPU must accept the section's limits */
    p->n_tp = dc_cluster_type_count(p->c);
    p->typed = dc_scenario_lookup(sc, "cluster.types") != NULL;
    p->tp = calloc(p->n_tp, sizeof *p->tp);
    if (!p->tp)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    for (size_t t = 0; p->n_tp > 1 && t < p->n_tp; t++) {
        const dc_cluster_type *ty = dc_cluster_type_at(p->c, t);
        if (ty->gpus_per_node == 0)
            continue; /* CPU-only: no GPU */
        double idle = isnan(ty->gpu_idle_w) ? p->gpu.idle_w : ty->gpu_idle_w;
        double peak = isnan(ty->gpu_peak_w) ? p->gpu.peak_w : ty->gpu_peak_w;
        if (!(idle < peak && p->gpu.min_cap_w > idle && p->gpu.min_cap_w <= peak))
            return dc_scenario_error_at(sc, config_setting_get_elem(dc_scenario_lookup(sc, "cluster.types"),
                                                                    (unsigned)t),
                                        err, "type \"%s\": its GPU's idle_w (%g W) < power.gpu.min_cap_w (%g W) <= "
                                        "its peak_w (%g W) must hold", ty->name, idle, p->gpu.min_cap_w, peak);
    }
    p->host_w = get_float(ng, "host_w", 2800);
    p->host_idle_w = get_float(ng, "host_idle_w", 1000);
    int switches = 0;
    if (wg)
        dc_cfg_lookup_int(wg, "switches", &switches);
    p->network_w = switches * get_float(wg, "switch_w", 750);
    config_setting_t *st = dc_cfg_member(g, "storage");
    for (int i = 0; st && i < config_setting_length(st); i++) {
        config_setting_t *t = config_setting_get_elem(st, (unsigned)i);
        double idle = get_float(t, "idle_kw", 0);
        p->storage_idle_w += idle * 1e3;
        p->storage_active_w += get_float(t, "active_kw", idle) * 1e3;
    }
    p->eta = get_float(g, "ups_efficiency", 0.96) * get_float(g, "pdu_efficiency", 0.99);
    p->loss_per_w = 1.0 / p->eta - 1.0;
    const char *policy = "throttle";
    dc_cfg_lookup_string(g, "cap_policy", &policy);
    p->hold = strcmp(policy, "hold") == 0;

    /* Caps the lowest limits cannot meet are refused now, not mid-run. */
    double gpn = dc_cluster_gpus_per_node(p->c), npr = dc_cluster_nodes_per_rack(p->c);
    double static_cap = p->gpu_cap_w;
    p->rack_gpu_cap_w = INFINITY;
    p->rack_node_w = INFINITY;
    config_setting_t *rack = dc_cfg_member(g, "rack_cap_kw");
    size_t n_types = dc_cluster_type_count(p->c);
    if (rack && n_types > 1) { /* each type after its own host_w */
        double per_node = p->rack_node_w = config_setting_get_float(rack) * 1e3 / npr;
        p->rack_gpu_cap_w = (per_node - p->host_w) / gpn;
        for (size_t t = 0; t < n_types; t++) {
            const dc_cluster_type *ty = dc_cluster_type_at(p->c, t);
            if (ty->gpus_per_node == 0)
                continue; /* CPU-only: its host alone (the site cap's floor counts it) */
            double host_w = isnan(ty->host_w) ? p->host_w : ty->host_w, per_gpu = (per_node - host_w) / gpn;
            if (per_gpu < p->gpu.min_cap_w)
                return dc_scenario_error_at(sc, rack, err,
                                            "%g kW per rack of %g nodes leaves %.0f W per GPU of type \"%s\" after its host_w (%g W), below min_cap_w (%g W): no power limit can meet it",
                                            config_setting_get_float(rack), npr, per_gpu, ty->name, host_w,
                                            p->gpu.min_cap_w);
        }
    } else if (rack) {
        double per_node = p->rack_node_w = config_setting_get_float(rack) * 1e3 / npr;
        p->rack_gpu_cap_w = (per_node - p->host_w) / gpn;
        if (p->rack_gpu_cap_w < p->gpu.min_cap_w)
            return dc_scenario_error_at(sc, rack, err,
                                        "%g kW per rack of %g nodes leaves %.0f W per GPU after host_w, below min_cap_w (%g W): no power limit can meet it",
                                        config_setting_get_float(rack), npr, p->rack_gpu_cap_w, p->gpu.min_cap_w);
        static_cap = fmin(static_cap, p->rack_gpu_cap_w);
    }
    p->site_cap_w = INFINITY;
    config_setting_t *site = dc_cfg_member(g, "site_cap_mw");
    if (site) {
        p->site_cap_w = config_setting_get_float(site) * 1e6;
        double worst = site_floor_w(p, static_cap) + p->network_w + fmax(p->storage_active_w, p->storage_idle_w);
        if (worst > p->site_cap_w)
            return dc_scenario_error_at(sc, site, err,
                                        "%g MW is below the %.3f MW the cluster draws with every GPU at its lowest power limit (min_cap_w); no throttle can meet it",
                                        p->site_cap_w / 1e6, worst / 1e6);
    }

    p->response_s = get_float(g, "response_s", 0.0);
    config_setting_t *is = dc_cfg_member(g, "idle_shutdown");
    if (is) {
        p->idle_shutdown = true;
        p->off_after_s = get_float(is, "after_s", 3600);
        p->power_up_s = get_float(is, "power_up_s", 300);
        uint32_t n = dc_cluster_node_count(p->c);
        p->off = calloc(n, 1);
        p->off_list = malloc(n * sizeof *p->off_list);
        if (!p->off || !p->off_list)
            return dc_error_set(err, DC_ENOMEM, "out of memory");
        p->src_up = dc_cluster_speed_source(p->c, "power_up");
        p->s_off = dc_sim_series(sim, "nodes_off", "nodes", "idle nodes powered off");
        if (p->src_up < 0 || !p->s_off)
            return dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    p->heat_limit_w = INFINITY;
    p->price = p->carbon = NAN;
    p->bank_more = p->idle_shutdown || p->n_tp > 1; /* (and the inference job, known at the start) */
    p->src_cap = dc_cluster_speed_source(p->c, "power_cap");
    p->src_heat = dc_cluster_speed_source(p->c, "thermal");
    p->sig_it = dc_sim_signal(sim, "it_power");
    p->s_it = dc_sim_series(sim, "power_it_w", "W", "IT power: GPUs, hosts, network, storage");
    p->s_cool = dc_sim_series(sim, "power_cooling_w", "W", "electrical power of the cooling plant");
    p->s_fac = dc_sim_series(sim, "power_facility_w", "W", "facility power: IT, conversion losses, cooling");
    p->s_pue = dc_sim_series(sim, "pue", "", "facility power / IT power");
    p->s_thr = dc_sim_series(sim, "throttle", "", "speed factor of computing jobs from power caps and heat (1: full)");
    p->s_thr_cap = dc_sim_series(sim, "throttle_power", "", "speed factor of computing jobs from power caps");
    p->s_thr_heat = dc_sim_series(sim, "throttle_thermal", "", "speed factor of computing jobs from the heat limit");
    if (p->src_cap < 0 || p->src_heat < 0 || p->sig_it < 0 || !p->s_it || !p->s_cool || !p->s_fac || !p->s_pue
        || !p->s_thr || !p->s_thr_cap || !p->s_thr_heat)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    /* the peaks and swings as the points come, when the series are off */
    static const double widths_s[] = {60.0, 3600.0};
    p->st_it = dc_swing_create(NULL, 0);
    p->st_fac = dc_swing_create(widths_s, 2);
    if (!p->st_it || !p->st_fac)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    /* "job_nodes": a running service took nodes (cluster.h) */
    static const char *const sigs[] = {"failure", "nodes_up", "node_idle", "job_phase", "job_speed", "job_nodes"};
    const dc_signal_fn handlers[] = {on_signal, on_signal, on_signal,
                                     p->response_s > 0.0 ? on_job_phase : on_job_signal, on_job_speed, on_job_signal};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        int sig = dc_sim_signal(sim, sigs[i]);
        if (sig < 0 || dc_sim_subscribe(sim, sig, handlers[i], p) != DC_OK)
            return dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    int sig_tariff = dc_sim_signal(sim, "tariff");
    if (sig_tariff < 0 || dc_sim_subscribe(sim, sig_tariff, on_tariff, p) != DC_OK)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    return DC_OK;
}

static int power_start(void *state, dc_sim *sim, dc_error *err)
{
    dc_power *p = state;
    if (!p->enabled)
        return DC_OK;
    /* (the series are switched on or off before the run starts) */
    p->rec_it = dc_series_recording(p->s_it);
    p->rec_fac = dc_series_recording(p->s_fac);
    p->swing_stream = !p->rec_it || !p->rec_fac;
    p->series_on = dc_series_recording(p->s_cool) || dc_series_recording(p->s_pue) || dc_series_recording(p->s_thr)
                   || dc_series_recording(p->s_thr_cap) || dc_series_recording(p->s_thr_heat)
                   || dc_series_recording(p->s_off);
    p->n_jobs = (int32_t)dc_cluster_job_count(p->c);
    p->jobs = calloc(p->n_jobs ? (size_t)p->n_jobs : 1, sizeof *p->jobs);
    size_t nj = p->n_jobs ? (size_t)p->n_jobs : 1;
    p->cw = malloc(nj * sizeof *p->cw);
    p->act = malloc(nj * sizeof *p->act);
    p->act_tmp = malloc(nj * sizeof *p->act_tmp);
    p->pend = malloc(nj * sizeof *p->pend);
    p->in_act = calloc(nj, 1);
    dc_inference *inf = dc_inference_of(sim);
    p->inf_job = inf ? dc_inference_job(inf) : -1;
    if (p->inf_job >= p->n_jobs)
        p->inf_job = -1;
    p->bank_more = p->idle_shutdown || p->inf_job >= 0 || p->n_tp > 1;
    if (!p->jobs || !p->cw || !p->act || !p->act_tmp || !p->pend || !p->in_act)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    /* Speed clocks where many jobs may share one limit (the hold policy
     * holds jobs one by one; one job keeps its own factors). */
    p->clocks = !p->hold && p->n_jobs > 1;
    p->inc = p->clocks && p->n_tp == 1 && p->n_jobs >= INC_MIN_JOBS && dc_cluster_gpus_per_node(p->c) > 0;
    if (p->inc) {
        p->chg = malloc(nj * sizeof *p->chg);
        p->apply = malloc(nj * sizeof *p->apply);
        if (!p->chg || !p->apply || dc_cluster_note_held_changes(p->c) != DC_OK)
            return dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    if (p->clocks) {
        int src[2] = {p->src_cap < p->src_heat ? p->src_cap : p->src_heat,
                      p->src_cap < p->src_heat ? p->src_heat : p->src_cap};
        p->lvl_cap = p->src_cap < p->src_heat ? 0 : 1;
        p->lvl_heat = 1 - p->lvl_cap;
        if (dc_cluster_set_clock_sources(p->c, src, 2) != DC_OK)
            return dc_error_set(err, DC_EINTERNAL, "speed clock sources refused");
    }
    for (int32_t j = 0; j < p->n_jobs; j++) {
        p->jobs[j].cls = p->jobs[j].want_cls = -1;
        p->jobs[j].st = -1;
        p->jobs[j].m_util = NAN; /* nothing memoised yet */
        p->jobs[j].seen = dc_cluster_job_phase(p->c, j);
        if (p->n_jobs == 1 || in_play(p, j))
            act_note(p, j);
    }
    p->guess_cap = p->guess_heat = NAN;
    cap_memo_clear(p); /* (every entry empty) */
    p->pair_fast = p->pair_on && p->n_jobs == 1 && p->n_tp <= 1;
    size_t n_speeds = SPEED_CACHE;
    p->speeds = p->speed_small;
    p->speed_shift = 54;
    if (p->inc) {
        speed_entry *big = malloc(((size_t)1 << SPEED_CACHE_MANY_BITS) * sizeof *big);
        if (!big)
            return dc_error_set(err, DC_ENOMEM, "out of memory");
        p->speeds = big;
        p->speed_shift = 64 - SPEED_CACHE_MANY_BITS;
        n_speeds = (size_t)1 << SPEED_CACHE_MANY_BITS;
    }
    for (size_t i = 0; i < n_speeds; i++) /* matches nothing (every field set: speed_at reads type first) */
        p->speeds[i] = (speed_entry){.type = -1, .util = NAN, .cap_w = NAN, .speed = NAN};
    p->other_sources = dc_cluster_speed_source_count(p->c) > (size_t)(2 + (p->src_up >= 0));
    p->n_other_src = 0;
    for (size_t s = 0, n = dc_cluster_speed_source_count(p->c); s < n && s < DC_MAX_SPEED_SOURCES; s++)
        if ((int)s != p->src_cap && (int)s != p->src_heat && (int)s != p->src_up)
            p->other_src[p->n_other_src++] = (int)s;
    for (int32_t j = 0; j < p->n_jobs; j++)
        p->jobs[j].other = other_factor(p, j);
    p->gpn = dc_cluster_gpus_per_node(p->c);
    p->static_cap_w = mind(p->gpu_cap_w, p->rack_gpu_cap_w);
    p->node_idle_w = p->host_idle_w + p->gpn * p->gpu.idle_w;
    p->node_ckpt_w = p->host_w + p->gpn * mind(dc_gpu_power_w(&p->gpu, p->u_ckpt, 1.0), p->static_cap_w);
    p->node_restart_w = p->host_w + p->gpn * mind(dc_gpu_power_w(&p->gpu, p->u_restart, 1.0), p->static_cap_w);
    for (size_t t = 0; t < p->n_tp; t++) { /* the power section's figures where a type gives none */
        const dc_cluster_type *ty = dc_cluster_type_at(p->c, t);
        type_pw *tp = &p->tp[t];
        tp->gpu = p->gpu;
        tp->gpn = ty->gpus_per_node;
        tp->gpu.idle_w = isnan(ty->gpu_idle_w) ? p->gpu.idle_w : ty->gpu_idle_w;
        tp->gpu.peak_w = isnan(ty->gpu_peak_w) ? p->gpu.peak_w : ty->gpu_peak_w;
        tp->host_w = isnan(ty->host_w) ? p->host_w : ty->host_w;
        tp->host_idle_w = isnan(ty->host_idle_w) ? p->host_idle_w : ty->host_idle_w;
        tp->f_min = p->n_tp > 1 ? dc_gpu_min_freq(&tp->gpu) : p->f_min;
        tp->gpu_f_min = dc_gpu_min_freq(&tp->gpu);
        tp->static_cap_w = p->n_tp > 1 ? type_static_cap_w(p, tp->host_w) : p->static_cap_w;
        tp->node_idle_w = p->n_tp > 1 ? tp->host_idle_w + tp->gpn * tp->gpu.idle_w : p->node_idle_w;
        tp->node_ckpt_w = p->n_tp > 1 ? tp->host_w + tp->gpn * mind(dc_gpu_power_w(&tp->gpu, p->u_ckpt, 1.0),
                                                                   tp->static_cap_w)
                                      : p->node_ckpt_w;
        tp->node_restart_w = p->n_tp > 1 ? tp->host_w + tp->gpn * mind(dc_gpu_power_w(&tp->gpu, p->u_restart, 1.0),
                                                                      tp->static_cap_w)
                                         : p->node_restart_w;
    }
    /* the incremental sums' lines, per GPU (compute_full's terms / gpus_per_node) */
    p->st_w[ST_RUN_COMP] = p->host_w / p->gpn;
    p->st_w[ST_RUN_IDLE] = p->host_w / p->gpn + p->gpu.idle_w;
    p->st_w[ST_CKPT] = p->node_ckpt_w / p->gpn;
    p->st_w[ST_RESTART] = p->node_restart_w / p->gpn;
    p->st_w[ST_DETECT] = p->host_w / p->gpn + p->gpu.idle_w;
    p->st_w[ST_IDLE] = p->node_idle_w / p->gpn;
    for (size_t i = 0; i < sizeof p->last_rec / sizeof p->last_rec[0]; i++)
        p->last_rec[i] = NAN;
    set_tariff(p, dc_environment_of(sim));
    p->started = true;
    refresh(p);
    return DC_OK;
}

static void power_finish(void *state, dc_sim *sim)
{
    dc_power *p = state;
    if (!p->enabled)
        return;
    /* the run's last instant (a job ending stops the run): its state is
     * recorded, as every instant's (peaks and swings see it) */
    if (p->defer_ev != DC_EVENT_NONE)
        refresh(p);
    bank(p);
    dc_summary *s = dc_sim_summary(sim);
    double now = dc_sim_now(sim);
    const double j_per_kwh = 3.6e6;
    dc_summary_set(s, "power.it_energy_kwh", p->e_it_j / j_per_kwh, "kWh", "energy of the IT equipment");
    for (size_t t = 0; p->typed && t < p->n_tp; t++) {
        char key[96];
        const char *name = dc_cluster_type_at(p->c, t)->name;
        snprintf(key, sizeof key, "power.type.%s.it_energy_kwh", name);
        if (p->n_tp > 1)
            dc_summary_set(s, key, p->tp[t].e_j / j_per_kwh, "kWh",
                           "IT energy of this node type's nodes (their hosts and GPUs; not the network or storage)");
        if (p->tp[t].gpn == 0.0) { /* CPU-only */
            snprintf(key, sizeof key, "power.type.%s.node_busy_w", name);
            dc_summary_set(s, key, p->tp[t].host_w, "W", "a busy CPU-only node of this type (its host_w)");
            continue;
        }
        snprintf(key, sizeof key, "power.type.%s.gpu_peak_w", name);
        dc_summary_set(s, key, p->tp[t].gpu.peak_w + p->tp[t].host_w / p->gpn, "W",
                       "a GPU of this type at full power with its share of its node's host (the chip table)");
    }
    /* The inference service's energy (inference.h's hook): its nodes' IT
     * energy with its share of the losses, cooling and overheads (the run's
     * facility / IT energy). */
    dc_inference *inf = dc_inference_of(sim);
    int32_t inf_job = inf ? dc_inference_job(inf) : -1;
    if (inf_job >= 0 && inf_job < p->n_jobs)
        dc_inference_report_energy(inf, p->inf_e_j * (p->e_it_j > 0 ? p->e_fac_j / p->e_it_j : 1.0));
    dc_summary_set(s, "power.loss_energy_kwh", p->e_loss_j / j_per_kwh, "kWh", "conversion losses (UPS, PDUs)");
    dc_summary_set(s, "power.cooling_energy_kwh", p->e_cool_j / j_per_kwh, "kWh", "energy of the cooling plant");
    if (p->e_over_j > 0.0)
        dc_summary_set(s, "power.overhead_energy_kwh", p->e_over_j / j_per_kwh, "kWh",
                       "fixed facility overheads (facility.h: UPS no-load, pumps and fans, lighting)");
    dc_summary_set(s, "power.facility_energy_kwh", p->e_fac_j / j_per_kwh, "kWh",
                   "energy drawn by the facility: IT, losses, cooling");
    dc_summary_set(s, "power.pue", p->e_it_j > 0 ? p->e_fac_j / p->e_it_j : NAN, "",
                   "power usage effectiveness: facility energy / IT energy");
    double it_peak = 0, fac_peak = 0, swing_1min, swing_1h;
    if (p->swing_stream) {
        dc_swing_end(p->st_it);
        dc_swing_end(p->st_fac);
        it_peak = dc_swing_peak(p->st_it);
        fac_peak = dc_swing_peak(p->st_fac);
        swing_1min = dc_swing_range(p->st_fac, 0);
        swing_1h = dc_swing_range(p->st_fac, 1);
    } else {
        /* (x >= peak: glibc's fmax(peak, x) for a peak that is never NaN,
         * without a call per point) */
        const double *v = dc_series_values(p->s_it);
        size_t n = dc_series_length(p->s_it);
        for (size_t i = 0; i < n; i++)
            if (v[i] >= it_peak)
                it_peak = v[i];
        v = dc_series_values(p->s_fac);
        n = dc_series_length(p->s_fac);
        for (size_t i = 0; i < n; i++)
            if (v[i] >= fac_peak)
                fac_peak = v[i];
        dc_power_swing2(dc_series_times(p->s_fac), v, n, now, 60.0, 3600.0, &swing_1min, &swing_1h);
    }
    dc_summary_set(s, "power.it_mean_mw", now > 0 ? p->e_it_j / now / 1e6 : NAN, "MW", "mean IT power");
    dc_summary_set(s, "power.it_peak_mw", it_peak / 1e6, "MW", "highest IT power");
    dc_summary_set(s, "power.facility_mean_mw", now > 0 ? p->e_fac_j / now / 1e6 : NAN, "MW", "mean facility power");
    dc_summary_set(s, "power.facility_peak_mw", fac_peak / 1e6, "MW", "highest facility power");
    dc_summary_set(s, "power.swing_1min_mw", swing_1min / 1e6, "MW",
                   "largest change of facility power within one minute");
    dc_summary_set(s, "power.swing_1h_mw", swing_1h / 1e6, "MW", "largest change of facility power within one hour");
    dc_summary_set(s, "power.energy_cost_usd", p->priced_j > 0 || isfinite(p->price) ? p->cost_usd : NAN, "USD",
                   "facility energy x price (null: no price given)");
    dc_summary_set(s, "power.mean_price_usd_per_kwh", p->priced_j > 0 ? p->cost_usd / (p->priced_j / 3.6e6) : NAN,
                   "USD/kWh", "energy cost / facility energy");
    dc_summary_set(s, "power.carbon_kg", isfinite(p->carbon) ? p->carbon_kg : NAN, "kg",
                   "CO2 of the facility energy (null: no carbon intensity given)");
    dc_summary_set(s, "power.cap_throttled_h", p->cap_throttled_s / 3600.0, "h",
                   "time a computing job ran slowed (or held) by power caps");
    dc_summary_set(s, "power.heat_throttled_h", p->heat_throttled_s / 3600.0, "h",
                   "time a computing job ran slowed by the heat limit");
    double lost_cap = 0, lost_heat = 0, useful = NAN;
    dc_summary_get(s, "gpu_hours.power_cap", &lost_cap);
    dc_summary_get(s, "gpu_hours.thermal", &lost_heat);
    dc_summary_get(s, "gpu_hours.useful", &useful);
    dc_summary_set(s, "power.cap_lost_gpu_h", lost_cap, "GPU-h", "useful work lost to power caps (gpu_hours.power_cap)");
    dc_summary_set(s, "power.heat_lost_gpu_h", lost_heat, "GPU-h",
                   "useful work lost to thermal throttling (gpu_hours.thermal)");
    dc_summary_set(s, "power.kwh_per_useful_gpu_h", useful > 0 ? p->e_fac_j / 3.6e6 / useful : NAN, "kWh/GPU-h",
                   "facility energy per useful GPU-hour");
    if (p->response_s > 0.0)
        dc_summary_set(s, "power.unseen_changes", (double)p->n_unseen, "",
                       "job changes between computing and checkpointing undone within power.response_s (never seen)");
    if (p->idle_shutdown) {
        dc_summary_set(s, "power.off_node_h", p->off_node_s / 3600.0, "node-h", "node-hours powered off while idle");
        dc_summary_set(s, "power.boots", (double)p->n_boots, "", "powered-off nodes booted for a job");
    }
}

static void power_destroy(void *state)
{
    dc_power *p = state;
    if (p->speeds != p->speed_small)
        free(p->speeds);
    free(p->jobs);
    free(p->cw);
    for (size_t e = 0; e < CAP_MEMO; e++)
        free(p->cap_memo[e].block);
    free(p->agpus);
    free(p->act);
    free(p->act_tmp);
    free(p->pend);
    free(p->in_act);
    free(p->chg);
    free(p->apply);
    free(p->off);
    free(p->tp);
    free(p->off_list);
    free(p->cls); /* (the clocks are the cluster's) */
    free(p->acls);
    free(p->sets);
    dc_swing_destroy(p->st_it);
    dc_swing_destroy(p->st_fac);
}

const dc_model_type dc_model_power = {
    .name = "power",
    .state_size = sizeof(dc_power),
    .params = dc_power_params,
    .init = power_init,
    .start = power_start,
    .finish = power_finish,
    .destroy = power_destroy,
};

/* Tests: the scheduler's named placement policies (pack, spread, random, topology_aware) on hand-sized clusters.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* scheduler.placement (models/workload/placer.h), on 32 nodes in racks of
 * 2, leaves of 4, pods of 8 (4 pods):
 * - pack: a sequence of jobs of 2, 3, 8, 10 and 1 nodes gets the nodes and
 *   spans worked out by hand (the smallest rack, leaf or pod that holds
 *   each, best fit; the 10 over two pods);
 * - spread: jobs of 6 and 3 nodes span min(n, 4) pods and n racks;
 * - random: over 300 seeds a 6-node job spans on average
 *   R (1 - C(N - m, n) / C(N, n)) racks and pods (16 racks of 2, 4 pods
 *   of 8), within 99% intervals; the same seed gives the same nodes;
 * - topology_aware: a job of two replicas of 2 nodes (tensor 8 x pipeline
 *   2 on 8-GPU nodes) on racks of 3 gets one rack per replica where pack
 *   splits one across racks; without a model it is pack;
 * - /jobs records each job's racks and pods;
 * - the scheduler's idle counts and the policies' stay consistent with the
 *   cluster through failures and repairs (breakdown sums to capacity);
 * - an unknown policy through the dcsim program: file, line, key, the
 *   choices, exit status 2;
 * - the cluster's bulk take (dc_cluster_take_idle_n, the fifo policy's
 *   placement) against one dc_cluster_take_idle per node: the same nodes
 *   in the same order, idle list, states, job lists and counts, over 3,000
 *   random takes and releases of two jobs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "badinput.h"
#include "cluster.h"
#include "registry.h"
#include "rowtable.h"
#include "simrun.h"
#include "workload/scheduler.h"
#include "testutil.h"

#define Z99 2.5758293035489

#define CLUSTER32(policy)                                                                                          \
    "horizon_days = 2.0; stop_when_done = false;\n"                                                                \
    "cluster = { nodes = 32; gpus_per_node = 8; nodes_per_rack = 2; };\n"                                          \
    "network = { tiers = 3; nodes_per_leaf = 4; leaves_per_pod = 2; };\n"                                          \
    "scheduler = { placement = \"" policy "\"; };\n"

#define JOB(name, n) "{ name = \"" name "\"; nodes = " #n "; work_gpu_h = 1e6; restart_s = 0.0; }"

typedef struct held {
    uint32_t n[8];
    uint32_t node[8][16];
} held;

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void look(dc_sim *sim, void *ctx, uint64_t jobs)
{
    held *h = ctx;
    dc_cluster *c = dc_cluster_of(sim);
    for (uint32_t j = 0; j < jobs && j < 8; j++) {
        uint32_t n = 0;
        const uint32_t *list = dc_cluster_job_node_list(c, (int32_t)j, &n);
        h->n[j] = n < 16 ? n : 16;
        memcpy(h->node[j], list, h->n[j] * sizeof *list);
        qsort(h->node[j], h->n[j], sizeof *list, cmp_u32);
    }
}

/* Builds text, looks at the jobs' nodes at 0.5 h, runs to the end. */
static dc_sim *run_looking(const char *text, int64_t seed, uint32_t jobs, held *h)
{
    dc_error err = {0};
    dc_sim *sim = dc_simrun_build(text, NULL, 0, seed, &err);
    if (!sim) {
        printf("\n  %s\n", err.msg);
        return NULL;
    }
    dc_sim_at(sim, 1800.0, look, h, jobs);
    return dc_simrun_run(sim);
}

static bool nodes_are(const held *h, uint32_t j, const uint32_t *want, uint32_t n)
{
    if (h->n[j] != n)
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (h->node[j][i] != want[i])
            return false;
    return true;
}

static void print_nodes(const char *label, const held *h, uint32_t j)
{
    printf("\n  %s:", label);
    for (uint32_t i = 0; i < h->n[j]; i++)
        printf(" %u", h->node[j][i]);
}

/* span (racks of 2, pods of 8) of job j's nodes */
static void span(const held *h, uint32_t j, uint32_t *racks, uint32_t *pods)
{
    uint8_t r[16] = {0}, p[4] = {0};
    *racks = *pods = 0;
    for (uint32_t i = 0; i < h->n[j]; i++) {
        *racks += !r[h->node[j][i] / 2];
        *pods += !p[h->node[j][i] / 8];
        r[h->node[j][i] / 2] = p[h->node[j][i] / 8] = 1;
    }
}

/* /jobs's racks and pods of job j */
static void table_span(dc_sim *sim, uint32_t j, double *racks, double *pods)
{
    *racks = dc_simrun_job_cell(sim, (int32_t)j, "racks");
    *pods = dc_simrun_job_cell(sim, (int32_t)j, "pods");
}

static void test_pack(void)
{
    /* A (2) takes rack 0; B (3): no rack holds it, leaf 1 (4 idle, the
     * fewest that hold 3; leaf 0 has 2) gives 4-6; C (8): pod 1 (pod 0 has
     * 3 idle); D (10): no pod holds it: the fullest, pod 2, then the pod
     * holding the 2 left with the fewest idle, pod 0 (2, 3); E (1): the
     * rack with the fewest idle nodes that holds it, rack 3 (node 7). */
    static const char cfg[] = CLUSTER32("pack") "jobs = ( " JOB("A", 2) ", " JOB("B", 3) ", " JOB("C", 8) ", "
        JOB("D", 10) ", " JOB("E", 1) " );\n";
    held h = {0};
    dc_sim *sim = run_looking(cfg, 1, 5, &h);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    static const uint32_t a[] = {0, 1}, b[] = {4, 5, 6}, c[] = {8, 9, 10, 11, 12, 13, 14, 15},
                          d[] = {2, 3, 16, 17, 18, 19, 20, 21, 22, 23}, e[] = {7};
    print_nodes("A", &h, 0);
    print_nodes("B", &h, 1);
    print_nodes("C", &h, 2);
    print_nodes("D", &h, 3);
    print_nodes("E", &h, 4);
    printf("\n");
    CU_ASSERT(nodes_are(&h, 0, a, 2));
    CU_ASSERT(nodes_are(&h, 1, b, 3));
    CU_ASSERT(nodes_are(&h, 2, c, 8));
    CU_ASSERT(nodes_are(&h, 3, d, 10));
    CU_ASSERT(nodes_are(&h, 4, e, 1));
    /* /jobs: racks 1, 2, 4, 5, 1; pods 1, 1, 1, 2, 1 */
    static const double racks[] = {1, 2, 4, 5, 1}, pods[] = {1, 1, 1, 2, 1};
    for (uint32_t j = 0; j < 5; j++) {
        double r, p;
        table_span(sim, j, &r, &p);
        CU_ASSERT_EQUAL(r, racks[j]);
        CU_ASSERT_EQUAL(p, pods[j]);
    }
    CU_ASSERT(dc_sched_racks_consistent(dc_scheduler_of(sim)));
    dc_sim_destroy(sim);
}

static void test_spread(void)
{
    /* one node per pod in turn, each pod's racks in turn: 6 nodes over the
     * 4 pods (0, 8, 16, 24, then 2, 10), then 3 from the pods' first racks
     * again (1, 9, 17) */
    static const char cfg[] = CLUSTER32("spread") "jobs = ( " JOB("A", 6) ", " JOB("B", 3) " );\n";
    held h = {0};
    dc_sim *sim = run_looking(cfg, 1, 2, &h);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    static const uint32_t a[] = {0, 2, 8, 10, 16, 24}, b[] = {1, 9, 17};
    print_nodes("A", &h, 0);
    print_nodes("B", &h, 1);
    printf("\n");
    CU_ASSERT(nodes_are(&h, 0, a, 6));
    CU_ASSERT(nodes_are(&h, 1, b, 3));
    uint32_t r, p;
    span(&h, 0, &r, &p);
    CU_ASSERT(r == 6 && p == 4); /* n racks, min(n, 4) pods */
    span(&h, 1, &r, &p);
    CU_ASSERT(r == 3 && p == 3);
    double tr, tp;
    table_span(sim, 0, &tr, &tp);
    CU_ASSERT(tr == 6 && tp == 4);
    dc_sim_destroy(sim);
}

static double choose(double n, double k)
{
    return exp(lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1));
}

static void test_random(void)
{
    static const char cfg[] = CLUSTER32("random") "jobs = ( " JOB("A", 6) " );\n";
    const int seeds = 300;
    double sr = 0, srr = 0, sp = 0, spp = 0;
    for (int64_t seed = 1; seed <= seeds; seed++) {
        held h = {0};
        dc_sim *sim = run_looking(cfg, seed, 1, &h);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        CU_ASSERT_EQUAL(h.n[0], 6);
        uint32_t r, p;
        span(&h, 0, &r, &p);
        sr += r, srr += (double)r * r, sp += p, spp += (double)p * p;
        dc_sim_destroy(sim);
    }
    double mr = sr / seeds, mp = sp / seeds;
    double sdr = sqrt((srr - seeds * mr * mr) / (seeds - 1)), sdp = sqrt((spp - seeds * mp * mp) / (seeds - 1));
    double er = 16.0 * (1.0 - choose(30, 6) / choose(32, 6)), ep = 4.0 * (1.0 - choose(24, 6) / choose(32, 6));
    printf("\n  racks %.3f (expected %.3f +- %.3f), pods %.3f (expected %.3f +- %.3f)", mr, er,
           Z99 * sdr / sqrt(seeds), mp, ep, Z99 * sdp / sqrt(seeds));
    CU_ASSERT(fabs(mr - er) <= Z99 * sdr / sqrt(seeds));
    CU_ASSERT(fabs(mp - ep) <= Z99 * sdp / sqrt(seeds));
    /* deterministic: the same seed, the same nodes */
    held x = {0}, y = {0};
    dc_sim *a = run_looking(cfg, 7, 1, &x), *b = run_looking(cfg, 7, 1, &y);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT(nodes_are(&x, 0, y.node[0], y.n[0]));
    print_nodes("seed 7", &x, 0);
    printf("\n");
    dc_sim_destroy(a);
    dc_sim_destroy(b);
}

#define CLUSTER12(policy, job_keys)                                                                                \
    "horizon_days = 1.0; stop_when_done = false;\n"                                                                \
    "cluster = { nodes = 12; gpus_per_node = 8; nodes_per_rack = 3; };\n"                                          \
    "network = { tiers = 3; nodes_per_leaf = 6; leaves_per_pod = 2; };\n"                                          \
    "job_classes = ( { name = \"tp8pp2\"; params = 2e9; tokens = 2e12; mfu = 0.5;\n"                               \
    "  parallelism = { tensor = 8; pipeline = 2; global_batch_tokens = 1048576.0; seq_len = 4096; }; } );\n"       \
    "scheduler = { placement = \"" policy "\"; };\n"                                                               \
    "jobs = ( { name = \"m\"; nodes = 4; restart_s = 0.0; " job_keys " } );\n"

static void test_topology_aware(void)
{
    /* 4 nodes in leaf 0 (racks 0-2 and 3-5): pack takes 0-3, splitting its
     * second replica (2, 3) over two racks; topology_aware puts each
     * replica of 2 nodes in one rack: 0, 1 and 3, 4 */
    held t = {0}, p = {0}, q = {0};
    dc_sim *a = run_looking(CLUSTER12("topology_aware", "class = \"tp8pp2\";"), 1, 1, &t);
    dc_sim *b = run_looking(CLUSTER12("pack", "class = \"tp8pp2\";"), 1, 1, &p);
    dc_sim *c = run_looking(CLUSTER12("topology_aware", "work_gpu_h = 1e6;"), 1, 1, &q);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    print_nodes("topology_aware", &t, 0);
    print_nodes("pack", &p, 0);
    print_nodes("topology_aware without a model", &q, 0);
    printf("\n");
    static const uint32_t want_t[] = {0, 1, 3, 4}, want_p[] = {0, 1, 2, 3};
    CU_ASSERT(nodes_are(&t, 0, want_t, 4));
    CU_ASSERT(nodes_are(&p, 0, want_p, 4));
    CU_ASSERT(nodes_are(&q, 0, want_p, 4)); /* blocks of one node: pack */
    dc_sim_destroy(a);
    dc_sim_destroy(b);
    dc_sim_destroy(c);
}

/* Every policy through failures, repairs and a stream: the idle counts the
 * policies keep agree with the cluster, and the breakdown sums. */
static void test_consistent(void)
{
    static const char *const pols[] = {"pack", "spread", "random", "topology_aware"};
    for (int k = 0; k < 4; k++) {
        char cfg[2048];
        snprintf(cfg, sizeof cfg,
                 "horizon_days = 10.0; stop_when_done = false;\n"
                 "cluster = { nodes = 60; spare_nodes = 4; gpus_per_node = 8; nodes_per_rack = 2; };\n"
                 "network = { tiers = 3; nodes_per_leaf = 4; leaves_per_pod = 4; };\n"
                 "scheduler = { placement = \"%s\"; };\n"
                 "jobs = ( { name = \"s\"; count = 400; interarrival = { law = \"exponential\"; mean_h = 0.3; };\n"
                 "  gpus_min = 1; gpus_max = 128; duration = { law = \"lognormal\"; median_h = 3.0; sigma = 1.0; }; } );\n"
                 "failures = ( { name = \"node\"; per = \"node\"; mtbf_h = 300.0; } );\n"
                 "repair = { crews = 2; law = \"lognormal\"; median_h = 4.0; sigma = 1.0; };\n",
                 pols[k]);
        dc_error err = {0};
        dc_sim *sim = dc_simrun_build(cfg, NULL, 0, 3, &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        sim = dc_simrun_run(sim);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        dc_scheduler *s = dc_scheduler_of(sim);
        CU_ASSERT(dc_sched_racks_consistent(s));
        CU_ASSERT_EQUAL(dc_sched_pool_idle(s, 0), dc_sched_pool_idle_recount(s, 0));
        double cap = dc_simrun_fig(sim, "gpu_hours.capacity"), sum = 0;
        dc_summary *sm = dc_sim_summary(sim);
        for (size_t i = 0; i < dc_summary_count(sm); i++)
            if (strncmp(dc_summary_key(sm, i), DC_BREAKDOWN_PREFIX, strlen(DC_BREAKDOWN_PREFIX)) == 0
                && strcmp(dc_summary_key(sm, i), DC_BREAKDOWN_TOTAL) != 0)
                sum += dc_summary_value(sm, i);
        printf("\n  %s: %.0f jobs completed, %.0f interruptions, breakdown - capacity %.2g GPU-h", pols[k],
               dc_simrun_fig(sim, "jobs.completed"), dc_simrun_fig(sim, "jobs.interruptions"), sum - cap);
        CU_ASSERT(dc_simrun_fig(sim, "jobs.completed") > 100);
        CU_ASSERT_DOUBLE_EQUAL(sum, cap, 1e-9 * cap);
        dc_sim_destroy(sim);
    }
    printf("\n");
}

static char tmpdir[256];

static uint64_t mix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Whether two clusters agree on everything a take or a release changes. */
static bool same_clusters(const dc_cluster *a, const dc_cluster *b, const int32_t *jobs, size_t n_jobs)
{
    uint32_t n = dc_cluster_node_count(a);
    if (dc_cluster_idle_count(a) != dc_cluster_idle_count(b) || dc_cluster_type_idle_count(a, 0) != dc_cluster_type_idle_count(b, 0))
        return false;
    int32_t x = dc_cluster_idle_first(a), y = dc_cluster_idle_first(b);
    for (uint32_t k = 0; k <= n && (x >= 0 || y >= 0); k++) {
        if (x != y)
            return false;
        x = dc_cluster_idle_next(a, (uint32_t)x);
        y = dc_cluster_idle_next(b, (uint32_t)y);
    }
    if (x >= 0 || y >= 0)
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (dc_cluster_node_state(a, i) != dc_cluster_node_state(b, i) || dc_cluster_node_job(a, i) != dc_cluster_node_job(b, i))
            return false;
    for (size_t j = 0; j < n_jobs; j++) {
        uint32_t na, nb;
        const uint32_t *la = dc_cluster_job_node_list(a, jobs[j], &na), *lb = dc_cluster_job_node_list(b, jobs[j], &nb);
        if (na != nb || (na > 0 && memcmp(la, lb, na * sizeof *la) != 0) ||
            dc_cluster_job_nodes_changes(a, jobs[j]) != dc_cluster_job_nodes_changes(b, jobs[j]))
            return false;
    }
    return true;
}

static void test_take_idle_n(void)
{
    const char *text = "horizon_days = 1.0;\ncluster = { nodes = 48; gpus_per_node = 8; nodes_per_rack = 4; };\n";
    dc_error err = {0};
    dc_sim *sa = dc_simrun_build(text, NULL, 0, 1, &err), *sb = dc_simrun_build(text, NULL, 0, 1, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sa);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sb);
    dc_cluster *a = dc_cluster_of(sa), *b = dc_cluster_of(sb);
    int32_t jobs[2];
    for (size_t j = 0; j < 2; j++) {
        jobs[j] = dc_cluster_add_job(a, 16);
        CU_ASSERT_EQUAL_FATAL(dc_cluster_add_job(b, 16), jobs[j]);
    }
    uint64_t rng = 11;
    size_t bad = 0, taken = 0, released = 0, short_takes = 0;
    for (int op = 0; op < 3000; op++) {
        int32_t job = jobs[mix64(&rng) % 2];
        if (mix64(&rng) % 2) {
            uint32_t k = (uint32_t)(mix64(&rng) % 13), out_a[16], out_b[16], got_b = 0, node;
            bool with_out = mix64(&rng) % 4 != 0;
            uint32_t got_a = dc_cluster_take_idle_n(a, job, k, with_out ? out_a : NULL);
            while (got_b < k && dc_cluster_take_idle(b, job, &node))
                out_b[got_b++] = node;
            bad += got_a != got_b || (with_out && got_a > 0 && memcmp(out_a, out_b, got_a * sizeof *out_a) != 0);
            taken += got_a;
            short_takes += got_a < k;
        } else {
            uint32_t n_held;
            const uint32_t *list = dc_cluster_job_node_list(a, job, &n_held);
            for (uint64_t r = mix64(&rng) % 4; n_held > 0 && r > 0; r--) {
                uint32_t node = list[mix64(&rng) % n_held];
                dc_cluster_release(a, node);
                dc_cluster_release(b, node);
                list = dc_cluster_job_node_list(a, job, &n_held);
                released++;
            }
        }
        bad += !same_clusters(a, b, jobs, 2);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(taken > 1000 && released > 1000 && short_takes > 10); /* it took, gave back and ran out */
    dc_sim_destroy(sa);
    dc_sim_destroy(sb);
}

static void test_bad_policy(void)
{
    if (!getenv("DCSIM")) {
        CU_FAIL("DCSIM is not set (run through make check)");
        return;
    }
    const char *frags[] = {"bad.cfg:3", "scheduler.placement", "topology_aware"};
    dc_test_bad_run(tmpdir, "unknown placement", "horizon_days = 1.0;\ncluster = { nodes = 4; };\n"
                    "scheduler = { placement = \"packed\"; };\n", NULL, frags, 3);
}

static int register_suites(void)
{
    DC_TEST_SUITE("placement", {"pack: the smallest rack, leaf or pod, by hand", test_pack},
                  {"spread: min(n, pods) pods and n racks", test_spread},
                  {"random: mean racks and pods (99% intervals), deterministic", test_random},
                  {"topology_aware: a replica per rack where pack splits one", test_topology_aware},
                  {"every policy consistent through failures; breakdown sums", test_consistent},
                  {"bad input: an unknown policy, status 2", test_bad_policy},
                  {"the bulk take of idle nodes against one at a time", test_take_idle_n});
    return 0;
}

int main(void)
{
    return dc_test_main_in_tmpdir("place", tmpdir, sizeof tmpdir, register_suites);
}

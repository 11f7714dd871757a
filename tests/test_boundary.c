/* Tests: every ranged key of `dcsim keys` at its minimum and maximum, once each, on a shipped scenario holding its group.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The boundary sweep of make check (docs/errors.md, "How robustness is
 * checked").  bench/boundary.sh (make boundary) runs every ranged key at both
 * ends on every shipped scenario (~25,000 runs, ~20 minutes); here each key
 * runs on one scenario only, fixed by a plan this program makes and hands to
 * the same script (BOUNDARY_PLAN):
 *
 *   the key's scenario = the cheapest shipped scenario (the order of
 *   cost_order below) whose configuration holds the key's group (the key's
 *   path but its last name, list elements as [0]: `jobs.[0].interarrival`
 *   for `jobs.[].interarrival.mean_h`), so that the value is used by the
 *   model that reads it and not refused as a key of a list element the
 *   scenario lacks.  A key whose whole group no scenario holds goes to the
 *   cheapest scenario holding its deepest part that --set can extend (its
 *   top-level group and every list element of its path: --set creates
 *   groups, not list elements).
 *
 * Every run must exit 0, or 2 with a message naming the file, a line and a
 * key (`dcsim: FILE:LINE: KEY: ...`, or `dcsim: (--set) KEY: ...` for the
 * value given with --set); a signal, status 1, the time limit, the memory
 * limit or a sanitizer's report on standard error fails the test, printed
 * with the command that reproduces it.  A stand-in dcsim (a shell script)
 * that crashes, hangs, fails, runs out of memory, refuses without a line or
 * a key, or has a sanitizer report for one key each shows that the sweep
 * reports each of those. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scenario.h"
#include "testutil.h"

static const char *dcsim_path;
static const char *srcdir;
static char tmpdir[256];
static char plan_path[400];

/* The shipped scenarios, cheapest first: instructions of `valgrind
 * --tool=callgrind dcsim run SCENARIO --no-trace --quiet --set
 * horizon_days=0.5` on main 4d778a6 (2.05 M for small.cfg to 347 M for
 * inference/ddr_route.cfg).  A scenario added to scenarios/ must be placed
 * here (a test checks that this list is the scenarios/ directory). */
static const char *const cost_order[] = {
    "small.cfg",                 /*   2.05 M */
    "calibration/meta_rsc1.cfg", /*   2.25 M */
    "compare/lending.cfg",       /*   2.61 M */
    "teach/hbm_ddr.cfg",         /*   2.71 M */
    "calibration/megascale.cfg", /*   2.77 M */
    "mixed/fabric.cfg",          /*   3.00 M */
    "orbital/ground_twin.cfg",   /*   3.01 M */
    "traces/replay.cfg",         /*   3.02 M */
    "compare/cpu_partition.cfg", /*   3.76 M */
    "calibration/llama3_54d.cfg", /*  3.79 M */
    "invest/capacity.cfg",       /*   3.84 M */
    "orbital/suncatcher.cfg",    /*   4.09 M */
    "compare/generations.cfg",   /*   5.09 M */
    "invest/programme.cfg",      /*   5.47 M */
    "orbital/starcloud.cfg",     /*   5.66 M */
    "compare/fabric.cfg",        /*   6.36 M */
    "power/liquid_hot.cfg",      /*   6.44 M */
    "power/air_hot.cfg",         /*   6.44 M */
    "power/capped_site.cfg",     /*   6.84 M */
    "10k_gpu.cfg",               /*   6.88 M */
    "power/weak_grid.cfg",       /*   7.14 M */
    "inference/daily_chat.cfg",  /* 281.7 M */
    "mixed/shared.cfg",          /* 283.1 M */
    "mixed/pools.cfg",           /* 283.4 M */
    "inference/ddr_route.cfg",   /* 347.1 M */
};
#define N_SCENARIOS (sizeof cost_order / sizeof cost_order[0])

/* The horizon of every run but horizon_days' own (days). */
#define HORIZON_DAYS "1"

static char *script_path(char *buf, size_t size)
{
    snprintf(buf, size, "%s/bench/boundary.sh", srcdir);
    return buf;
}

/* The environment of the sweep: the plan, the horizon and, under ASan
 * (which reserves terabytes of address space, so that ulimit -v stops it
 * at its start), the memory limit as ASan's own hard_rss_limit_mb instead. */
static void sweep_env(const char **env, size_t *n, char *plan_env, size_t plan_size, char *asan_env,
                      size_t asan_size, const char *plan)
{
    snprintf(plan_env, plan_size, "BOUNDARY_PLAN=%s", plan);
    env[(*n)++] = plan_env;
#if defined(__SANITIZE_ADDRESS__)
    const char *old = getenv("ASAN_OPTIONS");
    snprintf(asan_env, asan_size, "ASAN_OPTIONS=%s%shard_rss_limit_mb=2000:allocator_may_return_null=1",
             old ? old : "", old && *old ? ":" : "");
    env[(*n)++] = asan_env;
    env[(*n)++] = "BOUNDARY_MEM_KB=unlimited";
    env[(*n)++] = "BOUNDARY_TIME_S=60";
#else
    (void)asan_env;
    (void)asan_size;
#endif
}

/* ---------- the plan ---------- */

/* How many leading groups of key's path the scenario holds (0: not even the
 * first), in *depth; *groups: how many groups the path has (its names but
 * the last); *need: the depth --set needs (through the last list element,
 * at least 1 for a key inside a group). */
static void held_depth(const dc_scenario *sc, const char *key, size_t *depth, size_t *groups, size_t *need)
{
    char path[512];
    *depth = 0;
    *groups = 0;
    *need = 0;
    size_t len = strlen(key);
    bool still = true;
    for (size_t i = 0; i < len; i++) {
        if (key[i] != '.')
            continue;
        (*groups)++;
        memcpy(path, key, i);
        path[i] = '\0';
        if (still && dc_scenario_lookup(sc, path))
            *depth = *groups;
        else
            still = false;
        if (path[i - 1] == ']')
            *need = *groups;
    }
    if (*groups > 0 && *need == 0)
        *need = 1;
}

/* The groups no shipped scenario holds (defaults, fleet.age, bad_nodes,
 * failure_log, checkpoint.levels.[0], ...) are held by this fixture, the
 * last resort of the plan. */
#define GROUPS_FIXTURE "tests/boundary_groups.cfg"

static dc_scenario *scenarios[N_SCENARIOS + 1];

/* The scenario of key among the first n of scenarios[] (n when none):
 * the first that holds its whole group, else the first of those holding
 * the deepest part of it that --set can extend; *whole says which. */
static size_t pick(const char *key, size_t n, bool *whole)
{
    size_t best = n, best_depth = 0;
    *whole = false;
    for (size_t i = 0; i < n; i++) {
        size_t depth, groups, need;
        held_depth(scenarios[i], key, &depth, &groups, &need);
        if (depth < need)
            continue;
        if (depth == groups) {
            *whole = true;
            return i;
        }
        if (best == n || depth > best_depth) {
            best = i;
            best_depth = depth;
        }
    }
    return best;
}

static void test_plan(void)
{
    snprintf(plan_path, sizeof plan_path, "%s/boundary.plan", tmpdir);
    /* cost_order is the scenarios/ directory. */
    char cmd[600];
    int status;
    snprintf(cmd, sizeof cmd, "cd '%s/scenarios' && find . -name '*.cfg' | sed 's|^\\./||' | LC_ALL=C sort", srcdir);
    char *found = dc_runner_shell(cmd, &status);
    CU_ASSERT_FATAL(found != NULL && status == 0);
    size_t n_found = 0;
    for (char *line = strtok(found, "\n"); line; line = strtok(NULL, "\n")) {
        n_found++;
        bool listed = false;
        for (size_t i = 0; i < N_SCENARIOS; i++)
            listed |= strcmp(cost_order[i], line) == 0;
        if (!listed)
            printf("\nscenarios/%s is not in tests/test_boundary.c's cost_order: place it by its cost\n", line);
        CU_ASSERT(listed);
    }
    free(found);
    CU_ASSERT_EQUAL(n_found, N_SCENARIOS);

    char paths[N_SCENARIOS + 1][600];
    for (size_t i = 0; i <= N_SCENARIOS; i++) {
        if (i < N_SCENARIOS)
            snprintf(paths[i], sizeof paths[i], "%s/scenarios/%s", srcdir, cost_order[i]);
        else
            snprintf(paths[i], sizeof paths[i], "%s/" GROUPS_FIXTURE, srcdir);
        dc_error err = {0};
        CU_ASSERT_FATAL(dc_scenario_load_file(paths[i], &scenarios[i], &err) == DC_OK);
    }

    /* The values the sweep runs: KEY VALUE, two lines a key. */
    char script[600];
    const char *args[] = {script_path(script, sizeof script), dcsim_path, srcdir, NULL};
    dc_runner_result r = dc_runner_run("/bin/bash", args,
                                       &(dc_runner_opts){.env = (const char *const[]){"BOUNDARY_LIST=1", NULL}});
    CU_ASSERT_FATAL(r.status == 0);

    FILE *plan = fopen(plan_path, "w");
    CU_ASSERT_FATAL(plan != NULL);
    size_t keys = 0, whole = 0, partial = 0, fixture = 0, used[N_SCENARIOS + 1] = {0};
    char last[512] = "";
    for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
        char key[512];
        if (sscanf(line, "%511s", key) != 1 || strcmp(key, last) == 0)
            continue;
        snprintf(last, sizeof last, "%s", key);
        keys++;
        bool best_whole;
        size_t best = pick(key, N_SCENARIOS, &best_whole);
        if (best == N_SCENARIOS) { /* no shipped scenario: the fixture */
            size_t depth, groups, need;
            held_depth(scenarios[N_SCENARIOS], key, &depth, &groups, &need);
            if (depth < need) {
                printf("\n%s: neither a shipped scenario nor " GROUPS_FIXTURE " holds its group: add it there\n",
                       key);
                continue;
            }
            best_whole = depth == groups;
            fixture += 1;
        }
        whole += best_whole;
        partial += !best_whole;
        used[best]++;
        fprintf(plan, "%s %s\n", key, paths[best]);
    }
    CU_ASSERT(fclose(plan) == 0);
    dc_runner_free(&r);
    for (size_t i = 0; i <= N_SCENARIOS; i++)
        dc_scenario_destroy(scenarios[i]);
    printf("\nplan: %zu ranged keys, %zu on a scenario holding their whole group, %zu on one holding a part "
           "(%zu on " GROUPS_FIXTURE ");",
           keys, whole, partial, fixture);
    for (size_t i = 0; i <= N_SCENARIOS; i++)
        if (used[i])
            printf(" %s %zu", i < N_SCENARIOS ? cost_order[i] : GROUPS_FIXTURE, used[i]);
    printf("\n");
    CU_ASSERT(keys > 500);
    CU_ASSERT_EQUAL(whole + partial, keys);
}

/* ---------- the sweep ---------- */

static void test_sweep(void)
{
    char script[600], plan_env[500], asan_env[1200];
    const char *env[8] = {"BOUNDARY_HORIZON_DAYS=" HORIZON_DAYS};
    size_t n = 1;
    sweep_env(env, &n, plan_env, sizeof plan_env, asan_env, sizeof asan_env, plan_path);
    const char *args[] = {script_path(script, sizeof script), dcsim_path, srcdir, NULL};
    dc_runner_result r = dc_runner_run("/bin/bash", args, &(dc_runner_opts){.env = env, .timeout_s = 1800});
    printf("\n%s", r.out);
    if (r.status != 0)
        printf("%s", r.err);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT(strstr(r.out, ", 0 defects;") != NULL);
    dc_runner_free(&r);
}

/* ---------- the sweep can fail ---------- */

/* A stand-in dcsim: `keys` lists one ranged key per behaviour, `run` acts
 * out the behaviour of the key it is given. */
static const char standin[] =
    "#!/bin/sh\n"
    "# A stand-in dcsim for tests/test_boundary.c: one ranged key per way a run can go.\n"
    "if [ \"$1\" = keys ]; then\n"
    "    echo '| Key | Type | Unit | Default | Range | Description |'\n"
    "    echo '|-----|------|------|---------|-------|-------------|'\n"
    "    for k in ok.runs ok.refused bad.crash bad.hang bad.fails bad.memory bad.noline bad.nokey bad.silent \\\n"
    "             bad.sanitizer bad.unplanned; do\n"
    "        echo \"| \\`$k\\` | number |  | 1 | [0, 10] | how the stand-in runs |\"\n"
    "    done\n"
    "    echo '| `ok.unranged` | number |  | 1 |  | no range: not run |'\n"
    "    exit 0\n"
    "fi\n"
    "case \"$*\" in\n"
    "*ok.runs=*) exit 0 ;;\n"
    "*ok.refused=*) echo \"dcsim: warning: $2:3: ok.refused: a warning first\" >&2\n"
    "    echo \"dcsim: $2:4: ok.refused: must be at most 5\" >&2; exit 2 ;;\n"
    "*bad.crash=*) kill -SEGV $$ ;;\n"
    "*bad.hang=*) exec sleep 60 ;;\n"
    "*bad.fails=*) echo 'dcsim: the model failed' >&2; exit 1 ;;\n"
    "*bad.memory=*) echo \"dcsim: out of memory for a job's record\" >&2; exit 1 ;;\n"
    "*bad.noline=*) echo 'dcsim: bad.noline: must be at most 5' >&2; exit 2 ;;\n"
    "*bad.nokey=*) echo \"dcsim: $2:6: the job needs 64 nodes but the pool has 8\" >&2; exit 2 ;;\n"
    "*bad.silent=*) exit 2 ;;\n"
    "*bad.sanitizer=*) echo '==12==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1' >&2; exit 0 ;;\n"
    "esac\n"
    "exit 3\n";

static void test_standin(void)
{
    char fake[400], plan[400], sc[400];
    snprintf(fake, sizeof fake, "%s/dcsim", tmpdir);
    snprintf(plan, sizeof plan, "%s/standin.plan", tmpdir);
    snprintf(sc, sizeof sc, "%s/standin.cfg", tmpdir);
    CU_ASSERT_FATAL(dc_runner_write(fake, standin, strlen(standin)) == 0);
    CU_ASSERT_FATAL(chmod(fake, 0755) == 0);
    CU_ASSERT_FATAL(dc_runner_write(sc, "horizon_days = 1.0;\n", 20) == 0);
    char text[4000] = "";
    const char *planned[] = {"ok.runs", "ok.refused", "bad.crash", "bad.hang", "bad.fails", "bad.memory",
                             "bad.noline", "bad.nokey", "bad.silent", "bad.sanitizer"};
    for (size_t i = 0; i < sizeof planned / sizeof planned[0]; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s %s\n", planned[i], sc);
    CU_ASSERT_FATAL(dc_runner_write(plan, text, strlen(text)) == 0);

    char script[600], plan_env[500];
    const char *env[] = {plan_env, "BOUNDARY_TIME_S=1", NULL};
    snprintf(plan_env, sizeof plan_env, "BOUNDARY_PLAN=%s", plan);
    const char *args[] = {script_path(script, sizeof script), fake, srcdir, NULL};
    dc_runner_result r = dc_runner_run("/bin/bash", args, &(dc_runner_opts){.env = env, .timeout_s = 120});
    printf("\nthe stand-in's sweep (every DEFECT of it expected):\n%s", r.out);
    CU_ASSERT_EQUAL(r.status, 1);
    /* Each bad key at both ends, with the command that reproduces it. */
    static const struct {
        const char *key, *what;
    } expect[] = {
        {"bad.crash", "killed by signal 11"},
        {"bad.hang", "over 1 s (killed)"},
        {"bad.fails", "status 1"},
        {"bad.memory", "status 1: out of memory"},
        {"bad.noline", "status 2, a message without FILE:LINE: KEY:"},
        {"bad.nokey", "status 2, a message without FILE:LINE: KEY:"},
        {"bad.silent", "status 2 without a message"},
        {"bad.sanitizer", "status 0 with a sanitizer's report"},
    };
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++)
        for (int end = 0; end < 2; end++) {
            /* "DEFECT WHAT...: SC --set KEY=VALUE", then (stderr and) the command. */
            char tail[1000], cmd[1000];
            snprintf(tail, sizeof tail, ": %s --set %s=%s\n", sc, expect[i].key, end ? "10" : "0");
            snprintf(cmd, sizeof cmd, " run %s --no-trace --quiet --set %s=%s --set horizon_days=2)\n", sc,
                     expect[i].key, end ? "10" : "0");
            bool seen = false, repro = false;
            for (const char *at = strstr(r.out, tail); at && !seen; at = strstr(at + 1, tail)) {
                const char *start = at;
                while (start > r.out && start[-1] != '\n')
                    start--;
                seen = strncmp(start, "DEFECT ", 7) == 0 && strncmp(start + 7, expect[i].what, strlen(expect[i].what)) == 0;
                const char *next = strstr(at + strlen(tail), "  reproduce: (ulimit -v ");
                const char *end_line = next ? strchr(next, '\n') : NULL;
                repro = next && end_line && (size_t)(end_line + 1 - next) > strlen(cmd) &&
                        strncmp(end_line + 1 - strlen(cmd), cmd, strlen(cmd)) == 0;
            }
            if (!seen || !repro)
                printf("missing: DEFECT %s%s  or its reproduce: ...%s", expect[i].what, tail, cmd);
            CU_ASSERT(seen && repro);
        }
    CU_ASSERT(strstr(r.out, "DEFECT no scenario in the plan for bad.unplanned") != NULL);
    CU_ASSERT(strstr(r.out, "ok.runs") == NULL);
    CU_ASSERT(strstr(r.out, "ok.refused") == NULL);
    CU_ASSERT(strstr(r.out, "ok.unranged") == NULL);
    CU_ASSERT(strstr(r.out, "boundary: 22 runs (22 values on their plan's scenarios), 2 ran, 2 refused with a "
                            "message (status 2), 18 defects;") != NULL);
    dc_runner_free(&r);
}

/* The combination sweep's draw (bench/combos.sh with COMBOS_LIST=1, make
 * combos): the same seed gives the same runs and another seed others; each
 * run is a scenario of the sweep's (scenarios/ or bench/shared.cfg) and 3
 * to 8 overrides KEY=VALUE of distinct keys of `dcsim keys` ([] as [0]),
 * none of them horizon_days. */
static dc_runner_result combos_list(const char *seed_env)
{
    char script[600];
    snprintf(script, sizeof script, "%s/bench/combos.sh", srcdir);
    const char *env[] = {"COMBOS_LIST=1", "COMBOS_RUNS=100", seed_env, NULL};
    const char *args[] = {script, dcsim_path, srcdir, NULL};
    return dc_runner_run("/bin/bash", args, &(dc_runner_opts){.env = env, .timeout_s = 120});
}

static void test_combos_draw(void)
{
    dc_runner_result a = combos_list("COMBOS_SEED=3"), b = combos_list("COMBOS_SEED=3");
    dc_runner_result c = combos_list("COMBOS_SEED=4");
    const char *kargs[] = {"keys", NULL};
    dc_runner_result k = dc_runner_dcsim(kargs, &(dc_runner_opts){.timeout_s = 60});
    CU_ASSERT_EQUAL_FATAL(a.status, 0);
    CU_ASSERT_EQUAL(b.status, 0);
    CU_ASSERT_EQUAL(c.status, 0);
    CU_ASSERT_EQUAL_FATAL(k.status, 0);
    CU_ASSERT_STRING_EQUAL(a.out, b.out);
    CU_ASSERT(strcmp(a.out, c.out) != 0);
    size_t runs = 0, bad = 0;
    char *save = NULL;
    for (char *line = strtok_r(a.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        runs++;
        char *field_save = NULL, keys[8][160];
        const char *sc = strtok_r(line, "\t", &field_save);
        size_t n = strlen(sc);
        bool ok = (strstr(sc, "/scenarios/") && n > 4 && strcmp(sc + n - 4, ".cfg") == 0) ||
                  (n >= 16 && strcmp(sc + n - 16, "bench/shared.cfg") == 0);
        size_t n_keys = 0;
        for (char *f = strtok_r(NULL, "\t", &field_save); f; f = strtok_r(NULL, "\t", &field_save)) {
            char *eq = strchr(f, '=');
            ok = ok && eq && eq[1] != '\0' && n_keys < 8;
            if (!ok)
                break;
            *eq = '\0';
            /* the table's name: [0] back to [] */
            char name[160] = "", pattern[200];
            for (const char *p = f; *p && strlen(name) + 3 < sizeof name; p++) {
                if (strncmp(p, "[0]", 3) == 0) {
                    strcat(name, "[]");
                    p += 2;
                } else
                    strncat(name, p, 1);
            }
            snprintf(pattern, sizeof pattern, "| `%s` |", name);
            ok = strstr(k.out, pattern) && strcmp(f, "horizon_days") != 0;
            for (size_t i = 0; i < n_keys && ok; i++)
                ok = strcmp(keys[i], f) != 0;
            snprintf(keys[n_keys++], sizeof keys[0], "%s", f);
        }
        ok = ok && n_keys >= 3;
        if (!ok && bad++ < 5)
            printf("\n  a drawn run not as it should be: %s (%zu overrides)\n", sc, n_keys);
    }
    CU_ASSERT_EQUAL(runs, 100);
    CU_ASSERT_EQUAL(bad, 0);
    dc_runner_free(&a);
    dc_runner_free(&b);
    dc_runner_free(&c);
    dc_runner_free(&k);
}

static int register_suites(void)
{
    DC_TEST_SUITE("boundary",
                  {"the sweep reports a crash, a hang, status 1, a bad message, a sanitizer", test_standin},
                  {"the combination sweep's draw: seeded, 3-8 keys of the schema", test_combos_draw},
                  {"a plan: every ranged key on the cheapest scenario holding its group", test_plan},
                  {"every ranged key at its minimum and maximum", test_sweep});
    return 0;
}

int main(void)
{
    dcsim_path = getenv("DCSIM");
    srcdir = getenv("DCSIM_SRCDIR");
    if (!dcsim_path || !srcdir) {
        fprintf(stderr, "set DCSIM (the dcsim binary) and DCSIM_SRCDIR (the source tree); make check does\n");
        return 1;
    }
    int rc = dc_test_main_in_tmpdir("boundary", tmpdir, sizeof tmpdir, register_suites);
    return rc;
}

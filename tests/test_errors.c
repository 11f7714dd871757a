/* Tests: the bad-input catalogue of docs/errors.md, each case run as the dcsim program.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The bad-input catalogue (docs/errors.md): data files, trace files (damaged,
 * other versions), limits,
 * signals, a full disk and format versions, each run as the dcsim program in
 * a fresh directory.  For every case: the exit status, the message
 * fragments, no crash (a signal other than the one the case sends), no hang
 * (the child runs under alarm()), no file left over in the directory or in
 * the child's TMPDIR, and the previous output of that name intact.  The
 * scenario and command-line errors of test_cli, test_power, test_network,
 * test_sweep and test_plot are not repeated here. */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <hdf5.h>

#include "testutil.h"

static const char *dcsim_path;
static const char *srcdir;
static char fixdir[256];  /* shared fixtures: a real trace and a sweep file */
static char trace_fix[300], sweep_fix[300];

/* A small powered scenario reading data.csv as its ambient temperature. */
#define POWERED                                                                                     \
    "horizon_days = 1.0;\ncluster = { nodes = 4; };\njob = { nodes = 4; work_gpu_h = 50.0; };\n" \
    "power = { gpu = { peak_w = 700.0; }; };\ncooling = { type = \"air\"; capacity_kw = 100.0; };\n"
#define AMBIENT POWERED "environment = { ambient = { source = \"csv\"; file = \"data.csv\"; }; };\n"
#define CARBON POWERED "environment = { carbon = { source = \"csv\"; file = \"data.csv\"; }; };\n"
/* A scenario that runs. */
#define VALID "horizon_days = 1.0;\ncluster = { nodes = 4; };\njob = { nodes = 4; work_gpu_h = 50.0; };\n"
/* A powered cluster in orbit; what goes in the orbital group is the case's. */
#define ORBITAL(what)                                                                               \
    "horizon_days = 1.0;\ncluster = { nodes = 4; };\njob = { nodes = 4; work_gpu_h = 50.0; };\n" \
    "power = { gpu = { peak_w = 700.0; }; };\n"                                                    \
    "orbital = { satellites = 4; altitude_km = 650.0; " what " };\n"
/* Corruptions found 600 s after they happen, checkpoints every 60 s, one
 * kept: a corruption rolls the job back to its start. */
#define RETAIN_CFG                                                                                          \
    "horizon_days = 1.0;\ncluster = { nodes = 4; };\njob = { nodes = 4; work_gpu_h = 5000.0; };\n"          \
    "checkpoint = { interval_s = 60.0; write_gb_per_s = 10.0; size_gb = 10.0; retain = 1; };\n"               \
    "failures = ( { name = \"sdc\"; per = \"gpu\"; mode = \"corrupt\"; mtbf_h = 10.0; detect_s = 600.0; } );\n"
/* Runs for minutes unless stopped: failures faster than the repairs. */
#define LONG_SETS "--set", "horizon_days=20000", "--set", "job.work_gpu_h=1e12", "--set", "trace.events=false", \
                  "--set", "failures.[0].mtbf_h=1.0", "--set", "job.restart_s=1.0"

/* What becomes of corrupt.h5 before the run. */
enum { T_NONE, T_HALF, T_4K, T_EMPTY, T_GARBAGE, T_V99, T_V0, T_NOFMT, T_FLIP, T_BLOCK, T_MULTIVER, T_COPY, T_HUGE, T_BIGCOUNT };

typedef struct err_case {
    const char *what;
    const char *cfg;       /* written to bad.cfg (NULL: none) */
    const char *csv;       /* written to data.csv; "@DIR": a directory there */
    int trace;             /* corrupt.h5 (T_*) */
    const char *env;       /* NAME=VALUE for the child */
    long fsize;            /* RLIMIT_FSIZE of the child, bytes (0: none) */
    int sig;               /* sent once the child is ready for it (DCSIM_READY_FILE) */
    bool prev;             /* out.h5 exists before, and must be intact after */
    const char *args[20];  /* after "dcsim"; @CFG @OUT @DIR @TRACE @SWEEP @CORRUPT @SMALL @SCENARIOS */
    int status;
    const char *frags[3];
    const char *leaves;    /* a file the case creates on purpose ("out.h5"), checked below */
    const char *setup;     /* a shell command run in the case's directory first (links, FIFOs) */
    bool full;             /* standard output is /dev/full */
} err_case;

/* The table leaves setup and full out where a case has none. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const err_case cases[] = {
    /* ---- integers past 32 bits (libconfig 1.5 wrapped them) and includes (sim/cfgtext.h) ---- */
    {"2^32 + 16 nodes", "horizon_days = 1.0;\ncluster = { nodes = 4294967312; };\njob = { nodes = 4; work_gpu_h = 50.0; };\n",
     NULL, 0, NULL, 0, 0, true, {"run", "@CFG", "-o", "@OUT"}, 2,
     {"bad.cfg:2: cluster.nodes", "must be at most 10000000 (got 4294967312)"}, NULL},
    {"-2^32 + 1 nodes", "horizon_days = 1.0;\ncluster = { nodes = -4294967295; };\njob = { nodes = 1; work_gpu_h = 50.0; };\n",
     NULL, 0, NULL, 0, 0, false, {"validate", "@CFG"}, 2, {"bad.cfg:2: cluster.nodes", "(got -4294967295)"}, NULL},
    {"2^32 + 16 nodes in hexadecimal",
     "horizon_days = 1.0;\ncluster = { nodes = 0x100000010; };\njob = { nodes = 4; work_gpu_h = 50.0; };\n", NULL, 0, NULL,
     0, 0, false, {"validate", "@CFG"}, 2, {"bad.cfg:2: cluster.nodes", "(got 4294967312)"}, NULL},
    {"a seed past 64 bits", "seed = 99999999999999999999;\n" VALID, NULL, 0, NULL, 0, 0, true, {"run", "@CFG", "-o", "@OUT"}, 2,
     {"bad.cfg:1: seed", "the integer 99999999999999999999 is outside the 64-bit range"}, NULL},
    {"a 64-bit job size", VALID "jobs = ( { name = \"b\"; nodes = 2; work_gpu_h = 8589934592L; },\n"
     "  { name = \"c\"; nodes = 8589934594; work_gpu_h = 1.0; } );\n", NULL, 0, NULL, 0, 0, false, {"validate", "@CFG"}, 2,
     {"bad.cfg:5: jobs.[1].nodes", "(got 8589934594)"}, NULL},
    {"@include of a directory", "@include \"sub\"\n" VALID, NULL, 0, NULL, 0, 0, true, {"run", "@CFG", "-o", "@OUT"}, 2,
     {"bad.cfg:1: @include \"sub\"", "is a directory"}, NULL, "mkdir sub"},
    {"@include of a missing file", VALID "@include \"missing.cfg\"\n", NULL, 0, NULL, 0, 0, false, {"validate", "@CFG"}, 2,
     {"bad.cfg:4: @include \"missing.cfg\"", "cannot open include file", "missing.cfg': No such file or directory"},
     NULL},
    {"a scenario including itself", VALID "@include \"bad.cfg\"\n", NULL, 0, NULL, 0, 0, false, {"validate", "@CFG"}, 2,
     {"bad.cfg:4: @include \"bad.cfg\"", "already being read", "may not include itself"}, NULL},
    {"an include cycle", VALID "@include \"b.cfg\"\n", NULL, 0, NULL, 0, 0, false, {"validate", "@CFG"}, 2,
     {"b.cfg:2: @include \"bad.cfg\"", "already being read"}, NULL, "printf '# b\\n@include \"bad.cfg\"\\n' > b.cfg"},
    {"a relative include inside an include resolves against its own directory",
     "horizon_days = 1.0;\n@include \"d/inner.cfg\"\njob = { nodes = 4; work_gpu_h = 50.0; };\n", NULL, 0, NULL, 0, 0, false,
     {"validate", "@CFG"}, 2, {"d/leaf.cfg:2: cluster.nodez", "unknown key (did you mean cluster.nodes?)"}, NULL,
     "mkdir d && printf '@include \"leaf.cfg\"\\n' > d/inner.cfg && printf '# leaf\\ncluster = { nodez = 4; };\\n' > d/leaf.cfg"},
    {"lines after an include are the file's own",
     "horizon_days = 1.0;\n@include \"c.cfg\"\njob = { nodes = 4; work_gpu_h = 50.0; };\njob2 = 1;\n", NULL, 0, NULL, 0, 0,
     false, {"validate", "@CFG"}, 2, {"bad.cfg:4: job2", "unknown key"}, NULL,
     "printf '# c\\n\\ncluster = { nodes = 4; };\\n' > c.cfg"},
    {"a UTF-8 byte-order mark is skipped", "\xef\xbb\xbfhorizon_days = 1.0;\ncluster = { nodes = 4; };\njob = { nodez = 4; };\n",
     NULL, 0, NULL, 0, 0, false, {"validate", "@CFG"}, 2, {"bad.cfg:3: job.nodez", "unknown key"}, NULL},

    /* ---- warnings: runs that go ahead (status 0) with a line naming file, line and key ---- */
    {"a lone node-local checkpoint tier warns", NULL, NULL, 0, NULL, 0, 0, false,
     {"run", "@SCENARIOS/10k_gpu.cfg", "--no-trace", "--quiet", "--set", "horizon_days=0.01", "--set",
      "checkpoint.tier=\"nvme\""},
     0,
     {"dcsim: warning: (--set) checkpoint.tier: tier \"nvme\" is on the job's nodes and is its only checkpoint tier",
      "loses the checkpoints and restarts the job from its start"},
     NULL},
    {"checkpoints kept for less than the detection delay warn", NULL, NULL, 0, NULL, 0, 0, false,
     {"run", "@SCENARIOS/10k_gpu.cfg", "--no-trace", "--quiet", "--set", "horizon_days=0.01", "--set",
      "checkpoint.tier=\"pfs\""},
     0,
     {"dcsim: warning: ", "10k_gpu.cfg:",
      "checkpoint.retain: 8 checkpoints at the job's interval reach back less than the 3600 s after which failure "
      "class \"silent_corruption\"'s corruptions may be found"},
     NULL},
    {"a corruption rolling a job back to its start warns", RETAIN_CFG, NULL, 0, NULL, 0, 0, false,
     {"run", "@CFG", "--no-trace", "--quiet"}, 0,
     {"dcsim: warning: ",
      "bad.cfg:4: checkpoint.retain: 1 checkpoints at the job's interval reach back less than the "
      "600 s after which failure class \"sdc\"'s corruptions may be found",
      "bad.cfg:4: checkpoint.retain: a corruption of class \"sdc\" was found after every one of the "
      "1 checkpoints kept had been taken: the job rolled back to its start"},
     NULL},

    /* ---- a sweep's results within the memory limit ---- */
    {"10^7 replications: the results table over the memory limit", NULL, NULL, 0, "DCSIM_MAX_MEMORY_GB=20", 0, 0, true,
     {"sweep", "@SMALL", "--reps", "10000000", "--threads", "1", "--quiet", "-o", "@OUT"}, 2,
     {"the results of 10000000 runs of", "figures would need about", "more than the limit of 20 GB"}, NULL},
    {"10^6 replications refused before any run", NULL, NULL, 0, "DCSIM_MAX_MEMORY_GB=0.05", 0, 0, false,
     {"sweep", "@SMALL", "--reps", "1000000", "--threads", "1", "--quiet"}, 2,
     {"the results of 1000000 runs of at least 16 figures", "more than the limit of 0.05 GB (DCSIM_MAX_MEMORY_GB)"},
     NULL},

    /* ---- clear messages ---- */
    {"compare a trace with a sweep file", NULL, NULL, 0, NULL, 0, 0, false, {"compare", "@TRACE", "@SWEEP"}, 2,
     {"sweep.h5' holds the results of a sweep", "give the trace of a run (dcsim run -o)"}, NULL},
    {"a job trace's bad cell names the scenario key and the CSV's line and column",
     VALID "jobs = ( { name = \"t\"; trace = \"data.csv\"; } );\n",
     "arrival_h,nodes,work_gpu_h,priority,pool,user,kind\n0,2,10,0,,,\n1,x,10,0,,,\n", 0, NULL, 0, 0, true,
     {"run", "@CFG", "-o", "@OUT"}, 2, {"bad.cfg:4: jobs.[0].trace: ", "data.csv:3: column nodes: expected a number"},
     NULL},
    {"a job trace's missing column names the scenario key", VALID "jobs = ( { name = \"t\"; trace = \"data.csv\"; } );\n",
     "arrival_h,nodez,work_gpu_h\n0,2,10\n", 0, NULL, 0, 0, false, {"validate", "@CFG"}, 2,
     {"bad.cfg:4: jobs.[0].trace: ", "data.csv:1: no column \"nodes\""}, NULL},
    {"a mapped job trace's bad cell names trace.file",
     VALID "jobs = ( { name = \"t\"; trace = { file = \"data.csv\"; columns = { submit = \"s\"; duration = \"d\";\n"
     "  gpus = \"g\"; }; }; } );\n",
     "s,d,g\n0,10,8\n5,x,8\n", 0, NULL, 0, 0, false, {"validate", "@CFG"}, 2,
     {"bad.cfg:4: jobs.[0].trace.file: ", "data.csv:3: column d: expected a number"}, NULL},
    {"an SWF job trace's bad field names trace.file",
     VALID "jobs = ( { name = \"t\"; trace = { file = \"data.csv\"; format = \"swf\"; }; } );\n",
     "1 0 0 100 x 0 0 4 100 0 0 0 0 0 0 0 0 0\n", 0, NULL, 0, 0, false, {"validate", "@CFG"}, 2,
     {"bad.cfg:4: jobs.[0].trace.file: ", "data.csv:1: field 5 (allocated processors): expected a number"}, NULL},
    /* Found by the boundary sweep (tests/test_boundary.c): messages that named no key or no line. */
    {"a job trace's row too big for its pool names the scenario key", VALID "jobs = ( { name = \"t\"; trace = \"data.csv\"; } );\n",
     "arrival_h,nodes,work_gpu_h,priority,pool,user,kind\n0,2,10,0,,,\n1,8,10,0,,,\n", 0, NULL, 0, 0, false,
     {"validate", "@CFG"}, 2,
     {"bad.cfg:4: jobs.[0].trace: ", "data.csv:3: the job needs 8 nodes but pool \"default\" has 4"}, NULL},
    {"a job trace's row naming no pool names the scenario key", VALID "jobs = ( { name = \"t\"; trace = \"data.csv\"; } );\n",
     "arrival_h,nodes,work_gpu_h,priority,pool,user,kind\n0,2,10,0,nopool,,\n", 0, NULL, 0, 0, false,
     {"validate", "@CFG"}, 2, {"bad.cfg:4: jobs.[0].trace: ", "data.csv:2: no pool \"nopool\" in scheduler.pools"},
     NULL},
    {"a failure log's bad row names the scenario key, then the log's line and column",
     VALID "failures = ( { name = \"hw\"; from_log = true; } );\n"
     "failure_log = { file = \"data.csv\"; class = \"hw\";\n  columns = { time = \"time_h\"; node = \"node\"; }; };\n",
     "time_h,node\n1.0,2\n2.0,9\n", 0, NULL, 0, 0, false, {"validate", "@CFG"}, 2,
     {"bad.cfg:5: failure_log.file: ", "data.csv:3: column node: node 9 is not in the cluster"}, NULL},
    {"a key the file leaves to its default is named with its group's line",
     VALID "power = { gpu = { peak_w = 700.0; }; };\ncooling = { type = \"air\"; capacity_kw = 100.0;\n  supply_c = 50.0; };\n",
     NULL, 0, NULL, 0, 0, false,
     {"validate", "@CFG"}, 2,
     {"bad.cfg:5: cooling.throttle_c: ", "must be above the supply temperature (50 C)"}, NULL},
    {"a class taking the default repair law has that law's message, then the class",
     VALID "failures = ( { name = \"gpu\"; per = \"gpu\"; mtbf_h = 1000.0; } );\n"
     "repair = { crews = 1; law = \"lognormal\"; sigma = 0.8; median_h = 3.0; shape = 2.0; };\n",
     NULL, 0, NULL, 0, 0, false, {"validate", "@CFG"}, 2,
     {"bad.cfg:5: repair: law 'lognormal' takes sigma and median_h or a mean only",
      "(the repair law of failure class \"gpu\", which has no failures.[0].repair group)"},
     NULL},
    {"a CSV file with a UTF-8 byte-order mark", AMBIENT, "\xef\xbb\xbftime_h,temp_c\n0,20\n1,500\n", 0, NULL, 0, 0,
     false, {"run", "@CFG", "--no-trace"}, 2, {"environment.ambient.file", "data.csv:3: column temp_c: out of range"},
     NULL},

    /* ---- the progress guarantee: values that would make the event loop degenerate ---- */
    {"a job's zero checkpoint write time with an automatic interval",
     "horizon_days = 1.0;\ncluster = { nodes = 4; };\n"
     "checkpoint = { interval_s = \"auto\"; write_gb_per_s = 20.0; size_gb = 600.0; };\n"
     "jobs = ( { name = \"a\"; nodes = 4; work_gpu_h = 50.0;\n  checkpoint_write_s = 0.0; } );\n",
     NULL, 0, NULL, 0, 0, true, {"run", "@CFG", "-o", "@OUT"}, 2,
     {"bad.cfg:5: jobs.[0].checkpoint_write_s", "below the minimum of 0.001 s", "automatic interval"}, NULL},
    {"a 1e-300 GB checkpoint with an automatic interval", NULL, NULL, 0, NULL, 0, 0, true,
     {"run", "@SMALL", "-o", "@OUT", "--set", "checkpoint.size_gb=1e-300"}, 2,
     {"(--set) checkpoint.size_gb", "below the minimum of 0.001 s"}, NULL},
    {"a fixed checkpoint interval under a second", VALID "checkpoint = { interval_s = 1e-300; write_gb_per_s = 1.0; size_gb = 1.0; };\n",
     NULL, 0, NULL, 0, 0, false, {"validate", "@CFG"}, 2, {"bad.cfg:4: checkpoint.interval_s", "at least 1"}, NULL},
    {"failures at 1e-300 h", VALID "failures = ( { name = \"x\"; per = \"gpu\"; mtbf_h = 1e-300; } );\n", NULL, 0,
     NULL, 0, 0, false, {"validate", "@CFG"}, 2,
     {"bad.cfg:4: failures.[0].mtbf_h", "failures per simulated second", "limit of 1000"}, NULL},
    /* run, not validate: the memory estimate comes first, named after the class's key (was "bad.cfg: the run
     * would need about ..." with no line or key: bench/combos.sh) */
    {"failures at 1e-300 h, run", VALID "failures = ( { name = \"x\"; per = \"gpu\"; mtbf_h = 1e-300; } );\n", NULL, 0,
     NULL, 0, 0, false, {"run", "@CFG", "--no-trace"}, 2,
     {"/bad.cfg:4: failures.[0].mtbf_h: the run would need about", "3.07e+303 expected events"}, NULL},
    /* was "bad.cfg: the job needs ..." with no line or key: the check named job.nodes, which a job sized in GPUs
     * lacks (bench/combos.sh) */
    {"a job of 8000 GPUs on 4 nodes", "horizon_days = 1.0;\ncluster = { nodes = 4; };\njob = { gpus = 8000; work_gpu_h = 50.0; };\n",
     NULL, 0, NULL, 0, 0, false, {"validate", "@CFG"}, 2,
     {"/bad.cfg:3: job.gpus: the job needs 1000 nodes but the cluster has 4 (nodes + spare_nodes)"}, NULL},
    /* checked at the start (the write time through the storage); was "job \"job\": a checkpoint ..." with no
     * file, line or key (bench/combos.sh) */
    {"a tiered checkpoint written in 1e-11 s",
     VALID "storage = { tiers = ( { name = \"pfs\"; kind = \"pfs\"; capacity_tb = 100.0; read_gb_per_s = 100.0;\n"
     "  write_gb_per_s = 100.0; latency_us = 0.0; } ); };\ncheckpoint = { tier = \"pfs\";\n  size_gb = 1e-9; };\n",
     NULL, 0, NULL, 0, 0, false, {"run", "@CFG", "--no-trace"}, 2,
     {"/bad.cfg:7: checkpoint.size_gb: job \"job\": a checkpoint written in 1e-11 s", "below the minimum of 0.001 s"},
     NULL},
    /* was "bad.cfg: failure class ..." with no line or key (bench/combos.sh) */
    {"a corrupting class without checkpoints",
     VALID "failures = ( { name = \"x\"; per = \"gpu\"; mtbf_h = 1e5; mode = \"corrupt\"; } );\n", NULL, 0,
     NULL, 0, 0, false, {"validate", "@CFG"}, 2,
     {"/bad.cfg:4: failures.[0].mode: failure class \"x\" corrupts silently, which needs checkpoints to roll back to"},
     NULL},
    {"a job crashing 2,778 times a second",
     VALID "repair = { crews = 1; law = \"exponential\"; mean_h = 1.0; };\n"
     "failures = ( { name = \"x\"; per = \"job\"; mtbf_h = 1e-7; } );\n",
     NULL, 0, "DCSIM_MAX_MEMORY_GB=1e9", 0, 0, false, {"run", "@CFG", "--no-trace"}, 2,
     {"bad.cfg:5: failures.[0].mtbf_h", "2.78e+03 failures per simulated second over its 1 unit"}, NULL},
    {"failures at an AFR of 10^6 on 32,000 GPUs",
     "horizon_days = 1.0;\ncluster = { nodes = 4000; };\njob = { nodes = 4; work_gpu_h = 50.0; };\n"
     "failures = ( { name = \"x\"; per = \"gpu\"; afr = 1e6; } );\n",
     NULL, 0, NULL, 0, 0, false, {"validate", "@CFG"}, 2,
     {"bad.cfg:4: failures.[0].afr", "1.01e+03 failures per simulated second over its 32000 units"}, NULL},
    {"a cooling step of 1e-300 s",
     "horizon_days = 1.0;\ncluster = { nodes = 4; };\njob = { nodes = 4; work_gpu_h = 50.0; };\n"
     "power = { gpu = { peak_w = 700.0; }; };\ncooling = { type = \"air\"; capacity_kw = 100.0;\n"
     "  step_s = 1e-300; };\n", NULL, 0, NULL, 0, 0, true,
     {"run", "@CFG", "-o", "@OUT"}, 2, {"bad.cfg:6: cooling.step_s", "must be at least 1 (got 1e-300)"}, NULL},
    {"radiation events every 1e-300 rad", NULL, NULL, 0, NULL, 0, 0, true,
     {"run", "@SCENARIOS/orbital/starcloud.cfg", "-o", "@OUT", "--set", "orbital.radiation.sdc_rad_per_event=1e-300"}, 2,
     {"(--set) orbital.radiation.sdc_rad_per_event", "events per simulated second over the 324 GPUs"}, NULL},
    {"servicing launches every 1e-300 days", NULL, NULL, 0, NULL, 0, 0, false,
     {"run", "@SCENARIOS/orbital/starcloud.cfg", "--no-trace", "--set", "orbital.servicing.interval_days=1e-300"}, 2,
     {"(--set) orbital.servicing.interval_days", "must be at least 1 (got 1e-300)"}, NULL},
    {"an orbital step of 1e-300 s",
     ORBITAL("step_s = 1e-300; solar = { area_m2 = 100.0; }; radiator = { area_m2 = 50.0; };"), NULL, 0, NULL, 0,
     0, false, {"run", "@CFG", "--no-trace"}, 2, {"bad.cfg:5: orbital.step_s", "must be at least 1"}, NULL},
    /* ---- scenarios the models could not run (they crashed) ---- */
    {"orbital without solar or radiator", ORBITAL("battery = { capacity_kwh = 5.0; };"), NULL, 0, NULL, 0, 0, false,
     {"run", "@CFG", "--no-trace"}, 2, {"bad.cfg:5", "orbital", "required key 'solar' missing"}, NULL},
    {"orbital without a radiator", ORBITAL("solar = { area_m2 = 100.0; };"), NULL, 0, NULL, 0, 0, false,
     {"validate", "@CFG"}, 2, {"bad.cfg:5", "orbital", "required key 'radiator' missing"}, NULL},
    {"orbital made by --set", NULL, NULL, 0, NULL, 0, 0, false,
     {"run", "@SMALL", "--no-trace", "--set", "orbital.satellites=1", "--set", "orbital.altitude_km=650", "--set",
      "power.gpu.peak_w=700"},
     2, {"(--set) orbital", "required key 'solar' missing"}, NULL},

    /* ---- data files (ambient temperature, carbon) ---- */
    {"empty CSV", AMBIENT, "", 0, NULL, 0, 0, false, {"run", "@CFG", "--no-trace"}, 2,
     {"bad.cfg:6", "environment.ambient.file", "no header line"}, NULL},
    {"CSV with a header only", AMBIENT, "time_h,temp_c\n", 0, NULL, 0, 0, false, {"run", "@CFG", "--no-trace"}, 2,
     {"data.csv", "no data rows"}, NULL},
    {"binary CSV", AMBIENT, "\x01\x02\xff\xfe\x7f\n\x03", 0, NULL, 0, 0, false, {"run", "@CFG", "--no-trace"}, 2,
     {"data.csv:1", "no column \"time_h\""}, NULL},
    {"CSV with an unterminated quote", AMBIENT, "time_h,temp_c\n0,\"20\n48,20\n", 0, NULL, 0, 0, false,
     {"run", "@CFG", "--no-trace"}, 2, {"data.csv:2", "unterminated quote"}, NULL},
    {"CSV with nan", AMBIENT, "time_h,temp_c\n0,nan\n48,20\n", 0, NULL, 0, 0, false, {"run", "@CFG", "--no-trace"},
     2, {"data.csv:2", "temp_c", "expected a number (got \"nan\")"}, NULL},
    {"CSV with inf", AMBIENT, "time_h,temp_c\n0,20\n12,inf\n48,20\n", 0, NULL, 0, 0, false,
     {"run", "@CFG", "--no-trace"}, 2, {"data.csv:3", "got \"inf\""}, NULL},
    {"CSV number overflowing a double", AMBIENT, "time_h,temp_c\n0,1e999\n48,20\n", 0, NULL, 0, 0, false,
     {"run", "@CFG", "--no-trace"}, 2, {"data.csv:2", "got \"1e999\""}, NULL},
    {"ambient temperature out of range", AMBIENT, "time_h,temp_c\n0,500\n48,20\n", 0, NULL, 0, 0, false,
     {"run", "@CFG", "--no-trace"}, 2, {"data.csv:2", "out of range", "500"}, NULL},
    {"ambient times going back", AMBIENT, "time_h,temp_c\n0,20\n30,20\n20,20\n48,1\n", 0, NULL, 0, 0, false,
     {"run", "@CFG", "--no-trace"}, 2, {"data.csv:4", "times must increase", "20 after 30"}, NULL},
    {"ambient time repeated", AMBIENT, "time_h,temp_c\n0,20\n0,21\n48,20\n", 0, NULL, 0, 0, false,
     {"run", "@CFG", "--no-trace"}, 2, {"data.csv:3", "times must increase"}, NULL},
    {"ambient column missing", AMBIENT, "time_h,temp\n0,20\n48,20\n", 0, NULL, 0, 0, false,
     {"run", "@CFG", "--no-trace"}, 2, {"no column \"temp_c\"", "time_h, temp"}, NULL},
    {"CSV row with an extra field", AMBIENT, "time_h,temp_c\n0,20,5\n48,20\n", 0, NULL, 0, 0, false,
     {"run", "@CFG", "--no-trace"}, 2, {"data.csv:2", "expected 2 fields"}, NULL},
    {"ambient series shorter than the run", AMBIENT, "time_h,temp_c\n0,20\n2,20\n", 0, NULL, 0, 0, false,
     {"run", "@CFG", "--no-trace"}, 2, {"covers 4 h but the run lasts 24 h"}, NULL},
    {"CSV path is a directory", AMBIENT, "@DIR", 0, NULL, 0, 0, false, {"run", "@CFG", "--no-trace"}, 2,
     {"environment.ambient.file", "cannot read", "data.csv: Is a directory"}, NULL},
    {"CSV file missing", AMBIENT, NULL, 0, NULL, 0, 0, false, {"run", "@CFG", "--no-trace"}, 2,
     {"environment.ambient.file", "No such file"}, NULL},
    {"negative carbon intensity", CARBON, "time_h,kg_per_kwh\n0,-0.4\n", 0, NULL, 0, 0, false,
     {"run", "@CFG", "--no-trace"}, 2, {"bad.cfg:6: environment.carbon.file", "kg_per_kwh", "-0.4"}, NULL},
    {"CSV error caught by validate", AMBIENT, "time_h,temp_c\n5,20\n48,20\n", 0, NULL, 0, 0, false,
     {"validate", "@CFG"}, 2, {"data.csv:2", "start at time 0"}, NULL},

    /* ---- trace files ---- */
    {"report of a trace cut in half", NULL, NULL, T_HALF, NULL, 0, 0, false, {"report", "@CORRUPT"}, 2,
     {"corrupt.h5", "is damaged", "cut short"}, NULL},
    {"report of a trace cut to 4 KiB", NULL, NULL, T_4K, NULL, 0, 0, false, {"report", "@CORRUPT"}, 2,
     {"corrupt.h5", "holds 4096 bytes", "cut short"}, NULL},
    {"report of a trace with a byte changed", NULL, NULL, T_FLIP, NULL, 0, 0, false, {"report", "@CORRUPT"}, 2,
     {"corrupt.h5", "checksum does not match"}, NULL},
    {"report of a trace with a damaged checksum block", NULL, NULL, T_BLOCK, NULL, 0, 0, false,
     {"report", "@CORRUPT"}, 2, {"corrupt.h5", "checksum block is damaged"}, NULL},
    {"report of an empty file", NULL, NULL, T_EMPTY, NULL, 0, 0, false, {"report", "@CORRUPT"}, 2,
     {"corrupt.h5", "not an HDF5 file"}, NULL},
    {"report of an HDF5 signature and garbage", NULL, NULL, T_GARBAGE, NULL, 0, 0, false, {"report", "@CORRUPT"}, 2,
     {"corrupt.h5"}, NULL},
    {"report of a trace from a newer dcsim", NULL, NULL, T_V99, NULL, 0, 0, false, {"report", "@CORRUPT"}, 2,
     {"format version 99", "newer dcsim"}, NULL},
    {"report of a trace from an older dcsim", NULL, NULL, T_V0, NULL, 0, 0, false, {"report", "@CORRUPT"}, 2,
     {"format version 0", "older dcsim", "scenario"}, NULL},
    {"report of an HDF5 file without format_version", NULL, NULL, T_NOFMT, NULL, 0, 0, false,
     {"report", "@CORRUPT"}, 2, {"corrupt.h5", "not a dcsim trace", "no format_version"}, NULL},
    {"report of a directory", NULL, NULL, 0, NULL, 0, 0, false, {"report", "@DIR"}, 2, {"cannot open trace"}, NULL},
    {"report of sweep results", NULL, NULL, 0, NULL, 0, 0, false, {"report", "@SWEEP"}, 2,
     {"results of a sweep", "not the trace of a run"}, NULL},
    {"export of a truncated trace", NULL, NULL, T_HALF, NULL, 0, 0, false, {"export", "@CORRUPT", "/events"}, 2,
     {"corrupt.h5", "cut short"}, NULL},
    {"compare with a changed trace", NULL, NULL, T_FLIP, NULL, 0, 0, false,
     {"compare", "@TRACE", "@CORRUPT"}, 2, {"corrupt.h5", "checksum does not match"}, NULL},
    {"plot of a newer trace", NULL, NULL, T_V99, NULL, 0, 0, false,
     {"plot", "@CORRUPT", "--kind", "nodes", "-o", "@DIR/fig.png"}, 2, {"format version 99"}, NULL},

    {"report of a trace with 4096 format versions", NULL, NULL, T_MULTIVER, NULL, 0, 0, false,
     {"report", "@CORRUPT"}, 2, {"corrupt.h5", "not a dcsim trace", "format_version is not one integer"}, NULL},
    {"export of a trace with 4096 format versions", NULL, NULL, T_MULTIVER, NULL, 0, 0, false,
     {"export", "@CORRUPT", "/events"}, 2, {"corrupt.h5", "format_version is not one integer"}, NULL},
    {"compare with a trace with 4096 format versions", NULL, NULL, T_MULTIVER, NULL, 0, 0, false,
     {"compare", "@TRACE", "@CORRUPT"}, 2, {"corrupt.h5", "format_version is not one integer"}, NULL},
    {"plot of a trace with 4096 format versions", NULL, NULL, T_MULTIVER, NULL, 0, 0, false,
     {"plot", "@CORRUPT", "--kind", "nodes", "-o", "@DIR/fig.png"}, 2, {"corrupt.h5", "format_version"}, NULL},
    {"export of a trace claiming 2^28 events in no bytes", NULL, NULL, T_HUGE, NULL, 0, 0, false,
     {"export", "@CORRUPT", "/events", "-o", "@DIR/e.csv"}, 2,
     {"trace '", "corrupt.h5' is damaged: /events claims 268435456 elements", "stores 0 bytes of it"}, NULL},
    {"plot of a trace claiming 2^28 events in no bytes", NULL, NULL, T_HUGE, NULL, 0, 0, false,
     {"plot", "@CORRUPT", "--kind", "timeline", "-o", "@DIR/fig.png"}, 2,
     {"corrupt.h5' is damaged: /events claims 268435456 elements"}, NULL},
    {"export of a series whose /series_index count is 2^40", NULL, NULL, T_BIGCOUNT, NULL, 0, 0, false,
     {"export", "@CORRUPT", "/series/nodes_up", "-o", "@DIR/e.csv"}, 2,
     {"corrupt.h5': /series_index puts /series/nodes_up at rows 0 to 1099511627776 of /series, which has "}, NULL},
    {"plot of a series whose /series_index count is 2^40", NULL, NULL, T_BIGCOUNT, NULL, 0, 0, false,
     {"plot", "@CORRUPT", "--kind", "nodes", "-o", "@DIR/fig.png"}, 2,
     {"/series_index puts /series/nodes_up at rows 0 to 1099511627776"}, NULL},

    /* ---- limits ---- */
    {"ten billion GPUs with per-GPU clocks", NULL, NULL, 0, NULL, 0, 0, true,
     {"run", "@SMALL", "-o", "@OUT", "--set", "cluster.nodes=10000000", "--set", "cluster.gpus_per_node=1024",
      "--set", "failures.[0].law=\"weibull\"", "--set", "failures.[0].shape=0.8"},
     2, {"dcsim: (--set) cluster.nodes: ", "GB of memory", "more than the limit"}, NULL},
    {"memory limit set low", NULL, NULL, 0, "DCSIM_MAX_MEMORY_GB=0.001", 0, 0, true,
     {"run", "@SMALL", "-o", "@OUT"}, 2, {"small.cfg:10: cluster.nodes: the run would need",
                                           "limit of 0.001 GB (DCSIM_MAX_MEMORY_GB"}, NULL},
    {"memory limit not a number", NULL, NULL, 0, "DCSIM_MAX_MEMORY_GB=lots", 0, 0, false,
     {"run", "@SMALL", "--no-trace"}, 2, {"DCSIM_MAX_MEMORY_GB", "lots"}, NULL},
    {"trace larger than the limit", NULL, NULL, 0, "DCSIM_MAX_TRACE_GB=0.000001", 0, 0, true,
     {"run", "@SMALL", "-o", "@OUT"}, 2, {"the trace would be about", "--force", "trace.sample_interval_s"}, NULL},
    {"trace limit negative", NULL, NULL, 0, "DCSIM_MAX_TRACE_GB=-1", 0, 0, false, {"run", "@SMALL", "-o", "@OUT"},
     2, {"DCSIM_MAX_TRACE_GB", "-1"}, NULL},
    {"sweep grid point over the memory limit", NULL, NULL, 0, "DCSIM_MAX_MEMORY_GB=0.02", 0, 0, false,
     {"sweep", "@SMALL", "--reps", "2", "--threads", "1", "--vary", "cluster.nodes=16,1000000", "--set",
      "failures.[0].law=\"weibull\"", "--set", "failures.[0].shape=0.8"},
     2, {"grid point 2", "more than the limit"}, NULL},
    {"ten million spare nodes over the memory limit", NULL, NULL, 0, "DCSIM_MAX_MEMORY_GB=1", 0, 0, false,
     {"run", "@SMALL", "--no-trace", "--set", "cluster.spare_nodes=10000000"}, 2,
     {"dcsim: (--set) cluster.spare_nodes: ", "the run would need about", "(1e+07 nodes"}, NULL},
    {"a trillion nodes", NULL, NULL, 0, NULL, 0, 0, false, {"run", "@SMALL", "--set", "cluster.nodes=1000000000000"},
     2, {"cluster.nodes"}, NULL},

    /* ---- signals ---- */
    {"run interrupted by SIGINT", NULL, NULL, 0, NULL, 0, SIGINT, true, {"run", "@SMALL", "-o", "@OUT", LONG_SETS},
     130, {"interrupted by SIGINT", "no trace written"}, NULL},
    {"run interrupted by SIGTERM", NULL, NULL, 0, NULL, 0, SIGTERM, false,
     {"run", "@SMALL", "-o", "@OUT", LONG_SETS}, 143, {"interrupted by SIGTERM", "no trace written"}, NULL},
    {"run interrupted by SIGTERM while setting up a million jobs",
     "horizon_days = 365.0;\ncluster = { nodes = 12500; };\njobs = ( { name = \"s\"; count = 1000000;\n"
     "  interarrival = { law = \"exponential\"; mean_h = 0.00876; };\n  nodes_min = 1; nodes_max = 64;\n"
     "  duration = { law = \"lognormal\"; median_h = 2.0; sigma = 1.0; }; } );\n",
     NULL, 0, NULL, 0, SIGTERM, true, {"run", "@CFG", "-o", "@OUT"}, 143,
     {"interrupted by SIGTERM while setting up the run (0 of 365 simulated days)", "no trace written"}, NULL},
    /* dcsim size: the signal lands while the first size's runs are set up
     * (its validation build of a million jobs); before dc_build_cancellable
     * reached size's sweeps that build ran to its end (1.0-1.5 s) and the
     * message said only "size interrupted by SIGTERM". */
    {"size interrupted by SIGTERM while setting up a million jobs",
     "horizon_days = 365.0;\ncluster = { nodes = 12500; };\njob = { nodes = 1024; work_gpu_h = 1.0e6; };\n"
     "jobs = ( { name = \"s\"; count = 1000000;\n  interarrival = { law = \"exponential\"; mean_h = 0.0005; };\n"
     "  nodes_min = 1; nodes_max = 64;\n  duration = { law = \"lognormal\"; median_h = 2.0; sigma = 1.0; }; } );\n",
     NULL, 0, NULL, 0, SIGTERM, false,
     {"size", "@CFG", "--deadline-days", "30", "--reps", "2", "--threads", "1", "--no-plans", "--plot", "@DIR/c.png"},
     143,
     {"size interrupted by SIGTERM while setting up the runs of 1024 job nodes (0 sizes evaluated)",
      "no answer, no figure written"},
     NULL},
    {"sweep interrupted by SIGINT", NULL, NULL, 0, NULL, 0, SIGINT, false,
     {"sweep", "@SMALL", "--reps", "100000", "--threads", "1", "--quiet", "-o", "@OUT", "--set", "horizon_days=300",
      "--set", "job.work_gpu_h=1e9"},
     130, {"sweep interrupted by SIGINT", "complete = 0"}, "out.h5"},
    {"sweep interrupted by SIGTERM without output", NULL, NULL, 0, NULL, 0, SIGTERM, false,
     {"sweep", "@SMALL", "--reps", "100000", "--threads", "2", "--quiet", "--set", "horizon_days=300", "--set",
      "job.work_gpu_h=1e9"},
     143, {"sweep interrupted by SIGTERM", "nothing written"}, NULL},

    /* ---- full disk, unwritable places ---- */
    {"trace past the file-size limit", NULL, NULL, 0, NULL, 16384, 0, true, {"run", "@SMALL", "-o", "@OUT"}, 2,
     {"cannot write trace", "out.h5"}, NULL},
    {"sweep results past the file-size limit", NULL, NULL, 0, NULL, 4096, 0, true,
     {"sweep", "@SMALL", "--reps", "2", "--threads", "1", "--quiet", "-o", "@OUT"}, 2, {"cannot write sweep", "out.h5"},
     NULL},
    {"export past the file-size limit", NULL, NULL, 0, NULL, 2048, 0, false,
     {"export", "@TRACE", "/events", "-o", "@DIR/events.csv"}, 2, {"events.csv"}, NULL},
    {"trace under a regular file", NULL, NULL, 0, NULL, 0, 0, false, {"run", "@SMALL", "-o", "@SMALL/out.h5"}, 2,
     {"small.cfg/out.h5", "is not a directory"}, NULL},
    {"trace onto a directory", NULL, NULL, 0, NULL, 0, 0, false, {"run", "@SMALL", "-o", "@DIR"}, 2,
     {"cannot write trace"}, NULL},

    /* ---- outputs that would destroy what they point at (sim/outfile.h) ---- */
    {"trace over its own scenario", VALID, NULL, 0, NULL, 0, 0, false, {"run", "@CFG", "-o", "@CFG"}, 2,
     {"bad.cfg", "also an input"}, NULL},
    {"trace over a hard link to the scenario", VALID, NULL, 0, NULL, 0, 0, false, {"run", "@CFG", "-o", "@DIR/hard.h5"},
     2, {"hard.h5", "same file as the input", "bad.cfg"}, NULL, "ln bad.cfg hard.h5"},
    {"trace over the scenario's data file", AMBIENT, "time_h,temp_c\n0,20\n48,20\n", 0, NULL, 0, 0, false,
     {"run", "@CFG", "-o", "@DIR/data.csv"}, 2, {"data.csv", "also an input"}, NULL},
    {"sweep results over the scenario", VALID, NULL, 0, NULL, 0, 0, false,
     {"sweep", "@CFG", "--reps", "2", "--threads", "1", "-o", "@CFG"}, 2, {"cannot write sweep", "also an input"}, NULL},
    {"export over its own trace", NULL, NULL, T_COPY, NULL, 0, 0, false,
     {"export", "@CORRUPT", "/events", "-o", "@CORRUPT"}, 2, {"cannot write CSV", "corrupt.h5", "also an input"}, NULL},
    {"trace through a symbolic link", NULL, NULL, 0, NULL, 0, 0, true, {"run", "@SMALL", "-o", "@DIR/link.h5"}, 2,
     {"link.h5", "symbolic link (to 'out.h5')"}, NULL, "ln -s out.h5 link.h5"},
    {"trace through a dangling link", NULL, NULL, 0, NULL, 0, 0, false, {"run", "@SMALL", "-o", "@DIR/link.h5"}, 2,
     {"link.h5", "symbolic link to 'gone.h5', which does not exist"}, NULL, "ln -s gone.h5 link.h5"},
    {"trace into a FIFO", NULL, NULL, 0, NULL, 0, 0, false, {"run", "@SMALL", "-o", "@DIR/fifo"}, 2,
     {"fifo", "a FIFO (named pipe)"}, NULL, "mkfifo fifo"},
    {"sweep results into a FIFO", NULL, NULL, 0, NULL, 0, 0, false,
     {"sweep", "@SMALL", "--reps", "2", "--threads", "1", "-o", "@DIR/fifo"}, 2, {"cannot write sweep", "a FIFO"}, NULL,
     "mkfifo fifo"},
    {"sweep results through a link", NULL, NULL, 0, NULL, 0, 0, true,
     {"sweep", "@SMALL", "--reps", "2", "--threads", "1", "-o", "@DIR/link.h5"}, 2, {"link.h5", "symbolic link"}, NULL,
     "ln -s out.h5 link.h5"},
    {"export through a link", NULL, NULL, 0, NULL, 0, 0, true,
     {"export", "@TRACE", "/events", "-o", "@DIR/link.csv"}, 2, {"cannot write CSV", "link.csv", "symbolic link"}, NULL,
     "ln -s out.h5 link.csv"},
    {"export into a FIFO", NULL, NULL, 0, NULL, 0, 0, false, {"export", "@TRACE", "/events", "-o", "@DIR/fifo"}, 2,
     {"fifo", "a FIFO"}, NULL, "mkfifo fifo"},
    {"figure through a link", NULL, NULL, 0, NULL, 0, 0, true,
     {"plot", "@TRACE", "--kind", "nodes", "-o", "@DIR/fig.png"}, 2, {"cannot write figure", "fig.png", "symbolic link"},
     NULL, "ln -s out.h5 fig.png"},
    {"compare figure through a link", NULL, NULL, 0, NULL, 0, 0, true,
     {"compare", "@TRACE", "@TRACE", "--plot", "-o", "@DIR/c.png"}, 2, {"c.png", "symbolic link"}, NULL,
     "ln -s out.h5 c.png"},
    {"figure past the file-size limit", NULL, NULL, 0, NULL, 6000, 0, false,
     {"plot", "@TRACE", "--kind", "nodes", "-o", "@DIR/fig.png"}, 2, {"cannot write figure", "fig.png", "incomplete"},
     NULL},
    {"compare figure past the file-size limit", NULL, NULL, 0, NULL, 6000, 0, false,
     {"compare", "@TRACE", "@TRACE", "--plot", "-o", "@DIR/c.png"}, 2, {"c.png", "incomplete"}, NULL},
    /* Devices through a link of the case's own: a dcsim that renamed over
     * the output (as root it replaced /dev/full with a regular file) then
     * replaces only the link. */
    {"trace onto a full device", NULL, NULL, 0, NULL, 0, 0, false, {"run", "@SMALL", "-o", "@DIR/full"}, 2,
     {"cannot write trace", "full': No space left on device"}, NULL, "ln -s /dev/full full"},
    {"export onto a full device", NULL, NULL, 0, NULL, 0, 0, false, {"export", "@TRACE", "/events", "-o", "@DIR/full"},
     2, {"cannot write CSV", "full': No space left on device"}, NULL, "ln -s /dev/full full"},

    /* ---- standard output that cannot be written (the closeout rule) ---- */
    {"report --json to a full disk", NULL, NULL, 0, NULL, 0, 0, false, {"report", "@TRACE", "--json"}, 2,
     {"cannot write to standard output", "No space left on device"}, NULL, NULL, true},
    {"report to a full disk", NULL, NULL, 0, NULL, 0, 0, false, {"report", "@TRACE"}, 2,
     {"standard output", "No space left on device"}, NULL, NULL, true},
    {"run --json to a full disk", NULL, NULL, 0, NULL, 0, 0, false, {"run", "@SMALL", "--no-trace", "--json"}, 2,
     {"standard output", "No space left on device"}, NULL, NULL, true},
    {"compare --csv to a full disk", NULL, NULL, 0, NULL, 0, 0, false, {"compare", "@TRACE", "@TRACE", "--csv"}, 2,
     {"standard output", "No space left on device"}, NULL, NULL, true},
    {"mttf to a full disk", NULL, NULL, 0, NULL, 0, 0, false, {"mttf", "@SMALL", "--failures", "20"}, 2,
     {"standard output", "No space left on device"}, NULL, NULL, true},
    {"sweep to a full disk", NULL, NULL, 0, NULL, 0, 0, false, {"sweep", "@SMALL", "--reps", "2", "--threads", "1"}, 2,
     {"standard output", "No space left on device"}, NULL, NULL, true},
    {"validate to a full disk", NULL, NULL, 0, NULL, 0, 0, false, {"validate", "@SMALL"}, 2,
     {"standard output", "No space left on device"}, NULL, NULL, true},
    {"keys to a full disk", NULL, NULL, 0, NULL, 0, 0, false, {"keys"}, 2,
     {"standard output", "No space left on device"}, NULL, NULL, true},
    {"export to a full disk", NULL, NULL, 0, NULL, 0, 0, false, {"export", "@TRACE", "/events"}, 2,
     {"standard output", "No space left on device"}, NULL, NULL, true},
    {"help to a full disk", NULL, NULL, 0, NULL, 0, 0, false, {"--help"}, 2,
     {"standard output", "No space left on device"}, NULL, NULL, true},
};
#pragma GCC diagnostic pop

/* ---- helpers ---------------------------------------------------------------- */

static void write_bytes(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fwrite(data, 1, n, f), n);
    fclose(f);
}

static void copy_prefix(const char *from, const char *to, long n)
{
    char *all = dc_runner_slurp(from, NULL);
    FILE *f = fopen(from, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    write_bytes(to, all, (size_t)(n < 0 || n > size ? size : n));
    free(all);
}

/* Rewrites the checksum block of a dcsim file (sim/h5image.h) after the
 * test changed it on purpose, as a dcsim of another version would have
 * written it: 64-bit FNV-1a of the bytes after the 512-byte block. */
static void rechecksum(const char *path)
{
    FILE *f = fopen(path, "r+b");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fseek(f, 512, SEEK_SET);
    unsigned long long h = 0xcbf29ce484222325ULL;
    size_t n = 0;
    int c;
    while ((c = fgetc(f)) != EOF) {
        h ^= (unsigned char)c;
        h *= 0x100000001b3ULL;
        n++;
    }
    char block[512] = {0};
    snprintf(block, sizeof block, "dcsim-checksum 1\nsize %zu\nfnv1a64 %016llx\n", n, h);
    fseek(f, 0, SEEK_SET);
    CU_ASSERT_EQUAL(fwrite(block, 1, sizeof block, f), sizeof block);
    fclose(f);
}

/* An HDF5 file of another program (no checksum block) whose root attribute
 * format_version is an array of 4096 integers (read into one long long, it
 * overwrote the stack: exit 139). */
static void write_multi_version(const char *path)
{
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CU_ASSERT_TRUE_FATAL(f >= 0);
    hsize_t dims[1] = {4096};
    static int v[4096];
    for (size_t i = 0; i < 4096; i++)
        v[i] = 1;
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t a = H5Acreate2(f, "format_version", H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT);
    CU_ASSERT_TRUE(a >= 0 && H5Awrite(a, H5T_NATIVE_INT, v) >= 0);
    H5Aclose(a);
    H5Sclose(space);
    H5Fclose(f);
}

/* Replaces /events of a real trace by one of the same type claiming 2^28
 * rows, chunked with no chunk written: a file of some kilobytes that made
 * `export` and `plot` allocate 17 GB ("dcsim: out of memory", exit 1). */
static void write_huge_events(const char *path)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    CU_ASSERT_TRUE_FATAL(f >= 0);
    hid_t d = H5Dopen2(f, "/events", H5P_DEFAULT);
    CU_ASSERT_TRUE_FATAL(d >= 0);
    hid_t type = H5Dget_type(d);
    H5Dclose(d);
    CU_ASSERT_TRUE(H5Ldelete(f, "/events", H5P_DEFAULT) >= 0);
    hsize_t dims[1] = {(hsize_t)1 << 28}, chunk[1] = {1024};
    hid_t space = H5Screate_simple(1, dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    CU_ASSERT_TRUE(H5Pset_chunk(dcpl, 1, chunk) >= 0);
    d = H5Dcreate2(f, "/events", type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CU_ASSERT_TRUE(d >= 0);
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
    H5Tclose(type);
    H5Fclose(f);
    rechecksum(path);
}

/* Sets the count of /series_index's first row (nodes_up) of a real trace
 * to 2^40: the reader allocated count x 16 bytes (16 TiB) for it before
 * checking the count against /series ("dcsim: out of memory", exit 1; an
 * abort under ASan). */
static void write_big_count(const char *path)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    CU_ASSERT_TRUE_FATAL(f >= 0);
    hid_t d = H5Dopen2(f, "/series_index", H5P_DEFAULT);
    CU_ASSERT_TRUE_FATAL(d >= 0);
    hid_t mtype = H5Tcreate(H5T_COMPOUND, sizeof(long long));
    H5Tinsert(mtype, "count", 0, H5T_NATIVE_LLONG);
    hid_t space = H5Dget_space(d);
    hsize_t off[1] = {0}, cnt[1] = {1};
    CU_ASSERT_TRUE(H5Sselect_hyperslab(space, H5S_SELECT_SET, off, NULL, cnt, NULL) >= 0);
    hid_t mspace = H5Screate_simple(1, cnt, NULL);
    long long count = 1LL << 40;
    CU_ASSERT_TRUE(H5Dwrite(d, mtype, mspace, space, H5P_DEFAULT, &count) >= 0);
    H5Sclose(mspace);
    H5Sclose(space);
    H5Tclose(mtype);
    H5Dclose(d);
    H5Fclose(f);
    rechecksum(path);
}

/* Sets (or, value < 0, deletes) the root attribute format_version. */
static void set_format_version(const char *path, int value)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    CU_ASSERT_TRUE_FATAL(f >= 0);
    if (value < 0) {
        CU_ASSERT_TRUE(H5Adelete(f, "format_version") >= 0);
    } else {
        hid_t a = H5Aopen(f, "format_version", H5P_DEFAULT);
        CU_ASSERT_TRUE(a >= 0 && H5Awrite(a, H5T_NATIVE_INT, &value) >= 0);
        H5Aclose(a);
    }
    H5Fclose(f);
    rechecksum(path);
}

static int attr_int(const char *path, const char *name, long long *v)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        return -1;
    hid_t a = H5Aopen(f, name, H5P_DEFAULT);
    int rc = a >= 0 && H5Aread(a, H5T_NATIVE_LLONG, v) >= 0 ? 0 : -1;
    if (a >= 0)
        H5Aclose(a);
    H5Fclose(f);
    return rc;
}

/* What a directory holds, to check that a case created or replaced
 * nothing: every entry's name, type, inode (a rename over it changes it),
 * size, link target and, for regular files, a hash of the contents. */
typedef struct entry {
    char name[256], link[256];
    mode_t type;
    ino_t ino;
    off_t size;
    unsigned long long hash;
} entry;
#define MAX_ENTRIES 64

static int snapshot(const char *dir, entry *e)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) && n < MAX_ENTRIES) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        entry *x = &e[n++];
        memset(x, 0, sizeof *x);
        snprintf(x->name, sizeof x->name, "%s", de->d_name);
        char path[800];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat st;
        if (lstat(path, &st) != 0)
            continue;
        x->type = st.st_mode & S_IFMT;
        x->ino = st.st_ino;
        x->size = st.st_size;
        if (S_ISLNK(st.st_mode)) {
            ssize_t k = readlink(path, x->link, sizeof x->link - 1);
            x->link[k > 0 ? k : 0] = '\0';
        } else if (S_ISREG(st.st_mode)) {
            size_t len = 0;
            char *all = dc_runner_slurp(path, &len);
            x->hash = 0xcbf29ce484222325ULL;
            for (size_t i = 0; i < len; i++)
                x->hash = (x->hash ^ (unsigned char)all[i]) * 0x100000001b3ULL;
            free(all);
        }
    }
    closedir(d);
    return n;
}

/* Compares the directory with its snapshot; prints and counts what changed
 * (an entry named `leaves` may appear or change). */
static int changes(const char *what, const char *dir, const entry *before, int nb, const char *leaves)
{
    entry after[MAX_ENTRIES];
    int na = snapshot(dir, after), bad = 0;
    for (int i = 0; i < nb; i++) {
        const entry *b = &before[i], *a = NULL;
        for (int j = 0; j < na && !a; j++)
            if (strcmp(after[j].name, b->name) == 0)
                a = &after[j];
        if (leaves && strcmp(b->name, leaves) == 0)
            continue;
        if (!a) {
            fprintf(stderr, "\n  %s: %s was removed\n", what, b->name);
            bad++;
        } else if (a->type != b->type || a->ino != b->ino || a->size != b->size || a->hash != b->hash ||
                   strcmp(a->link, b->link) != 0) {
            fprintf(stderr, "\n  %s: %s was replaced or changed\n", what, b->name);
            bad++;
        }
    }
    for (int j = 0; j < na; j++) {
        bool known = leaves && strcmp(after[j].name, leaves) == 0;
        for (int i = 0; i < nb && !known; i++)
            known = strcmp(after[j].name, before[i].name) == 0;
        if (!known) {
            fprintf(stderr, "\n  %s: %s was left behind\n", what, after[j].name);
            bad++;
        }
    }
    return bad;
}

/* Names in dir other than those listed (NULL-terminated); returns how many,
 * the first in first. */
static int extra_entries(const char *dir, const char *const *allowed, char *first, size_t size)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        bool ok = false;
        for (size_t i = 0; allowed[i]; i++)
            ok = ok || strcmp(e->d_name, allowed[i]) == 0;
        if (!ok && n++ == 0)
            snprintf(first, size, "%s", e->d_name);
    }
    closedir(d);
    return n;
}

static void remove_tree(const char *path)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", path);
}

static char *subst(const char *arg, const char *dir)
{
    const char *keys[] = {"@CFG", "@OUT", "@DIR", "@TRACE", "@SWEEP", "@CORRUPT", "@SMALL", "@SCENARIOS"};
    char vals[8][400];
    snprintf(vals[0], sizeof vals[0], "%s/bad.cfg", dir);
    snprintf(vals[1], sizeof vals[1], "%s/out.h5", dir);
    snprintf(vals[2], sizeof vals[2], "%s", dir);
    snprintf(vals[3], sizeof vals[3], "%s", trace_fix);
    snprintf(vals[4], sizeof vals[4], "%s", sweep_fix);
    snprintf(vals[5], sizeof vals[5], "%s/corrupt.h5", dir);
    snprintf(vals[6], sizeof vals[6], "%s/scenarios/small.cfg", srcdir);
    snprintf(vals[7], sizeof vals[7], "%s/scenarios", srcdir);
    for (size_t k = 0; k < 8; k++) {
        size_t l = strlen(keys[k]);
        if (strncmp(arg, keys[k], l) == 0) {
            char *s = malloc(strlen(vals[k]) + strlen(arg + l) + 1);
            strcpy(s, vals[k]);
            strcat(s, arg + l);
            return s;
        }
    }
    return strdup(arg);
}

static const char previous[] = "the previous output, to be kept\n";

static void run_case(const err_case *c)
{
    char dir[300], tmpdir[320];
    snprintf(dir, sizeof dir, "%s/case.XXXXXX", fixdir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    snprintf(tmpdir, sizeof tmpdir, "%s/tmp", dir);
    mkdir(tmpdir, 0755);
    char *cfg = subst("@CFG", dir), *out = subst("@OUT", dir), *corrupt = subst("@CORRUPT", dir);
    char csv[340];
    snprintf(csv, sizeof csv, "%s/data.csv", dir);
    if (c->cfg)
        write_bytes(cfg, c->cfg, strlen(c->cfg));
    if (c->csv && strcmp(c->csv, "@DIR") == 0)
        mkdir(csv, 0755);
    else if (c->csv)
        write_bytes(csv, c->csv, strlen(c->csv));
    if (c->prev)
        write_bytes(out, previous, strlen(previous));
    switch (c->trace) {
    case T_HALF:
        {
            FILE *f = fopen(trace_fix, "rb");
            fseek(f, 0, SEEK_END);
            long n = ftell(f);
            fclose(f);
            copy_prefix(trace_fix, corrupt, n / 2);
        }
        break;
    case T_4K:
        copy_prefix(trace_fix, corrupt, 4096);
        break;
    case T_EMPTY:
        write_bytes(corrupt, "", 0);
        break;
    case T_GARBAGE: {
        char junk[2048];
        memcpy(junk, "\x89HDF\r\n\x1a\n", 8);
        for (size_t i = 8; i < sizeof junk; i++)
            junk[i] = (char)(i * 2654435761u >> 13);
        write_bytes(corrupt, junk, sizeof junk);
        break;
    }
    case T_FLIP:
    case T_BLOCK: {
        copy_prefix(trace_fix, corrupt, -1);
        FILE *f = fopen(corrupt, "r+b");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        fseek(f, c->trace == T_FLIP ? 3000 : 20, SEEK_SET);
        int b = fgetc(f);
        fseek(f, c->trace == T_FLIP ? 3000 : 20, SEEK_SET);
        fputc(b ^ 0x10, f);
        fclose(f);
        break;
    }
    case T_V99:
    case T_V0:
    case T_NOFMT:
        copy_prefix(trace_fix, corrupt, -1);
        set_format_version(corrupt, c->trace == T_V99 ? 99 : c->trace == T_V0 ? 0 : -1);
        break;
    case T_MULTIVER:
        write_multi_version(corrupt);
        break;

    case T_COPY:
        copy_prefix(trace_fix, corrupt, -1);
        break;
    case T_HUGE:
        copy_prefix(trace_fix, corrupt, -1);
        write_huge_events(corrupt);
        break;
    case T_BIGCOUNT:
        copy_prefix(trace_fix, corrupt, -1);
        write_big_count(corrupt);
        break;
    default:
        break;
    }
    if (c->setup) {
        char cmd[800];
        snprintf(cmd, sizeof cmd, "cd '%s' && %s", dir, c->setup);
        CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    }

    const char *args[32];
    char *owned[32];
    size_t n = 0;
    for (size_t i = 0; c->args[i] && n < 31; i++) {
        owned[n] = subst(c->args[i], dir);
        args[n] = owned[n];
        n++;
    }
    args[n] = NULL;
    char tmp_env[340];
    snprintf(tmp_env, sizeof tmp_env, "TMPDIR=%s", tmpdir);
    char ready_env[340], ready_path[320];
    snprintf(ready_path, sizeof ready_path, "%s/ready", fixdir);
    unlink(ready_path);
    snprintf(ready_env, sizeof ready_env, "DCSIM_READY_FILE=%s", ready_path);
    const char *env[] = {tmp_env, c->sig ? ready_env : c->env, c->sig ? c->env : NULL, NULL};
    dc_runner_opts opts = {.dir = dir, .env = env, .fsize_limit = c->fsize, .stdout_to = c->full ? "/dev/full" : NULL};
    entry before[MAX_ENTRIES];
    int n_before = snapshot(dir, before);

    dc_runner_child child;
    CU_ASSERT_EQUAL_FATAL(dc_runner_start(&child, dcsim_path, args, &opts), 0);
    pid_t pid = child.pid;
    if (c->sig) {
        /* Signal once dcsim says its handlers are in place: it creates
         * DCSIM_READY_FILE right after installing them (cli/interrupt.c).
         * Waiting for that, not for a delay, holds under valgrind (which
         * catches every signal itself from the start) and on a loaded
         * machine alike.  The file is outside the case's directory and
         * TMPDIR, which must stay clean. */
        bool ready = dc_runner_wait_for_file(ready_path);
        if (!ready)
            fprintf(stderr, "\n  %s: dcsim never became ready for the signal\n", c->what);
        CU_ASSERT_TRUE(ready);
        kill(pid, c->sig);
        unlink(ready_path);
    }
    dc_runner_result r = dc_runner_wait(&child);
    /* killed by a signal: its negated number, never an exit status */
    int status = r.signaled ? -r.signal : r.status;
    char *err = r.err;
    if (r.signaled)
        fprintf(stderr, "\n  %s: killed by signal %d (%s)\n", c->what, r.signal,
                r.signal == SIGALRM ? "hang" : "crash");
    CU_ASSERT_FALSE(r.signaled);
    if (status != c->status)
        fprintf(stderr, "\n  %s: status %d, expected %d; stderr: %s\n", c->what, status, c->status, err);
    CU_ASSERT_EQUAL(status, c->status);
    for (size_t k = 0; k < 3 && c->frags[k]; k++) {
        if (!strstr(err, c->frags[k]))
            fprintf(stderr, "\n  %s: '%s' not in: %s\n", c->what, c->frags[k], err);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, c->frags[k]));
    }
    /* One line, starting "dcsim": a message, not a dump. */
    CU_ASSERT_EQUAL(strncmp(err, "dcsim", 5), 0);

    /* The previous output intact; nothing else left behind. */
    if (c->prev) {
        char *now = dc_runner_slurp(out, NULL);
        if (strcmp(now, previous) != 0)
            fprintf(stderr, "\n  %s: out.h5 was changed\n", c->what);
        CU_ASSERT_STRING_EQUAL(now, previous);
        free(now);
    }
    if (c->leaves && strcmp(c->leaves, "out.h5") == 0) {
        long long complete = -1, rows_done = -1;
        CU_ASSERT_EQUAL(attr_int(out, "complete", &complete), 0);
        CU_ASSERT_EQUAL(complete, 0);
        CU_ASSERT_EQUAL(attr_int(out, "rows_done", &rows_done), 0);
        CU_ASSERT_TRUE(rows_done >= 0 && rows_done < 100000);
    }
    /* Nothing created, replaced or changed but what the case leaves. */
    CU_ASSERT_EQUAL(changes(c->what, dir, before, n_before, c->leaves), 0);
    char first[256] = "";
    int extra;
    const char *none[] = {NULL};
    extra = extra_entries(tmpdir, none, first, sizeof first);
    if (extra != 0)
        fprintf(stderr, "\n  %s: left %d file(s) in TMPDIR, e.g. %s\n", c->what, extra, first);
    CU_ASSERT_EQUAL(extra, 0);

    dc_runner_free(&r);
    for (size_t i = 0; i < n; i++)
        free(owned[i]);
    free(cfg);
    free(out);
    free(corrupt);
    remove_tree(dir);
}

static void test_catalogue(void)
{
    CU_ASSERT_TRUE(sizeof cases / sizeof cases[0] >= 80);
    /* DC_ERRORS_MATCH=TEXT runs only the cases whose description contains
     * TEXT (while developing, or one class under valgrind). */
    const char *match = getenv("DC_ERRORS_MATCH");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!match || strstr(cases[i].what, match))
            run_case(&cases[i]);
}

/* Outputs written in place (sim/outfile.h): a character device and
 * standard output, each reached through a link in a fresh directory (so
 * that a dcsim renaming over its output would replace only the link, never
 * /dev/null or /dev/stdout).  The link is still a link afterwards, nothing
 * else appears, and what went to standard output is the file itself. */
static void test_in_place(void)
{
    char dir[300], nul[340], so[340], small[400];
    snprintf(dir, sizeof dir, "%s/inplace.XXXXXX", fixdir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    snprintf(nul, sizeof nul, "%s/null", dir);
    snprintf(so, sizeof so, "%s/so", dir);
    snprintf(small, sizeof small, "%s/scenarios/small.cfg", srcdir);
    CU_ASSERT_EQUAL_FATAL(symlink("/dev/null", nul), 0);
    CU_ASSERT_EQUAL_FATAL(symlink("/dev/stdout", so), 0);
    struct stat st;

    dc_runner_result r = dc_runner_dcsim((const char *[]){"run", small, "-o", nul, "--quiet", NULL}, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_EQUAL(r.err[0], '\0');
    dc_runner_free(&r);

    r = dc_runner_dcsim((const char *[]){"export", trace_fix, "/events", NULL}, NULL);
    char *direct = strdup(r.out);
    dc_runner_free(&r);
    r = dc_runner_dcsim((const char *[]){"export", trace_fix, "/events", "-o", so, NULL}, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(strncmp(r.out, "time_s,kind", 11) == 0);
    CU_ASSERT_STRING_EQUAL(r.out, direct);
    free(direct);
    dc_runner_free(&r);

    /* A trace on standard output: the checksum block, then HDF5 at 512. */
    r = dc_runner_dcsim((const char *[]){"run", small, "-o", so, "--quiet", "--set", "horizon_days=1.0", NULL}, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_TRUE(r.out_len > 1024 && strncmp(r.out, "dcsim-checksum 3", 16) == 0 &&
                   memcmp(r.out + 512, "\x89HDF", 4) == 0);
    dc_runner_free(&r);

    CU_ASSERT_TRUE(lstat(nul, &st) == 0 && S_ISLNK(st.st_mode));
    CU_ASSERT_TRUE(lstat(so, &st) == 0 && S_ISLNK(st.st_mode));
    CU_ASSERT_EQUAL(dc_runner_count_entries(dir), 2);
    remove_tree(dir);
}

/* Whether signal sig is pending for process pid (ShdPnd in /proc: kill(2)
 * makes a signal pending for the process); false when it cannot be read. */
static bool signal_pending(pid_t pid, int sig)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
    FILE *f = fopen(path, "r");
    bool pending = false;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "ShdPnd:", 7) == 0)
            pending = (strtoull(line + 7, NULL, 16) >> (sig - 1)) & 1;
    if (f)
        fclose(f);
    return pending;
}

/* The state letter of process pid in /proc/PID/stat ('R', 'S', 'Z'...),
 * or 0 when it cannot be read (no such process). */
static char process_state(pid_t pid)
{
    char path[64], st[256];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "r");
    char state = 0;
    if (f) {
        if (fgets(st, sizeof st, f)) {
            const char *rp = strrchr(st, ')');
            state = rp && rp[1] ? rp[2] : 0;
        }
        fclose(f);
    }
    return state;
}

/* Whether process pid has a descriptor open on a file of dir (its
 * /proc/PID/fd links: "DIR/NAME", or "DIR/#INODE (deleted)" for an
 * O_TMPFILE); *gone when the process has exited (or is a zombie). */
static bool has_fd_in(pid_t pid, const char *dir, bool *gone)
{
    char path[64], target[1024];
    char state = process_state(pid);
    *gone = state == 0 || state == 'Z' || state == 'X';
    snprintf(path, sizeof path, "/proc/%ld/fd", (long)pid);
    DIR *d = opendir(path);
    bool found = false;
    size_t len = strlen(dir);
    for (struct dirent *e; d && !found && (e = readdir(d));) {
        char link[320];
        snprintf(link, sizeof link, "%s/%s", path, e->d_name);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n <= 0)
            continue;
        target[n] = '\0';
        found = strncmp(target, dir, len) == 0 && target[len] == '/';
    }
    if (d)
        closedir(d);
    return found;
}

/* Starts the sweep of 100000 rows that the tests below interrupt
 * (small.cfg over 300 days, its results to dir/out.h5, which holds
 * "previous" first) in dir, and waits until it is ready for signals
 * (DCSIM_READY_FILE).  out gets the output's path.  0, or -1 if it could
 * not start or never became ready. */
static int start_long_sweep(const char *dir, char *out, size_t out_size, dc_runner_child *child)
{
    char ready[320], ready_env[340], small[400];
    snprintf(out, out_size, "%s/out.h5", dir);
    snprintf(ready, sizeof ready, "%s/ready", fixdir);
    snprintf(ready_env, sizeof ready_env, "DCSIM_READY_FILE=%s", ready);
    snprintf(small, sizeof small, "%s/scenarios/small.cfg", srcdir);
    if (dc_runner_write(out, "previous", 8) != 0)
        return -1;
    unlink(ready);
    const char *args[] = {"sweep", small, "--reps", "100000", "--threads", "1", "--quiet", "-o", out, "--set",
                          "horizon_days=300", "--set", "job.work_gpu_h=1e9", NULL};
    const char *env[] = {ready_env, NULL};
    if (dc_runner_start(child, dcsim_path, args, &(dc_runner_opts){.dir = dir, .env = env}) != 0)
        return -1;
    bool ok = dc_runner_wait_for_file(ready);
    unlink(ready);
    return ok ? 0 : -1;
}

/* Where an interrupted sweep is when the second SIGINT is sent: the first
 * one handled (no longer pending), its results being written (a descriptor
 * open in the directory), or written and renamed (out.h5 is another file
 * than the previous one, inode prev_ino). */
enum sweep_phase { PH_HANDLED, PH_WRITING, PH_RENAMED };
static const char *const phase_names[] = {"once the first is handled", "while it writes", "after the rename"};

/* Waits for phase ph of child pid (polling /proc and the directory; no
 * delay): true once reached, false if the child ended first. */
static bool wait_phase(pid_t pid, const char *dir, const char *out, ino_t prev_ino, enum sweep_phase ph)
{
    for (;;) {
        bool gone = false, fd = has_fd_in(pid, dir, &gone);
        struct stat st;
        if ((ph == PH_HANDLED && !signal_pending(pid, SIGINT)) || (ph == PH_WRITING && fd) ||
            (ph == PH_RENAMED && stat(out, &st) == 0 && st.st_ino != prev_ino))
            return true;
        if (gone)
            return false;
        sched_yield();
    }
}

/* A second SIGINT kills dcsim at once (docs/errors.md), but never leaves
 * its temporary file behind (an empty o.h5.tmp.PID.N was left when the
 * second signal came between the file's creation and its registration for
 * removal): a sweep of 100000 rows is interrupted, then interrupted again
 * in each phase of its stop (about a second of writing for a table of
 * 100000 rows), each reached by a condition, not a delay, so that a loaded
 * machine shifts no signal into another phase.  Once the first is handled
 * or while it writes: either the second signal killed it (status SIGINT,
 * the previous out.h5 intact) or it came once the file was complete (130,
 * a complete = 0 file).  After the rename: always the latter, the signal
 * ignored (cli/interrupt.h; a kill there, the status SIGINT with the new
 * file in place, failed 1 run in 5 on a loaded machine).  In every case
 * nothing else is in the directory. */
static void test_second_signal(void)
{
    char dir[300], out[340];
    snprintf(dir, sizeof dir, "%s/twice.XXXXXX", fixdir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    for (int ph = PH_HANDLED; ph <= PH_RENAMED; ph++) {
        dc_runner_child child;
        CU_ASSERT_EQUAL_FATAL(start_long_sweep(dir, out, sizeof out, &child), 0);
        struct stat prev;
        CU_ASSERT_EQUAL_FATAL(stat(out, &prev), 0);
        kill(child.pid, SIGINT);
        bool reached = wait_phase(child.pid, dir, out, prev.st_ino, (enum sweep_phase)ph);
        kill(child.pid, SIGINT);
        dc_runner_result r = dc_runner_wait(&child);
        bool killed = r.signaled && r.signal == SIGINT, finished = !r.signaled && r.status == 130;
        if (!reached)
            fprintf(stderr, "\n  second SIGINT %s: the sweep ended first (status %d)\n", phase_names[ph], r.status);
        CU_ASSERT_TRUE(reached || ph == PH_WRITING); /* its write may all fall between two looks */
        if (ph == PH_RENAMED ? !finished : !killed && !finished)
            fprintf(stderr, "\n  second SIGINT %s: status %d (signal %d): %s\n", phase_names[ph], r.status,
                    r.signal, r.err);
        CU_ASSERT_TRUE(ph == PH_RENAMED ? finished : killed || finished);
        char *now = dc_runner_slurp(out, NULL);
        if (killed)
            CU_ASSERT_STRING_EQUAL(now, "previous");
        free(now);
        long long complete = -1;
        if (finished)
            CU_ASSERT_TRUE(attr_int(out, "complete", &complete) == 0 && complete == 0);
        int entries = dc_runner_count_entries(dir);
        if (entries != 1)
            fprintf(stderr, "\n  second SIGINT %s: %d entries in the directory\n", phase_names[ph], entries);
        CU_ASSERT_EQUAL(entries, 1);
        dc_runner_free(&r);
    }
    remove_tree(dir);
}

/* Two SIGINTs once the sweep's output has its name: the command ends by
 * itself (cli/interrupt.h), exit status 0, the whole file (complete = 1) and
 * all it prints.  The sweep prints its 1000 grid points' tables (800 KB) to
 * a FIFO the test reads only after the signals, so it is held in write(2)
 * past the rename whatever the machine's load.  The second signal is sent
 * once the first is no longer pending (two pending SIGINTs are one).
 * Before: killed by the second SIGINT with the new file in place (the
 * status saying that nothing was written), its output cut. */
static void test_signal_after_rename(void)
{
    char dir[300], out[340], fifo[320], small[400];
    snprintf(dir, sizeof dir, "%s/renamed.XXXXXX", fixdir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    snprintf(out, sizeof out, "%s/out.h5", dir);
    snprintf(fifo, sizeof fifo, "%s/stdout.fifo", fixdir);
    snprintf(small, sizeof small, "%s/scenarios/small.cfg", srcdir);
    CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
    int rd = open(fifo, O_RDONLY | O_NONBLOCK); /* so that the child's open does not wait */
    CU_ASSERT_FATAL(rd >= 0);
    const char *args[] = {"sweep", small, "--reps", "1", "--threads", "2", "-o", out, "--vary",
                          "horizon_days=0.001:1:0.001", NULL};
    dc_runner_child child;
    CU_ASSERT_EQUAL_FATAL(dc_runner_start(&child, dcsim_path, args, &(dc_runner_opts){.stdout_to = fifo}), 0);
    CU_ASSERT_TRUE(dc_runner_wait_for_file(out));
    kill(child.pid, SIGINT);
    while (signal_pending(child.pid, SIGINT))
        sched_yield();
    kill(child.pid, SIGINT);
    /* Now read all it prints. */
    fcntl(rd, F_SETFL, 0);
    size_t len = 0, cap = 1 << 20;
    char *text = malloc(cap + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    for (ssize_t got; (got = read(rd, text + len, cap - len)) != 0;) {
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            break;
        len += (size_t)got;
        if (len == cap) {
            char *t = realloc(text, 2 * cap + 1);
            CU_ASSERT_PTR_NOT_NULL_FATAL(t);
            text = t;
            cap *= 2;
        }
    }
    text[len] = '\0';
    close(rd);
    unlink(fifo);
    dc_runner_result r = dc_runner_wait(&child);
    if (r.status != 0)
        fprintf(stderr, "\n  two SIGINTs after the rename: status %d (signal %d): %s\n", r.status, r.signal, r.err);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_FALSE(r.signaled);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "grid point 1000 of 1000: horizon_days=1 "));
    CU_ASSERT_TRUE(len > 0 && text[len - 1] == '\n' && strstr(text, "1000 runs in ") != NULL);
    long long complete = -1;
    CU_ASSERT_TRUE(attr_int(out, "complete", &complete) == 0 && complete == 1);
    CU_ASSERT_EQUAL(dc_runner_count_entries(dir), 1);
    dc_runner_free(&r);
    free(text);
    remove_tree(dir);
}

/* SIGKILL while a sweep writes its results (sim/outfile.h): nothing left
 * but the previous out.h5, intact.  The sweep of 100000 rows is
 * interrupted, then killed once it has a descriptor open in the directory
 * (its output's temporary file: about a second of writing follows).  The
 * temporary file is an O_TMPFILE, unnamed until its rename; before, it was
 * out.h5.tmp.PID.0 from its creation, which the kill left behind.  (A kill
 * after the rename would find the new file, complete = 0, in its place.) */
static void test_kill_while_writing(void)
{
    char dir[300], out[340];
    snprintf(dir, sizeof dir, "%s/killed.XXXXXX", fixdir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    dc_runner_child child;
    CU_ASSERT_EQUAL_FATAL(start_long_sweep(dir, out, sizeof out, &child), 0);
    kill(child.pid, SIGINT);
    bool seen = false, gone = false;
    while (!seen && !gone)
        if (!(seen = has_fd_in(child.pid, dir, &gone)))
            sched_yield();
    kill(child.pid, SIGKILL);
    dc_runner_result r = dc_runner_wait(&child);
    CU_ASSERT_TRUE(seen);
    CU_ASSERT_TRUE(r.signaled && r.signal == SIGKILL);
    int entries = dc_runner_count_entries(dir);
    if (entries != 1)
        fprintf(stderr, "\n  SIGKILL while writing: %d entries in the directory\n", entries);
    CU_ASSERT_EQUAL(entries, 1);
    char *now = dc_runner_slurp(out, NULL);
    long long complete = -1;
    CU_ASSERT_TRUE(strcmp(now, "previous") == 0 || (attr_int(out, "complete", &complete) == 0 && complete == 0));
    free(now);
    dc_runner_free(&r);
    remove_tree(dir);
}

/* Whether process pid is gone or a zombie (killed, not yet reaped by
 * whoever inherited it), polled for up to 20 s. */
static bool process_gone(pid_t pid)
{
    for (int i = 0; i < 2000; i++) {
        if (kill(pid, 0) != 0 && errno == ESRCH)
            return true;
        char state = process_state(pid);
        if (state == 'Z' || state == 'X')
            return true;
        nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
    }
    return false;
}

/* A signal while gnuplot draws a figure (dcsim size --plot, plot, compare
 * --plot, report --html): the command exits as interrupted (143 for
 * SIGTERM, 130 for SIGINT), gnuplot is stopped, the previous figure of
 * that name is untouched, and nothing is left (no c.png.tmp.PID.N, no data
 * directory in TMPDIR).  The gnuplot is a script that writes a whole PNG
 * (signature, IEND chunk) to the file it is told, writes its process id,
 * then sleeps 30 s: the signal is sent once that id is there.  Before:
 * size waited for it, renamed its figure over c.png and exited 0; plot and
 * compare were killed by the signal with c.png.tmp.PID.N and the data
 * directory left; report --html (no handler) was killed with its directory
 * of figures, the figure's data directory and temporary SVG left in TMPDIR.
 * Twice: dcsim is stopped (SIGSTOP), sent SIGINT and SIGTERM, and continued,
 * so that the second is delivered as the first handler returns, before
 * dcsim can notice the first: killed by SIGTERM, the same nothing left and
 * gnuplot killed too (cli/interrupt.h).  Before: c.png.tmp.PID.N (the
 * report: the directory of figures) and the data directory left in TMPDIR,
 * and gnuplot still running. */
static void test_plot_signal(void)
{
    static const struct {
        const char *what;
        int sig;              /* 0: twice (SIGINT then SIGTERM, delivered together) */
        const char *args[14]; /* subst()'s @ names */
        const char *fig;      /* the output, in the case's directory */
        const char *tail;     /* of "dcsim: CMD interrupted by SIG while drawing 'FIG': " */
        const char *out_has;  /* in standard output ("" none) */
    } c[] = {
        {"size --plot", SIGTERM,
         {"size", "@SMALL", "--deadline-days", "30", "--reps", "2", "--threads", "1", "--no-plans", "--plot",
          "@DIR/c.png"},
         "c.png", "no figure written (the answer above stands)", "\nanswer: "},
        {"size --plot", SIGINT,
         {"size", "@SMALL", "--deadline-days", "30", "--reps", "2", "--threads", "1", "--no-plans", "--plot",
          "@DIR/c.png"},
         "c.png", "no figure written (the answer above stands)", "\nanswer: "},
        {"plot --kind", SIGTERM, {"plot", "@TRACE", "--kind", "nodes", "-o", "@DIR/c.png"}, "c.png",
         "that figure not written", ""},
        {"compare --plot", SIGINT, {"compare", "@TRACE", "@TRACE", "--plot", "-o", "@DIR/c.png"}, "c.png",
         "no figure written, no table", ""},
        {"report --html", SIGINT, {"report", "@TRACE", "--html", "@DIR/c.html"}, "c.html", "no page written", ""},
        {"size --plot", 0,
         {"size", "@SMALL", "--deadline-days", "30", "--reps", "2", "--threads", "1", "--no-plans", "--plot",
          "@DIR/c.png"},
         "c.png", NULL, ""}, /* killed: what it printed is lost in its buffer */
        {"plot --kind", 0, {"plot", "@TRACE", "--kind", "nodes", "-o", "@DIR/c.png"}, "c.png", NULL, ""},
        {"plot of every figure", 0, {"plot", "@TRACE", "-o", "@DIR/figs"}, "figs", NULL, ""},
        {"compare --plot", 0, {"compare", "@TRACE", "@TRACE", "--plot", "-o", "@DIR/c.png"}, "c.png", NULL, ""},
        {"report --html", 0, {"report", "@TRACE", "--html", "@DIR/c.html"}, "c.html", NULL, ""},
    };
    char fake[320], pidfile[320];
    snprintf(fake, sizeof fake, "%s/slow-gnuplot", fixdir);
    snprintf(pidfile, sizeof pidfile, "%s/gnuplot.pid", fixdir);
    char script[1600];
    snprintf(script, sizeof script,
             "#!/bin/sh\n# a gnuplot that writes a whole PNG, then takes its time\n"
             "out=$(printf '%%s\\n' \"$3\" | sed -e \"s/^set output '//\" -e \"s/'\\$//\")\n"
             "printf '\\211PNG\\r\\n\\032\\n' > \"$out\"\nprintf '\\000\\000\\000\\000IEND\\256B`\\202' >> \"$out\"\n"
             "echo $$ > '%s.tmp' && mv '%s.tmp' '%s'\nexec sleep 30\n",
             pidfile, pidfile, pidfile);
    CU_ASSERT_EQUAL_FATAL(dc_runner_write(fake, script, strlen(script)), 0);
    CU_ASSERT_EQUAL_FATAL(chmod(fake, 0755), 0);
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        char dir[300], tmpdir[320], fig[340], gp_env[340], tmp_env[340];
        snprintf(dir, sizeof dir, "%s/plotsig.XXXXXX", fixdir);
        CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
        snprintf(tmpdir, sizeof tmpdir, "%s/tmp", dir);
        CU_ASSERT_EQUAL_FATAL(mkdir(tmpdir, 0755), 0);
        snprintf(fig, sizeof fig, "%s/%s", dir, c[k].fig);
        bool figdir = strchr(c[k].fig, '.') == NULL; /* plot of every figure: -o DIR */
        CU_ASSERT_EQUAL_FATAL(figdir ? mkdir(fig, 0755) : dc_runner_write(fig, "previous", 8), 0);
        snprintf(gp_env, sizeof gp_env, "DCSIM_GNUPLOT=%s", fake);
        snprintf(tmp_env, sizeof tmp_env, "TMPDIR=%s", tmpdir);
        unlink(pidfile);
        const char *args[16];
        char *owned[16];
        size_t n = 0;
        for (; c[k].args[n] && n < 15; n++)
            args[n] = owned[n] = subst(c[k].args[n], dir);
        args[n] = NULL;
        const char *env[] = {gp_env, tmp_env, NULL};
        dc_runner_child child;
        CU_ASSERT_EQUAL_FATAL(dc_runner_start(&child, dcsim_path, args, &(dc_runner_opts){.dir = dir, .env = env}), 0);
        bool drawing = dc_runner_wait_for_file(pidfile);
        CU_ASSERT_TRUE(drawing);
        char *pid_text = dc_runner_slurp(pidfile, NULL);
        long gp = atol(pid_text);
        free(pid_text);
        if (c[k].sig) {
            kill(child.pid, c[k].sig);
        } else {
            kill(child.pid, SIGSTOP);
            kill(child.pid, SIGINT);
            kill(child.pid, SIGTERM);
            kill(child.pid, SIGCONT);
        }
        dc_runner_result r = dc_runner_wait(&child);
        const char *name = c[k].sig == SIGTERM ? "SIGTERM" : c[k].sig ? "SIGINT" : "SIGINT and SIGTERM";
        if (c[k].sig) {
            char want[600];
            snprintf(want, sizeof want, "dcsim: %s interrupted by %s while drawing '%s': %s\n", c[k].args[0], name,
                     fig, c[k].tail);
            if (r.signaled || r.status != 128 + c[k].sig || !strstr(r.err, want))
                fprintf(stderr, "\n  %s while gnuplot draws %s's figure: status %d (signal %d): %s\n", name,
                        c[k].what, r.status, r.signal, r.err);
            CU_ASSERT_FALSE(r.signaled);
            CU_ASSERT_EQUAL(r.status, 128 + c[k].sig);
            CU_ASSERT_PTR_NOT_NULL(strstr(r.err, want));
        } else {
            if (!r.signaled || r.signal != SIGTERM)
                fprintf(stderr, "\n  %s while gnuplot draws %s's figure: status %d (signal %d): %s\n", name,
                        c[k].what, r.status, r.signal, r.err);
            CU_ASSERT_TRUE(r.signaled && r.signal == SIGTERM);
        }
        CU_ASSERT_PTR_NOT_NULL(strstr(r.out, c[k].out_has));
        CU_ASSERT_PTR_NULL(strstr(r.out, "wrote "));
        if (figdir) {
            CU_ASSERT_EQUAL(dc_runner_count_entries(fig), 0);
        } else {
            char *now = dc_runner_slurp(fig, NULL);
            CU_ASSERT_STRING_EQUAL(now, "previous");
            free(now);
        }
        int entries = dc_runner_count_entries(dir), tmp_entries = dc_runner_count_entries(tmpdir);
        if (entries != 2 || tmp_entries != 0)
            fprintf(stderr, "\n  %s while gnuplot draws %s's figure: %d entries beside it, %d in TMPDIR\n", name,
                    c[k].what, entries - 2, tmp_entries);
        CU_ASSERT_EQUAL(entries, 2); /* the figure and tmp */
        CU_ASSERT_EQUAL(tmp_entries, 0);
        /* gnuplot stopped (waited for, or killed by the second signal's handler) */
        bool gone = gp > 0 && process_gone((pid_t)gp);
        CU_ASSERT_TRUE(gone);
        if (gp > 0 && !gone)
            kill((pid_t)gp, SIGKILL);
        dc_runner_free(&r);
        for (size_t i = 0; i < n; i++)
            free(owned[i]);
        remove_tree(dir);
    }
    unlink(pidfile);
    unlink(fake);
}

/* The warnings of a run (sim/scenario.h, sim/sim.h) in --json
 * ("run.warnings") and in the trace (root attribute "warnings", one per
 * line); none with retain_h covering the detection delay (no line on
 * standard error, no member, no attribute). */
static void test_warning_outputs(void)
{
    char dir[300], cfg[340], trace[340];
    snprintf(dir, sizeof dir, "%s/warn.XXXXXX", fixdir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    snprintf(cfg, sizeof cfg, "%s/r.cfg", dir);
    snprintf(trace, sizeof trace, "%s/t.h5", dir);
    CU_ASSERT_EQUAL_FATAL(dc_runner_write(cfg, RETAIN_CFG, strlen(RETAIN_CFG)), 0);
    const char *first = "r.cfg:4: checkpoint.retain: 1 checkpoints at the job's interval reach back less than the "
                        "600 s after which failure class \"sdc\"'s corruptions may be found";
    dc_runner_result r = dc_runner_dcsim((const char *[]){"run", cfg, "--no-trace", "--json", NULL}, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    char *member = strstr(r.out, "\"run.warnings\": [");
    CU_ASSERT_PTR_NOT_NULL(member);
    CU_ASSERT_PTR_NOT_NULL(member ? strstr(member, "r.cfg:4: checkpoint.retain: 1 checkpoints at the job's "
                                                   "interval reach back less than the 600 s after which failure "
                                                   "class \\\"sdc\\\"'s") : NULL);
    CU_ASSERT_PTR_NOT_NULL(member ? strstr(member, "the job rolled back to its start (retention by count") : NULL);
    dc_runner_free(&r);

    r = dc_runner_dcsim((const char *[]){"run", cfg, "-o", trace, "--quiet", NULL}, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    dc_runner_free(&r);
    hid_t f = H5Fopen(trace, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t a = f >= 0 ? H5Aopen(f, "warnings", H5P_DEFAULT) : -1;
    hid_t t = a >= 0 ? H5Aget_type(a) : -1;
    char *text = NULL;
    CU_ASSERT_TRUE(a >= 0 && t >= 0 && H5Tis_variable_str(t) > 0 && H5Aread(a, t, &text) >= 0);
    CU_ASSERT_PTR_NOT_NULL(text ? strstr(text, first) : NULL);
    char *nl = text ? strchr(text, '\n') : NULL;
    CU_ASSERT_PTR_NOT_NULL(nl ? strstr(nl + 1, "checkpoint.retain: a corruption of class \"sdc\"") : NULL);
    if (text)
        H5free_memory(text);
    if (t >= 0)
        H5Tclose(t);
    if (a >= 0)
        H5Aclose(a);
    if (f >= 0)
        H5Fclose(f);
    /* dcsim report shows the trace's warnings: --json as run.warnings, the text under its first line */
    r = dc_runner_dcsim((const char *[]){"report", trace, "--json", NULL}, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    member = strstr(r.out, "\"run.warnings\": [\"");
    CU_ASSERT_PTR_NOT_NULL(member ? strstr(member, "r.cfg:4: checkpoint.retain: 1 checkpoints at the job's "
                                                   "interval reach back less than the 600 s") : NULL);
    CU_ASSERT_PTR_NOT_NULL(member ? strstr(member, "\", \"") : NULL); /* two texts */
    CU_ASSERT_PTR_NOT_NULL(member ? strstr(member, "checkpoint.retain: a corruption of class \\\"sdc\\\"") : NULL);
    dc_runner_free(&r);
    r = dc_runner_dcsim((const char *[]){"report", trace, NULL}, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    nl = strchr(r.out, '\n');
    char *second = nl ? strchr(nl + 1, '\n') : NULL; /* the first warning's line ends there */
    CU_ASSERT_TRUE(second && strncmp(nl + 1, "warning: ", 9) == 0 && strstr(nl + 1, first) &&
                   strstr(nl + 1, first) < second);
    CU_ASSERT_TRUE(second && strncmp(second + 1, "warning: ", 9) == 0 &&
                   strstr(second + 1, "checkpoint.retain: a corruption of class \"sdc\"") != NULL);
    dc_runner_free(&r);

    /* A sweep gathers its runs' warnings: each once over 4 runs on 2 threads. */
    r = dc_runner_dcsim((const char *[]){"sweep", cfg, "--reps", "4", "--threads", "2", "--quiet", NULL}, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    const char *texts[] = {"checkpoint.retain: 1 checkpoints at the job's interval reach back less than the 600 s",
                           "checkpoint.retain: a corruption of class \"sdc\" was found after every one"};
    for (size_t k = 0; k < 2; k++) {
        int times = 0;
        for (const char *at = strstr(r.err, texts[k]); at; at = strstr(at + 1, texts[k]))
            times++;
        if (times != 1)
            fprintf(stderr, "\n  sweep: '%s' %d times in: %s\n", texts[k], times, r.err);
        CU_ASSERT_EQUAL(times, 1);
    }
    CU_ASSERT_EQUAL(strncmp(r.err, "dcsim: warning: ", 16), 0);
    dc_runner_free(&r);

    /* retain_h = 0.17 h (612 s) covers the 600 s: no warning anywhere */
    r = dc_runner_dcsim((const char *[]){"run", cfg, "--no-trace", "--json", "--set", "checkpoint.retain_h=0.17", NULL},
                        NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_STRING_EQUAL(r.err, "");
    CU_ASSERT_PTR_NULL(strstr(r.out, "run.warnings"));
    dc_runner_free(&r);
    remove_tree(dir);
}

/* The fixtures: a real trace of the small scenario and a sweep file. */
static int make_fixtures(void)
{
    snprintf(fixdir, sizeof fixdir, "%s/dcsim-errors.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(fixdir))
        return -1;
    snprintf(trace_fix, sizeof trace_fix, "%s/small.h5", fixdir);
    snprintf(sweep_fix, sizeof sweep_fix, "%s/sweep.h5", fixdir);
    char cmd[1200];
    snprintf(cmd, sizeof cmd,
             "'%s' run '%s/scenarios/small.cfg' -o '%s' --quiet --set horizon_days=1.0 && "
             "'%s' sweep '%s/scenarios/small.cfg' --reps 2 --threads 1 --quiet -o '%s' --set horizon_days=1.0",
             dcsim_path, srcdir, trace_fix, dcsim_path, srcdir, sweep_fix);
    return system(cmd) == 0 ? 0 : -1;
}

static int register_suites(void)
{
    if (make_fixtures() != 0) {
        fprintf(stderr, "cannot make the fixtures in %s\n", fixdir);
        return -1;
    }
    DC_TEST_SUITE("errors", {"bad inputs: status, message, no crash, hang or leftover", test_catalogue},
                  {"outputs written in place: a device, standard output", test_in_place},
                  {"a second SIGINT leaves no temporary file", test_second_signal},
                  {"signals once the output is renamed: the command ends by itself", test_signal_after_rename},
                  {"SIGKILL while a sweep writes: no temporary file, the old output", test_kill_while_writing},
                  {"a signal while gnuplot draws (size, plot, compare, report --html): interrupted, the old figure; two: killed, nothing left", test_plot_signal},
                  {"warnings in --json and in the trace", test_warning_outputs});
    return 0;
}

int main(void)
{
    dcsim_path = getenv("DCSIM") ? getenv("DCSIM") : "./dcsim";
    srcdir = getenv("DCSIM_SRCDIR") ? getenv("DCSIM_SRCDIR") : ".";
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    int rc = dc_test_main(register_suites);
    if (fixdir[0])
        remove_tree(fixdir);
    return rc;
}

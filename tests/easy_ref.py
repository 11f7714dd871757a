#!/usr/bin/env python3
# An independent FIFO / EASY-backfilling replay of job traces, checked against dcsim's start times.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
"""Reference replay for tests/easy_ref.sh (standard library only; shares no
code with dcsim).

For a few synthetic traces of some thousand jobs on one pool of N nodes it
writes dcsim's job CSV and a scenario, runs `dcsim run` and `dcsim export
/jobs`, replays the same trace here, and checks that every job starts at the
same time (to 1e-6 s; they are computed in the same floating point).

The policy, as the literature states it (Lifka 1995; Mu'alem and Feitelson
2001), written from that description:
  - one queue in submission order;
  - whenever a job arrives or ends, jobs start from the head of the queue
    while they fit in the free nodes;
  - FIFO: the first job that does not fit blocks every later one;
  - EASY: the first job that does not fit (the head) gets a reservation:
    running jobs sorted by expected end (start + estimate); the shadow time
    is the first expected end at which the free nodes plus those of the jobs
    ending by then (in that order) reach the head's size (never before
    now), and the extra nodes are those free at the shadow time (the free
    ones and those of every job expected to end by then) minus the head's
    size.  A later job starts now if it
    fits in the free nodes and either ends (by its estimate) by the shadow
    time or uses no more than the extra nodes (which then shrink by its
    size); jobs are looked at once each, in queue order;
  - a job's estimate is its run time times a factor, or a fixed limit; with
    a limit, a job still running at start + limit is killed then.
"""
import csv
import heapq
import math
import os
import random
import subprocess
import sys
import tempfile

GPUS_PER_NODE = 8


def make_trace(seed, n_jobs, nodes, load):
    """Poisson arrivals, log-uniform sizes 1..nodes, lognormal run times."""
    rng = random.Random(seed)
    jobs = []
    t_h = 0.0
    mean_size = sum(2 ** k for k in range(int(math.log2(nodes)) + 1)) / (int(math.log2(nodes)) + 1)
    median_h = 2.0
    mean_run_h = median_h * math.exp(1.0 ** 2 / 2)
    gap_h = mean_size * mean_run_h / (load * nodes)
    for _ in range(n_jobs):
        t_h += rng.expovariate(1.0 / gap_h)
        size = 2 ** rng.randint(0, int(math.log2(nodes)))
        if rng.random() < 0.3:
            size = rng.randint(1, nodes)
        run_h = median_h * math.exp(rng.gauss(0.0, 1.0))
        jobs.append((float("%.17g" % t_h), size, float("%.17g" % (run_h * size * GPUS_PER_NODE))))
    return jobs


def replay(jobs, nodes, backfill, factor, limit_s):
    """Start time (s) of every job: the policy above, event by event."""
    arrivals = [(a_h * 3600.0, i) for i, (a_h, _, _) in enumerate(jobs)]
    run_s = [(w * 3600.0) / (n * GPUS_PER_NODE) for (_, n, w) in jobs]
    size = [n for (_, n, _) in jobs]
    est_s = [limit_s if limit_s is not None else r * factor for r in run_s]
    start = [None] * len(jobs)
    free = nodes
    queue = []          # job ids in submission order
    running = {}        # job id -> expected end
    ends = []           # heap of (actual end, job id)
    k = 0
    while k < len(arrivals) or ends:
        if ends and (k >= len(arrivals) or ends[0][0] < arrivals[k][0]):
            now, j = heapq.heappop(ends)
            free += size[j]
            del running[j]
        else:
            now, j = arrivals[k]
            k += 1
            queue.append(j)
        # the pass
        waiting = []
        head = None
        shadow, extra = math.inf, 0
        for j in queue:
            if head is None:
                if size[j] <= free:
                    free -= size[j]
                    begin(j, now, start, running, ends, run_s, est_s, limit_s)
                    continue
                head = j
                if not backfill:
                    waiting.append(j)
                    continue
                order = sorted(running.items(), key=lambda kv: kv[1])
                have = free
                for r, e in order:
                    have += size[r]
                    if have >= size[j]:
                        shadow = max(e, now)
                        # free at the shadow time: every job expected to end by then
                        extra = free + sum(size[q] for q, f in order if f <= shadow) - size[j]
                        break
                waiting.append(j)
                continue
            if backfill and size[j] <= free and (now + est_s[j] <= shadow or size[j] <= extra):
                if not now + est_s[j] <= shadow:
                    extra -= size[j]
                free -= size[j]
                begin(j, now, start, running, ends, run_s, est_s, limit_s)
                continue
            waiting.append(j)
        queue = waiting
    return start


def begin(j, now, start, running, ends, run_s, est_s, limit_s):
    start[j] = now
    running[j] = now + est_s[j]
    took = run_s[j] if limit_s is None else min(run_s[j], limit_s)
    heapq.heappush(ends, (now + took, j))


def dcsim_starts(dcsim, work, name, jobs, nodes, backfill, factor, limit_h):
    trace = os.path.join(work, name + ".csv")
    with open(trace, "w") as f:
        f.write("arrival_h,nodes,work_gpu_h,priority,pool,user,kind\n")
        for a_h, n, w in jobs:
            f.write("%.17g,%d,%.17g,0,,,\n" % (a_h, n, w))
    cfg = os.path.join(work, name + ".cfg")
    with open(cfg, "w") as f:
        f.write("horizon_days = 36500.0; stop_when_done = true;\n")
        f.write("cluster = { nodes = %d; gpus_per_node = %d; nodes_per_rack = 4; };\n" % (nodes, GPUS_PER_NODE))
        f.write("scheduler = { backfill = %s; preemption = false; estimate_factor = %r; };\n"
                % ("true" if backfill else "false", factor))
        lim = "" if limit_h is None else " max_run_h = %r;" % limit_h
        f.write('jobs = ( { name = "t"; trace = "%s.csv"; restart_s = 0.0; kind = "evaluation";%s } );\n'
                % (name, lim))
    h5 = os.path.join(work, name + ".h5")
    subprocess.run([dcsim, "run", cfg, "--quiet", "-o", h5], check=True, stdout=subprocess.DEVNULL)
    out = subprocess.run([dcsim, "export", h5, "/jobs"], check=True, stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    starts = [None] * len(jobs)
    for row in csv.DictReader(out.splitlines()):
        k = int(row["name"].rsplit("-", 1)[1])
        starts[k] = float(row["start_h"]) * 3600.0
    return starts


def main():
    if len(sys.argv) != 2:
        print("usage: easy_ref.py DCSIM", file=sys.stderr)
        return 2
    dcsim = sys.argv[1]
    # name, seed, jobs, nodes, offered load, backfill, estimate factor, limit (h)
    cases = [
        ("fifo", 1, 2000, 64, 0.9, False, 1.0, None),
        ("easy_exact", 2, 3000, 64, 0.95, True, 1.0, None),
        ("easy_exact_b", 3, 3000, 100, 1.05, True, 1.0, None),
        ("easy_factor3", 4, 3000, 64, 0.95, True, 3.0, None),
        ("easy_limit", 5, 3000, 64, 0.95, True, 1.0, 12.0),
        ("fifo_limit", 6, 2000, 64, 0.8, False, 1.0, 12.0),
    ]
    bad = 0
    with tempfile.TemporaryDirectory(prefix="dcsim-easy-ref-") as work:
        for name, seed, n_jobs, nodes, load, backfill, factor, limit_h in cases:
            jobs = make_trace(seed, n_jobs, nodes, load)
            ref = replay(jobs, nodes, backfill, factor, None if limit_h is None else limit_h * 3600.0)
            got = dcsim_starts(dcsim, work, name, jobs, nodes, backfill, factor, limit_h)
            wrong = [i for i in range(n_jobs)
                     if got[i] is None or ref[i] is None or abs(got[i] - ref[i]) > 1e-6]
            waited = sum(1 for i in range(n_jobs) if ref[i] is not None and ref[i] > jobs[i][0] * 3600.0 + 1e-6)
            # jobs that started before a job that arrived earlier (backfilled)
            backfilled, latest = 0, -math.inf
            for i in range(n_jobs):
                if ref[i] < latest:
                    backfilled += 1
                latest = max(latest, ref[i])
            print("%-13s %d jobs on %d nodes: %d waited, %d started before an earlier arrival; %d start times differ"
                  % (name, n_jobs, nodes, waited, backfilled, len(wrong)))
            for i in wrong[:5]:
                print("  job %d (arrival %.6f h, %d nodes): dcsim %s s, reference %s s"
                      % (i, jobs[i][0], jobs[i][1], got[i], ref[i]))
            # the cases must test something: queues, and backfilling exactly when on
            if wrong or waited < n_jobs // 10 or (backfilled > 0) != backfill:
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# The ITP benchmark's helper: converts an ITP trace for dcsim, sizes its cluster, and replays it in plain Python.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
"""bench/itp.sh's helper (standard library only).

  itp_replay.py prepare ITP.csv OUTDIR [DAYS] [SIZING]
      Reads a Microsoft ITP trace (job_id,submission_time,duration,num_gpu;
      seconds from the trace's start), keeps the jobs submitted in the DAYS
      days (default 30) from its first submission, and writes OUTDIR/NAME.csv
      in dcsim's job CSV (arrival_h,nodes,work_gpu_h,...: a job of g GPUs
      takes ceil(g / 8) nodes of 8 GPUs and runs its recorded duration:
      work = duration x nodes x 8 GPU-s) and OUTDIR/NAME.cfg.  The cluster
      is sized to the peak demand over those days: SIZING "daily" (default)
      is the largest mean over a calendar day (from the first submission) of
      the nodes the jobs would hold if each started at its submission;
      "peak" is the largest instantaneous such demand (no job ever waits).
      Prints NAME NODES JOBS.
  itp_replay.py replay JOBS.csv NODES OUT
      A plain replay of dcsim's job CSV under the same policy as the
      scenario prepare writes: one FIFO queue, EASY backfilling with exact
      run-time estimates (the extra nodes: those free at the shadow time
      beyond the head's size).  Writes each job's start time (s), one a line.
  itp_replay.py check JOBS_EXPORT.csv OUT
      dcsim's /jobs table (dcsim export) against the replay's start times:
      prints how many differ by more than 1e-6 s; status 1 if any.
"""
import bisect
import csv
import heapq
import math
import os
import sys

GPUS_PER_NODE = 8


def prepare(src, outdir, days, sizing):
    name = os.path.splitext(os.path.basename(src))[0]
    rows = []
    with open(src) as f:
        for r in csv.DictReader(f):
            rows.append((float(r["submission_time"]), float(r["duration"]), int(r["num_gpu"])))
    t0 = rows[0][0]
    end = t0 + days * 86400.0
    rows = [r for r in rows if r[0] < end]
    jobs = []
    for sub, dur, g in rows:
        n = (g + GPUS_PER_NODE - 1) // GPUS_PER_NODE
        jobs.append(((sub - t0) / 3600.0, n, dur * n * GPUS_PER_NODE / 3600.0))
    # demand (nodes held with no wait): +n at submission, -n at its end
    steps = sorted([(a * 3600.0, n) for a, n, _ in jobs]
                   + [(a * 3600.0 + w * 3600.0 / (n * GPUS_PER_NODE), -n) for a, n, w in jobs])
    if sizing == "peak":
        level = best = 0
        for _, d in steps:
            level += d
            best = max(best, level)
        nodes = best
    else:
        # node-seconds per calendar day, then the largest daily mean
        per_day = [0.0] * (days + 400)
        level, last = 0, 0.0
        for t, d in steps:
            while last < t:
                day = int(last // 86400.0)
                stop = min(t, (day + 1) * 86400.0)
                per_day[day] += level * (stop - last)
                last = stop
            level += d
        nodes = int(math.ceil(max(per_day[:days]) / 86400.0))
    nodes = max(nodes, max(n for _, n, _ in jobs))
    with open(os.path.join(outdir, name + ".csv"), "w") as f:
        f.write("arrival_h,nodes,work_gpu_h,priority,pool,user,kind\n")
        for a, n, w in jobs:
            f.write("%r,%d,%r,0,,,\n" % (a, n, w))
    with open(os.path.join(outdir, name + ".cfg"), "w") as f:
        f.write("# %s of the Microsoft ITP traces: the jobs of its first %d days on %d nodes (%s demand)\n"
                % (name, days, nodes, sizing))
        f.write("horizon_days = 3650.0; stop_when_done = true; seed = 1;\n")
        f.write("cluster = { nodes = %d; gpus_per_node = %d; nodes_per_rack = 4; };\n" % (nodes, GPUS_PER_NODE))
        f.write("scheduler = { backfill = true; preemption = false; placement = \"fifo\"; };\n")
        f.write('jobs = ( { name = "%s"; trace = "%s.csv"; restart_s = 0.0; kind = "evaluation"; } );\n'
                % (name, name))
    print(name, nodes, len(jobs))


def replay(path, nodes, out):
    arr, size, run = [], [], []
    with open(path) as f:
        for r in csv.DictReader(f):
            n = int(r["nodes"])
            arr.append(float(r["arrival_h"]) * 3600.0)
            size.append(n)
            run.append(float(r["work_gpu_h"]) * 3600.0 / (n * GPUS_PER_NODE))
    start = [None] * len(arr)
    free = nodes
    queue = []
    by_end = []   # running jobs as (expected end, job), sorted
    ends = []     # heap of (end, job)
    k = 0
    while k < len(arr) or ends:
        if ends and (k >= len(arr) or ends[0][0] < arr[k]):
            now, j = heapq.heappop(ends)
            free += size[j]
            by_end.pop(bisect.bisect_left(by_end, (now, j)))
        else:
            now, j = arr[k], k
            k += 1
            queue.append(j)
        # the pass: from the head while jobs fit; then EASY behind the head
        rest = []
        i = 0
        while i < len(queue) and size[queue[i]] <= free:
            j = queue[i]
            free -= size[j]
            start[j] = now
            heapq.heappush(ends, (now + run[j], j))
            bisect.insort(by_end, (now + run[j], j))
            i += 1
        if i < len(queue):
            head = queue[i]
            have, shadow = free, math.inf
            for e, r in by_end:
                have += size[r]
                if have >= size[head]:
                    shadow = max(e, now)
                    break
            extra = free - size[head] + sum(size[r] for e, r in by_end if e <= shadow)
            rest.append(head)
            for j in queue[i + 1:]:
                if free > 0 and size[j] <= free and (now + run[j] <= shadow or size[j] <= extra):
                    if not now + run[j] <= shadow:
                        extra -= size[j]
                    free -= size[j]
                    start[j] = now
                    heapq.heappush(ends, (now + run[j], j))
                    bisect.insort(by_end, (now + run[j], j))
                else:
                    rest.append(j)
        queue = rest
    with open(out, "w") as f:
        for s in start:
            f.write("%r\n" % s)


def check(export, out):
    with open(out) as f:
        ref = [float(x) for x in f]
    got = [None] * len(ref)
    with open(export) as f:
        for r in csv.DictReader(f):
            got[int(r["name"].rsplit("-", 1)[1])] = float(r["start_h"]) * 3600.0
    bad = [i for i in range(len(ref)) if got[i] is None or abs(got[i] - ref[i]) > 1e-6]
    print("%d jobs, %d start times differ" % (len(ref), len(bad)))
    for i in bad[:3]:
        print("  job %d: dcsim %s s, Python %s s" % (i, got[i], ref[i]))
    return 1 if bad else 0


def main():
    a = sys.argv[1:]
    if len(a) >= 3 and a[0] == "prepare":
        prepare(a[1], a[2], int(a[3]) if len(a) > 3 else 30, a[4] if len(a) > 4 else "daily")
        return 0
    if len(a) == 4 and a[0] == "replay":
        replay(a[1], int(a[2]), a[3])
        return 0
    if len(a) == 3 and a[0] == "check":
        return check(a[1], a[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())

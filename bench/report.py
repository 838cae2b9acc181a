#!/usr/bin/env python3
"""bench/report.py: the Markdown table of a bench/run.sh results directory (stdlib only).

  python3 bench/report.py RESULTS_DIR [--steal-max 0.02] [--foreign-max 0.10] [--details]
  python3 bench/report.py --one RUN_DIR        # one line for one run (used by run.sh)

Layout read: RESULTS_DIR/runs/<row>/<reference>/pair<P>/<tool>/ with result.json (ptsuite
--json, fio --output-format=json, or bare_libaio's line), stat.before/after (first line of
/proc/stat), loadavg.before/after, time.txt (/usr/bin/time "%U %S %e" of the whole process
tree; newer runs add "%w %c", the context switches), rc.

Per pair (ptsuite T and reference R run back to back):
  * CPU per IO ratio   = T cpu_us_per_io / R cpu_us_per_io (all pairs: robust to noise)
      ptsuite: results.cpu (getrusage RUSAGE_SELF around the measured run, all its threads)
      fio:     (usr_cpu + sys_cpu) / 100 * job_runtime / total IOs, per job (fio's job
               thread, RUSAGE_THREAD, reset after ramp_time; fio's main/helper threads are
               not counted, which favours fio slightly)
      bare:    getrusage RUSAGE_SELF over its measured window
  * IOPS ratio         = T IOPS / R IOPS, only from QUIET pairs
  * QD1 latency ratios = T / R for the mean and p99 of submit->complete latency (fio `lat`)
A run is quiet when, over the whole run (warm-up included), the steal share of all CPU time
(/proc/stat) is below --steal-max and the user CPU of other processes (/proc/stat user+nice
minus the tool's own user time from /usr/bin/time) is below --foreign-max cores: other
tenants compiling show up as user time, while the loop device's kernel workers do not. A
pair is quiet when both runs are. The 1-minute load average is recorded per pair as well;
it is not a gate (it lags a minute and counts the benchmark itself).
"""
import argparse
import json
import os
import re
import statistics
import sys

HZ = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def read(path, default=None):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return default


def stat_fields(line):
    parts = line.split()
    vals = [int(x) for x in parts[1:]]
    vals += [0] * (10 - len(vals))
    user, nice, system, idle, iowait, irq, softirq, steal = vals[:8]
    return {"user": user + nice, "total": user + nice + system + idle + iowait + irq + softirq + steal,
            "steal": steal}


def parse_ptsuite(doc):
    r = doc["results"]
    c = r["combined"]
    pct = c["latency_ns"]["percentiles"]
    return {"ios": c["ios"], "iops": c["iops"], "cpu_s": r["cpu"]["user_s"] + r["cpu"]["system_s"],
            "cpu_us_per_io": r["cpu"]["us_per_io"], "lat_mean_ns": c["latency_ns"]["mean"],
            "lat_p99_ns": pct.get("99"), "stop": r.get("stop_reason")}


def parse_fio(doc):
    ios = iops = cpu_s = lat_sum = 0.0
    p99 = None
    errors = 0
    for job in doc["jobs"]:
        runtime_s = job["job_runtime"] / 1000.0
        cpu_s += (job["usr_cpu"] + job["sys_cpu"]) / 100.0 * runtime_s
        errors += job.get("error", 0)
        for d in ("read", "write"):
            dd = job[d]
            n = dd["total_ios"]
            if n == 0:
                continue
            ios += n
            iops += dd["iops"]
            lat_sum += dd["lat_ns"]["mean"] * n
            pcts = dd["lat_ns"].get("percentile")
            if pcts and len(doc["jobs"]) == 1:
                p99 = pcts.get("99.000000")
    return {"ios": ios, "iops": iops, "cpu_s": cpu_s, "cpu_us_per_io": cpu_s * 1e6 / ios if ios else None,
            "lat_mean_ns": lat_sum / ios if ios else None, "lat_p99_ns": p99, "stop": "error" if errors else "ok"}


def parse_bare(doc):
    return {"ios": doc["ios"], "iops": doc["iops"], "cpu_s": doc["cpu_s"], "cpu_us_per_io": doc["cpu_us_per_io"],
            "lat_mean_ns": doc["lat_mean_ns"] or None, "lat_p99_ns": None, "stop": "ok"}


def load_run(d):
    tool = read(os.path.join(d, "tool")) or os.path.basename(d)
    rc = read(os.path.join(d, "rc"), "?")
    raw = read(os.path.join(d, "result.json"))
    run = {"tool": tool, "rc": rc, "ok": False, "dir": d}
    if raw and rc == "0":
        try:
            doc = json.loads(raw[raw.index("{"):])
            if tool == "ptsuite":
                run.update(parse_ptsuite(doc))
            elif tool.startswith("fio"):
                run.update(parse_fio(doc))
            else:
                run.update(parse_bare(doc))
            run["ok"] = bool(run.get("ios")) and run.get("cpu_us_per_io") is not None
        except (ValueError, KeyError, TypeError) as e:
            run["error"] = str(e)
    before, after = read(os.path.join(d, "stat.before")), read(os.path.join(d, "stat.after"))
    t = (read(os.path.join(d, "time.txt")) or "").split("\n")[-1].split()
    if before and after and len(t) >= 3:
        b, a = stat_fields(before), stat_fields(after)
        dt = max(a["total"] - b["total"], 1)
        wall = max(float(t[2]), 1e-3)
        run["steal"] = (a["steal"] - b["steal"]) / dt
        run["foreign_user"] = max(0.0, (a["user"] - b["user"]) / HZ - float(t[0])) / wall
        if len(t) >= 5:  # voluntary + involuntary context switches of the whole process tree
            run["ctx_per_s"] = (int(t[3]) + int(t[4])) / wall
    la = read(os.path.join(d, "loadavg.before"))
    run["load1"] = float(la.split()[0]) if la else None
    return run


def quiet(run, steal_max, foreign_max):
    return (run.get("steal") is not None and run["steal"] < steal_max
            and run.get("foreign_user") is not None and run["foreign_user"] < foreign_max)


def one_line(d):
    r = load_run(d)
    if not r["ok"]:
        return f"FAILED rc={r['rc']} {r.get('error', '')}"
    lat = f" lat {r['lat_mean_ns'] / 1000:.1f} us" if r.get("lat_mean_ns") else ""
    return (f"{r['iops'] / 1000:7.1f} K IOPS  {r['cpu_us_per_io']:5.2f} us CPU/IO{lat}  "
            f"steal {100 * r.get('steal', 0):4.1f}%  others {r.get('foreign_user', 0):4.2f} cores  load {r['load1']}")


def rng(values, fmt="{:.2f}"):
    if not values:
        return "–"
    med = statistics.median(values)
    if len(values) == 1:
        return fmt.format(med)
    return f"{fmt.format(med)} ({fmt.format(min(values))}–{fmt.format(max(values))})"


def spread(ratios):
    """Interquartile range of per-pair ratios (statistics.quantiles, exclusive method) and how
    many pairs are above 1.0: whether the spread covers 1.0, as docs/performance.md states it."""
    if len(ratios) < 2:
        return "–"
    q1, _, q3 = statistics.quantiles(ratios, n=4)
    return f"{q1:.3f}–{q3:.3f}, {sum(1 for r in ratios if r > 1)} of {len(ratios)} > 1"


def collect(root, steal_max, foreign_max):
    rows = {}
    runs_dir = os.path.join(root, "runs")
    for row in sorted(os.listdir(runs_dir)):
        for ref in sorted(os.listdir(os.path.join(runs_dir, row))):
            pairs = []
            ref_dir = os.path.join(runs_dir, row, ref)
            for p in sorted(os.listdir(ref_dir), key=lambda s: int(s[4:])):
                pd = os.path.join(ref_dir, p)
                t, rr = os.path.join(pd, "ptsuite"), os.path.join(pd, ref)
                if not (os.path.isdir(t) and os.path.isdir(rr)):
                    continue
                T, R = load_run(t), load_run(rr)
                pairs.append({"pair": p, "T": T, "R": R, "ok": T["ok"] and R["ok"],
                              "quiet": quiet(T, steal_max, foreign_max) and quiet(R, steal_max, foreign_max)})
            rows.setdefault(row, {})[ref] = pairs
    return rows


ROW_ORDER = ["zram-rr-qd32", "loop-rr-qd32", "loop-rr-qd1", "zram-rr-qd1", "loop-rw-qd32", "loop-sw128k-qd32",
             "zram-rr-qd32-2t", "file-rr-qd32"]
ROW_TITLE = {
    "zram-rr-qd32": "zram 4K randread QD32",
    "loop-rr-qd32": "loop 4K randread QD32",
    "loop-rr-qd1": "loop 4K randread QD1",
    "zram-rr-qd1": "zram 4K randread QD1",
    "loop-rw-qd32": "loop 4K randwrite QD32",
    "loop-sw128k-qd32": "loop 128K seq write QD32",
    "zram-rr-qd32-2t": "zram 4K randread QD32 ×2 threads",
    "file-rr-qd32": "/dev/shm file 4K randread QD32",
}
REF_TITLE = {"fio": "fio (defaults)", "fio-tuned": "fio (tuned batching)", "bare": "bare libaio loop"}


def ratio(a, b):
    return a / b if a is not None and b else None


def table(rows):
    out = []
    out.append("| row | vs | pairs ok | CPU µs/IO ptsuite | CPU µs/IO ref | **CPU/IO ratio** T/R | "
               "quiet pairs | IOPS ptsuite (K) | IOPS ref (K) | **IOPS ratio** T/R (quiet) | "
               "steal % | load1 |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    lat_lines = []
    order = [r for r in ROW_ORDER if r in rows] + [r for r in rows if r not in ROW_ORDER]
    summary = {}
    for row in order:
        for ref in ["fio", "fio-tuned", "bare"] + [x for x in rows[row] if x not in ("fio", "fio-tuned", "bare")]:
            if ref not in rows[row]:
                continue
            pairs = [p for p in rows[row][ref] if p["ok"]]
            q = [p for p in pairs if p["quiet"]]
            cpu_r = [ratio(p["T"]["cpu_us_per_io"], p["R"]["cpu_us_per_io"]) for p in pairs]
            iops_r = [ratio(p["T"]["iops"], p["R"]["iops"]) for p in q]
            steal = [100 * max(p["T"].get("steal", 0), p["R"].get("steal", 0)) for p in pairs]
            load = [max(p["T"]["load1"] or 0, p["R"]["load1"] or 0) for p in pairs]
            iops_src = q if q else pairs
            out.append(
                f"| {ROW_TITLE.get(row, row)} | {REF_TITLE.get(ref, ref)} | {len(pairs)}/{len(rows[row][ref])} | "
                f"{rng([p['T']['cpu_us_per_io'] for p in pairs])} | {rng([p['R']['cpu_us_per_io'] for p in pairs])} | "
                f"**{rng(cpu_r)}** | {len(q)}/{len(pairs)} | "
                f"{rng([p['T']['iops'] / 1e3 for p in iops_src], '{:.0f}')}{'' if q else ' (all)'} | "
                f"{rng([p['R']['iops'] / 1e3 for p in iops_src], '{:.0f}')}{'' if q else ' (all)'} | "
                f"**{rng(iops_r)}** | {rng(steal, '{:.1f}')} | {rng(load, '{:.1f}')} |")
            summary[(row, ref)] = {"cpu": statistics.median(cpu_r) if cpu_r else None,
                                   "cpu_max": max(cpu_r) if cpu_r else None,
                                   "iops": statistics.median(iops_r) if iops_r else None,
                                   "quiet": len(q), "pairs": len(pairs)}
            if row.endswith("qd1"):
                src = q if q else pairs
                mean_r = [ratio(p["T"]["lat_mean_ns"], p["R"]["lat_mean_ns"]) for p in src]
                p99_r = [ratio(p["T"]["lat_p99_ns"], p["R"]["lat_p99_ns"]) for p in src
                         if p["T"].get("lat_p99_ns") and p["R"].get("lat_p99_ns")]
                mean_r = [x for x in mean_r if x is not None]
                lat_lines.append(
                    f"| {ROW_TITLE.get(row, row)} | {REF_TITLE.get(ref, ref)} | {len(src)} {'quiet' if q else 'ALL (none quiet)'} | "
                    f"{rng([p['T']['lat_mean_ns'] / 1e3 for p in src])} | {rng([p['R']['lat_mean_ns'] / 1e3 for p in src if p['R']['lat_mean_ns']])} | "
                    f"**{rng(mean_r, '{:.3f}')}** | {spread(mean_r)} | "
                    f"{rng([p['T']['lat_p99_ns'] / 1e3 for p in src if p['T'].get('lat_p99_ns')])} | "
                    f"{rng([p['R']['lat_p99_ns'] / 1e3 for p in src if p['R'].get('lat_p99_ns')])} | "
                    f"**{rng(p99_r, '{:.3f}')}** |")
                summary[(row, ref)]["lat_mean"] = statistics.median(mean_r) if mean_r else None
                summary[(row, ref)]["lat_p99"] = statistics.median(p99_r) if p99_r else None
    text = "\n".join(out)
    if lat_lines:
        text += ("\n\nQD1 latency (submit→complete; fio `lat`), µs, median (min–max):\n\n"
                 "| row | vs | pairs | mean ptsuite | mean ref | **mean ratio** | mean ratio IQR, pairs > 1 | "
                 "p99 ptsuite | p99 ref | **p99 ratio** |\n"
                 "|---|---|---|---|---|---|---|---|---|---|\n" + "\n".join(lat_lines))
    return text, summary


def goals(summary):
    lines = []

    def fmt(x, spec="{:.2f}"):
        return "n/a" if x is None else spec.format(x)

    for (row, ref), s in summary.items():
        if ref == "fio" and "qd32" in row:
            ok = s["cpu"] is not None and s["cpu"] <= 0.75
            lines.append(f"- CPU/IO ≤ 0.75× fio, {ROW_TITLE.get(row, row)}: median {fmt(s['cpu'])} "
                         f"(worst pair {fmt(s['cpu_max'])}) → {'MET' if ok else 'MISSED'}")
    for (row, ref), s in summary.items():
        if ref == "fio" and row in ("zram-rr-qd32", "loop-rr-qd32", "loop-rw-qd32"):
            goal = 1.3 if row.startswith("zram") else 1.05
            ok = s["iops"] is not None and s["iops"] >= goal
            lines.append(f"- IOPS ≥ {goal}× fio, {ROW_TITLE.get(row, row)}: median {fmt(s['iops'])} over "
                         f"{s['quiet']} quiet pairs → {'MET' if ok else ('NO QUIET PAIR' if s['iops'] is None else 'MISSED')}")
    for (row, ref), s in summary.items():
        if ref == "bare":
            ok = s["iops"] is not None and s["iops"] >= 0.90
            lines.append(f"- within 10 % of the bare loop, {ROW_TITLE.get(row, row)}: IOPS ratio {fmt(s['iops'])} "
                         f"({s['quiet']} quiet pairs), CPU/IO ratio {fmt(s['cpu'])} → "
                         f"{'MET' if ok else ('NO QUIET PAIR' if s['iops'] is None else 'MISSED')} (IOPS)")
    for (row, ref), s in summary.items():
        if ref == "fio" and row.endswith("qd1"):
            m = s.get("lat_mean")
            ok = m is not None and m <= 1.02
            lines.append(f"- QD1 mean latency within 2 % of fio: ratio {fmt(m, '{:.3f}')} (p99 ratio "
                         f"{fmt(s.get('lat_p99'), '{:.3f}')}) → {'MET' if ok else 'MISSED'}")
    return "\n".join(lines)


def details(rows, steal_max, foreign_max):
    out = ["| row | vs | pair | order | tool | IOPS (K) | CPU µs/IO | lat mean µs | steal % | others (cores) | load1 | quiet |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        for ref, pairs in rows[row].items():
            for p in pairs:
                first = "T first" if int(p["pair"][4:]) % 2 == 0 else "R first"
                for k in ("T", "R"):
                    r = p[k]
                    if not r["ok"]:
                        out.append(f"| {row} | {ref} | {p['pair']} | {first} | {r['tool']} | FAILED rc={r['rc']} |||||||")
                        continue
                    lat = f"{r['lat_mean_ns'] / 1e3:.1f}" if r.get("lat_mean_ns") else "–"
                    out.append(f"| {row} | {ref} | {p['pair']} | {first} | {r['tool']} | {r['iops'] / 1e3:.1f} | "
                               f"{r['cpu_us_per_io']:.3f} | {lat} | {100 * r.get('steal', 0):.1f} | "
                               f"{r.get('foreign_user', 0):.2f} | {r['load1']} | "
                               f"{'yes' if quiet(r, steal_max, foreign_max) else 'no'} |")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--one", action="store_true", help="one line for one run directory")
    ap.add_argument("--steal-max", type=float, default=0.02, help="quiet: steal share below this (0.02)")
    ap.add_argument("--foreign-max", type=float, default=0.10,
                    help="quiet: other processes' user CPU below this many cores (0.10)")
    ap.add_argument("--details", action="store_true", help="also print every run")
    a = ap.parse_args()
    if a.one:
        print(one_line(a.dir))
        return
    rows = collect(a.dir, a.steal_max, a.foreign_max)
    env = read(os.path.join(a.dir, "env.txt"), "")
    if re.search(r"engine: io_uring\b", env):  # run.sh --engine io_uring: the fio references use it too
        REF_TITLE["fio"] = "fio io_uring (fixedbufs, registerfiles)"
        REF_TITLE["fio-tuned"] = "fio io_uring (tuned batching)"
    if re.search(r"^command: .*--cpus ", env, re.M):
        cpus = re.search(r"--cpus (\S+)", env).group(1)
        for k in REF_TITLE:
            REF_TITLE[k] += f", both under taskset -c {cpus}"
    text, summary = table(rows)
    print("```\n" + env + "\n```\n")
    print(f"Ratios are ptsuite / reference per pair, median (min–max). CPU/IO from all pairs; IOPS only from quiet "
          f"pairs (steal < {100 * a.steal_max:.0f} % and other processes' user CPU < {a.foreign_max:.2f} cores in both "
          f"runs; '(all)' = no quiet pair, all pairs shown). steal % and load1 are per pair (max of its two runs).\n")
    print(text)
    print("\nGoals (issue 2, item 12):\n")
    print(goals(summary))
    if a.details:
        print("\nEvery run:\n")
        print(details(rows, a.steal_max, a.foreign_max))


if __name__ == "__main__":
    main()

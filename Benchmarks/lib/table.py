#!/usr/bin/env python3
"""Prints the one results table from the raw records of Benchmarks/run.

Input lines: `pass line conns req_per_s p50_us p99_us non2xx socket_errors [cpu_us_per_request]`.
req/s, p50, p99 and the server's CPU a request (where recorded) are the median over passes (req/s
also min-max); non-2xx and socket errors are summed over passes;
the ratio is the median over passes of req/s / nginx req/s at the same connection count in the
same pass. Goals of issue 8 are checked where one applies."""
import statistics, sys
from collections import defaultdict

ORDER = ["nginx static GET", "GET state (memory)", "GET state (memory, gzip)", "GET state (sqlite)", "trigger (memory)",
         "trigger (sqlite)", "trigger (memory, journal off)", "trigger (sqlite, journal off)", "create (memory)", "create (sqlite)",
         "GET state (memory, log info)", "GET state (memory, log warn)", "trigger (redis, 1 inst)", "trigger (redis, 2 inst)",
         "trigger (redis cluster, 1 inst)", "trigger + effect (memory)"]
GOALS = {"GET state (memory)": 1.0, "trigger (memory)": 0.6, "trigger (sqlite)": 0.35,
         "create (memory)": 0.35, "create (sqlite)": 0.35}
P99_GOAL = {"GET state (memory)", "trigger (memory)"}
# Issue 21: a line against another of the same pass (the access log's cost under 10 %).
# Issue 17: the trigger lines with the journal on within 15 % of the same build with it off.
# Issue 18: Redis against the memory store, two instances against one (same pass).
GOALS_VS = {"GET state (memory, log info)": ("GET state (memory, log warn)", "warn", 0.9),
            "trigger (memory)": ("trigger (memory, journal off)", "journal off", 0.85),
            "trigger (sqlite)": ("trigger (sqlite, journal off)", "journal off", 0.85),
            "trigger (redis, 1 inst)": ("trigger (memory)", "memory", 0.6),
            "trigger (redis, 2 inst)": ("trigger (redis, 1 inst)", "1 inst", 1.0)}
# Issue 20: a trigger whose effect answers at once, against a trigger without one (no goal).
# Issue 45: GET answered gzip-coded (Accept-Encoding: gzip) against uncoded, same server and pass.
SHOWN_VS = {"trigger + effect (memory)": ("trigger (memory)", "trigger"),
            "GET state (memory, gzip)": ("GET state (memory)", "uncoded"),
            "trigger (redis cluster, 1 inst)": ("trigger (memory)", "memory")}

def ms(us):
    return f"{us / 1000:.2f} ms"

def main():
    rows = defaultdict(list)  # (line, conns) -> [(pass, rps, p50, p99, non2xx, errs, cpu or None)]
    for raw in open(sys.argv[1]):
        f = raw.rstrip("\n").split("\t")
        if len(f) not in (8, 9):
            continue
        p, line, conns = f[0], f[1], int(f[2])
        cpu = float(f[8]) if len(f) == 9 else None
        rows[(line, conns)].append((p, float(f[3]), float(f[4]), float(f[5]), int(f[6]), int(f[7]), cpu))
    nginx = {(conns, r[0]): r for (line, conns), rs in rows.items() if line == ORDER[0] for r in rs}
    header = ["line", "conns", "req/s median", "min-max", "p50", "p99", "non-2xx", "sock err",
              "x nginx", "goal"]
    with_cpu = any(r[6] is not None for rs in rows.values() for r in rs)
    if with_cpu:
        header.insert(9, "CPU/req")
    out = []
    keys = sorted(rows, key=lambda k: (ORDER.index(k[0]) if k[0] in ORDER else 99, k[1]))
    for line, conns in keys:
        rs = rows[(line, conns)]
        rps = [r[1] for r in rs]
        ratios = [r[1] / nginx[(conns, r[0])][1] for r in rs if (conns, r[0]) in nginx]
        ratio = statistics.median(ratios) if ratios else None
        p99 = statistics.median(r[3] for r in rs)
        goal = ""
        if conns == 64 and line in GOALS and ratio is not None:
            goal = f">={GOALS[line]:.2f}x " + ("met" if ratio >= GOALS[line] else "MISSED")
            if line in P99_GOAL:
                n99 = statistics.median(nginx[(conns, r[0])][3] for r in rs if (conns, r[0]) in nginx)
                goal += "; p99<=nginx " + ("met" if p99 <= n99 else "MISSED")
        if line in SHOWN_VS:
            other, name = SHOWN_VS[line]
            base = {r[0]: r[1] for r in rows.get((other, conns), [])}
            against = [r[1] / base[r[0]] for r in rs if r[0] in base]
            if against:
                goal = f"{statistics.median(against):.2f}x {name}"
        if line in GOALS_VS:
            other, name, target = GOALS_VS[line]
            base = {r[0]: r[1] for r in rows.get((other, conns), [])}
            against = [r[1] / base[r[0]] for r in rs if r[0] in base]
            if against:
                vs = statistics.median(against)
                versus = f"{vs:.2f}x {name}, >={target:.2f}x " + ("met" if vs >= target else "MISSED")
                goal = f"{goal}; {versus}" if goal else versus
        cells = [line, str(conns), f"{statistics.median(rps):,.0f}", f"{min(rps):,.0f}-{max(rps):,.0f}",
                 ms(statistics.median(r[2] for r in rs)), ms(p99), str(sum(r[4] for r in rs)),
                 str(sum(r[5] for r in rs)), "-" if ratio is None else f"{ratio:.2f}", goal]
        if with_cpu:
            cpus = [r[6] for r in rs if r[6] is not None]
            cells.insert(9, f"{statistics.median(cpus):.1f} us" if cpus else "-")
        out.append(cells)
    widths = [max(len(header[i]), *(len(r[i]) for r in out)) for i in range(len(header))]
    def fmt(cells):
        return "| " + " | ".join(c.ljust(w) if i in (0, len(header) - 1) else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))) + " |"
    print(fmt(header))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in out:
        print(fmt(r))

if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Turns the JMH JSON results and the bytes-per-key TSV of scripts/bench-core into docs/benchmarks.md.

Only numbers found in the result files are printed; a benchmark missing from them shows as "n/a", never a
guess. The analysis section (why a target is or is not met) is hand-written in benchmarks/results/notes.md
and copied in verbatim, so re-running the script never loses it.
"""
import argparse
import json
import os
import statistics
from collections import namedtuple

# mean and err: JMH's score and 99.9 % half-width; median: of the measurement iterations, the robust number on
# a shared, noisy machine, used for ratios and targets; bytes: gc.alloc.rate.norm (None without -prof gc).
Result = namedtuple("Result", "mean err median bytes iterations")

PKG = "dev.limiter.bench."
OUR_STRATEGIES = ["fixed-window", "token-bucket", "sliding-window", "leaky-bucket"]

# Params a benchmark gained later, with the value its results had before: a run that predates the parameter is
# read as if it had been given this value, so old and new runs fill the same rows. StrategyBenchmark's checks
# read the library's default CoarseClock until it got a `clock` parameter (`system`: what the agent's rules read).
IMPLICIT_PARAMS = {"StrategyBenchmark.check": {"clock": "coarse"}}

# (row label, benchmark method, params) for the allowed-path table, in display order.
OURS_ALLOWED = [(f"ours `{s}` check", "StrategyBenchmark.check", {"strategy": s, "clock": "coarse"})
                for s in OUR_STRATEGIES] + [
    ("ours `concurrency` acquire+release", "ConcurrencyBenchmark.acquireRelease", {}),
    ("ours `LocalKeyedLimiter.tryAcquire` (existing key, fixed-window)", "KeyedLimiterBenchmark.tryAcquireExistingKey", {}),
    ("ours facade `Limit.tryAcquire(out)` (token-bucket)", "GuardBenchmark.limitTryAcquire", {}),
    ("ours facade `Limit.tryAcquire()` (thread-local out)", "GuardBenchmark.limitTryAcquireThreadLocalOut", {}),
    ("ours facade `guard.limit(name, ...)` + `tryAcquire(out)` per call", "GuardBenchmark.lookUpByNameThenTryAcquire", {}),
]
# The same checks on the system clock, as the agent runs them; shown when the run has them.
OURS_ALLOWED_SYSTEM_CLOCK = [(f"ours `{s}` check, system clock (the agent's)", "StrategyBenchmark.check",
                              {"strategy": s, "clock": "system"}) for s in OUR_STRATEGIES]
PEERS_ALLOWED = [
    ("Bucket4j `tryConsume(1)`", "Bucket4jBenchmark.tryConsume", {}),
    ("Resilience4j `AtomicRateLimiter.acquirePermission()`", "Resilience4jBenchmark.acquirePermission", {}),
    ("Guava `RateLimiter.tryAcquire()`", "GuavaBenchmark.tryAcquire", {}),
]
BASELINES = [
    ("baseline `System.currentTimeMillis()`", "ClockBaselineBenchmark.systemCurrentTimeMillis", {}),
    ("baseline `currentTimeMillis()` + one CAS", "ClockBaselineBenchmark.currentTimeMillisPlusCas", {}),
    ("baseline `CoarseClock.millis()`", "ClockBaselineBenchmark.coarseClockMillis", {}),
]
OURS_REJECTED = [(f"ours `{s}` check", "RejectedStrategyBenchmark.check", {"strategy": s})
                 for s in OUR_STRATEGIES + ["concurrency"]]
PEERS_REJECTED = [
    ("Bucket4j `tryConsume(1)`", "Bucket4jBenchmark.tryConsumeRejected", {}),
    ("Resilience4j `acquirePermission()`", "Resilience4jBenchmark.acquirePermissionRejected", {}),
    ("Guava `tryAcquire()`", "GuavaBenchmark.tryAcquireRejected", {}),
]
PEER_SHORT = ["Bucket4j", "Resilience4j", "Guava"]
# The keyed store, hand-made against Caffeine (docs/strategies.md, "Caffeine or hand-made?").
KEYED_STORES = [
    ("`LocalKeyedLimiter`, existing key (10,001 keys)", "KeyedLimiterBenchmark.tryAcquireExistingKey", {}),
    ("Caffeine cache of buckets, existing key (10,001 keys)",
     "KeyedLimiterBenchmark.tryAcquireExistingKeyCaffeine", {}),
    ("`LocalKeyedLimiter`, new key into a full store (10,000 keys)", "NewKeyBenchmark.tryAcquireNewKeyWhenFull",
     {"store": "local"}),
    ("Caffeine, new key into a full store (10,000 keys)", "NewKeyBenchmark.tryAcquireNewKeyWhenFull",
     {"store": "caffeine"}),
]
RULES = [
    ("`RuleSet.matchHttp`, 1,000 rules, path matching one rule", "RuleMatchBenchmark.matchHttpHit", {}),
    ("`RuleSet.matchHttp`, 1,000 rules, path matching none", "RuleMatchBenchmark.matchHttpMiss", {}),
]
SERVLET_CONFIGS = [
    ("no-delegate", "the bridge only: no limiter installed (the baseline)"),
    ("no-rules", "the limiter, an empty rules file"),
    ("no-match", "one rule on another path"),
    ("headers-none", "one matching rule (`key: ip`), `headers: none`"),
    ("headers-draft", "the same, default `draft` headers"),
    ("headers-both", "the same, `draft` + `X-RateLimit-*` headers"),
    ("headers-draft-steady", "`draft` headers, a concurrency limit: the same remaining value every request"),
    ("headers-both-steady", "the same, `draft` + `X-RateLimit-*` headers"),
]
SERVLET = [(label, "ServletRequestBenchmark.admitOne", {"config": config, "paths": paths})
           for paths in ("chars", "strings") for config, label in SERVLET_CONFIGS]

# What the issue expects of the peers on a machine like ours (for context, not measured here).
PEER_EXPECTED = {"Bucket4j": "~50 ns, 64 B", "Resilience4j": "~42 ns, 40 B", "Guava": "~45 ns, 0 B"}
PEER_MEMORY_EXPECTED = {"bucket4j": "~248", "resilience4j": "~336", "guava": "~136", "atomiclong": "24"}


def number(value):
    """JMH writes NaN (an error from too few iterations) as the string "NaN"."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        return None
    return None if v != v else v


def load(path):
    """Maps (method, frozen params, threads) to a Result."""
    results = {}
    if not path or not os.path.exists(path):
        return results, {}
    with open(path) as f:
        data = json.load(f)
    for r in data:
        name = r["benchmark"][len(PKG):] if r["benchmark"].startswith(PKG) else r["benchmark"]
        params = dict(IMPLICIT_PARAMS.get(name, {}), **(r.get("params") or {}))
        params = tuple(sorted(params.items()))
        norm = r.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score")
        err = number(r["primaryMetric"].get("scoreError"))
        norm = number(norm)
        iterations = [x for fork in r["primaryMetric"].get("rawData", []) for x in fork]
        score = r["primaryMetric"]["score"]
        median = statistics.median(iterations) if iterations else score
        results[(name, params, r["threads"])] = Result(score, err, median, norm, len(iterations))
    meta = data[0] if data else {}
    return results, meta


def get(results, method, params, threads):
    return results.get((method, tuple(sorted(params.items())), threads))


def measured(results, rows):
    """The rows of `rows` that have a result at 1 or 2 threads."""
    return [r for r in rows if get(results, r[1], r[2], 1) is not None or get(results, r[1], r[2], 2) is not None]


def ns(v):
    if v is None:
        return "n/a"
    if v.err is None:
        return f"{v.mean:.1f}"
    return f"{v.mean:.1f} ± {v.err:.1f}"


def med(v):
    return "n/a" if v is None else f"{v.median:.1f}"


def bop(v):
    if v is None or v.bytes is None:
        return "n/a"
    return "0" if v.bytes < 0.5 else f"{v.bytes:.0f}"


def ratio(ours, peer):
    if ours is None or peer is None or ours.median <= 0:
        return "n/a"
    return f"{peer.median / ours.median:.1f}x"


def read_memory(path):
    rows = []
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip():
                    name, value = line.rstrip("\n").split("\t")
                    rows.append((name, float(value)))
    return rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--jmh", nargs="+", required=True, help="JMH JSON result files")
    p.add_argument("--memory", required=True)
    p.add_argument("--notes", required=True)
    p.add_argument("--command", required=True)
    p.add_argument("--core-commit", required=True)
    p.add_argument("--machine", required=True, help="a file describing the machine")
    p.add_argument("--out", required=True)
    p.add_argument("--servlet", help="JMH JSON of ServletRequestBenchmark run on its own (default: "
                   "jmh-servlet.json next to --memory, if there); its results take precedence over --jmh files")
    a = p.parse_args()

    results, meta = {}, {}
    servlet_file = a.servlet or os.path.join(os.path.dirname(a.memory), "jmh-servlet.json")
    servlet_results, servlet_meta = load(servlet_file)
    for path in a.jmh:
        r, m = load(path)
        results.update(r)
        meta = meta or m
    results.update(servlet_results)  # the dedicated run has every configuration and both path kinds
    memory = read_memory(a.memory)
    out = []
    w = out.append

    w("# Benchmarks")
    w("")
    w("Generated by `scripts/bench-core` from a real run (JMH JSON and the bytes-per-key TSV are kept in")
    w("`benchmarks/results/`). Do not edit the numbers by hand: re-run the script. The analysis at the end is")
    w("`benchmarks/results/notes.md`.")
    w("")
    w("## How to run")
    w("")
    w("    ./scripts/bench-core                 # builds benchmarks/target/benchmarks.jar, runs all, rewrites this file")
    w("    LIMITER_BENCH_REV=HEAD LIMITER_BENCH_NICE=-20 ./scripts/bench-core   # a clean export of HEAD, niced (root)")
    w("    ./scripts/bench-core --report        # only regenerate this file from benchmarks/results/")
    w("    LIMITER_BENCH_JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java ./scripts/bench-core   # same on Java 25")
    w("    java -jar benchmarks/target/benchmarks.jar -h                                        # JMH by hand")
    w("")
    w("The numbers below were produced by:")
    w("")
    w(f"    {a.command}")
    w("")
    w(f"It measured core at commit `{a.core_commit}`.")
    w("")
    w("JMH mode: average time per operation (avgt), 1 fork, 3 x 1 s warm-up, 5 x 1 s measurement, `-prof gc`")
    w("(B/op is `gc.alloc.rate.norm`); ± is JMH's 99.9 % confidence half-width. The median of the 5 measurement iterations is shown too and is what ratios and")
    w("targets use: on this shared machine another engineer's build can inflate one iteration several-fold,")
    w("which moves the mean but not the median. Every benchmark is one hot key shared by all its threads; at")
    w("2 threads avgt is the time per call seen by each thread.")
    w("")
    w("## Machine")
    w("")
    with open(a.machine) as f:
        for line in f.read().strip().splitlines():
            w(f"    {line}")
    if meta:
        w(f"    JMH {meta.get('jmhVersion', '?')}, JVM {meta.get('vmName', '?')} {meta.get('vmVersion', '?')}")
    w("")
    w("The machine is shared with other engineers' builds: expect a few ns of noise, more at 2 threads.")
    w("")

    w("## Allowed path, one hot key")
    w("")
    w("Limit 1,000,000,000 per second for everyone (for the sliding window, whose counters hold at most")
    w("2,097,151 per window: 2,000,000 per 2 ms, the same rate), so every measured call is admitted: each")
    w("benchmark counts the calls that were not and fails the iteration if more than 1 % were.")
    w("")
    w("| benchmark | 1 thread: median ns/op | mean ± err | B/op | 2 threads: median ns/op | mean ± err | B/op |")
    w("|---|---:|---:|---:|---:|---:|---:|")
    system_clock = measured(results, OURS_ALLOWED_SYSTEM_CLOCK)
    for label, method, params in OURS_ALLOWED + system_clock + PEERS_ALLOWED + BASELINES:
        one, two = get(results, method, params, 1), get(results, method, params, 2)
        w(f"| {label} | {med(one)} | {ns(one)} | {bop(one)} | {med(two)} | {ns(two)} | {bop(two)} |")
    w("")

    w("## Our ratio to each peer (allowed path)")
    w("")
    w("Peer median time divided by ours: 3.0x means we take a third of the peer's time per call.")
    w("")
    head = " | ".join(f"vs {p} 1t | vs {p} 2t" for p in PEER_SHORT)
    w(f"| ours | {head} |")
    w("|---|" + "---:|" * (2 * len(PEER_SHORT)))
    for label, method, params in OURS_ALLOWED + system_clock:
        cells = []
        for _, pm, pp in PEERS_ALLOWED:
            for t in (1, 2):
                cells.append(ratio(get(results, method, params, t), get(results, pm, pp, t)))
        w(f"| {label} | " + " | ".join(cells) + " |")
    w("")

    w("## Rejected path, one hot key, 1 thread")
    w("")
    w("Limit 1 per day, the one permit taken in setup, so every measured call is rejected (counted the same way).")
    w("")
    w("| benchmark | median ns/op | mean ± err | B/op | " + " | ".join(f"vs {p}" for p in PEER_SHORT) + " |")
    w("|---|---:|---:|---:|" + "---:|" * len(PEER_SHORT))
    for label, method, params in OURS_REJECTED:
        v = get(results, method, params, 1)
        cells = [ratio(v, get(results, pm, pp, 1)) for _, pm, pp in PEERS_REJECTED]
        w(f"| {label} | {med(v)} | {ns(v)} | {bop(v)} | " + " | ".join(cells) + " |")
    for label, method, params in PEERS_REJECTED:
        v = get(results, method, params, 1)
        w(f"| {label} | {med(v)} | {ns(v)} | {bop(v)} | " + " | ".join("" for _ in PEER_SHORT) + " |")
    w("")

    stores = [(l, get(results, m, pr, 1), get(results, m, pr, 2)) for l, m, pr in KEYED_STORES]
    if any(one is not None for _, one, _ in stores):
        w("## Keyed store: hand-made or Caffeine")
        w("")
        w("Fixed window, the allowed path. Existing key: the map lookup plus the check. New key: every call brings")
        w("a key not seen for 100 laps of the store, so it is a miss, an insertion and an eviction.")
        w("")
        w("| store | 1 thread: median ns/op | mean ± err | B/op | 2 threads: median ns/op | mean ± err | B/op |")
        w("|---|---:|---:|---:|---:|---:|---:|")
        for label, one, two in stores:
            w(f"| {label} | {med(one)} | {ns(one)} | {bop(one)} | {med(two)} | {ns(two)} | {bop(two)} |")
        w("")

    rules = [(l, get(results, m, pr, 1)) for l, m, pr in RULES]
    if any(v is not None for _, v in rules):
        w("## Rules: HTTP path matching, 1 thread")
        w("")
        w("| benchmark | median ns/op | mean ± err | B/op |")
        w("|---|---:|---:|---:|")
        for label, v in rules:
            w(f"| {label} | {med(v)} | {ns(v)} | {bop(v)} |")
        w("")

    servlet = [(l, pr, get(results, m, pr, 1)) for l, m, pr in SERVLET]
    if any(v is not None for _, _, v in servlet):
        w("## Agent: one servlet request through the woven entry and exit, 1 thread")
        w("")
        w("`ServletRequestBenchmark`: `LimiterBridge.servletEnter` + `servletExit` (what the inlined advice calls)")
        w("with the agent's `ServletLimiter` installed, on Tomcat 11's own request and response objects, for")
        w("`GET /api/items/a` to a servlet mapped at `/api/*` (the request of `scripts/http-overhead`). Each")
        w("operation also does what Tomcat and the servlet do anyway (mapper data set, attributes recycled, the")
        w("servlet reads its path info), so \"agent\" columns subtract the `no-delegate` row. Path parts as")
        w("`chars`: as Tomcat's mapper sets them, so the agent's `getServletPath()` makes Tomcat create a")
        w("48 B string; as `strings`: a container that keeps them as strings (Jetty), only our own allocation.")
        if servlet_results:
            w(f"From `{os.path.relpath(servlet_file)}`, run on its own:")
            about = os.path.splitext(servlet_file)[0] + ".txt"
            if os.path.exists(about):
                with open(about) as f:
                    w("")
                    for line in f.read().strip().splitlines():
                        w(f"- {line}")
        w("")
        w("| configuration | path parts | median ns/op | mean ± err | B/op | agent ns | agent B/op |")
        w("|---|---|---:|---:|---:|---:|---:|")
        for label, params, v in servlet:
            if v is None:
                continue
            base = get(results, "ServletRequestBenchmark.admitOne", {"config": "no-delegate",
                                                                      "paths": params["paths"]}, 1)
            extra_ns = "n/a" if base is None else f"{v.median - base.median:.0f}"
            extra_b = ("n/a" if base is None or v.bytes is None or base.bytes is None
                       else f"{max(0.0, v.bytes - base.bytes):.0f}")
            w(f"| `{params['config']}`: {label} | {params['paths']} | {med(v)} | {ns(v)} | {bop(v)} | "
              f"{extra_ns} | {extra_b} |")
        w("")

    w("## Memory per key")
    w("")
    w("Live-heap growth after a full GC divided by N = 1,000,000 (`MemoryPerKey`, Serial GC, compressed oops).")
    w("`ours-bucket` is the per-key state a strategy allocates; `ours-keyed` is the whole cost per key inside")
    w("`LocalKeyedLimiter` (bucket + map entry + bookkeeping, key strings excluded). Peers: one limiter per key.")
    w("")
    w("| subject | bytes per key | issue's figure |")
    w("|---|---:|---:|")
    for name, value in memory:
        w(f"| {name} | {value:.1f} | {PEER_MEMORY_EXPECTED.get(name, '')} |")
    w("")

    w("## Targets")
    w("")
    w("| target | measured | met |")
    w("|---|---|---|")
    for label, method, params in OURS_ALLOWED[:5]:
        for t, limit in ((1, 15.0), (2, 50.0)):
            v = get(results, method, params, t)
            if v is None:
                w(f"| {label}, {t} thread(s) <= {limit:.0f} ns/op | n/a | not measured |")
            else:
                m = v.median
                met = "yes" if m <= limit else f"no: {m - limit:+.1f} ns ({m / limit:.1f}x the target)"
                w(f"| {label}, {t} thread(s) <= {limit:.0f} ns/op | {m:.1f} ns (median) | {met} |")
        v = get(results, method, params, 1)
        if v is not None and v.bytes is not None:
            w(f"| {label}, 0 B/op | {v.bytes:.3f} B | {'yes' if v.bytes < 0.5 else 'no'} |")
    for name, value in memory:
        if name.startswith("ours-bucket:"):
            met = "yes" if value <= 32 else f"no: {value - 32:+.1f} B"
            w(f"| state per key ({name}) <= 32 B | {value:.1f} B | {met} |")
    w("")
    w("The issue's expectations for the peers on a machine like ours, for comparison with the table above: " +
      "; ".join(f"{k} {v}" for k, v in PEER_EXPECTED.items()) +
      " per call at 1 thread, 90-450 ns at 2 threads; `System.currentTimeMillis()` ~27 ns, plus one CAS ~33 ns.")
    w("")

    missing = []
    for label, method, params in OURS_ALLOWED + PEERS_ALLOWED + BASELINES + OURS_REJECTED + PEERS_REJECTED + RULES:
        if get(results, method, params, 1) is None:
            missing.append(f"{method} {dict(params) or ''} at 1 thread".replace(" {}", "").replace("  ", " "))
    for label, method, params in OURS_ALLOWED[:6] + PEERS_ALLOWED + BASELINES:
        if get(results, method, params, 2) is None:
            missing.append(f"{method} {dict(params) or ''} at 2 threads".replace("  ", " "))
    expected_iterations = 5
    partial = []
    for (method, params, threads), v in sorted(results.items()):
        if v.iterations < expected_iterations:
            partial.append(f"{method} {dict(params) or ''} at {threads} thread(s): {v.iterations} of "
                           f"{expected_iterations} iterations".replace(" {}", ""))
    if partial:
        missing += [p + " (the rest failed: see the script's output)" for p in partial]
    w("## Missing results")
    w("")
    if missing:
        w("These benchmarks have no result in this run (failed, or not selected); see the script's output:")
        w("")
        for m in missing:
            w(f"- {m}")
    else:
        w("None: every benchmark of the suite produced a result.")
    w("")

    w("## Analysis")
    w("")
    if os.path.exists(a.notes):
        with open(a.notes) as f:
            w(f.read().strip())
    else:
        w("(no notes yet)")
    w("")
    with open(a.out, "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()

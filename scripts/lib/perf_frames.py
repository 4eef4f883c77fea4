#!/usr/bin/env python3
"""Share of a perf recording's samples under given frames.

Reads `perf script` output (call-graph samples of a JVM run with -XX:+PreserveFramePointer and a perf map) on
stdin; for each frame substring given as an argument, prints the percentage of samples whose stack holds that
frame (inclusive), and the frames called right below it that take the most samples.

    perf script -i perf.data | scripts/lib/perf_frames.py dev.limiter StandardWrapperValve.invoke
"""
import collections
import re
import sys


def stacks(lines):
    stack = []
    for line in lines:
        line = line.rstrip("\n")
        if not line.strip():
            if stack:
                yield stack[::-1]  # root first
            stack = []
        elif line[0] in " \t":
            parts = line.strip().split(" ", 1)
            symbol = parts[1] if len(parts) > 1 else parts[0]
            symbol = re.sub(r"\s*\(\S*\)$", "", symbol)  # the dso
            symbol = re.sub(r"\(.*", "", symbol)  # the parameters
            stack.append(symbol.split(" ")[-1])
        else:
            stack = []
    if stack:
        yield stack[::-1]


def main(targets):
    total = 0
    hits = {t: 0 for t in targets}
    below = {t: collections.Counter() for t in targets}
    for frames in stacks(sys.stdin):
        total += 1
        for target in targets:
            for i, frame in enumerate(frames):
                if target in frame:
                    hits[target] += 1
                    below[target][frames[i + 1][:100] if i + 1 < len(frames) else "(self)"] += 1
                    break
    print(f"{total} samples")
    for target in targets:
        print(f"{100 * hits[target] / max(total, 1):6.2f} %  under {target}")
        for frame, n in below[target].most_common(6):
            print(f"           {100 * n / max(total, 1):6.2f} %  {frame}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["dev.limiter"])

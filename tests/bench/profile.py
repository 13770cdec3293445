#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Per-function guest kernel instructions per operation, side by side.

    profile.py [--top N] [--before RAW0 PLUGIN_COUNTS0] RAW PLUGIN_COUNTS

RAW is guest-profile's output (its "P ID STATE WORKLOAD ITERS" windows and
the guest's text symbols between "KALLSYMS BEGIN" and "KALLSYMS END"),
PLUGIN_COUNTS profile-plugin.so's file ("W ID", "K ADDRESS INSTRUCTIONS",
"U INSTRUCTIONS").  Every block's instructions go to the function whose
symbol is the nearest at or below its start address; divided by the
window's operations, side by side for the pairs below.  With --before
(an earlier run's files, e.g. of the code before a change), the same
windows of the two runs side by side as well.
"""
import argparse
import base64
import bisect
import gzip
import sys
from collections import defaultdict

# (title, window A, window B): state and workload as guest-profile names them.
PAIRS = [
    ("plain openat2+close: module absent -> loaded, policy 3",
     ("absent", "openat2"), ("policy3", "openat2")),
    ("policy 0, open+close: openat2 -> openat2(O_MAYEXEC)",
     ("policy0", "openat2"), ("policy0", "mayexec_ok")),
    ("policy 3, open+close: openat2 -> openat2(O_MAYEXEC)",
     ("policy3", "openat2"), ("policy3", "mayexec_ok")),
    ("policy 3, the open alone: openat2 -> openat2(O_MAYEXEC)",
     ("policy3", "openat2:open"), ("policy3", "mayexec_ok:open")),
    ("policy 3, the open alone: O_MAYEXEC allowed -> refused",
     ("policy3", "mayexec_ok:open"), ("policy3", "mayexec_refused:open")),
]


def read_raw(path):
    windows, syms, b64, in_syms = {}, [], [], False
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line == "KALLSYMS BEGIN":
                in_syms = True
            elif line == "KALLSYMS END":
                in_syms = False
            elif in_syms:
                b64.append(line.strip())
            elif line.startswith("P "):
                _, wid, state, workload, iters = line.split()
                windows[(state, workload)] = (int(wid), int(iters))
            elif line.startswith("M kernel="):
                windows["kernel"] = line.split("=", 1)[1]
    text = gzip.decompress(base64.b64decode("".join(b64))).decode()
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        name = parts[2]
        if len(parts) > 3:
            name += " " + parts[3]          # [module]
        syms.append((int(parts[0], 16), name))
    syms.sort()
    return windows, syms


def read_counts(path):
    counts, wid = defaultdict(lambda: defaultdict(int)), None
    with open(path) as f:
        for line in f:
            parts = line.split()
            if not parts or parts[0] == "#":
                continue
            if parts[0] == "W":
                wid = int(parts[1])
            elif parts[0] == "K":
                counts[wid][int(parts[1], 16)] += int(parts[2])
            elif parts[0] == "U":
                counts[wid]["[user space]"] += int(parts[1])
    return counts


def per_function(blocks, syms, iters):
    addrs = [a for a, _ in syms]
    funcs = defaultdict(float)
    for addr, n in blocks.items():
        if addr == "[user space]":
            funcs[addr] += n / iters
            continue
        i = bisect.bisect_right(addrs, addr) - 1
        funcs[syms[i][1] if i >= 0 else "?"] += n / iters
    return funcs


# Windows compared between two runs (--before).
VERSUS = [("policy0", "mayexec_ok"), ("policy3", "mayexec_ok"),
          ("policy3", "mayexec_ok:open"), ("policy3", "openat2")]


def table(title, fa, fb, top):
    ka = sum(v for k, v in fa.items() if k != "[user space]")
    kb = sum(v for k, v in fb.items() if k != "[user space]")
    print(f"\n{title}")
    print(f"  {'function':<44} {'A':>9} {'B':>9} {'B-A':>9}")
    print(f"  {'kernel, all functions':<44} {ka:9.1f} {kb:9.1f} {kb - ka:+9.1f}")
    ua, ub = fa.get("[user space]", 0), fb.get("[user space]", 0)
    print(f"  {'[user space]':<44} {ua:9.1f} {ub:9.1f} {ub - ua:+9.1f}")
    names = [n for n in set(fa) | set(fb) if n != "[user space]"]
    # The functions that moved most first, then the largest.
    names.sort(key=lambda n: (-abs(fb.get(n, 0) - fa.get(n, 0)),
                              -max(fa.get(n, 0), fb.get(n, 0))))
    shown = 0
    for n in names:
        va, vb = fa.get(n, 0.0), fb.get(n, 0.0)
        if max(va, vb) < 0.5:
            continue
        print(f"  {n[:44]:<44} {va:9.1f} {vb:9.1f} {vb - va:+9.1f}")
        shown += 1
        if shown >= top:
            break


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--before", nargs=2, metavar=("RAW0", "COUNTS0"))
    ap.add_argument("raw")
    ap.add_argument("counts")
    args = ap.parse_args()
    windows, syms = read_raw(args.raw)
    counts = read_counts(args.counts)
    print(f"Kernel {windows.get('kernel', '?')}: guest instructions per operation "
          f"(QEMU TCG plugin, per function; a block counts whole where it starts)")
    for title, a, b in PAIRS:
        if a not in windows or b not in windows:
            print(f"\n{title}: window missing")
            continue
        fa = per_function(counts[windows[a][0]], syms, windows[a][1])
        fb = per_function(counts[windows[b][0]], syms, windows[b][1])
        table(title, fa, fb, args.top)
    if args.before:
        windows0, syms0 = read_raw(args.before[0])
        counts0 = read_counts(args.before[1])
        for w in VERSUS:
            if w not in windows0 or w not in windows:
                continue
            fa = per_function(counts0[windows0[w][0]], syms0, windows0[w][1])
            fb = per_function(counts[windows[w][0]], syms, windows[w][1])
            table(f"{w[0]} {w[1]}: before (A) -> after (B)", fa, fb, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())

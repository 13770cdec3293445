#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tests/bench/report.py: turn guest-bench output into the benchmark report.

    report.py --out DIR RAW...

RAW files are guest-bench outputs (one per time base and kernel, see
run-bench); each table is named by both.  Writes
DIR/results.txt (the tables, the targets and the profile), DIR/results.json,
DIR/results.csv, and DIR/chart.dat + DIR/chart.gp (gnuplot makes chart.png).

Cost per operation = elapsed x min(threads, vCPUs) / operations: with one
vCPU (the icount boot) it is the guest instructions of one operation, with
2 threads on 2 vCPUs (the wall boot) the time one thread spends on one.
Each (state, workload) has several repetitions: the median is the figure,
min and max the spread.  Ratios are medians over the "absent" (module not
loaded) median of the same workload; for the O_MAYEXEC workloads, which the
stock kernel refuses (EINVAL), over the plain openat2 of the same state;
for the AT_EXECVE_CHECK workloads over the allowed O_MAYEXEC open+close of
the same state, or on a native kernel (state "native", no O_MAYEXEC) over
the plain openat2+close of the same file.

The interpreter workloads (interp-guest.sh: one whole run of an
interpreter, label py_*, pl_*, sh_*) come first: the enlightened run
(label ending ":omx") over the stock interpreter's in the same state (the
same boot, the same kernel, the same wrapper), the stock run over the
stock run with the module absent (on a native kernel: "native").
Python standard library only.
"""
import argparse
import csv
import json
import os
import statistics
import sys

STATES = ["absent", "policy0", "policy3", "absent2", "fapolicyd", "restrict", "native",
          "native_restrict"]
STATE_LABEL = {
    "absent": "absent",
    "policy0": "loaded, policy 0",
    "policy3": "loaded, policy 3",
    "absent2": "absent again",
    "fapolicyd": "fapolicyd (peer)",
    "native": "native (mainline)",
    "restrict": "policy 3, --restrict-file",
    "native_restrict": "native, --restrict-file",
}
# The interpreter table's states, in column order.
INTERP_STATES = ["absent", "policy0", "policy3", "restrict", "fapolicyd", "native",
                 "native_restrict"]
# (stock label, enlightened label, what the row is), in table order; the
# enlightened one's label is the stock one's + ":omx".
INTERPS = [
    ("py_pass", "python3 -c pass", "omayexec-python3 -c pass"),
    ("py_imports", "python3 imports.py", "omayexec-python3 imports.py"),
    ("pl_pass", "perl -e 1", "omayexec-perl -e 1"),
    ("pl_uses", "perl imports.pl", "omayexec-perl imports.pl"),
    ("sh_script", "/bin/sh script.sh", "omxsh script.omx"),
    ("php_page", "php page.php", "php+omayexec.so page.php"),
    ("php_opcache", "php page.php, OPcache", "php+omayexec.so page.php, OPcache"),
]
INTERP_LABEL = {}
for _w, _stock, _omx in INTERPS:
    INTERP_LABEL[_w] = _stock
    INTERP_LABEL[_w + ":omx"] = _omx
# The targets: the enlightened interpreter over the stock one, by state.
INTERP_TARGETS = {"policy3": 3.0, "restrict": 8.0}
# The open's targets (issue 22), in % over the reference workload: an
# unflagged open and execve() over the module absent, an allowed O_MAYEXEC
# open over a plain openat2() of the same file (with its close, and alone).
UNFLAGGED_LIMIT_PCT = 0.3
EXECVE_LIMIT_PCT = 1.0
MAYEXEC_LIMIT_PCT = 2.5
MAYEXEC_OPEN_LIMIT_PCT = 3.0
# The chart's states: a module kernel's.
CHART_STATES = ["absent", "policy0", "policy3", "absent2", "fapolicyd"]
# (workload, threads) in table order
WORKLOADS = [
    ("open", 1), ("openat", 1), ("openat2", 1), ("open", 2),
    ("openat2:open", 1),
    ("mayexec_ok", 1), ("mayexec_ok:open", 1), ("mayexec_refused", 1),
    ("check_ok", 1), ("check_refused", 1),
    ("execve", 1),
]
LABEL = {
    ("open", 1): "open+close",
    ("openat", 1): "openat+close",
    ("openat2", 1): "openat2+close",
    ("open", 2): "open+close, 2 threads",
    ("openat2:open", 1): "openat2, open only",
    ("mayexec_ok", 1): "openat2(O_MAYEXEC) allowed +close",
    ("mayexec_ok:open", 1): "openat2(O_MAYEXEC) allowed, open only",
    ("mayexec_refused", 1): "openat2(O_MAYEXEC) refused",
    ("check_ok", 1): "execveat(AT_EXECVE_CHECK) allowed",
    ("check_refused", 1): "execveat(AT_EXECVE_CHECK) refused",
    ("execve", 1): "vfork+execve+wait",
}
UNFLAGGED = [("open", 1), ("openat", 1), ("openat2", 1), ("openat2:open", 1), ("execve", 1)]


def is_interp(w):
    return w.split(":")[0] in INTERP_LABEL


# The two functions every open passes through, each hooked by the module.
OPEN_HOOKS = ("do_sys_openat2", "may_open")


def hook_flags(meta):
    """{hooked function: its flags in ftrace's enabled_functions} (guest-bench's
    "M hooks=" line; none in runs older than that line)."""
    out = {}
    for item in meta.get("hooks", "").split(","):
        if ":" in item:
            name, flags = item.split(":", 1)
            out[name] = flags
    return out


def mechanism(meta):
    """How ftrace reaches the open path's hooks: "direct" (a call into the
    trampoline), "ipmodify" (ftrace_regs_caller saves the registers and an
    ftrace_ops callback moves the saved pc into the trampoline: 6.1 arm64),
    None when the run did not record it."""
    flags = [hook_flags(meta).get(f) for f in OPEN_HOOKS]
    if all(f and "D" in f for f in flags):
        return "direct"
    if all(f and "I" in f and "D" not in f for f in flags):
        return "ipmodify"
    return None


def mechanism_text(meta):
    arch = meta.get("arch", "x86_64")
    how = mechanism(meta)
    if how == "direct":
        return f"{arch}, ftrace direct calls into the trampolines"
    if how == "ipmodify":
        return (f"{arch}, no direct calls: one IPMODIFY ftrace_ops for the hooks and the "
                "guard, its callback moves the saved pc into the hooked function's trampoline")
    return arch


def hooks_note(meta):
    """What the two hooks of an open execute, by architecture and mechanism."""
    how = mechanism(meta)
    if how == "ipmodify":
        return ("do_sys_openat2 and may_open: each ftrace_regs_caller (all registers saved "
                "and restored), ftrace_ops_list_func testing each registered ftrace_ops "
                "(the module's two: the hooks' and guard's, the securebits watch) against "
                "the address, the callback finding the trampoline, then its flag test")
    if meta.get("arch") == "aarch64":
        return ("do_sys_openat2 and may_open: bl (or ftrace_caller's br x17) + load + "
                "tst + b.ne + ret each")
    return "do_sys_openat2 and may_open: call + testl + jnz + return each"


def parse(path):
    meta, rows = {}, []
    with open(path, errors="replace") as f:
        for line in f:
            p = line.split()
            if not p:
                continue
            if p[0] == "M":
                for kv in p[1:]:
                    if "=" in kv:
                        k, v = kv.split("=", 1)
                        meta[k] = v
            elif p[0] == "R" and len(p) == 8:
                _, state, w, threads, rep, ops, elapsed, outcome = p
                rows.append(dict(state=state, workload=w, threads=int(threads),
                                 rep=int(rep), ops=int(ops),
                                 elapsed=int(elapsed), outcome=outcome))
    return meta, rows


def summarise(meta, rows):
    cpus = int(meta.get("cpus", "1"))
    groups = {}
    for r in rows:
        key = (r["state"], r["workload"], r["threads"])
        cost = r["elapsed"] * min(r["threads"], cpus) / r["ops"]
        g = groups.setdefault(key, {"costs": [], "outcomes": set()})
        g["costs"].append(cost)
        g["outcomes"].add(r["outcome"])
    res = {}
    for (state, w, t), g in groups.items():
        c = g["costs"]
        med = statistics.median(c)
        res[(state, w, t)] = {
            "state": state, "workload": w, "threads": t,
            "reps": [round(x, 1) for x in c],
            "median": med, "min": min(c), "max": max(c),
            "spread_pct": 100.0 * (max(c) - min(c)) / med if med else 0.0,
            "outcome": "/".join(sorted(g["outcomes"])),
        }
    for (state, w, t), r in res.items():
        if is_interp(w):
            if w.endswith(":omx"):
                # The enlightened interpreter over the stock one, same state.
                base = res.get((state, w[:-len(":omx")], t))
                r["ratio_base"] = f"{w[:-len(':omx')]}, {state}"
            else:
                ref = "native" if state.startswith("native") else "absent"
                base = res.get((ref, w, t))
                r["ratio_base"] = ref
            r["ratio"] = r["median"] / base["median"] if base else None
            continue
        if w.startswith("check") and state == "native":
            # Mainline's check, next to a plain open+close of the same file.
            base = res.get((state, "openat2", 1))
            r["ratio_base"] = f"openat2, {state}"
        elif w.startswith("check"):
            # One check, next to an O_MAYEXEC open (+close) of the same file.
            base = res.get((state, "mayexec_ok", 1))
            r["ratio_base"] = f"mayexec_ok, {state}"
        elif w.startswith("mayexec"):
            # A failed open leaves nothing to close: compare it with the
            # plain open alone.
            plain = ("openat2:open" if w.endswith(":open") or r["outcome"] != "ok"
                     else "openat2")
            base = res.get((state, plain, 1))
            r["ratio_base"] = f"{plain}, {state}"
        else:
            base = res.get(("absent", w, t))
            r["ratio_base"] = "absent"
        r["ratio"] = r["median"] / base["median"] if base else None
    return res


def fmt_cost(x):
    return f"{x:,.0f}"


def table(tb, meta, res):
    unit = "guest instructions" if tb == "icount" else "ns (wall clock, NOISY)"
    lines = []
    states = [s for s in STATES if any(k[0] == s and not is_interp(k[1]) for k in res)]
    lines.append(f"== time base: {tb}, kernel {meta.get('kernel', '?')} -- median cost per operation in {unit}; "
                 f"[spread = (max-min)/median over {meta.get('reps', '?')} repetitions]; "
                 "x ratio to \"absent\" (O_MAYEXEC rows: to plain openat2 of the same state, "
                 "open only for a refused open; AT_EXECVE_CHECK rows: to the allowed "
                 "O_MAYEXEC open+close of the same state)")
    if tb == "icount":
        lines.append(f"   guest: {meta.get('cpus', '?')} vCPU, -icount shift=0,sleep=off "
                     "(1 ns = 1 guest instruction); the 2 threads share it")
    else:
        lines.append(f"   guest: {meta.get('cpus', '?')} vCPUs, {meta.get('tcg', '?')} TCG: "
                     "wall-clock time, NOISY (the host's other load shows)")
    peer = (f"fapolicyd {meta['fapolicyd_version']} (1/{meta.get('fapolicyd_div', '?')} of the operations)"
            if "fapolicyd_version" in meta else "no fapolicyd")
    lines.append(f"   kernel {meta.get('kernel', '?')}, QEMU {meta.get('qemu', '?')}, "
                 f"{peer}; {meta.get('iters', '?')} operations per repetition "
                 f"({meta.get('exec_iters', '?')} execve)")
    if "arch" in meta:
        lines.append(f"   hooks: {mechanism_text(meta)}")
    w0 = 36
    colw = 31
    lines.append(f"{'workload':<{w0}}" + "".join(f"{STATE_LABEL[s]:>{colw}}" for s in states))
    for wk in WORKLOADS:
        cells = []
        for s in states:
            r = res.get((s, wk[0], wk[1]))
            if not r:
                cells.append(f"{'-':>{colw}}")
                continue
            txt = f"{fmt_cost(r['median'])} [{r['spread_pct']:.1f}%]"
            if r["ratio"] is not None and not (s == "absent" and r["ratio_base"] == "absent"):
                txt += f" x{r['ratio']:.3f}"
            if r["outcome"] != "ok":
                txt += f" {r['outcome']}"
            cells.append(f"{txt:>{colw}}")
        lines.append(f"{LABEL[wk]:<{w0}}" + "".join(cells))
    return lines


def interp_files(meta):
    """The code files each interpreter workload reads, from guest-bench's
    count (the script itself is one more): {stock label: n}."""
    out = {}
    py = meta.get("interp_py_code_files")
    pl = meta.get("interp_pl_code_files")
    if py:
        out["py_imports"] = int(py) + 1
    if pl:
        out["pl_uses"] = int(pl) + 1
    out["sh_script"] = 3        # script.omx and lib.omx twice
    php = meta.get("interp_php_code_files")
    if php:
        out["php_page"] = out["php_opcache"] = int(php)     # page.php included
    return out


def interp_table(tb, meta, res):
    """The interpreters, stock and enlightened, by state."""
    unit = "guest instructions" if tb == "icount" else "ns (wall clock, NOISY)"
    states = [s for s in INTERP_STATES if any(k[0] == s and is_interp(k[1]) for k in res)]
    if not states:
        return []
    files = interp_files(meta)
    lines = [f"== interpreters, time base: {tb}, kernel {meta.get('kernel', '?')} -- median cost of one whole run "
             f"(vfork+execve+wait of the interpreter) in {unit}; [spread over {meta.get('reps', '?')} repetitions of "
             f"{meta.get('interp_iters', '?')} runs]; x ratio: an enlightened run to the stock one of the same state, "
             "a stock run to the stock one with the module absent (native kernel: of state native)",
             f"   code files read: imports.py {files.get('py_imports', '?')} "
             f"({meta.get('interp_py_code_files', '?')} modules from .py/.pyc + the script; "
             f"{meta.get('interp_py_extension_modules', '?')} extension modules by dlopen), "
             f"imports.pl {files.get('pl_uses', '?')} ({meta.get('interp_pl_code_files', '?')} in %INC + the script; "
             f"{meta.get('interp_pl_shared_objects', '?')} XS objects by dlopen), script.omx 3 (itself, lib.omx twice); "
             f"the guest's /bin/sh is {meta.get('interp_sh', '?')}; "
             f"page.php (PHP {meta.get('interp_php', '?')}) {files.get('php_page', '?')} "
             "(itself, 202 classes autoloaded, config and layout; OPcache: all from its file cache)",
             "   states: the stock interpreters' code files have the x bit in every state (-allow-stdlib ran first); "
             "\"--restrict-file\": each run under \"omayexec run --restrict-file --\" (the module at policy 3, or "
             "mainline's securebits), the stock interpreter's too"]
    w0 = 36
    colw = 30
    lines.append(f"{'workload':<{w0}}" + "".join(f"{STATE_LABEL[s]:>{colw}}" for s in states))
    for stock, _, _ in INTERPS:
        for w in (stock, stock + ":omx"):
            cells = []
            for s in states:
                r = res.get((s, w, 1))
                if not r:
                    cells.append(f"{'-':>{colw}}")
                    continue
                txt = f"{fmt_cost(r['median'])} [{r['spread_pct']:.1f}%]"
                if r["ratio"] is not None and not (r["ratio_base"] in ("absent", "native")
                                                   and s == r["ratio_base"]):
                    txt += f" x{r['ratio']:.3f}"
                if r["outcome"] != "ok":
                    txt += f" {r['outcome']}"
                cells.append(f"{txt:>{colw}}")
            lines.append(f"{INTERP_LABEL[w]:<{w0}}" + "".join(cells))
    return lines


def interp_targets(res):
    """The enlightened interpreters against the stock ones (icount)."""
    out = []
    for state, limit in INTERP_TARGETS.items():
        for stock, _, omx in INTERPS:
            if stock.startswith("sh_"):
                continue        # omxsh has no stock twin: no target
            r = res.get((state, stock + ":omx", 1))
            if r and r["ratio"] is not None:
                out.append(dict(target=f"{omx} ({STATE_LABEL[state]}) <= +{limit:g}% over {INTERP_LABEL[stock]}",
                                value_pct=round(pct(r["ratio"]), 3), limit_pct=limit,
                                met=pct(r["ratio"]) <= limit))
    return out


def interp_profile(meta, res):
    """What the enlightened run adds to the stock one of the same state, and
    to its own run with the policy off (module absent; native kernel: state
    native), per code file read; what a file may add for a target to hold."""
    out = []
    files = interp_files(meta)
    for stock, _, omx in INTERPS:
        n = files.get(stock)
        for state in INTERP_STATES:
            a, b = res.get((state, stock + ":omx", 1)), res.get((state, stock, 1))
            if not a or not b:
                continue
            off = "native" if state.startswith("native") else "absent"
            own, own_stock = res.get((off, stock + ":omx", 1)), res.get((off, stock, 1))
            x = dict(workload=stock, state=state, files=n)
            if not stock.startswith("sh_"):
                x["over_stock"] = round(a["median"] - b["median"], 1)
                limit = INTERP_TARGETS.get(state)
                if limit and n:
                    x["budget_per_file"] = round(limit / 100 * b["median"] / n, 1)
            if own and own_stock and state != off:
                # What the state adds to the enlightened run beyond what it
                # adds to the stock one (omayexec run's exec, fapolicyd's
                # events on the interpreter's own opens): the checks.
                x["over_policy_off"] = round((a["median"] - b["median"])
                                             - (own["median"] - own_stock["median"]), 1)
            if n:
                for k in ("over_stock", "over_policy_off"):
                    if k in x:
                        x[k + "_per_file"] = round(x[k] / n, 1)
            if len(x) > 3:
                out.append(x)
    return out


def pct(r):
    return 100.0 * (r - 1.0)


def targets(res):
    """The issue's targets, on the icount figures."""
    out = []

    def get(s, w, t=1):
        return res.get((s, w, t))

    # 1. unflagged opens, module loaded, at most +0.3 %; execve() +1 %.
    for s in ("policy0", "policy3"):
        for wk in UNFLAGGED:
            r = get(s, *wk)
            limit = EXECVE_LIMIT_PCT if wk[0] == "execve" else UNFLAGGED_LIMIT_PCT
            if r and r["ratio"] is not None:
                out.append(dict(target=f"{LABEL[wk]} ({STATE_LABEL[s]}) <= +{limit:g}% over absent",
                                value_pct=round(pct(r["ratio"]), 3), limit_pct=limit,
                                met=pct(r["ratio"]) <= limit))
    # 2. allowed O_MAYEXEC over plain openat2 of the same file: with the
    #    close at most +2.5 %, the open alone at most +3 %.
    for s in ("policy0", "policy3"):
        for w, how, limit in (("mayexec_ok", "open+close", MAYEXEC_LIMIT_PCT),
                              ("mayexec_ok:open", "open only", MAYEXEC_OPEN_LIMIT_PCT)):
            r = get(s, w)
            if r and r["ratio"] is not None:
                out.append(dict(target=f"O_MAYEXEC allowed ({STATE_LABEL[s]}, {how}) <= +{limit:g}% over plain openat2",
                                value_pct=round(pct(r["ratio"]), 3), limit_pct=limit,
                                met=pct(r["ratio"]) <= limit))
    # 3. refused no dearer than allowed: the refused open against the
    #    allowed open alone (a refusal leaves nothing to close).
    ok, ref = get("policy3", "mayexec_ok:open"), get("policy3", "mayexec_refused")
    if ok and ref:
        out.append(dict(target="O_MAYEXEC refused (policy 3, EACCES) no dearer than allowed (policy 3, open only)",
                        value_pct=round(100.0 * (ref["median"] / ok["median"] - 1), 3),
                        limit_pct=0.0, met=ref["median"] <= ok["median"]))
    # 4. two threads: the same ratios as one thread (an unflagged open's
    #    target).
    for s in ("policy0", "policy3"):
        r2, r1 = get(s, "open", 2), get(s, "open", 1)
        if r2 and r1 and r2["ratio"] is not None:
            out.append(dict(target=f"open+close, 2 threads ({STATE_LABEL[s]}) <= +{UNFLAGGED_LIMIT_PCT:g}% over absent "
                                   f"(1 thread: {pct(r1['ratio']):+.2f}%)",
                            value_pct=round(pct(r2["ratio"]), 3), limit_pct=UNFLAGGED_LIMIT_PCT,
                            met=pct(r2["ratio"]) <= UNFLAGGED_LIMIT_PCT))
    return out


def check_per_kernel(summaries):
    """The check's icount cost on every kernel of the run, side by side."""
    out = []
    for (tb, kernel), res in summaries.items():
        if tb != "icount":
            continue
        state = "native" if any(k[0] == "native" for k in res) else "policy0"
        ok, ref = res.get((state, "check_ok", 1)), res.get((state, "check_refused", 1))
        base_w = "openat2" if state == "native" else "mayexec_ok"
        base = res.get((state, base_w, 1))
        if ok and ref and base:
            out.append(dict(kernel=kernel, how="native" if state == "native" else "module",
                            check_ok=round(ok["median"], 1), check_refused=round(ref["median"], 1),
                            open_close=round(base["median"], 1),
                            open_close_what="openat2" if state == "native" else "O_MAYEXEC"))
    return out


def hooks_per_kernel(summaries, metas):
    """What the two hooks of an open cost on every module kernel of the run
    (icount): policy 0 against the module absent, for the open alone and
    with its close, per open and per hooked call."""
    out = []
    for (tb, kernel), res in summaries.items():
        if tb != "icount" or any(k[0] == "native" for k in res):
            continue
        meta = metas[(tb, kernel)]
        x = dict(kernel=kernel, arch=meta.get("arch", "?"), mechanism=mechanism(meta))
        for w in ("openat2:open", "openat2", "open"):
            a, b = res.get(("absent", w, 1)), res.get(("policy0", w, 1))
            if a and b:
                x[w] = dict(absent=round(a["median"], 1), policy0=round(b["median"], 1),
                            added=round(b["median"] - a["median"], 1),
                            pct=round(pct(b["median"] / a["median"]), 3))
        if "openat2:open" in x:
            out.append(x)
    return out


def profile(res, meta):
    """Where the added instructions go, by differences of icount medians."""
    out = []

    def med(s, w, t=1):
        r = res.get((s, w, t))
        return r["median"] if r else None

    def add(what, a, b, note):
        if a is not None and b is not None:
            out.append(dict(what=what, instructions=round(a - b, 1), note=note))

    for w in ("open", "openat", "openat2", "openat2:open"):
        add(f"both hooks on {LABEL[(w, 1)]} (policy 0 - absent)",
            med("policy0", w), med("absent", w), hooks_note(meta))
    add("drift: absent again - absent, open+close", med("absent2", "open"), med("absent", "open"),
        "the noise floor of the differences above")
    add("may_open trampoline on execve (policy 0 - absent)", med("policy0", "execve"),
        med("absent", "execve"), "exec opens through do_open_execat: may_open hook only; "
        "below the execve noise (spread about 0.5 %, 1,000+ instructions)")
    add("O_MAYEXEC path, no check (mayexec_ok - openat2, policy 0)",
        med("policy0", "mayexec_ok"), med("policy0", "openat2"),
        "omayexec_openat2: module get/put, open_how copy, build_open_flags, getname, "
        "may_open wrapper, per-CPU count; fsnotify open with FMODE_EXEC")
    add("O_MAYEXEC path, no check, open only (mayexec_ok:open - openat2:open, policy 0)",
        med("policy0", "mayexec_ok:open"), med("policy0", "openat2:open"),
        "the same, without the close (whose cost the flag does not change)")
    add("policy 3 checks (mayexec_ok policy 3 - policy 0)",
        med("policy3", "mayexec_ok"), med("policy0", "mayexec_ok"),
        "S_ISREG, noexec mount test, inode_permission(MAY_EXEC)")
    add("policy 3 checks, open only (mayexec_ok:open policy 3 - policy 0)",
        med("policy3", "mayexec_ok:open"), med("policy0", "mayexec_ok:open"),
        "the same, without the close")
    add("refusal vs allowed open (mayexec_refused - mayexec_ok:open, policy 3)",
        med("policy3", "mayexec_refused"), med("policy3", "mayexec_ok:open"),
        "a refusal skips the file's opening (do_dentry_open, fsnotify) but adds an "
        "audit record (rate-limited: 20 per 5 s, so mostly not in the median)")
    for w in ("open", "execve"):
        add(f"fapolicyd on {w} (fapolicyd - absent)", med("fapolicyd", w), med("absent", w),
            "fanotify permission event: queue, wake the daemon, its decision, reply")
    return out


def result_order(r):
    w = (r["workload"], r["threads"])
    interp = [x for x, _, _ in INTERPS]
    stock = r["workload"].split(":")[0]
    return (0 if is_interp(r["workload"]) else 1,
            STATES.index(r["state"]) if r["state"] in STATES else 99,
            interp.index(stock) * 2 + r["workload"].endswith(":omx") if stock in interp
            else WORKLOADS.index(w) if w in WORKLOADS else 99)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("raw", nargs="+")
    a = ap.parse_args()

    report = {"timebases": {}}
    text = []
    csv_rows = []
    summaries = {}      # (time base, kernel) -> results
    metas = {}
    # The interpreters first: they are what a user feels.
    for path in a.raw:
        meta, rows = parse(path)
        if rows:
            t = interp_table(meta.get("timebase", os.path.basename(path)), meta, summarise(meta, rows))
            text += t + ([""] if t else [])
    for path in a.raw:
        meta, rows = parse(path)
        tb = meta.get("timebase", os.path.basename(path))
        kernel = meta.get("kernel", "?")
        key = f"{tb} {kernel}"
        if not rows:
            text.append(f"== time base: {tb}, kernel {kernel}: no results (see {path})")
            continue
        res = summarise(meta, rows)
        summaries[(tb, kernel)] = res
        metas[(tb, kernel)] = meta
        report["timebases"][key] = {
            "meta": meta,
            "unit": "guest instructions" if tb == "icount" else "ns wall clock (noisy)",
            "results": sorted(res.values(), key=result_order),
        }
        text += table(tb, meta, res)
        text.append("")
        for r in report["timebases"][key]["results"]:
            csv_rows.append([tb, kernel, r["state"], r["workload"], r["threads"],
                             report["timebases"][key]["unit"], f"{r['median']:.1f}",
                             f"{r['min']:.1f}", f"{r['max']:.1f}", f"{r['spread_pct']:.2f}",
                             "" if r["ratio"] is None else f"{r['ratio']:.4f}",
                             r["ratio_base"], r["outcome"], len(r["reps"])])

    report["check_per_kernel"] = check_per_kernel(summaries)
    if report["check_per_kernel"]:
        text.append("== one execveat(AT_EXECVE_CHECK), per kernel, on the icount figures (guest instructions, medians):")
        text.append("   the module's on the stock kernels (policy 0), mainline's own on a native kernel, next to an")
        text.append("   open+close of the same file (O_MAYEXEC through the module; plain openat2 on a native kernel)")
        for x in report["check_per_kernel"]:
            text.append(f"  {x['kernel']:<28} {x['how']:<8} allowed {fmt_cost(x['check_ok'])}  "
                        f"refused {fmt_cost(x['check_refused'])}  open+close {fmt_cost(x['open_close'])} ({x['open_close_what']})")
        text.append("")

    report["hooks_per_kernel"] = hooks_per_kernel(summaries, metas)
    if report["hooks_per_kernel"]:
        text.append("== the two hooks of every open (do_sys_openat2, may_open), per kernel, on the icount figures: "
                    "loaded at policy 0 - absent (medians, guest instructions), per open and per hooked call")
        for x in report["hooks_per_kernel"]:
            how = {"direct": "direct calls", "ipmodify": "IPMODIFY callbacks"}.get(x["mechanism"], "?")
            line = f"  {x['kernel']:<28} {x['arch']:<8} {how:<19}"
            for w, what in (("openat2:open", "open alone"), ("openat2", "openat2+close")):
                if w in x:
                    y = x[w]
                    line += (f"  {what} {fmt_cost(y['absent'])} -> {fmt_cost(y['policy0'])}: "
                             f"{y['added']:+,.0f} ({y['pct']:+.2f}%, {y['added'] / len(OPEN_HOOKS):+,.0f} a hook)")
            text.append(line)
        text.append("")

    report["interp_targets"] = {}
    report["interp_profile"] = {}
    for (tb, kernel), ic in summaries.items():
        if tb != "icount" or not any(is_interp(k[1]) for k in ic):
            continue
        t = interp_targets(ic)
        p = interp_profile(metas[(tb, kernel)], ic)
        report["interp_targets"][kernel] = t
        report["interp_profile"][kernel] = p
        if t:
            text.append(f"== interpreter targets, kernel {kernel}, on the icount figures (medians)")
            for x in t:
                text.append(f"  [{'met' if x['met'] else 'NOT MET'}] {x['target']}: "
                            f"{x['value_pct']:+.2f}% (limit {x['limit_pct']:+.1f}%)")
        text.append(f"== interpreters, kernel {kernel}: what the enlightened run adds (icount medians, instructions), "
                    "per code file read: over the stock interpreter of the same state; [what a file may add for the "
                    "target to hold]; and what the state adds to that (the same difference with the policy off -- "
                    "module absent; native kernel: native -- taken away): the checks' own cost (omxsh: over /bin/sh)")
        for x in p:
            line = f"  {INTERP_LABEL[x['workload'] + ':omx']:<30} {STATE_LABEL[x['state']]:<27}"
            if "over_stock" in x:
                line += f" over stock {x['over_stock']:+13,.0f}"
                if "over_stock_per_file" in x:
                    line += f" ({x['over_stock_per_file']:+9,.0f} x {x['files']})"
            if "budget_per_file" in x:
                line += f" [{x['budget_per_file']:,.0f} a file]"
            if "over_policy_off" in x:
                line += f"; the state adds {x['over_policy_off']:+12,.0f}"
                if "over_policy_off_per_file" in x:
                    line += f" ({x['over_policy_off_per_file']:+8,.0f} x {x['files']})"
            text.append(line)
        text.append("")

    report["targets"] = {}
    report["profile"] = {}
    for (tb, kernel), ic in summaries.items():
        # The targets are the module's: not for a native kernel.
        if tb != "icount" or any(k[0] == "native" for k in ic):
            continue
        t = targets(ic)
        p = profile(ic, metas[(tb, kernel)])
        report["targets"][kernel] = t
        report["profile"][kernel] = p
        text.append(f"== targets, kernel {kernel}, on the icount figures (instructions, medians)")
        for x in t:
            text.append(f"  [{'met' if x['met'] else 'NOT MET'}] {x['target']}: "
                        f"{x['value_pct']:+.2f}% (limit {x['limit_pct']:+.1f}%)")
        wall = summaries.get(("wall", kernel))
        if wall:
            text.append("  The icount guest has one vCPU: there the 2 threads share it.  On 2 real vCPUs")
            text.append("  (wall boot, noisy), open+close, ratio to absent of the medians [spread] and of the")
            text.append("  fastest repetitions (the least disturbed by the host's other load):")
            for s in ("policy0", "policy3", "absent2"):
                for t in (1, 2):
                    r, a0 = wall.get((s, "open", t)), wall.get(("absent", "open", t))
                    if r and a0 and r["ratio"] is not None:
                        text.append(f"    {t} thread{'s' if t > 1 else ' '} {STATE_LABEL[s]:<18} median x{r['ratio']:.3f} "
                                    f"[{r['spread_pct']:.1f}%; absent {a0['spread_pct']:.1f}%]"
                                    f"  fastest x{r['min'] / a0['min']:.3f}")
            text.append(f"  Only spreads well under {UNFLAGGED_LIMIT_PCT:g} % could confirm the +{UNFLAGGED_LIMIT_PCT:g} % target there.")
        text.append("")
        text.append(f"== profile, kernel {kernel}: where the added instructions go (differences of icount medians)")
        for x in p:
            text.append(f"  {x['instructions']:+10,.1f}  {x['what']}")
            text.append(f"  {'':10}  ({x['note']})")
        text.append("  Per function: tests/bench/run-profile (docs/performance.md).")
        text.append("")

    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "results.txt"), "w") as f:
        f.write("\n".join(text) + "\n")
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(report, f, indent=1, sort_keys=True)
        f.write("\n")
    with open(os.path.join(a.out, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["timebase", "kernel", "state", "workload", "threads", "unit", "median", "min",
                    "max", "spread_pct", "ratio", "ratio_to", "outcome", "reps"])
        w.writerows(csv_rows)
    write_chart(a.out, summaries)
    return 0


# The interpreter chart's columns: (title, state on a module kernel, on a
# native kernel).
INTERP_CHART = [("policy off (module absent; 7.2: native)", "absent", "native"),
                ("policy 3", "policy3", None),
                ("--restrict-file", "restrict", "native_restrict"),
                ("fapolicyd (peer; module absent)", "fapolicyd", None)]
INTERP_SHORT = {"py_pass": "python -c pass", "py_imports": "python imports",
                "pl_pass": "perl -e 1", "pl_uses": "perl uses",
                "php_page": "php page", "php_opcache": "php page, OPcache"}


def write_interp_chart_data(out, summaries):
    """chart-interp.dat: each enlightened interpreter over the stock one,
    in %, per kernel (icount) and state; False when there is none."""
    rows = []
    for (tb, kernel), res in summaries.items():
        if tb != "icount":
            continue
        native = any(k[0] == "native" for k in res)
        for stock, _, _ in INTERPS:
            if stock.startswith("sh_"):
                continue        # omxsh over /bin/sh is no enlightened-over-stock figure
            vals = []
            for _, mod_state, nat_state in INTERP_CHART:
                st = nat_state if native else mod_state
                r = res.get((st, stock + ":omx", 1)) if st else None
                vals.append(f"{pct(r['ratio']):.3f}" if r and r["ratio"] is not None else "NaN")
            if any(v != "NaN" for v in vals):
                short_kernel = ".".join(kernel.split(".")[:2]).split("-")[0]
                rows.append(f"\"{INTERP_SHORT[stock]}, {short_kernel}\" " + " ".join(vals))
    if not rows:
        return False
    with open(os.path.join(out, "chart-interp.dat"), "w") as f:
        f.write("# workload+kernel " + " | ".join(t for t, _, _ in INTERP_CHART) + "  (% over the stock interpreter)\n")
        f.write("\n".join(rows) + "\n")
    return True


def write_chart(out, summaries):
    """chart.dat and chart.gp: the interpreters over the stock ones, then
    the first kernel's costs (log scale) and changes vs absent, on the
    icount figures where there are some."""
    if not summaries:
        return
    interp = write_interp_chart_data(out, summaries)
    module_kernels = [k for k in summaries if not any(r[0] == "native" for r in summaries[k])]
    if not module_kernels:
        return
    tb, kernel = next((k for k in module_kernels if k[0] == "icount"), module_kernels[0])
    res = summaries[(tb, kernel)]
    short = {("open", 1): "open", ("openat", 1): "openat", ("openat2", 1): "openat2",
             ("open", 2): "open x2 threads", ("openat2:open", 1): "openat2 (open only)",
             ("mayexec_ok", 1): "O_MAYEXEC ok", ("mayexec_ok:open", 1): "O_MAYEXEC ok (open only)",
             ("mayexec_refused", 1): "O_MAYEXEC refused", ("execve", 1): "execve",
             ("check_ok", 1): "AT_EXECVE_CHECK ok", ("check_refused", 1): "AT_EXECVE_CHECK refused"}
    with open(os.path.join(out, "chart.dat"), "w") as f:
        f.write("# workload absent policy0 policy3 absent2 fapolicyd | change% policy0 policy3 absent2\n")
        for wk in WORKLOADS:
            vals = []
            for s in CHART_STATES:
                r = res.get((s, wk[0], wk[1]))
                vals.append(f"{r['median']:.1f}" if r else "NaN")
            chg = []
            for s in ("policy0", "policy3", "absent2"):
                r = res.get((s, wk[0], wk[1]))
                chg.append(f"{pct(r['ratio']):.3f}" if r and r["ratio"] is not None else "NaN")
            f.write(f"\"{short[wk]}\" " + " ".join(vals) + " " + " ".join(chg) + "\n")
    unit = "guest instructions per operation" if tb == "icount" else "ns per operation"
    interp_plot = ""
    if interp:
        interp_plot = f"""set title "The enlightened interpreter over the stock one on the same work, % (icount medians); targets +3% at policy 3, +8% with --restrict-file"
set ylabel "% over the stock interpreter"
set yrange [*<0:10<*]
set arrow 1 from graph 0, first 3 to graph 1, first 3 nohead dt 2 lc rgb "red"
set arrow 2 from graph 0, first 8 to graph 1, first 8 nohead dt 3 lc rgb "orange"
plot "{out}/chart-interp.dat" using 2:xtic(1) title "{INTERP_CHART[0][0]}" lc rgb "#7f7f7f", \\
     "" using 3 title "{INTERP_CHART[1][0]}" lc rgb "#1f77b4", \\
     "" using 4 title "{INTERP_CHART[2][0]}" lc rgb "#9467bd", \\
     "" using 5 title "{INTERP_CHART[3][0]}" lc rgb "#d62728"
unset arrow 1
unset arrow 2
set autoscale y
"""
    gp = f"""# Written by tests/bench/report.py
set terminal pngcairo noenhanced size 1200,{1350 if interp else 900} font "sans,10"
set output "{out}/chart.png"
set datafile missing "NaN"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set grid ytics
set key top left
set xtics rotate by -20
set multiplot layout {3 if interp else 2},1 title "omayexec: what an interpreter pays, then the cost of the hooks ({tb} time base, kernel {kernel}, medians)"
{interp_plot}set ylabel
set title "Cost per operation (log scale): module absent, loaded, and the fapolicyd peer"
set ylabel "{unit}"
set logscale y
plot "{out}/chart.dat" using 2:xtic(1) title "module absent" lc rgb "#7f7f7f", \\
     "" using 3 title "loaded, policy 0" lc rgb "#2ca02c", \\
     "" using 4 title "loaded, policy 3" lc rgb "#1f77b4", \\
     "" using 5 title "absent again" lc rgb "#bcbcbc", \\
     "" using 6 title "fapolicyd (peer)" lc rgb "#d62728"
unset logscale y
set title "Change vs module absent, % (O_MAYEXEC rows: vs plain openat2 of the same state; AT_EXECVE_CHECK rows: vs the O_MAYEXEC open); targets +{UNFLAGGED_LIMIT_PCT:g}% (unflagged opens) / +{MAYEXEC_LIMIT_PCT:g}% (O_MAYEXEC open+close)"
set ylabel "%"
set yrange [*:6<*]
set arrow 1 from graph 0, first {UNFLAGGED_LIMIT_PCT:g} to graph 1, first {UNFLAGGED_LIMIT_PCT:g} nohead dt 2 lc rgb "red"
set arrow 2 from graph 0, first {MAYEXEC_LIMIT_PCT:g} to graph 1, first {MAYEXEC_LIMIT_PCT:g} nohead dt 3 lc rgb "orange"
plot "{out}/chart.dat" using 7:xtic(1) title "loaded, policy 0" lc rgb "#2ca02c", \\
     "" using 8 title "loaded, policy 3" lc rgb "#1f77b4", \\
     "" using 9 title "absent again (drift)" lc rgb "#bcbcbc"
unset multiplot
"""
    with open(os.path.join(out, "chart.gp"), "w") as f:
        f.write(gp)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""tests/guest/coverage.py - what share of the series' code a guest run ran.

Usage: coverage.py VMLINUX PRISTINE PATCHED SERIES_DIR RESULTS REPORT

VMLINUX   the coverage kernel (kernel/config/cover.config: KCOV, line tables)
PRISTINE  the pristine linux-source-6.12 tree
PATCHED   the same tree with kernel-glue/ applied (the sources VMLINUX was
          built from)
SERIES_DIR  kernel-glue/ (its series file names the patches)
RESULTS   the guest's results, with the "@kcov" lines of
          "klogfuzz kcov-print"
REPORT    where to write the per-file report with the lines never run

The denominator is the series' own code: every KCOV call site (a call to
__sanitizer_cov_trace_pc, one per basic block) that addr2line places on a
line the series adds (diff of PATCHED against PRISTINE, for the C files
and headers its patches touch).  A site was run when the address after
its call (what KCOV records) is among the guest's addresses.  Prints a
table per file: sites and lines (added lines with at least one site),
how many of each were run.
"""
import collections
import os
import re
import subprocess
import sys


def series_files(series_dir):
    """The .c and .h files the series' patches create or change."""
    files = set()
    with open(os.path.join(series_dir, "series")) as f:
        patches = [l.split("#")[0].strip() for l in f]
    for p in filter(None, patches):
        with open(os.path.join(series_dir, p), errors="replace") as f:
            for line in f:
                m = re.match(r"^\+\+\+ b/(\S+\.[ch])$", line)
                if m:
                    files.add(m.group(1))
    return sorted(files)


def added_lines(pristine, patched, rel):
    """Line numbers of PATCHED/rel that PRISTINE/rel lacks."""
    new = os.path.join(patched, rel)
    old = os.path.join(pristine, rel)
    if not os.path.exists(new):
        return set()
    if not os.path.exists(old):
        with open(new, errors="replace") as f:
            return set(range(1, sum(1 for _ in f) + 1))
    out = subprocess.run(
        ["diff", "--unchanged-line-format=", "--old-line-format=",
         "--new-line-format=%dn\n", old, new],
        stdout=subprocess.PIPE, text=True).stdout
    return {int(x) for x in out.split()}


def cov_sites(vmlinux):
    """(call address, return address) of every __sanitizer_cov_trace_pc,
    and the set of addresses that follow any call: what KCOV records
    where the compiler made the hook a tail call (a jmp) is the return
    address of the call to the function that made it."""
    proc = subprocess.Popen(["objdump", "-d", "--no-show-raw-insn", vmlinux],
                            stdout=subprocess.PIPE, text=True,
                            errors="replace")
    insn = re.compile(r"^\s*([0-9a-f]{16}):\s+(.*)$")
    sites, after_call, pending, prev_call = [], set(), None, False
    for line in proc.stdout:
        m = insn.match(line)
        if not m:
            continue
        addr = int(m.group(1), 16)
        if pending is not None:
            sites.append((pending, addr))
            pending = None
        if prev_call:
            after_call.add(addr)
        prev_call = m.group(2).startswith("call")
        if "<__sanitizer_cov_trace_pc>" in m.group(2) and prev_call:
            pending = addr
    proc.wait()
    if proc.returncode:
        sys.exit("coverage.py: objdump failed")
    return sites, after_call


def locate(vmlinux, addrs):
    """addr2line's file:line of each address, in order."""
    inp = "".join("%x\n" % a for a in addrs)
    out = subprocess.run(["addr2line", "-e", vmlinux], input=inp,
                         stdout=subprocess.PIPE, text=True,
                         check=True).stdout.splitlines()
    res = []
    for l in out:
        l = l.split(" (discriminator")[0]
        path, _, num = l.rpartition(":")
        res.append((path, int(num) if num.isdigit() else 0))
    return res


def guest_pcs(results):
    """The addresses of the "@kcov FIRST D1 D2 ..." lines."""
    pcs, prev = set(), None
    with open(results, errors="replace") as f:
        for line in f:
            if not line.startswith("@kcov "):
                continue
            words = line.split()[1:]
            for i, w in enumerate(words):
                v = int(w, 16)
                prev = v if i == 0 else prev + v
                pcs.add(prev)
    return pcs


def main():
    if len(sys.argv) != 7:
        sys.exit(__doc__.split("\n\n")[1])
    vmlinux, pristine, patched, series_dir, results, report = sys.argv[1:]
    pcs = guest_pcs(results)
    if not pcs:
        sys.exit("coverage.py: no @kcov lines in " + results)
    files = series_files(series_dir)
    added = {rel: added_lines(pristine, patched, rel) for rel in files}
    sites, after_call = cov_sites(vmlinux)
    where = locate(vmlinux, [c for c, _ in sites])
    # DWARF names the sources by their path in the tree that was built
    suffixes = {rel: "/" + rel for rel in files}
    per = collections.defaultdict(lambda: {"sites": 0, "run": 0,
                                           "lines": set(),
                                           "lines_run": set()})
    for (call, ret), (path, num) in zip(sites, where):
        for rel, suf in suffixes.items():
            if path.endswith(suf) and num in added[rel]:
                d = per[rel]
                d["sites"] += 1
                d["lines"].add(num)
                if ret in pcs:
                    d["run"] += 1
                    d["lines_run"].add(num)
                break
    tot = [0, 0, 0, 0]
    rows = []
    with open(report, "w") as rep:
        rep.write("# lines the series adds that carry code and never ran\n")
        for rel in sorted(per):
            d = per[rel]
            row = (d["sites"], d["run"], len(d["lines"]),
                   len(d["lines_run"]))
            tot = [a + b for a, b in zip(tot, row)]
            rows.append((rel,) + row)
            never = sorted(d["lines"] - d["lines_run"])
            rep.write("%s: %s\n" % (rel, " ".join(map(str, never))))

    def pct(a, b):
        return "%5.1f%%" % (100.0 * a / b) if b else "    -"

    print("%-44s %7s %7s %7s %7s %7s %7s" %
          ("file (lines the series adds)", "sites", "run", "", "lines",
           "run", ""))
    for rel, s, r, l, lr in rows:
        print("%-44s %7d %7d %7s %7d %7d %7s" %
              (rel, s, r, pct(r, s), l, lr, pct(lr, l)))
    print("%-44s %7d %7d %7s %7d %7d %7s" %
          ("all", tot[0], tot[1], pct(tot[1], tot[0]), tot[2], tot[3],
           pct(tot[3], tot[2])))
    known = len(pcs & after_call)
    print("coverage: %d kernel addresses from the guest (%s of them follow "
          "a call in this vmlinux), %d KCOV sites in vmlinux, %d on the "
          "series' lines; report: %s" %
          (len(pcs), pct(known, len(pcs)).strip(), len(sites), tot[0],
           report))
    if known < 0.99 * len(pcs):
        sys.exit("coverage.py: the guest's addresses do not follow calls "
                 "in this vmlinux: is VMLINUX the kernel that ran?")
    if tot[0] == 0:
        sys.exit("coverage.py: no KCOV site on the series' lines: "
                 "is VMLINUX the coverage kernel?")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""tools/check-context.py - do the core's Context: lines match its code?

Usage: check-context.py [FILE...]   (default: the core, libklog/src/*.c,
                                      libklog/userspace/*.c
                                      and the static inlines of its headers)

Reads every function of the files (kernel style: the definition starts in
column 0, the body is the "{" ... "}" pair in column 0) and the kernel-doc
comment in front of it, and checks the rule of the core's locking
invariant L6 (printk.c, "DOC: printk store path"):

  1. every kernel-doc comment of a function has a "Context:" line;
  2. a function documented "Context: process context" starts with
     kl_might_sleep(), before any other statement;
  3. kl_might_sleep() is called nowhere else;
  4. a function documented for any other context ("any", "any that may
     take a spinlock", "owner's lock held", ...) reaches nothing that may
     sleep: kl_might_sleep(), kl_alloc(), kl_waitq_wait(), kl_defer_sync()
     or kl_waitq_destroy(), directly or through the functions it calls
     (a function named as an argument, such as a wait condition, counts
     as called).  "Context: as f()." is f()'s context.

Calls through the embedder's hooks (ops->capable, ops->emit, ...) are not
followed: their contexts are documented with the hooks.  Prints one line
per finding and a summary; exits 1 on any finding.
"""
import glob
import os
import re
import sys

SLEEPS = ("kl_might_sleep", "kl_alloc", "kl_waitq_wait", "kl_defer_sync",
          "kl_waitq_destroy")
DEF = re.compile(r"^(?!static_assert|typedef|struct \w+ \{|#)"
                 r"[A-Za-z_][\w \t\*]*?\b(\w+)\(")
CALL = re.compile(r"\b([A-Za-z_]\w*)\b")


def functions(path):
    """(name, doc or None, first line number, body lines) of each function."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out = []
    i = 0
    while i < len(lines):
        m = DEF.match(lines[i])
        if not m or lines[i].rstrip().endswith(";"):
            i += 1
            continue
        start = i
        j = i
        while j < len(lines) and lines[j] != "{" and \
                not lines[j].rstrip().endswith(";"):
            j += 1
        if j == len(lines) or lines[j] != "{":
            i += 1
            continue
        k = j + 1
        while k < len(lines) and lines[k] != "}":
            k += 1
        # The kernel-doc comment ends right above the definition (or above
        # an attribute line such as __printf(3, 4)).
        doc = None
        d = start - 1
        while d >= 0 and re.match(r"^(__printf|KLOG_PRINTF)\(", lines[d]):
            d -= 1
        if d >= 0 and lines[d].strip() == "*/":
            e = d
            while e >= 0 and not lines[e].startswith("/*"):
                e -= 1
            if e >= 0 and lines[e].startswith("/**"):
                doc = "\n".join(lines[e:d + 1])
        out.append((m.group(1), doc, start + 1, lines[j + 1:k]))
        i = k + 1
    return out


def context_of(doc):
    """The Context: paragraph of a kernel-doc comment, on one line."""
    if doc is None:
        return None
    m = re.search(r"\* Context: (.*?)(?=\n \* (?:Return:|\n)|\n \*/|\n \*$)",
                  doc, re.S)
    if not m:
        return ""
    return " ".join(part.strip(" *") for part in m.group(1).split("\n"))


def code_of(body):
    """The body without comments and string literals."""
    text = "\n".join(body)
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def first_statement(body):
    """The first statement after the declarations (kernel style)."""
    stmts = [line.strip() for line in code_of(body).split("\n")
             if line.strip()]
    decl = re.compile(r"^(const |static |struct |union |enum |unsigned |"
                      r"signed )*(\w+)(\s+|\s*\*+\s*)\w+[^()]*(=.*)?;$|"
                      r"^(const |struct )*\w+ \*?\w+ = .*;$")
    for s in stmts:
        if decl.match(s) and not s.startswith("return"):
            continue
        return s
    return ""


def main(argv):
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = argv[1:] or sorted(
        glob.glob(os.path.join(top, "libklog/src/*.c")) +
        glob.glob(os.path.join(top, "libklog/userspace/*.c")) +
        glob.glob(os.path.join(top, "libklog/src/internal.h")) +
        glob.glob(os.path.join(top, "libklog/include/klog/*.h")))
    funcs = {}
    for path in files:
        for name, doc, line, body in functions(path):
            funcs[name] = (path, line, doc, body, code_of(body))

    bad = []

    def report(name, msg):
        path, line = funcs[name][0], funcs[name][1]
        bad.append("%s:%d: %s(): %s" % (os.path.relpath(path, top), line,
                                        name, msg))

    # The functions each body names, and the seam calls that may sleep.
    calls = {}
    for name, (_, _, _, _, code) in funcs.items():
        calls[name] = {c for c in CALL.findall(code)
                       if c in funcs or c in SLEEPS} - {name}

    def ctx(name, seen=()):
        c = context_of(funcs[name][2])
        m = re.match(r"as (\w+)\(\)", c or "")
        if m and m.group(1) in funcs and m.group(1) not in seen:
            return ctx(m.group(1), seen + (name,))
        return c

    # How each function reaches something that sleeps: a call path.
    memo = {}

    def sleep_path(name, stack=()):
        if name in SLEEPS:
            return [name]
        if name in memo:
            return memo[name]
        if name in stack:
            return None
        memo_path = None
        for c in sorted(calls.get(name, ())):
            p = sleep_path(c, stack + (name,))
            if p:
                memo_path = [name] + p
                break
        memo[name] = memo_path
        return memo_path

    nproc = nother = 0
    for name in sorted(funcs):
        doc, code = funcs[name][2], funcs[name][4]
        c = ctx(name)
        if doc is not None and not c:
            report(name, "kernel-doc without a Context: line")
            continue
        process = c is not None and c.startswith("process context")
        might = len(re.findall(r"\bkl_might_sleep\s*\(", code))
        if process:
            nproc += 1
            if first_statement(funcs[name][3]) != "kl_might_sleep();":
                report(name, "Context: process context, but "
                       "kl_might_sleep() is not its first statement")
            elif might > 1:
                report(name, "kl_might_sleep() called twice")
            continue
        if might:
            report(name, "calls kl_might_sleep() but is not documented "
                   "\"Context: process context\"")
        if c is None:
            continue
        nother += 1
        p = sleep_path(name)
        if p:
            report(name, "Context: %s, but it may sleep: %s()" %
                   (c.rstrip("."), "() -> ".join(p)))

    for line in bad:
        print(line)
    print("check-context: %d functions, %d in process context, %d "
          "documented for other contexts: %s" %
          (len(funcs), nproc, nother,
           "%d findings" % len(bad) if bad else "OK"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

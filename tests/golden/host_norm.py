#!/usr/bin/env python3
# tests/golden/host_norm.py [--layout-free] TRANSCRIPT - print the operations and results of
# a golden transcript (docs/golden-format.md) normalised for comparing two
# kernels' transcripts of the same .ops file (tests/guest/host_unchanged.sh:
# the patched host against stock 6.12's recorded one, docs/design.md S9).
#
# Dropped: comments ("#") and the preload ("=").  Normalised, as in
# docs/golden-format.md "Comparing": "[%5lu.%06lu]" timestamps (also at the
# start of a continued partial read) become [T]; in /dev/kmsg records the
# timestamp becomes T and the sequence number S+n, n counted from the last
# preload record ("# preload: N records, seq A..B": S+1 is the first record
# after the boot log), so a lost, extra or reordered record still shows.
#
# The boot log itself differs between two builds (its "Linux version"
# line, BogoMIPS, memory figures), so exactly three kinds of result that
# read it are replaced by a placeholder, and only when they are *exactly*
# what this transcript's own preload predicts (anything else in them, one
# byte off, stays and is compared):
#   - a result whose data is the whole preload as syslog text, with ret
#     its length:            "ret=<boot log> data=<boot log as syslog text>"
#   - the result of "syslog 9" (SIZE_UNREAD) equal to that length:
#                            "ret=<boot log>"
#   - a kmsg_read result that is preload record K in /dev/kmsg format:
#                            "ret=<boot record K> data=<boot record K>"
# Each replaced line is counted on stderr.
#
# --layout-free (loss.txt only): which records survive an overwrite of the
# ring depends on its layout, that is on the boot log's size in bytes
# (docs/golden-format.md "loss.txt"), which differs from boot to boot.  So
# from the first "kmsg_flood" on, and only there, the sequence number of a
# /dev/kmsg record becomes "S?" and the result of "syslog 9" (SIZE_UNREAD)
# "ret=<ring layout>"; the record texts, lengths, errors (EPIPE once) and
# poll bits are still compared.
import re
import sys


def unescape(s):
    out = bytearray()
    i = 0
    while i < len(s):
        if s.startswith("\\x", i) and i + 4 <= len(s):
            try:
                out.append(int(s[i + 2:i + 4], 16))
                i += 4
                continue
            except ValueError:
                pass
        out += s[i].encode("latin-1", "backslashreplace")
        i += 1
    return bytes(out)


TS = re.compile(rb"\[ *[0-9]+\.[0-9]{6}\]")


def main():
    args = sys.argv[1:]
    layout_free = "--layout-free" in args
    path = [a for a in args if a != "--layout-free"][0]
    flooded = False
    layout = 0
    lines = open(path, encoding="latin-1").read().split("\n")
    preload = []            # (prio, flags, text bytes)
    last_seq = None
    for ln in lines:
        m = re.match(r"# preload: [0-9]+ records, seq [0-9]+\.\.([0-9]+)$", ln)
        if m:
            last_seq = int(m.group(1))
    if last_seq is None:
        sys.exit("host_norm: %s has no \"# preload: N records, seq A..B\" line" % path)
    for ln in lines:
        if ln.startswith("= ") and not ln.startswith("=  "):
            m = re.match(r"= ([0-9]+),([-c]);(.*)$", ln)
            if not m:
                sys.exit("host_norm: bad preload line in %s: %.60s" % (path, ln))
            preload.append((int(m.group(1)), m.group(2), unescape(m.group(3))))
    # The preload as syslog text, timestamps as [T]; its length with the
    # real "[%5lu.%06lu]" (14 bytes below 100000 s).
    boot = b""
    boot_len = 0
    for prio, _, text in preload:
        for part in text.split(b"\n"):
            pre = b"<%d>" % prio
            boot += pre + b"[T] " + part + b"\n"
            boot_len += len(pre) + 15 + len(part) + 1
    records = {}
    for k, (prio, flags, text) in enumerate(preload, 1):
        records.setdefault((prio, flags, text), k)

    replaced = 0
    op = ""
    out = []
    for ln in lines:
        if ln.startswith("> "):
            op = ln[2:]
            flooded = flooded or (layout_free and op.startswith("kmsg_flood "))
            out.append(ln)
            continue
        if not ln.startswith("< "):
            continue
        res = ln[2:]
        m = re.match(r"ret=([0-9]+)( data=(.*))?$", res)
        new = None
        if m and preload:
            ret = int(m.group(1))
            data = unescape(m.group(3)) if m.group(2) else None
            if data is not None and ret == len(data) == boot_len and \
                    TS.sub(b"[T]", data) == boot:
                new = "ret=<boot log> data=<boot log as syslog text>"
            elif data is None and op.startswith("syslog 9 ") and ret == boot_len:
                new = "ret=<boot log>"
            elif data is not None and op.startswith("kmsg_read ") and \
                    ret == len(data):
                r = re.match(rb"([0-9]+),[0-9]+,[0-9]+,([-c]);(.*)\n$", data, re.S)
                if r:
                    k = records.get((int(r.group(1)), r.group(2).decode(),
                                     r.group(3)))
                    if k:
                        new = "ret=<boot record %d> data=<boot record %d>" % (k, k)
        if new is not None:
            replaced += 1
            out.append("< " + new)
            continue
        if flooded and m and not m.group(2) and op.startswith("syslog 9 "):
            layout += 1
            out.append("< ret=<ring layout>")
            continue
        res = re.sub(r"\[ *[0-9]+\.[0-9]+\]", "[T]", res)
        res = re.sub(r"data= *[0-9]+\.[0-9]+\]", "data=T]", res, count=1)
        if flooded:
            res, n = re.subn(r"(data=|\\x0a)([0-9]+),([0-9]+),[0-9]+,",
                             r"\1\2,S?,T,", res)
            layout += n > 0
        else:
            res = re.sub(r"(data=|\\x0a)([0-9]+),([0-9]+),[0-9]+,",
                         lambda m: "%s%s,S%+d,T," % (m.group(1), m.group(2),
                                                    int(m.group(3)) - last_seq),
                         res)
        out.append("< " + res)
    print("\n".join(out))
    print("host_norm: %s: %d results, %d boot-log reads replaced, %d ring-layout results normalised" %
          (path, sum(1 for o in out if o.startswith("< ")), replaced, layout),
          file=sys.stderr)


main()

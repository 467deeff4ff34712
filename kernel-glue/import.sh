#!/bin/bash
# kernel-glue/import.sh - write the series' first patch, which imports the
# libklog core into the kernel tree as kernel/printk/libklog/, from the
# repository's libklog/ (the way the kernel carries zstd and xz: the same
# sources as user space, never edited in the kernel tree).
#
# Usage: import.sh            rewrite kernel-glue/<first patch of series>
#        import.sh --check    fail if that patch differs from what libklog/
#                             would give now (its diffstat and diff; the
#                             author lines may differ)
#        import.sh --stdout   print the patch
#        import.sh --tree TREE  replace TREE/kernel/printk/libklog/ with the
#                             imported files (for export.sh)
#        import.sh --list     print the imported files, relative to
#                             libklog/ (kernel/build-kernel.sh hashes them)
#
# Imported: libklog/Kbuild (the one list of the kernel sources), the
# public headers except the user-space ones (include/klog/testing.h, and
# include/klog/types.h, whose kernel counterpart is
# src/platform/klog/types.h, found through -I.../src/platform), src/*.[ch]
# (the core and its private header internal.h) and the kernel half of the
# platform seam (src/platform/{platform,kernel}.h, src/platform/klog/types.h,
# kernel.c).  Never: meson.build, the user-space half of the seam,
# userspace/ (the calls the kernel has no caller for, the invariant
# checks).
#
# The patch also adds the SYSLOG NAMESPACES entry to MAINTAINERS (from the
# pristine tree, extracted if needed), naming the author as maintainer.
# The author and Signed-off-by are the repository's git identity (git var
# GIT_AUTHOR_IDENT; --check uses the existing patch's author), the date
# that of the last commit touching libklog/.
set -euo pipefail

GLUE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$GLUE/.." && pwd)
. "$REPO/qemu/lib.sh"

die() { printf 'import.sh: error: %s\n' "$*" >&2; exit 1; }

# shellcheck disable=SC2209 # the word "write", not the write command
mode=write
case "${1:-}" in
--check) mode=check ;;
--stdout) mode=stdout ;;
--list) mode=list ;;
--tree)
	mode=tree
	# shellcheck disable=SC2015 # die unless both hold
	[ $# -eq 2 ] && [ -d "$2" ] || die "usage: import.sh --tree TREE"
	TREE=$(cd "$2" && pwd)
	;;
"") ;;
*) die "usage: import.sh [--check|--stdout|--list|--tree TREE]" ;;
esac

first=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$GLUE/series" | grep -v "^$" | sed -n 1p)
total=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$GLUE/series" | grep -vc '^$')
[ -n "$first" ] || die "kernel-glue/series is empty"

# The imported files, relative to libklog/.
imported() {
	(
		cd "$REPO/libklog"
		echo Kbuild
		ls include/klog/*.h src/*.[ch]
		printf '%s\n' src/platform/platform.h src/platform/kernel.h \
			src/platform/klog/types.h src/platform/kernel.c
	) | grep -v '^include/klog/\(testing\|types\)\.h$' | LC_ALL=C sort
}

# Every core source is in the Kbuild list, and nothing else.
check_kbuild() {
	local f o
	for f in "$REPO"/libklog/src/*.c "$REPO"/libklog/src/platform/kernel.c; do
		o=${f#"$REPO"/libklog/}
		o=${o%.c}.o
		grep -qE "(^|[[:space:]])${o//./\\.}([[:space:]]|$)" "$REPO/libklog/Kbuild" ||
			die "libklog/Kbuild does not build $o"
	done
}

# "Name <email>": the repository's git identity; --check, which ignores
# the author, works without one.
ident() {
	local id
	if [ "$mode" = check ] && [ -f "$GLUE/$first" ]; then
		python3 -c 'import email,sys; m=email.message_from_file(open(sys.argv[1])); print(" ".join(m["From"].split()))' "$GLUE/$first"
	elif id=$(git -C "$REPO" var GIT_AUTHOR_IDENT 2>/dev/null); then
		printf '%s\n' "${id% * *}"
	elif [ "$mode" = check ]; then
		echo "check <check@invalid>"
	else
		die "no git identity: set user.name and user.email"
	fi
}

generate() {
	local tmp who date
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' RETURN
	who=$(ident)
	date=$(git -C "$REPO" log -1 --format=%aD -- libklog 2>/dev/null || true)
	[ -n "$date" ] || date="Thu, 1 Jan 2026 00:00:00 +0000"
	git -C "$tmp" init -q
	export GIT_AUTHOR_NAME=${who% <*} GIT_AUTHOR_EMAIL=${who##*<}
	GIT_AUTHOR_EMAIL=${GIT_AUTHOR_EMAIL%>}
	export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
	export GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date
	cp "$KSRC/MAINTAINERS" "$tmp/MAINTAINERS"
	git -C "$tmp" add MAINTAINERS
	git -C "$tmp" commit -q -m base
	python3 - "$tmp/MAINTAINERS" "$who" <<'PY'
import sys
path, who = sys.argv[1:]
s = open(path).read()
entry = ("SYSLOG NAMESPACES\nM:\t%s\nS:\tMaintained\n"
	 "F:\tkernel/printk/libklog/\n\n" % who)
anchor = "SYSTEM CONFIGURATION (SYSCON)\n"
assert anchor in s
open(path, "w").write(s.replace(anchor, entry + anchor, 1))
PY
	imported | while read -r f; do
		mkdir -p "$tmp/kernel/printk/libklog/$(dirname "$f")"
		cp "$REPO/libklog/$f" "$tmp/kernel/printk/libklog/$f"
	done
	git -C "$tmp" add -A
	msg=$(cat <<'MSG'
printk: import libklog, the syslog namespace core

Syslog namespaces give a container a kernel log of its own.  What such
a log is made of (a record ring with sequence numbers and cursors, the
continuation-line buffer, the store path with its copies to the parent
log, and the syslog(2), /dev/kmsg and /proc/kmsg semantics on top of
them) is kept in a small C library, libklog, that is compiled both as
kernel code and in user space, where it is unit tested, fuzzed and run
under the sanitizers against the same behaviour contract.

Import it unchanged as kernel/printk/libklog/, the way lib/zstd and
lib/xz carry code shared with user space: include/klog/ holds its
public headers, src/ its sources, and src/platform/kernel.h maps its
platform calls (locks, allocation, clocks, wait queues, reference
counts) to the kernel's.  The core never includes a kernel header
itself.  Kbuild is the one list of what is compiled; nothing refers to
this directory yet.

The files are generated from the library's tree and must not be edited
here: changes go to the library, and the import is regenerated.

MSG
)
	git -C "$tmp" commit -q -m "$msg" -m "Signed-off-by: $who"
	git -C "$tmp" format-patch -q -1 --stdout --zero-commit --no-signature --full-index \
		--diff-algorithm=histogram --subject-prefix=PATCH \
		-N HEAD |
		sed "1,/^Subject:/s|^Subject: \[PATCH\] |Subject: [PATCH 01/$(printf '%02d' "$total")] |"
}

# From the "---" line on: diffstat and diff.
body() { sed -n '/^---$/,$p'; }

check_kbuild
[ "$mode" = tree ] || [ "$mode" = list ] || ensure_ksrc
case $mode in
stdout) generate ;;
list) imported ;;
tree)
	rm -rf "$TREE/kernel/printk/libklog"
	imported | while read -r f; do
		mkdir -p "$TREE/kernel/printk/libklog/$(dirname "$f")"
		cp "$REPO/libklog/$f" "$TREE/kernel/printk/libklog/$f"
	done
	;;
write)
	generate >"$GLUE/$first.tmp"
	mv "$GLUE/$first.tmp" "$GLUE/$first"
	printf 'import.sh: wrote kernel-glue/%s\n' "$first" >&2
	;;
check)
	[ -f "$GLUE/$first" ] || die "kernel-glue/$first is missing: run kernel-glue/import.sh"
	if ! diff -u <(body <"$GLUE/$first") <(generate | body) >/dev/null; then
		diff -u <(body <"$GLUE/$first") <(generate | body) | head -40 >&2 || true
		die "kernel-glue/$first is not libklog/ as it is now: run kernel-glue/import.sh"
	fi
	printf 'import.sh: kernel-glue/%s matches libklog/\n' "$first" >&2
	;;
esac

#!/bin/bash
# kernel-glue/apply.sh TREE - turn a pristine linux-source-6.12 tree into a
# tree with syslog namespaces.  The single place that knows how to apply.
#
#  1. copy libklog/include and libklog/src (the kernel half only: not
#     platform/user.[ch] nor klog/testing.h) into TREE/kernel/printk/libklog/,
#     unchanged;
#  2. copy kernel-glue/files/ into TREE (the Kbuild wrappers that #include
#     the libklog sources, the glue kernel/printk/syslog_namespace.c and
#     include/linux/syslog_namespace.h);
#  3. apply the patches listed in kernel-glue/series, in order, with
#     "patch -p1 --fuzz=0" (quilt layout: QUILT_PATCHES=kernel-glue works).
#
# TREE must be a pristine copy (never the cached pristine tree itself): the
# script refuses a tree it has already patched, and stops at the first
# patch that does not apply cleanly.  It writes TREE/.libklog-glue with the
# hash of everything it applied (see --hash).
#
# Usage: apply.sh [--check] TREE [REPO]   (--check: dry run of the patches)
#        apply.sh --files-only TREE [REPO] (steps 1 and 2 only: for a git
#                                          tree that "git am"s the series)
#        apply.sh --hash                  (hash of the inputs, for caches)
# REPO defaults to the repository holding this script (qemu/build-kernel.sh
# passes it explicitly).
#
# Enable with CONFIG_SYSLOG_NS=y (fragment: kernel-glue/syslog_ns.config).
set -euo pipefail

GLUE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$GLUE/.." && pwd)
LIBKLOG=$REPO/libklog

die() { printf 'apply.sh: error: %s\n' "$*" >&2; exit 1; }
msg() { printf 'apply.sh: %s\n' "$*" >&2; }

# The patches, in order, from the series file (comments and blanks skipped).
series() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$GLUE/series" | grep -v '^$'
}

# Every input that shapes the patched tree, for build caches.
input_hash() {
	(
		cd "$REPO"
		{
			printf '%s\n' kernel-glue/series kernel-glue/apply.sh
			series | sed 's|^|kernel-glue/|'
			find kernel-glue/files libklog/include libklog/src -type f | LC_ALL=C sort
		} | while read -r f; do
			printf '%s  ' "$f"
			sha256sum <"$f" | cut -d' ' -f1
		done
	) | sha256sum | cut -c1-16
}

check=0 files_only=0
case "${1:-}" in
--hash)
	input_hash
	exit 0
	;;
--check)
	check=1
	shift
	;;
--files-only)
	files_only=1
	shift
	;;
esac
[ $# -eq 1 ] || [ $# -eq 2 ] || die "usage: apply.sh [--check] TREE [REPO] | apply.sh --hash"
if [ $# -eq 2 ]; then
	REPO=$(cd "$2" && pwd) || die "no such repository: $2"
	LIBKLOG=$REPO/libklog
fi
[ -d "$LIBKLOG/src" ] || die "no libklog sources in $LIBKLOG"
TREE=$(cd "$1" && pwd) || die "no such tree: $1"
[ -f "$TREE/Makefile" ] && [ -f "$TREE/kernel/printk/printk.c" ] ||
	die "$TREE does not look like a kernel source tree"
[ -e "$TREE/.libklog-glue" ] && die "$TREE is already patched ($(cat "$TREE/.libklog-glue"))"
[ -e "$TREE/kernel/printk/syslog_namespace.c" ] && die "$TREE already has syslog_namespace.c"

# A dry run cannot see files that earlier patches create, so --check
# works on a scratch copy of the files the series touches.
if [ "$check" -eq 1 ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	while read -r p; do
		sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$GLUE/$p"
	done < <(series) | sort -u | while read -r f; do
		if [ -f "$TREE/$f" ]; then
			mkdir -p "$tmp/$(dirname "$f")"
			cp "$TREE/$f" "$tmp/$f"
		fi
	done
	TREE=$tmp
fi

if [ "$check" -eq 0 ]; then
	dst=$TREE/kernel/printk/libklog
	mkdir -p "$dst/include/klog" "$dst/src/platform"
	for f in "$LIBKLOG"/include/klog/*.h; do
		[ "$(basename "$f")" = testing.h ] && continue
		cp --remove-destination "$f" "$dst/include/klog/"
	done
	cp --remove-destination "$LIBKLOG"/src/*.c "$dst/src/"
	for f in platform.h kernel.h kernel.c klog_types.h; do
		cp --remove-destination "$LIBKLOG/src/platform/$f" "$dst/src/platform/"
	done
	# --remove-destination: never write through a hard link into a
	# pristine tree that TREE was copied from with cp -al.
	cp -R --remove-destination "$GLUE/files/." "$TREE/"
fi
if [ "$files_only" -eq 1 ]; then
	msg "copied libklog and kernel-glue/files to $TREE (no patches)"
	exit 0
fi

n=0
while read -r p; do
	[ -f "$GLUE/$p" ] || die "series names $p, which does not exist"
	if ! patch -d "$TREE" -p1 --fuzz=0 --forward --batch --quiet \
		--no-backup-if-mismatch <"$GLUE/$p"; then
		die "$p does not apply to $1"
	fi
	n=$((n + 1))
done < <(series)

if [ "$check" -eq 1 ]; then
	msg "all $n patches apply"
	exit 0
fi
echo "libklog-glue $(input_hash)" >"$TREE/.libklog-glue"
msg "applied libklog, kernel-glue/files and $n patches to $TREE"

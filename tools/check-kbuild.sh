#!/bin/bash
# tools/check-kbuild.sh [-k KBUILD] [-s SRCDIR] SOURCE... - the user-space
# build compiles exactly the core that libklog/Kbuild lists, and Kbuild
# lists the whole core.
#
# SOURCE... is the list libklog/meson.build derived from Kbuild (meson's
# klog_sources, as the lint test passes it).  Checks:
#   1. Kbuild read here with sed (its libklog-y lines, continuations
#      joined), each src/X.o mapped to src/X.c and the kernel half of the
#      platform seam, src/platform/kernel.c, to its user-space half
#      src/platform/user.c, is the same set as SOURCE...;
#   2. every .c file under SRCDIR/src (default: Kbuild's directory) is in
#      that list, src/platform/user.c standing for src/platform/kernel.c:
#      a core file missing from Kbuild is built by neither the kernel nor
#      meson.
# Prints what differs and exits 1 if anything does.
set -euo pipefail

kbuild=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/libklog/Kbuild
srcdir=
while getopts k:s: o; do
	case $o in
	k) kbuild=$OPTARG ;;
	s) srcdir=$OPTARG ;;
	*) echo "usage: $0 [-k KBUILD] [-s SRCDIR] SOURCE..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ -n "$srcdir" ] || srcdir=$(dirname "$kbuild")
srcdir=$(cd "$srcdir" && pwd)
[ $# -gt 0 ] || { echo "check-kbuild.sh: no sources given" >&2; exit 2; }

# From Kbuild: the objects of the libklog-y lines, as user-space sources.
from_kbuild() {
	sed -e ':a' -e '/\\$/N; s/\\\n/ /; ta' "$kbuild" |
		sed -n 's/^libklog-y[[:blank:]]*[:+]=//p' | tr -s '[:blank:]' '\n' |
		sed '/^$/d; s/\.o$/.c/; s|^src/platform/kernel\.c$|src/platform/user.c|' |
		LC_ALL=C sort
}

# From the arguments: paths relative to SRCDIR.
from_args() {
	local f
	for f in "$@"; do
		f=$(realpath -m "$f")
		echo "${f#"$srcdir"/}"
	done | LC_ALL=C sort
}

# On disk: every .c of the core, the seam's user-space half for its two.
from_disk() {
	(cd "$srcdir" && find src -name '*.c') |
		grep -v '^src/platform/kernel\.c$' | LC_ALL=C sort
}

status=0
# compare NAME-A LIST-A NAME-B LIST-B - report lines in one list only.
compare() {
	local only_a only_b f
	only_a=$(LC_ALL=C comm -23 <(echo "$2") <(echo "$4"))
	only_b=$(LC_ALL=C comm -13 <(echo "$2") <(echo "$4"))
	[ -n "$only_a$only_b" ] || return 0
	echo "check-kbuild.sh: $1 and $3 differ:" >&2
	for f in $only_a; do echo "  only in $1: $f" >&2; done
	for f in $only_b; do echo "  only in $3: $f" >&2; done
	status=1
}

kb=$(from_kbuild)
[ -n "$kb" ] || { echo "check-kbuild.sh: no libklog-y objects in $kbuild" >&2; exit 1; }
grep -qx 'src/platform/user.c' <<<"$kb" ||
	{ echo "check-kbuild.sh: $kbuild does not list src/platform/kernel.o" >&2; status=1; }
compare "$kbuild" "$kb" "meson's list" "$(from_args "$@")"
compare "$kbuild" "$kb" "$srcdir/src" "$(from_disk)"
[ $status -ne 0 ] || echo "check-kbuild.sh: $(wc -l <<<"$kb") sources: Kbuild, meson and src/ agree"
exit $status

#!/bin/bash
# kernel-glue/sparse.sh - sparse (make C=2) on every file the series
# touches, in the patched kernel's cached build, compared with the same
# files of the stock tree.
#
# Builds (or reuses) the patched and stock guest kernels with
# kernel/build-kernel.sh, then runs the checker on the touched .c files in
# each object directory.  Prints every sparse message of the patched tree
# and fails if one is not also in the stock tree (messages compared
# without line numbers): the series adds no sparse warning.
#
# Usage: sparse.sh   (KCACHE, KTARBALL, JOBS as qemu/lib.sh)
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$REPO/qemu/lib.sh"
command -v sparse >/dev/null || die "sparse is not installed (apt-get install sparse)"

# The object files of the .c files the series adds or changes.
objs=()
while read -r f; do
	case $f in
	*.c) [[ $f == tools/* ]] || objs+=("${f%.c}.o") ;;
	esac
done < <(sed -e 's/#.*//' "$REPO/kernel-glue/series" | sed '/^$/d' |
	sed "s|^|$REPO/kernel-glue/|" | xargs grep -h '^+++ b/' |
	sed 's|^+++ b/||' | sort -u)

# out_of VARIANT - the cached object directory of a guest kernel.
out_of() {
	local key
	key=$("$REPO/kernel/build-kernel.sh" "$1" 2>&1 | tee /dev/stderr |
		sed -n 's/.*(.* bytes, key \([0-9a-f]*\))$/\1/p' | tail -1)
	[ -n "$key" ] || die "no $1 kernel"
	echo "$KCACHE/out-$key"
}

# check SRC OUT LOG OBJ... - sparse on the objects that exist in SRC.
check() {
	local src=$1 out=$2 log=$3 o have=()
	shift 3
	for o in "$@"; do
		[ -f "$src/${o%.o}.c" ] && have+=("$o")
	done
	# C=2: check the files even if they are up to date.
	make -C "$src" O="$out" -j"$JOBS" C=2 CHECK=sparse "${have[@]}" \
		>"$log" 2>&1 || { tail -20 "$log" >&2; die "make C=2 failed in $src"; }
	# paths relative to the tree, so that both trees compare
	grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' "$log" |
		sed "s|^$src/||" | sort -u || true
}

patched_out=$(out_of patched)
stock_out=$(out_of stock)
check "$KCACHE/tree-patched" "$patched_out" "$patched_out/sparse.log" \
	"${objs[@]}" >"$patched_out/sparse.msgs"
check "$KSRC" "$stock_out" "$stock_out/sparse.log" "${objs[@]}" \
	>"$stock_out/sparse.msgs"
strip() { sed -E 's/:[0-9]+:[0-9]+:/:/' "$1" | sort -u; }
new=$(comm -23 <(strip "$patched_out/sparse.msgs") <(strip "$stock_out/sparse.msgs"))
msg "${#objs[@]} files; sparse messages: patched $(wc -l <"$patched_out/sparse.msgs"), stock $(wc -l <"$stock_out/sparse.msgs")"
if [ -n "$new" ]; then
	printf '%s\n' "$new"
	die "the series adds sparse messages (above)"
fi
msg "no sparse message that the stock tree does not have"

#!/bin/bash
# kernel-glue/bisect-check.sh - every prefix of the series builds.
#
# For k = 0 (the pristine tree) .. N, applies patch k on top of the
# previous prefix in one scratch tree and builds vmlinux in one object
# directory, with the guest kernel's configuration
# (tinyconfig + kernel/config/base.config + kernel-glue/*.config) and
# -Werror: a prefix that does not compile, or warns, fails the check.  The
# options the series adds are enabled as soon as a patch defines them
# (olddefconfig after each patch).  Incremental and cached by ccache, so
# a prefix costs the files it touches plus the link.  The last prefix is
# the kernel "make guest" boots.
#
# Usage: bisect-check.sh   (KCACHE, KTARBALL, JOBS as qemu/lib.sh)
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$REPO/qemu/lib.sh"

start=$(now_s)
ensure_ksrc
glue=$REPO/kernel-glue
"$glue/import.sh" --check
mapfile -t patches < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$glue/series" | grep -v '^$')

tree=$KCACHE/bisect-tree
obj=$KCACHE/bisect-obj
rm -rf "$tree" "$obj"
cp -al "$KSRC" "$tree"
frags=("$REPO/kernel/config/base.config")
for f in "$glue"/*.config; do frags+=("$f"); done
merge_fragments "$tree" "$obj" "${frags[@]}"

cc=()
if command -v ccache >/dev/null; then
	export CCACHE_DIR=$KCACHE/ccache CCACHE_BASEDIR=$KCACHE CCACHE_NOHASHDIR=1
	export CCACHE_SLOPPINESS=include_file_ctime,include_file_mtime,time_macros
	cc=(CC="ccache gcc")
fi

build() {
	local what=$1 log=$obj/build-$2.log t
	t=$(now_s)
	make -C "$tree" O="$obj" -s olddefconfig >/dev/null
	# A syslog namespace option defined by now is switched on.
	if grep -q '^# CONFIG_SYSLOG_NS is not set' "$obj/.config"; then
		"$tree/scripts/config" --file "$obj/.config" -e SYSLOG_NS
		make -C "$tree" O="$obj" -s olddefconfig >/dev/null
	fi
	if ! make -C "$tree" O="$obj" -j"$JOBS" "${cc[@]}" KCFLAGS=-Werror \
		vmlinux >"$log" 2>&1; then
		tail -30 "$log" >&2
		die "$what does not build (log: $log)"
	fi
	msg "ok: $what ($(grep -c '^CONFIG_SYSLOG_NS=y' "$obj/.config") SYSLOG_NS, $(elapsed "$t") s)"
}

build "the pristine tree" 00
n=0
for p in "${patches[@]}"; do
	n=$((n + 1))
	patch -d "$tree" -p1 --fuzz=0 --forward --batch --quiet \
		--no-backup-if-mismatch <"$glue/$p" || die "$p does not apply"
	build "prefix $n ($p)" "$(printf '%02d' "$n")"
done
msg "OK: all ${#patches[@]} prefixes of the series build ($(elapsed "$start") s)"

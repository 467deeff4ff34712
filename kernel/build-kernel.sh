#!/bin/bash
# kernel/build-kernel.sh [stock|patched] [debug|rt|bench|cover|golden] [config-only] - build
# (or reuse) the guest kernel's bzImage.
#
#   stock    Debian's linux-source-6.12 as shipped, for the golden
#            transcripts; leaves build/kernel/bzImage-stock.
#   patched  (default) the same tree with kernel-glue/ applied; leaves
#            build/kernel/bzImage.
#   debug    also merge kernel/config/debug.config (lockdep, KASAN,
#            kmemleak); the image name gets a "-debug" suffix.
#   rt       instead merge kernel/config/rt.config (PREEMPT_RT, lockdep with
#            the raw_spinlock nesting checks); suffix "-rt".
#   bench    instead merge kernel/config/bench.config (loadable modules,
#            for the host-cost benchmark's printk module); suffix
#            "-bench".
#   cover    debug, and also kernel/config/cover.config (KCOV and line
#            tables, for make guest-coverage); suffix "-cover".
#   golden   instead merge kernel/config/golden.config (modules and the
#            caller id, for the "kernel" golden transcript); suffix
#            "-golden".
#   config-only  prepare the tree and the checked .config, then stop
#            (no compilation; for trying out patches and fragments).
#
# Configuration: tinyconfig + kernel/config/base.config (+ debug/rt/bench/
# golden.config, or debug.config and cover.config)
# (+ for patched: every kernel-glue/*.config), then olddefconfig; every
# option of the fragments is then checked in .config (build fails if one
# did not stick).
#
# Patched tree: $KCACHE/tree-patched, a hard-link copy of the pristine tree
# ($KCACHE/linux-source-6.12, never modified: GNU patch replaces files
# instead of writing through the links) to which kernel-glue/apply.sh
# applies the series (its first patch imports libklog/).
# The stock build needs no copy: it uses the pristine tree with O=.
#
# Cache: $KCACHE/out-<key>/ (object dir, bzImage, Module.symvers of a
# kernel with modules, build log, timing; build/kernel/<image>.objdir
# names it), key =
# sha256 of the kernel version, the variant, the config fragments and, for
# patched, kernel-glue/apply.sh --hash (the series, its patches and
# apply.sh) and the libklog files the series imports.  A finished build
# is reused as is.  One kernel build at a time (flock on
# $KCACHE/build.lock), make -j$JOBS (default 2).  kernel/README.md has
# more.
set -euo pipefail
. "$(dirname "$0")/../qemu/lib.sh"

variant=patched debug=0 rt=0 bench=0 cover=0 golden=0 config_only=0
for a in "$@"; do
	case $a in
	stock|patched) variant=$a ;;
	debug) debug=1 ;;
	rt) rt=1 ;;
	bench) bench=1 ;;
	cover) cover=1 ;;
	golden) golden=1 ;;
	config-only) config_only=1 ;;
	-h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "usage: $0 [stock|patched] [debug|rt|bench|cover|golden] [config-only]" ;;
	esac
done

ensure_ksrc
mkdir -p "$KCACHE"
glue=$REPO/kernel-glue

# --- inputs ----------------------------------------------------------------
frags=("$REPO/kernel/config/base.config")
[ $((debug + rt + bench + cover + golden)) -gt 1 ] &&
	die "debug, rt, bench, cover and golden are separate builds"
[ "$debug" -eq 1 ] || [ "$cover" -eq 1 ] &&
	frags+=("$REPO/kernel/config/debug.config")
[ "$cover" -eq 1 ] && frags+=("$REPO/kernel/config/cover.config")
[ "$golden" -eq 1 ] && frags+=("$REPO/kernel/config/golden.config")
[ "$rt" -eq 1 ] && frags+=("$REPO/kernel/config/rt.config")
[ "$bench" -eq 1 ] && frags+=("$REPO/kernel/config/bench.config")
# The patched tree's inputs: kernel-glue/apply.sh, the only way patches get
# into a tree, hashes what it applies (the series, its patches and
# itself); every *.config of kernel-glue/ is merged.
glue_hash=
if [ "$variant" = patched ]; then
	glue_hash=$("$glue/apply.sh" --hash) ||
		die "kernel-glue/apply.sh --hash failed (kernel-glue/series or a patch it names missing?)"
	for f in "$glue"/*.config; do
		[ -f "$f" ] && frags+=("$f")
	done
fi

# key_inputs - "<sha256>  <name>" for every input, in a fixed order.
# The libklog files the series imports (kernel-glue/import.sh --list) are
# there too, though apply.sh's hash covers the import patch: a core
# changed without kernel-glue/import.sh must not reuse the old kernel,
# but reach apply.sh, which refuses the stale import.  The user-space
# half of libklog (its seam, testing.h) never reaches a kernel.
key_inputs() {
	local kver
	kver=$(sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\) = //p' "$KSRC/Makefile" | paste -sd.)
	echo "linux $kver variant $variant debug $debug"
	(cd "$REPO" && sha256sum "${frags[@]#"$REPO"/}")
	if [ "$variant" = patched ]; then
		echo "kernel-glue/apply.sh --hash $glue_hash"
		"$glue/import.sh" --list | (cd "$REPO/libklog" && xargs sha256sum)
	fi
}
key=$(key_inputs | sha256sum | cut -c1-16)
out=$KCACHE/out-$key
name=bzImage
[ "$variant" = stock ] && name+=-stock
[ "$debug" -eq 1 ] && name+=-debug
[ "$rt" -eq 1 ] && name+=-rt
[ "$bench" -eq 1 ] && name+=-bench
[ "$cover" -eq 1 ] && name+=-cover
[ "$golden" -eq 1 ] && name+=-golden
dest=$REPO/build/kernel

# publish - copy the image and its .config next to the repo's build dir.
publish() {
	mkdir -p "$dest"
	cp "$out/arch/x86/boot/bzImage" "$dest/$name.tmp"
	mv "$dest/$name.tmp" "$dest/$name"
	cp "$out/.config" "$dest/$name.config"
	# for out-of-tree test modules (tests/guest/kleak, tests/guest/printkbench)
	echo "$out" >"$dest/$name.objdir"
	msg "$dest/$name ($(stat -c %s "$dest/$name") bytes, key $key)"
}

# cached - this kernel was built (the stamp is written last).
cached() {
	[ -f "$out/.libklog-built" ] && [ -f "$out/arch/x86/boot/bzImage" ]
}
reuse() {
	msg "reusing cached $variant kernel $out (built in $(cat "$out/build-seconds" 2>/dev/null || echo '?') s)"
	publish
	exit 0
}

# A cached kernel needs no lock: one build may run while another make
# target reuses a kernel built earlier.
cached && reuse
exec 9>"$KCACHE/build.lock"
if ! flock -n 9; then
	msg "another kernel build is running; waiting for it"
	flock 9
fi
cached && reuse

# --- source tree -------------------------------------------------------------
if [ "$variant" = stock ]; then
	src=$KSRC
else
	# One fixed path for every patched tree, so that ccache (below) sees
	# the same paths and reuses every object whose inputs did not change;
	# the results stay keyed in $out.
	src=$KCACHE/tree-patched
	if [ "$(cat "$src/.libklog-applied" 2>/dev/null)" != "$key" ]; then
		rm -rf "$src" "$src.tmp"
		msg "hard-link copy of the pristine tree into $src"
		cp -al "$KSRC" "$src.tmp"
		msg "kernel-glue/apply.sh"
		"$glue/apply.sh" "$src.tmp" "$REPO"
		echo "$key" >"$src.tmp/.libklog-applied"
		mv "$src.tmp" "$src"
	fi
fi

# --- configure and build -------------------------------------------------
msg "configuring $out (tinyconfig + ${frags[*]##*/})"
merge_fragments "$src" "$out" "${frags[@]}"
require_config "$out" "${frags[@]}"
if [ "$config_only" -eq 1 ]; then
	msg "config-only: tree $src, configuration $out/.config checked"
	exit 0
fi

targets=(bzImage)
grep -q '^CONFIG_MODULES=y' "$out/.config" && targets+=(modules)
msg "make -j$JOBS ${targets[*]} for $name (about 4 min on 2 cores), log: $out/build.log"
t=$(now_s)
cc=()
if command -v ccache >/dev/null; then
	# Objects are content-addressed; paths are made relative to $KCACHE.
	export CCACHE_DIR=$KCACHE/ccache CCACHE_BASEDIR=$KCACHE CCACHE_NOHASHDIR=1
	export CCACHE_SLOPPINESS=include_file_ctime,include_file_mtime,time_macros
	cc=(CC="ccache gcc")
fi
if ! make -C "$src" O="$out" -j"$JOBS" "${cc[@]}" "${targets[@]}" >"$out/build.log" 2>&1; then
	grep -E 'error|Error' "$out/build.log" | head -40 >&2 || true
	tail -20 "$out/build.log" >&2
	die "kernel build failed; full log: $out/build.log"
fi
secs=$(elapsed "$t")
echo "$secs" >"$out/build-seconds"
touch "$out/.libklog-built"
msg "kernel build took $secs s"
publish

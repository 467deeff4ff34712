# shellcheck shell=bash disable=SC2034
# qemu/lib.sh - helpers shared by the qemu/ and kernel/ scripts (and those
# of kernel-glue/, tests/ and tools/ that need the kernel tree).  Source
# it, do not run it.
#
# Environment:
#   KCACHE   cache directory outside the repository (default ~/.cache/libklog)
#   KTARBALL the Debian kernel source tarball
#            (default /usr/src/linux-source-6.12.tar.xz)
#   JOBS     make -j value for kernel builds (default 2: one build at a time)

# Repository root: the parent of the directory holding this file.
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KCACHE=${KCACHE:-$HOME/.cache/libklog}
KTARBALL=${KTARBALL:-/usr/src/linux-source-6.12.tar.xz}
KTREE_NAME=linux-source-6.12
KSRC=$KCACHE/$KTREE_NAME     # pristine extracted tree: never modified
JOBS=${JOBS:-2}

msg() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
die() { printf '%s: error: %s\n' "${0##*/}" "$*" >&2; exit 1; }

# ensure_ksrc - extract the pristine tree into $KCACHE unless it is there.
# Extraction goes to a temporary directory first and is renamed at the end,
# so an interrupted run never leaves a half tree that looks complete; a
# lock ($KCACHE/extract.lock) makes a second script wait for the first
# instead of replacing the tree under it.
ksrc_ready() {
	[ -f "$KSRC/Makefile" ] && [ -f "$KSRC/scripts/kconfig/merge_config.sh" ]
}
ensure_ksrc() {
	ksrc_ready && return 0
	[ -f "$KTARBALL" ] || die "$KTARBALL missing (apt-get install linux-source-6.12, or make deps-kernel)"
	mkdir -p "$KCACHE"
	(
		flock 8
		ksrc_ready && exit 0
		tmp=$(mktemp -d "$KCACHE/.extract.XXXXXX")
		msg "extracting $KTARBALL into $KCACHE"
		tar -xf "$KTARBALL" -C "$tmp"
		[ -f "$tmp/$KTREE_NAME/Makefile" ] || die "unexpected tarball layout in $KTARBALL"
		rm -rf "$KSRC"
		mv "$tmp/$KTREE_NAME" "$KSRC"
		rmdir "$tmp"
	) 8>"$KCACHE/extract.lock"
}

# merge_fragments OBJDIR FRAGMENT... - tinyconfig in OBJDIR, then the
# fragments merged on top, then olddefconfig.  Uses the pristine tree's
# merge_config.sh so nothing is written into $KSRC.
# Usage: merge_fragments SRCTREE OBJDIR FRAGMENT...
merge_fragments() {
	local src=$1 obj=$2 f
	shift 2
	local frags=()
	for f in "$@"; do frags+=("$(realpath "$f")"); done
	mkdir -p "$obj"
	make -s -C "$src" O="$obj" tinyconfig >/dev/null || die "make tinyconfig failed in $obj"
	# -m: only merge (no allnoconfig), -O: where .config lives.
	(cd "$src" && ARCH=x86_64 scripts/kconfig/merge_config.sh -m -O "$obj" \
		"$obj/.config" "${frags[@]}" >"$obj/merge_config.log") ||
		die "merge_config.sh failed, see $obj/merge_config.log"
	make -s -C "$src" O="$obj" olddefconfig >/dev/null || die "make olddefconfig failed in $obj"
}

# require_config OBJDIR FRAGMENT... - every CONFIG_X=value line of the
# fragments must be in OBJDIR/.config, and every "# CONFIG_X is not set"
# must not be set.  A value line directly after a line "# optional" is only
# reported, not required (kconfig does not allow comments on value lines).
require_config() {
	local obj=$1 frag line sym val got bad=0 optional=0
	shift
	for frag in "$@"; do
		while IFS= read -r line; do
			if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
				sym=${BASH_REMATCH[1]} val=${BASH_REMATCH[2]}
				if ! grep -qxF "$sym=$val" "$obj/.config"; then
					got=$(grep -E "^(# )?${sym}[= ]" "$obj/.config" || echo absent)
					if [ "$optional" -eq 1 ]; then
						msg "note: optional $sym=$val not set ($got)"
					else
						msg "config: wanted $sym=$val, got: $got"
						bad=1
					fi
				fi
			elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set ]]; then
				sym=${BASH_REMATCH[1]}
				if grep -q "^$sym=" "$obj/.config"; then
					msg "config: wanted $sym unset, got: $(grep "^${sym}=" "$obj/.config")"
					bad=1
				fi
			fi
			optional=0
			[ "$line" = "# optional" ] && optional=1
		done <"$frag"
	done
	[ "$bad" -eq 0 ] || die "configuration in $obj lacks the options above (a dependency missing from the fragment?)"
}

# now_s - seconds since the epoch with a fractional part, for timings.
now_s() { date +%s.%N; }
# elapsed START - seconds since START, one decimal.
elapsed() { awk -v s="$1" -v e="$(now_s)" 'BEGIN { printf "%.1f", e - s }'; }

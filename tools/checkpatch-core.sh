#!/bin/bash
# tools/checkpatch-core.sh - the kernel's scripts/checkpatch.pl --strict -f
# on every C source and header of the core (libklog/src, libklog/include,
# libklog/userspace), from the pristine linux-source-6.12 tree (qemu/lib.sh
# extracts it).
# kernel-glue/checkpatch.sh checks the import patch, i.e. the files the
# kernel compiles; this also covers the user-space half of the platform
# seam and the user-space headers, in the same style.  Prints one line
# per file; exits 1 on any error, warning or check not ignored below.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$REPO/qemu/lib.sh"

# The checks ignored, each in the user-space files named only:
#   NEW_TYPEDEFS                    include/klog/types.h, src/platform/user.h:
#                                   the seam's opaque types (klog_lock_t,
#                                   kl_waitq_t, ...) are typedefs in both
#                                   halves, the kernel's own types in the
#                                   kernel half
#   PREFER_DEFINED_ATTRIBUTE_MACRO  include/klog/types.h, src/platform/user.h:
#                                   user space has no __printf() or
#                                   noinline; these are KLOG_PRINTF() and
#                                   kl_noinline
#   COMPLEX_MACRO                   src/platform/user.h: kl_always_inline
#                                   is "inline" and an attribute, as the
#                                   kernel's __always_inline is
#   CAMELCASE, FUNCTION_ARGUMENTS   src/platform/user.c: C11's _Atomic()
#                                   around a function pointer type
ignored() {
	case $1 in
	include/klog/types.h) echo NEW_TYPEDEFS,PREFER_DEFINED_ATTRIBUTE_MACRO ;;
	src/platform/user.h) echo NEW_TYPEDEFS,PREFER_DEFINED_ATTRIBUTE_MACRO,COMPLEX_MACRO ;;
	src/platform/user.c) echo CAMELCASE,FUNCTION_ARGUMENTS ;;
	esac
}

ensure_ksrc
# checkpatch writes a CamelCase cache into its working directory: not
# into the pristine tree.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
n=0
while IFS= read -r f; do
	args=(--strict --quiet --no-tree --root="$KSRC" --show-types)
	ign=$(ignored "$f")
	[ -z "$ign" ] || args+=(--ignore "$ign")
	# /usr/bin first: checkpatch's spdxcheck wants Debian's python3
	out=$(cd "$tmp" && PATH=/usr/bin:$PATH perl "$KSRC/scripts/checkpatch.pl" \
		"${args[@]}" -f "$REPO/libklog/$f" 2>&1) || true
	n=$((n + 1))
	if [ -n "$out" ]; then
		echo "libklog/$f:"
		printf '%s\n' "$out" | sed 's/^/    /'
		bad=1
	else
		echo "libklog/$f: 0 errors, 0 warnings, 0 checks${ign:+ (ignoring $ign)}"
	fi
done < <(cd "$REPO/libklog" && find src include userspace -name '*.[ch]' | LC_ALL=C sort)
[ "$n" -gt 0 ] || die "no sources found under libklog/"
exit "$bad"

#!/bin/sh
# tests/consumer/run.sh - build a program against the installed libklog.
#
# Usage: run.sh BUILDDIR CONSUMER.C CC [SANITIZE]
#
# SANITIZE is the build's b_sanitize ("none", "address,undefined"): a
# sanitized libklog needs a program built with the same runtime.
#
# Installs the build into a temporary DESTDIR (meson install --destdir),
# checks that only <klog/...> headers were installed, then compiles
# CONSUMER.C with the flags the installed libklog.pc gives and nothing
# else (no -I into the source tree), links it against the installed
# shared library and runs it.
set -eu
build=$1
src=$2
cc=$3
san=${4:-none}

dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT INT TERM

meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >/dev/null

pc=$(find "$dest" -name libklog.pc | head -n 1)
[ -n "$pc" ] || { echo "run.sh: no libklog.pc installed" >&2; exit 1; }

# Every installed header is <klog/...>, and none of them is the seam.
bad=$(find "$dest" -name '*.h' ! -path '*/include/klog/*')
[ -z "$bad" ] || { echo "run.sh: installed outside klog/: $bad" >&2; exit 1; }
for h in platform.h user.h kernel.h internal.h klog_types.h \
	 klog_user_types.h; do
	if [ -n "$(find "$dest" -name "$h")" ]; then
		echo "run.sh: the private $h was installed" >&2
		exit 1
	fi
done

# The shared library exports exactly the functions the installed headers
# declare (libklog/libklog.map): not the platform seam (klog_plat_*) nor
# the core's private calls (src/internal.h).
so=$(find "$dest" -name 'libklog.so.*' -type f | head -n 1)
[ -n "$so" ] || { echo "run.sh: no libklog.so installed" >&2; exit 1; }
find "$dest" -path '*/include/klog/*.h' -exec cat {} + |
	grep -E '^[a-z_][^;(]*[ *]klog_[a-z0-9_]+\(' | grep -v '^static' |
	sed -E 's/.*[ *](klog_[a-z0-9_]+)\(.*/\1/' | sort -u >"$dest/declared"
nm -D --defined-only "$so" | awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' | sort >"$dest/exported"
if [ "$(wc -l <"$dest/declared")" -lt 50 ] ||
	! cmp -s "$dest/declared" "$dest/exported"; then
	echo "run.sh: libklog.so's exports are not the headers' declarations:" >&2
	diff "$dest/declared" "$dest/exported" | head -20 >&2
	exit 1
fi

export PKG_CONFIG_PATH="${pc%/*}" PKG_CONFIG_LIBDIR="${pc%/*}"
export PKG_CONFIG_SYSROOT_DIR="$dest"
cflags=$(pkg-config --cflags libklog)
libs=$(pkg-config --libs libklog)
echo "run.sh: pkg-config: $cflags $libs"
case " $cflags " in
*/klog" "*) echo "run.sh: libklog.pc puts include/klog on the path" >&2
	exit 1 ;;
esac

sanflags=
[ "$san" = none ] || sanflags="-fsanitize=$san"
cd "$dest"
# shellcheck disable=SC2086
"$cc" -std=c11 -Wall -Wextra -Werror $sanflags -o consumer "$src" \
	$cflags $libs
libdir=${libs#*-L}
libdir=${libdir%% *}
LD_LIBRARY_PATH="$libdir" ./consumer

# The commands and their man pages.  Each command runs from the installed
# tree (with the installed library); each page renders with groff's man
# macros without a warning, and says what it is.
for cmd in syslogns klogsim; do
	bin=$(find "$dest" -path "*/bin/$cmd" -type f | head -n 1)
	if [ -z "$bin" ] || [ ! -x "$bin" ]; then
		echo "run.sh: $cmd was not installed in bin/" >&2
		exit 1
	fi
	page=$(find "$dest" -path "*/man1/$cmd.1" -type f | head -n 1)
	[ -n "$page" ] || {
		echo "run.sh: $cmd.1 was not installed in man1/" >&2; exit 1; }
	grep -q "^\.TH $(echo "$cmd" | tr '[:lower:]' '[:upper:]') 1 " "$page" || {
		echo "run.sh: $page has no .TH line for $cmd(1)" >&2; exit 1; }
	warn=$(groff -man -Tutf8 -ww -z "$page" 2>&1) || true
	[ -z "$warn" ] || { echo "run.sh: $page: $warn" >&2; exit 1; }
	groff -man -Tutf8 "$page" 2>/dev/null | grep -q "^ *$cmd  *- " || {
		echo "run.sh: $page renders no NAME line" >&2; exit 1; }
done
LD_LIBRARY_PATH="$libdir" "$(find "$dest" -path '*/bin/syslogns' | head -n 1)" \
	--version | grep -q '^syslogns from libklog ' || {
	echo "run.sh: the installed syslogns does not run" >&2; exit 1; }
out=$(printf 'ns web tag=web\nprintk web \\0016hello\\n\ndmesg web\n' |
	LD_LIBRARY_PATH="$libdir" \
	"$(find "$dest" -path '*/bin/klogsim' | head -n 1)")
case "$out" in
*"hello"*) ;;
*) echo "run.sh: the installed klogsim did not run a script: $out" >&2
	exit 1 ;;
esac
echo "run.sh: installed syslogns, klogsim and their man pages work"

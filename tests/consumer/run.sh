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

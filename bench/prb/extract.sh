#!/bin/sh
# extract.sh TARBALL OUTDIR - copy Linux 6.12's printk ringbuffer out of
# Debian's linux-source-6.12 tarball into the build directory (never into
# the source tree: the files are not committed).
set -eu
tarball=$1 out=$2
[ -r "$tarball" ] || {
	echo "extract.sh: $tarball missing; run tools/deps.sh core kernel bench" >&2
	exit 1
}
mkdir -p "$out"
tar -xJf "$tarball" -C "$out" --strip-components=3 \
	--wildcards '*/kernel/printk/printk_ringbuffer.[ch]'
touch "$out/printk_ringbuffer.c" "$out/printk_ringbuffer.h"

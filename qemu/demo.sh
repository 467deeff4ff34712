#!/bin/bash
# qemu/demo.sh [-k BZIMAGE] - the kernel demo: boot the patched kernel
# once and tell the syslog namespace story step by step (the host, two
# containers with iptables LOG rules, isolation, a destructive read, the
# host's tagged copies, a ratelimited flood), then the same with the
# runtimes people already use (util-linux unshare, bubblewrap, crun).
# Run "make kernel" (or kernel/build-kernel.sh patched) first.  Prints
# only the demo's output.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
kernel=$REPO/build/kernel/bzImage
while getopts "k:h" opt; do
	case $opt in
	k) kernel=$(realpath "$OPTARG") ;;
	*) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
	esac
done
[ -f "$kernel" ] || { echo "demo.sh: no kernel at $kernel (run make kernel)" >&2; exit 1; }

out=$REPO/build/demo
mkdir -p "$out"
XT=/usr/lib/x86_64-linux-gnu/xtables
gcc -static -O2 -Wall -Wextra -Werror -o "$out/klogns" "$REPO/tests/guest/klogns.c"
gcc -static -O2 -Wall -Wextra -Werror -o "$out/syslogns" \
	"$REPO/tools/syslogns/syslogns.c"
# The last step runs Debian's own util-linux unshare, bubblewrap and crun
# (tools/deps.sh kernel installs them), as the in-guest suite does.
"$REPO/qemu/initramfs.sh" -o "$out/initramfs.cpio.gz" \
	-f "$HERE/demo-guest.sh:/etc/demo.sh" \
	-f "$REPO/tests/guest/runtimes.sh:/etc/runtimes.sh" \
	-f "$XT/libxt_LOG.so:$XT/libxt_LOG.so" \
	-f "$XT/libxt_standard.so:$XT/libxt_standard.so" \
	-c "sh /etc/demo.sh" "$out/klogns" "$out/syslogns" \
	/usr/sbin/xtables-legacy-multi /usr/bin/unshare /usr/bin/bwrap \
	/usr/bin/crun \
	>"$out/initramfs.log" 2>&1 || { cat "$out/initramfs.log" >&2; exit 1; }
set +e
"$REPO/qemu/run.sh" -k "$kernel" -i "$out/initramfs.cpio.gz" \
	-l "$out/serial.log" -r "$out/demo.out" -t 240 -m none >/dev/null 2>&1
rc=$?
set -e
cat "$out/demo.out"
exit "$rc"

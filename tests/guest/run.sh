#!/bin/bash
# tests/guest/run.sh [-k BZIMAGE] [-t SECONDS] - run the in-guest syslog
# namespace tests.
#
# Builds tests/guest/klogns.c with gcc -static, makes an initramfs with
# qemu/initramfs.sh whose test command is tests/guest/syslog_ns_tests.sh,
# boots the kernel (default build/kernel/bzImage, the patched one from
# qemu/build-kernel.sh) with qemu/run.sh, and prints the TAP results.
# The command line has no printk.devkmsg= (that would lock the mode): the
# tests set kernel.printk_devkmsg themselves.
# Exit status: 0 when every check passed, else non-zero (qemu/run.sh's
# codes: 124 timeout, 125 crash or panic).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
kernel=$REPO/build/kernel/bzImage
tmo=180
while getopts "k:t:h" opt; do
	case $opt in
	k) kernel=$(realpath "$OPTARG") ;;
	t) tmo=$OPTARG ;;
	*) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
	esac
done

out=$REPO/build/guest
mkdir -p "$out"
# iptables-legacy for the netfilter LOG tests, with the extensions they use
XT=/usr/lib/x86_64-linux-gnu/xtables
gcc -static -O2 -Wall -Wextra -Werror -o "$out/klogns" "$HERE/klogns.c"
"$REPO/qemu/initramfs.sh" -o "$out/initramfs.cpio.gz" \
	-f "$HERE/syslog_ns_tests.sh:/etc/syslog_ns_tests.sh" \
	-f "$XT/libxt_LOG.so:$XT/libxt_LOG.so" \
	-f "$XT/libxt_standard.so:$XT/libxt_standard.so" \
	-f "$XT/libipt_icmp.so:$XT/libipt_icmp.so" \
	-c "sh /etc/syslog_ns_tests.sh" "$out/klogns" /usr/sbin/xtables-legacy-multi
set +e
"$REPO/qemu/run.sh" -k "$kernel" -i "$out/initramfs.cpio.gz" \
	-l "$out/serial.log" -r "$out/results.tap" -t "$tmo" -m none
rc=$?
set -e
cat "$out/results.tap"
if ! tail -1 "$out/results.tap" | grep -q '^[0-9]* passed, 0 failed$'; then
	[ "$rc" -ne 0 ] || rc=1
fi
exit "$rc"

#!/bin/bash
# qemu/run.sh - boot a kernel and an initramfs in QEMU, collect the results.
#
# Usage: qemu/run.sh [options]
#   -k KERNEL     bzImage (default build/kernel/bzImage)
#   -i INITRD     initramfs (default build/qemu/initramfs.cpio.gz)
#   -l LOG        serial console log (default build/qemu/serial.log)
#   -r RESULTS    where to write the test's output lines (default LOG
#                 with .log replaced by .results)
#   -t SECONDS    outer timeout for QEMU (default 120)
#   -m MODE       printk.devkmsg=MODE on the command line: on (default),
#                 off, ratelimit, or "none" to leave the parameter out
#                 (the kernel's default, ratelimit)
#   -a PARAMS     more kernel parameters, appended (e.g. "golden=main")
#   -A CMDLINE    the whole kernel command line instead of the default
#   -I            interactive: serial console on this terminal, no log
#                 parsing (for "make qemu")
#
# Default command line:
#   console=ttyS0 quiet loglevel=1 panic=-1 tsc=unstable printk.devkmsg=on
# (loglevel=1 after quiet: only KERN_EMERG reaches the console; panic=-1
# reboots at once, which -no-reboot turns into QEMU's exit; under TCG the
# TSC is unreliable and the clocksource watchdog would otherwise log
# "Marking clocksource 'tsc' as unstable" at a random moment after boot,
# racing with the tests.)
#
# Environment: QEMU_ACCEL=auto|tcg|kvm|icount (auto: KVM only when
# /dev/kvm is usable and a probe boot of this kernel succeeds, else TCG,
# silently; icount: TCG with "-icount shift=0,sleep=off", where the
# guest's clock advances one nanosecond per guest instruction executed, so
# that a guest timing counts instructions, whatever the host's load or
# QEMU's translation does, and an idle guest skips to its next timer),
# QEMU_SMP (default 1; a number N means N sockets of one CPU, the only
# layout the guest kernel sees without ACPI), QEMU_MEM (default 512M),
# QEMU (the binary).
#
# Results: the lines the guest prints between "@@KLOG-BEGIN@@" and
# "@@KLOG-END rc=N@@" (see initramfs.sh), with carriage returns removed
# and kernel console lines (those starting with '[') dropped, go to
# RESULTS.  Exit status: the test's rc; 124 on timeout; 125 when the end
# marker never came (crash, panic); 2 on usage errors.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=$REPO/build/kernel/bzImage
initrd=$REPO/build/qemu/initramfs.cpio.gz
log=$REPO/build/qemu/serial.log
results=
tmo=120
devkmsg=on
extra=
cmdline=
interactive=0
while getopts "k:i:l:r:t:m:a:A:Ih" opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	i) initrd=$OPTARG ;;
	l) log=$OPTARG ;;
	r) results=$OPTARG ;;
	t) tmo=$OPTARG ;;
	m) devkmsg=$OPTARG ;;
	a) extra+=" $OPTARG" ;;
	A) cmdline=$OPTARG ;;
	I) interactive=1 ;;
	h) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) exit 2 ;;
	esac
done
[ -f "$kernel" ] || die "no kernel at $kernel (kernel/build-kernel.sh)"
[ -f "$initrd" ] || die "no initramfs at $initrd (qemu/initramfs.sh)"
results=${results:-${log%.log}.results}
[ "$results" != "$log" ] || results=$log.results

if [ -z "$cmdline" ]; then
	cmdline="console=ttyS0 quiet loglevel=1 panic=-1 tsc=unstable"
	case $devkmsg in
	on|off|ratelimit) cmdline+=" printk.devkmsg=$devkmsg" ;;
	none) ;;
	*) die "-m wants on, off, ratelimit or none" ;;
	esac
fi
cmdline+=$extra

QEMU=${QEMU:-qemu-system-x86_64}
# The guest kernel has no ACPI: it finds CPUs in SeaBIOS's MP table, which
# lists one per socket, so N CPUs are N sockets.
smp=${QEMU_SMP:-1}
case $smp in
*[!0-9]*) ;;
*) smp="cpus=$smp,sockets=$smp" ;;
esac
base=("$QEMU" -nographic -no-reboot -m "${QEMU_MEM:-512M}" -smp "$smp"
	-nic none -kernel "$kernel" -initrd "$initrd")

# kvm_usable - /dev/kvm is there and a probe boot of this very kernel gets
# to /init under KVM.  The answer is cached per kernel image and host boot
# (on some machines -cpu host aborts with "failed to set MSR", or the
# default CPU model hangs early).
kvm_usable() {
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
	local id cache
	id=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo noboot)
	cache=$KCACHE/kvm-probe-$(sha256sum <"$kernel" | cut -c1-16)-$id
	if [ ! -f "$cache" ]; then
		mkdir -p "$KCACHE"
		if timeout -k 2 20 "${base[@]}" -enable-kvm -cpu host \
			-append "console=ttyS0 quiet loglevel=1 panic=-1 klogprobe=1" \
			</dev/null 2>&1 | grep -q '@@KLOG-PROBE-OK@@'; then
			echo yes >"$cache"
		else
			echo no >"$cache"
		fi
	fi
	[ "$(cat "$cache")" = yes ]
}

accel=(-accel tcg)
accel_name=tcg
case ${QEMU_ACCEL:-auto} in
tcg) ;;
kvm) accel=(-enable-kvm -cpu host) accel_name=kvm ;;
icount) accel=(-accel tcg -icount "shift=0,sleep=off") accel_name=icount ;;
auto) if kvm_usable; then accel=(-enable-kvm -cpu host) accel_name=kvm; fi ;;
*) die "QEMU_ACCEL must be auto, tcg, kvm or icount" ;;
esac

if [ "$interactive" -eq 1 ]; then
	msg "booting $kernel ($accel_name); in the guest 'reboot -f' ends QEMU, Ctrl-A x kills it"
	exec "${base[@]}" "${accel[@]}" -append "$cmdline klogshell=1"
fi

mkdir -p "$(dirname "$log")" "$(dirname "$results")"
msg "booting ${kernel#"$REPO"/} with ${initrd#"$REPO"/} ($accel_name, timeout ${tmo}s): $cmdline"
t=$(now_s)
set +e
timeout -k 5 "$tmo" "${base[@]}" "${accel[@]}" -append "$cmdline" </dev/null >"$log" 2>&1
qrc=$?
set -e
secs=$(elapsed "$t")

# Results: lines between the markers, without \r and console lines.  The
# begin marker may share its line with firmware escape sequences (SeaBIOS
# prints no newline), so markers are matched at the end of a line.
tr -d '\r' <"$log" | awk '
	/@@KLOG-BEGIN@@$/ { on = 1; next }
	/@@KLOG-END rc=[0-9]+@@$/ { on = 0; next }
	on && !/^\[/ { print }' >"$results"
rc=$(tr -d '\r' <"$log" | sed -n 's/^.*@@KLOG-END rc=\([0-9]*\)@@$/\1/p' | tail -1)

if [ "$qrc" -eq 124 ]; then
	msg "TIMEOUT after ${tmo}s; serial log: $log"
	exit 124
fi
if [ -z "$rc" ]; then
	msg "no end marker (qemu rc=$qrc, ${secs}s); the guest crashed or panicked? last lines of $log:"
	tail -20 "$log" >&2
	exit 125
fi
msg "guest test rc=$rc, ${secs}s wall; results: $results ($(wc -l <"$results") lines)"
exit "$rc"

# shellcheck shell=bash
# tests/guest/bench_lib.sh - the boots of the in-guest benchmarks, sourced
# by tests/guest/bench.sh and tests/guest/hostcost.sh (which set REPO).
#
# The guest's clock: with qemu/run.sh's tsc=unstable a tinyconfig guest
# falls back to refined-jiffies, whose 4 ms steps would be the figures;
# tsc=reliable keeps the TSC (QEMU's, from the host's clock) and drops its
# watchdog, which only the tests needed off.  The guest scripts print
# "clock NAME" first and exit 3 at once when the TSC failed its
# calibration anyway (it does under load).
BENCH_CMDLINE="console=ttyS0 quiet loglevel=1 panic=-1 tsc=reliable"

# bench_boot KERNEL INITRD RESULTS SMP TIMEOUT [PARAMS]: one boot with SMP
# guest CPUs and PARAMS appended to BENCH_CMDLINE; the guest's lines in
# RESULTS, its console in RESULTS.log.  A guest that exits 3 is booted
# again (three tries); any other failure ends the run.
bench_boot() {
	local try rc
	for try in 1 2 3; do
		rc=0
		QEMU_SMP=$4 "$REPO/qemu/run.sh" -k "$1" -i "$2" -l "$3.log" \
			-r "$3" -t "$5" -A "$BENCH_CMDLINE${6:+ $6}" || rc=$?
		[ "$rc" -eq 3 ] || break
		echo "${0##*/}: $(grep '^clock' "$3"), not the TSC (try $try)" >&2
	done
	[ "$rc" -eq 0 ] ||
		{ echo "${0##*/}: the guest failed (rc $rc); see $3.log" >&2; exit 1; }
}

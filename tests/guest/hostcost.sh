#!/bin/bash
# tests/guest/hostcost.sh - what the series costs a host that does not use
# it: stock 6.12 against the patched kernel, booted alternately.
#
# Builds the stock and the patched kernel with kernel/config/bench.config
# (the same configuration otherwise, plus loadable modules), the
# printkbench module against each, kmsgbench and nsscale (static), and
# boots stock, patched, stock, patched, ... BOOTS times each (default 3;
# QEMU_MEM 2G: 10^4 syslog namespaces of 64 KiB rings take about
# 700 MiB).  In every boot hostcost_guest.sh times the host's /dev/kmsg
# write, printk() from a module, syslog(2) READ_ALL of the full log, a read
# of all of /dev/kmsg, and unshare(CLONE_NEWUTS | CLONE_NEWNET); on the
# patched kernel a second time with 10^4 syslog namespaces alive.
#
# Prints, for each path, patched/stock per pair of boots (by the fastest
# round of each boot, then by its median round) as "median
# [lowest-highest]", with no syslog namespace and with 10^4 alive, and the
# absolute figures; appends rows to
# build/bench/results.csv (scenario guest-host) when that file exists,
# else writes build/bench/hostcost.csv.  Never a pass/fail threshold.
#
# QEMU_ACCEL=icount (qemu/run.sh) runs the same boots with the guest's
# clock counting its instructions, one nanosecond each: the figures are
# then guest instructions per operation, the same boot after boot (but
# unshare's, whose rounds count or miss a worker tearing down earlier
# network namespaces), and the rows go to the CSV as scenario
# guest-host-icount.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
BOOTS=${BOOTS:-3}
. "$HERE/bench_lib.sh"
# HOSTCOST_APPEND: more kernel parameters for both kernels (e.g.
# log_buf_len=1M: the host log in a page-aligned buffer allocated at boot
# instead of the static __log_buf, whose place in .bss moves with the
# image).
accel=${QEMU_ACCEL:-tcg}
scenario=guest-host
out=$REPO/build/bench/hostcost
if [ "$accel" = icount ]; then
	scenario=guest-host-icount
	out+=-icount
fi
kdir=$REPO/build/kernel
mkdir -p "$out"

"$REPO/kernel/build-kernel.sh" stock bench
"$REPO/kernel/build-kernel.sh" patched bench
gcc -static -O2 -Wall -Wextra -Werror -o "$out/kmsgbench" "$HERE/kmsgbench.c"
gcc -static -O2 -Wall -Wextra -Werror -o "$out/nsscale" "$HERE/nsscale.c"
declare -A image=([stock]=bzImage-stock-bench [patched]=bzImage-bench)
for v in stock patched; do
	objdir=$(cat "$kdir/${image[$v]}.objdir")
	rm -rf "$out/$v-printkbench"
	cp -r "$HERE/printkbench" "$out/$v-printkbench"
	make -s -C "$objdir" M="$out/$v-printkbench" modules
	"$REPO/qemu/initramfs.sh" -o "$out/$v.cpio.gz" \
		-f "$HERE/hostcost_guest.sh:/etc/hostcost_guest.sh" \
		-f "$out/$v-printkbench/printkbench.ko:/lib/printkbench.ko" \
		-c "sh /etc/hostcost_guest.sh" "$out/kmsgbench" "$out/nsscale"
done
for b in $(seq 1 "$BOOTS"); do
	for v in stock patched; do
		echo "hostcost.sh: boot $b of $BOOTS: $v"
		QEMU_MEM=${QEMU_MEM:-2G} bench_boot "$kdir/${image[$v]}" \
			"$out/$v.cpio.gz" "$out/$v-$b.results" 1 1200 \
			"${HOSTCOST_APPEND:-}"
		grep -q '^hostcost: done$' "$out/$v-$b.results" || {
			echo "hostcost.sh: boot $b ($v) did not finish; see $out/$v-$b.results.log" >&2
			exit 1
		}
	done
done

# figures FILE WHAT WHEN: each round's figure of one boot, a line each
# (for readall, ns per line; for unshare, the field after N).
figures() {
	awk -v w="$2" -v when="$3" '$1 == w && $2 == when {
		if (w == "readall") v = $5 > 0 ? $3 / $5 : 0
		else if (w == "unshare") v = $4
		else v = $3
		v += 0
		if (v > 0) printf "%.1f\n", v }' "$1"
}
# round FILE WHAT WHEN STAT: one boot's fastest round (STAT fastest) or
# median round (STAT median).  Under icount the rounds of a boot differ
# by what ran before them, not by noise: the median is the fairer figure.
round() {
	figures "$1" "$2" "$3" | sort -n | awk -v stat="$4" '{ v[NR] = $1 }
		END { if (NR) print stat == "median" ? v[int((NR + 1) / 2)] : v[1] }'
}
# summary WHAT WHEN STAT: "median lowest highest stock patched": patched
# (WHEN) over stock (none) per pair of boots, each boot's figure its STAT
# round, and the lowest such figure of each kernel.
summary() {
	local b s p rows=()
	for b in $(seq 1 "$BOOTS"); do
		s=$(round "$out/stock-$b.results" "$1" none "$3")
		p=$(round "$out/patched-$b.results" "$1" "$2" "$3")
		if [ -z "$s" ] || [ -z "$p" ]; then
			echo "hostcost.sh: no '$1 $2' in boot $b; see $out/" >&2
			exit 1
		fi
		rows+=("$s $p")
	done
	printf '%s\n' "${rows[@]}" | awk '{ printf "%.3f %s %s\n", $2 / $1, $1, $2 }' |
		sort -n | awk '{ r[NR] = $1
			if (NR == 1 || $2 < s) s = $2
			if (NR == 1 || $3 < p) p = $3 }
			END { printf "%s %s %s %.0f %.0f\n", r[int((NR + 1) / 2)],
			      r[1], r[NR], s, p }'
}
csv=$REPO/build/bench/results.csv
[ -f "$csv" ] || csv=$REPO/build/bench/hostcost.csv
echo "hostcost.sh: kernel command line: $BENCH_CMDLINE${HOSTCOST_APPEND:+ $HOSTCOST_APPEND}"
# Per path: the fastest boots' figures, patched / stock by the fastest
# round of each boot, then by the median round.
fmt='%-36s %-6s %9s %9s %7s %15s %7s %15s\n'
# shellcheck disable=SC2059 # the format is that variable
printf "$fmt" "host path ($accel, $BOOTS boots each)" "ns" "stock" \
	"patched" "ratio" "[low-high]" "median" "[low-high]"
for w in write printk readall readkmsg unshare; do
	for when in none held; do
		read -r med lo hi s p <<<"$(summary "$w" "$when" fastest)"
		[ -n "$p" ] || exit 1
		read -r mmed mlo mhi _ <<<"$(summary "$w" "$when" median)"
		[ -n "$mhi" ] || exit 1
		# shellcheck disable=SC2059
		printf "$fmt" "$w" "$when" "$s" "$p" "$med" "[$lo-$hi]" \
			"$mmed" "[$mlo-$mhi]"
		{
			echo "$scenario,$when,$w,patched_over_stock,$med"
			echo "$scenario,$when,$w,spread,$lo-$hi"
			echo "$scenario,$when,$w,patched_over_stock_median_round,$mmed"
			echo "$scenario,$when,$w,spread_median_round,$mlo-$mhi"
		} >>"$csv"
	done
done
echo "hostcost.sh: per boot results in $out/{stock,patched}-N.results"

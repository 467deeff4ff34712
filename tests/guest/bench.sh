#!/bin/bash
# tests/guest/bench.sh - in-guest cost ratios of the patched kernel.
#
# Builds tests/guest/kmsgbench.c, nsscale.c and nfcost.c (static), boots
# build/kernel/bzImage with bench_guest.sh (QEMU_MEM 8G: 10^4 syslog
# namespaces of 64 KiB rings take about 700 MiB, 10^4 network namespaces
# about 2.1 GiB, and a 2G guest is OOM-killed; log_buf_len=1M, so that
# the host's log is as large as the child ring it is compared with), and
# prints, from the best of the rounds, a /dev/kmsg write in a child
# namespace vs on the host log, the readers of a full 1 MiB log (syslog(2)
# READ_ALL, all of /dev/kmsg) in a child vs on the host, a /dev/kmsg
# follower's lag behind a writer at 10^5 records/s (a second boot, with
# two guest CPUs: the follower on one, the writer on the other; the first
# boot has one), netfilter LOG per packet, and the creation, release and
# memory of 10^4 syslog namespaces alive at once against as many UTS and
# network namespaces.
# The guest keeps the TSC as its clock (bench_lib.sh).
# Appends the rows to build/bench/results.csv (scenario guest) when that
# file exists, else writes build/bench/guest.csv.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
. "$HERE/bench_lib.sh"
kernel=$REPO/build/kernel/bzImage
out=$REPO/build/bench/guest
mkdir -p "$out"
[ -f "$kernel" ] || { echo "bench.sh: $kernel missing: run make kernel" >&2; exit 1; }

gcc -static -O2 -Wall -Wextra -Werror -o "$out/kmsgbench" "$HERE/kmsgbench.c"
gcc -static -O2 -Wall -Wextra -Werror -o "$out/klogns" "$HERE/klogns.c"
gcc -static -O2 -Wall -Wextra -Werror -o "$out/nsscale" "$HERE/nsscale.c"
gcc -static -O2 -Wall -Wextra -Werror -o "$out/nfcost" "$HERE/nfcost.c"
"$REPO/qemu/initramfs.sh" -o "$out/initramfs.cpio.gz" \
	-f "$HERE/bench_guest.sh:/etc/bench_guest.sh" \
	-c "sh /etc/bench_guest.sh" "$out/kmsgbench" "$out/klogns" "$out/nsscale" \
	"$out/nfcost"
export QEMU_MEM=${QEMU_MEM:-8G}
bench_boot "$kernel" "$out/initramfs.cpio.gz" "$out/results" 1 1800 log_buf_len=1M
bench_boot "$kernel" "$out/initramfs.cpio.gz" "$out/follow" 2 1800 \
	"log_buf_len=1M benchpart=follow"

best() { awk -v k="$1" '$0 ~ "^" k " [0-9]+$" { v = $NF + 0; if (!n++ || v < m) m = v } END { if (n) print m }' "$out/results"; }
host=$(best "kmsg host")
child=$(best "kmsg child")
for v in host child; do
	[ -n "${!v}" ] || { echo "bench.sh: no '$v' result; see $out/results.log" >&2; exit 1; }
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
printf '%-44s %8s %8s %7s\n' "in-guest cost per 64-byte message (TCG)" base "ns" ratio
printf '%-44s %8s %8s %7s\n' "/dev/kmsg write: child vs host" "$host" "$child" "$(ratio "$child" "$host")"

# Readers of a full 1 MiB log.  rdl WHERE: "ns-per-line lines" of the
# round with the fewest ns per line of "readall WHERE NS BYTES LINES";
# rdk WHERE: "ns-per-record records" of "readkmsg WHERE NS RECORDS".
rdl() {
	awk -v w="$1" '$1 == "readall" && $2 == w && $5 > 0 {
		v = $3 / $5; if (!n++ || v < m) { m = v; l = $5 } }
		END { if (n) printf "%d %d\n", m, l }' "$out/results"
}
rdk() {
	awk -v w="$1" '$1 == "readkmsg" && $2 == w && $4 > 0 {
		v = $3 + 0; if (!n++ || v < m) { m = v; r = $4 } }
		END { if (n) printf "%d %d\n", m, r }' "$out/results"
}
read -r ra_host ra_host_n <<<"$(rdl host)"
read -r ra_child ra_child_n <<<"$(rdl child)"
read -r rk_host rk_host_n <<<"$(rdk host)"
read -r rk_child rk_child_n <<<"$(rdk child)"
[ -n "$rk_child" ] || { echo "bench.sh: no reader results; see $out/results.log" >&2; exit 1; }
printf '%-44s %8s %8s %7s\n' "READ_ALL of a full 1 MiB log, ns per line" "$ra_host" "$ra_child" "$(ratio "$ra_child" "$ra_host")"
printf '%-44s %8s %8s\n' "  (lines returned)" "$ra_host_n" "$ra_child_n"
printf '%-44s %8s %8s %7s\n' "/dev/kmsg read of it all, ns per record" "$rk_host" "$rk_child" "$(ratio "$rk_child" "$rk_host")"
printf '%-44s %8s %8s\n' "  (records read)" "$rk_host_n" "$rk_child_n"

# A follower's lag: "rate median p99 max lost" of the round with the
# lowest median lag (fol WHERE).
fol() {
	awk -v w="$1" '$1 == "follow" && $2 == w && NF == 7 {
		if (!n++ || $4 < m) { m = $4; l = $3 " " $4 " " $5 " " $6 " " $7 } }
		END { if (n) print l }' "$out/follow"
}
read -r fo_host_rate fo_host fo_host_p99 fo_host_max fo_host_lost <<<"$(fol host)"
read -r fo_child_rate fo_child fo_child_p99 fo_child_max fo_child_lost <<<"$(fol child)"
[ -n "$fo_child_lost" ] || { echo "bench.sh: no follower results; see $out/follow.log" >&2; exit 1; }
printf '%-44s %8s %8s %7s\n' "/dev/kmsg follower lag, median ns" "$fo_host" "$fo_child" "$(ratio "$fo_child" "$fo_host")"
printf '%-44s %8s %8s %7s\n' "  99th percentile ns" "$fo_host_p99" "$fo_child_p99" "$(ratio "$fo_child_p99" "$fo_host_p99")"
printf '%-44s %8s %8s\n' "  largest ns" "$fo_host_max" "$fo_child_max"
printf '%-44s %8s %8s\n' "  records per second written" "$fo_host_rate" "$fo_child_rate"
printf '%-44s %8s %8s\n' "  records lost" "$fo_host_lost" "$fo_child_lost"

# A flood in one container: "flood MODE WHO NS", the best round (fl MODE
# WHO).
fl() {
	awk -v m="$1" -v w="$2" '$1 == "flood" && $2 == m && $3 == w && $4 > 0 {
		if (!n++ || $4 < b) b = $4 } END { if (n) print b }' "$out/follow"
}
printf '\n%-40s %6s %6s %5s %6s %5s %6s %5s\n' \
	"/dev/kmsg write, a container flooding" off flood ratio copies ratio \
	"+flood" ratio
declare -A flood
for who in host neighbour; do
	for mode in off on copies-alone copies; do
		flood[$who,$mode]=$(fl "$mode" "$who")
		[ -n "${flood[$who,$mode]}" ] ||
			{ echo "bench.sh: no flood results; see $out/follow.log" >&2; exit 1; }
	done
	printf '%-40s %6s %6s %5s %6s %5s %6s %5s\n' "  $who, ns (10^4 namespaces alive)" \
		"${flood[$who,off]}" "${flood[$who,on]}" \
		"$(ratio "${flood[$who,on]}" "${flood[$who,off]}")" \
		"${flood[$who,copies-alone]}" \
		"$(ratio "${flood[$who,copies-alone]}" "${flood[$who,off]}")" \
		"${flood[$who,copies]}" \
		"$(ratio "${flood[$who,copies]}" "${flood[$who,off]}")"
done

# The scale rows: "create KIND N NS" and the others, one per round.
# scale WHAT KIND FIELD: "best spread" of FIELD (4 = the first figure)
# over the rounds, best the lowest.
scale() {
	awk -v w="$1" -v k="$2" -v f="$3" '$1 == w && $2 == k {
		v = $f + 0; if (!n++ || v < lo) lo = v; if (!m++ || v > hi) hi = v }
		END { if (n) printf "%d %d-%d\n", lo, lo, hi }' "$out/results"
}
# memory per namespace: MemFree's drop (field 7), which also sees the
# page allocator's large kmallocs that Slab, VmallocUsed and Percpu miss
memsum() {
	awk -v w="$1" -v k="$2" '$1 == w && $2 == k { v = $7
		if (!n++ || v < lo) lo = v; if (!m++ || v > hi) hi = v }
		END { if (n) printf "%d %d-%d\n", lo, lo, hi }' "$out/results"
}
# nfl MODE N: "best spread" of ns per packet of "nflog MODE N NS"
nfl() {
	awk -v k="$1" -v c="$2" '$1 == "nflog" && $2 == k && $3 == c {
		v = $4 + 0; if (!n++ || v < lo) lo = v; if (!m++ || v > hi) hi = v }
		END { if (n) printf "%d %d-%d\n", lo, lo, hi }' "$out/results"
}
read -r nf_none nf_none_s <<<"$(nfl none 1)"
read -r nf_host nf_host_s <<<"$(nfl host 1)"
read -r nf_b1 nf_b1_s <<<"$(nfl bound 1)"
read -r nf_b100 nf_b100_s <<<"$(nfl bound 100)"
read -r nf_b1000 nf_b1000_s <<<"$(nfl bound 1000)"
[ -n "$nf_b1000" ] || { echo "bench.sh: no nflog results; see $out/results.log" >&2; exit 1; }
printf '\nnetfilter LOG, ns per UDP packet over lo (two LOG lines), best (range)\n'
printf '%-44s %s (%s)\n' "no rule (the packet alone)" "$nf_none" "$nf_none_s"
printf '%-44s %s (%s)\n' "host log (nf_log_all_netns=1, unbound)" "$nf_host" "$nf_host_s"
printf '%-44s %s (%s)\n' "bound, 1 bound netns alive" "$nf_b1" "$nf_b1_s"
printf '%-44s %s (%s)\n' "bound, 100 alive" "$nf_b100" "$nf_b100_s"
printf '%-44s %s (%s)\n' "bound, 1000 alive" "$nf_b1000" "$nf_b1000_s"
printf '%-44s %s\n' "bound 1000 / bound 1" "$(ratio "$nf_b1000" "$nf_b1")"
printf '%-44s %s\n' "bound 1 / host log" "$(ratio "$nf_b1" "$nf_host")"
printf '%-44s %s\n' "LOG's own cost: (bound 1 - none) / (host - none)" \
	"$(ratio $((nf_b1 - nf_none)) $((nf_host - nf_none)))"

nscale=$(awk '$1 == "create" { print $3; exit }' "$out/results")
[ -n "$nscale" ] || { echo "bench.sh: no scale results; see $out/results.log" >&2; exit 1; }
read -r c_sys c_sys_s <<<"$(scale create syslog 4)"
read -r c_net c_net_s <<<"$(scale create net 4)"
read -r c_uts c_uts_s <<<"$(scale create uts 4)"
read -r d_sys d_sys_s <<<"$(scale destroy syslog 4)"
read -r d_net d_net_s <<<"$(scale destroy net 4)"
read -r d_uts d_uts_s <<<"$(scale destroy uts 4)"
read -r m_sys m_sys_s <<<"$(memsum mem syslog)"
read -r k_sys k_sys_s <<<"$(memsum kept syslog)"
read -r m_net m_net_s <<<"$(memsum mem net)"
printf '\n%s namespaces alive at once, best (range) of the rounds, ns per namespace\n' "$nscale"
printf '%-36s %16s %16s %16s\n' "" syslog net uts
printf '%-36s %16s %16s %16s\n' "create (unshare+open+setns)" "$c_sys ($c_sys_s)" "$c_net ($c_net_s)" "$c_uts ($c_uts_s)"
printf '%-36s %16s %16s %16s\n' "release (close of the last ref)" "$d_sys ($d_sys_s)" "$d_net ($d_net_s)" "$d_uts ($d_uts_s)"
printf '%-36s %s\n' "create: net / syslog" "$(ratio "$c_net" "$c_sys")"
printf '%-36s %s\n' "create: syslog / uts" "$(ratio "$c_sys" "$c_uts")"
printf '%-36s %s bytes (%s); kept after release: %s (%s)\n' \
	"syslog: MemFree drop per ns" "$m_sys" "$m_sys_s" "$k_sys" "$k_sys_s"
printf '%-36s %s bytes (%s)\n' "net: MemFree drop per ns" "$m_net" "$m_net_s"
csv=$REPO/build/bench/results.csv
[ -f "$csv" ] || { csv=$REPO/build/bench/guest.csv; echo "scenario,param,backend,metric,value" >"$csv"; }
# pair SCENARIO PARAM NAME METRIC HOST CHILD: the host's row, the
# child's, and their ratio.
pair() {
	echo "$1,$2,$3-host,$4,$5"
	echo "$1,$2,$3-child,$4,$6"
	echo "$1,$2,$3,child_over_host,$(ratio "$6" "$5")"
}
{
	pair guest 64 kmsg ns_per_rec "$host" "$child"
	pair guest-read 1M readall ns_per_line "$ra_host" "$ra_child"
	pair guest-read 1M readkmsg ns_per_rec "$rk_host" "$rk_child"
	pair guest-follow 1M follow median_lag_ns "$fo_host" "$fo_child"
	echo "guest-follow,1M,follow-host,p99_lag_ns,$fo_host_p99"
	for who in host neighbour; do
		for mode in off on copies-alone copies; do
			echo "guest-flood,10000,$who,ns_per_write_$mode,${flood[$who,$mode]}"
		done
	done
	echo "guest-follow,1M,follow-child,p99_lag_ns,$fo_child_p99"
	for k in syslog net uts; do
		echo "guest-scale,$nscale,$k,create_ns,$(scale create $k 4 | cut -d' ' -f1)"
		echo "guest-scale,$nscale,$k,destroy_ns,$(scale destroy $k 4 | cut -d' ' -f1)"
		echo "guest-scale,$nscale,$k,mem_bytes,$(memsum mem $k | cut -d' ' -f1)"
	done
	echo "guest-scale,$nscale,syslog,net_over_syslog_create,$(ratio "$c_net" "$c_sys")"
	echo "guest-nflog,1,none,ns_per_packet,$nf_none"
	echo "guest-nflog,1,host,ns_per_packet,$nf_host"
	for n in 1 100 1000; do
		echo "guest-nflog,$n,bound,ns_per_packet,$(nfl bound $n | cut -d' ' -f1)"
	done
	echo "guest-nflog,1000,bound,over_bound_1,$(ratio "$nf_b1000" "$nf_b1")"
	echo "guest-nflog,1,bound,over_host,$(ratio "$nf_b1" "$nf_host")"
} >>"$csv"
echo "bench.sh: rows added to ${csv#"$REPO"/}"

#!/bin/sh
# bench/run.sh - build kbench and run every kbench scenario in one run.
#
#   bench/run.sh              the full run (at most 5 minutes with the build)
#   bench/run.sh --smoke      tiny counts, no plots, docs untouched
#   bench/run.sh --consecutive N
#                             N full runs in a row, docs untouched; prints
#                             each target's value in every run and in how
#                             many it was met (bench/spread.awk); keeps
#                             each run's report in $BUILD_BENCH as
#                             consecutive-I.csv and consecutive-I.md
#
# Writes $BUILD_BENCH/results.csv (default build-bench/), the PNG plots in
# docs/perf/, and the measured part of docs/performance.md (between the
# kbench:begin/end markers; the prose around them is kept).
#
# The machine is shared: before measuring it waits up to KBENCH_WAIT
# seconds (default 45) for other developers' make/qemu/cc1 processes to
# finish, and records what it saw in docs/performance.md.
#
# Environment: BUILD_BENCH (build directory), KBENCH_WAIT (seconds),
# KBENCH_ARGS (extra kbench arguments, e.g. "--time-ms 40").
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_BENCH:-$root/build-bench}
wait_max=${KBENCH_WAIT:-45}
usage="usage: bench/run.sh [--smoke | --consecutive N]"
smoke='' runs=''
case "$#:${1:-}" in
0:)
	;;
1:--smoke)
	smoke=1 ;;
2:--consecutive)
	runs=$2
	case "$runs" in
	'' | *[!0-9]* | 0*)
		echo "run.sh: --consecutive needs a number of runs, from 1" >&2
		exit 2 ;;
	esac ;;
*)
	echo "$usage" >&2
	exit 2 ;;
esac

# Link-time optimisation inlines libklog's store and read into the
# benchmark's calls, as spin's store is inlined into its own
# (docs/performance.md, "Method").  Where the CPU has PREFETCHW, the
# ring's kl_prefetchw() is built as that instruction, the one the
# kernel's prefetchw() runs there (without -mprfchw GCC emits a read
# prefetch).  This script owns the build directory's c_args.
cflags=''
if [ "$(uname -m)" = x86_64 ] && grep -qw 3dnowprefetch /proc/cpuinfo; then
	cflags=-mprfchw
fi
if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" -Dbench=enabled -Dtests=false --buildtype=release \
		-Db_lto=true -Dc_args="$cflags" --werror
else
	meson configure "$build" -Db_lto=true -Dc_args="$cflags"
fi
ninja -C "$build" bench/kbench >/dev/null
kbench=$build/bench/kbench

if [ -n "$smoke" ]; then
	exec "$kbench" --smoke --csv "$build/results.csv"
fi

# Other developers' builds and guests: our own ancestors (make bench) are
# not "others".
ancestors() {
	p=$$
	while [ "$p" -gt 1 ] 2>/dev/null; do
		echo "$p"
		p=$(awk '{print $4}' "/proc/$p/stat" 2>/dev/null || echo 1)
	done
}
others() {
	mine=$(ancestors | tr '\n' ' ')
	for p in $(pgrep -f 'make|qemu|cc1' || true); do
		case " $mine " in *" $p "*) continue ;; esac
		[ "$p" = "$$" ] && continue
		echo "$p"
	done
}

waited=0
quiet_for=0
while [ "$waited" -lt "$wait_max" ]; do
	if [ -z "$(others)" ]; then
		quiet_for=$((quiet_for + 1))
		[ "$quiet_for" -ge 3 ] && break
	else
		quiet_for=0
	fi
	sleep 1
	waited=$((waited + 1))
done
busy=$(others | wc -l)
load=$(cut -d' ' -f1-3 /proc/loadavg)
if [ "$busy" -eq 0 ]; then
	note="Machine state: no other make/qemu/cc1 process when the run started (waited ${waited} s for quiet); load average $load before it."
else
	what=$(for p in $(others); do ps -o comm= -p "$p" 2>/dev/null; done |
		sort | uniq -c | awk '{printf "%s%s x%s", sep, $2, $1; sep=", "}')
	note="Machine state: **loaded** - $busy make/qemu/cc1 processes of other developers were running when the run started ($what; waited ${waited} s); load average $load before it.  Numbers are noisier than on an idle machine; ratios within one run remain comparable."
fi
echo "kbench: $note" >&2

if [ -n "$runs" ]; then
	# Each run after the first starts as soon as the one before ends:
	# its report says so, with the load it started at.
	set --
	i=1
	while [ "$i" -le "$runs" ]; do
		echo "kbench: run $i of $runs" >&2
		if [ "$i" -gt 1 ]; then
			note="Machine state: run $i of $runs of bench/run.sh --consecutive, right after run $((i - 1)); load average $(cut -d' ' -f1-3 /proc/loadavg) before it."
		fi
		# shellcheck disable=SC2086 # KBENCH_ARGS is a list of options
		"$kbench" --csv "$build/consecutive-$i.csv" \
			--md "$build/consecutive-$i.md" --note "$note" \
			${KBENCH_ARGS:-} >/dev/null
		set -- "$@" "$build/consecutive-$i.md"
		i=$((i + 1))
	done
	awk -f "$root/bench/spread.awk" "$@"
	exit
fi

mkdir -p "$root/docs/perf"
# shellcheck disable=SC2086
"$kbench" --csv "$build/results.csv" --md "$build/results.md" \
	--plot-dir "$root/docs/perf" --note "$note" ${KBENCH_ARGS:-}

# Splice the measured part into docs/performance.md.
doc=$root/docs/performance.md
if [ -f "$doc" ] && grep -q '<!-- kbench:begin -->' "$doc"; then
	awk -v frag="$build/results.md" '
	/<!-- kbench:begin -->/ {
		print; while ((getline l < frag) > 0) print l; skip = 1; next
	}
	/<!-- kbench:end -->/ { skip = 0 }
	!skip' "$doc" > "$doc.tmp" && mv "$doc.tmp" "$doc"
else
	{
		echo "# Performance"
		echo
		echo "<!-- kbench:begin -->"
		cat "$build/results.md"
		echo "<!-- kbench:end -->"
	} > "$doc"
fi
echo "kbench: wrote $build/results.csv, docs/perf/*.png and $doc" >&2

#!/bin/bash
# tests/fuzz/run.sh [-u] [SECONDS] [TARGET...]
#
# Build the libFuzzer targets with clang (-fsanitize=fuzzer,address,
# undefined) in a meson build directory of their own (-Dfuzz=true
# -Dtests=false: tests/fuzz/meson.build, from libklog/Kbuild's source
# list; the gcc build is untouched), replay every regression input in
# tests/fuzz/regress/TARGET/, then fuzz each target for SECONDS (default
# 60) starting from the committed corpus in tests/fuzz/corpus/TARGET/.
# New inputs go to a scratch directory, so the tree stays clean; -u merges
# them back into the committed corpus (minimised with -merge=1).  Prints
# executions per target and exits non-zero on any crash, leak, timeout or
# sanitizer report, a missing or empty committed corpus, or no execution
# counted; the input is saved under $FUZZ_OUT/crashes/TARGET/ (add it to
# regress/ with the fix).
#
# Environment: FUZZ_OUT, the build directory (default build-fuzz: set up
# on the first run, rebuilt by ninja after that), CC (default clang; only
# clang is used).  Targets run one after the other.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
update=0
if [ "${1:-}" = "-u" ]; then
	update=1
	shift
fi
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_kmsg_write fuzz_syslog fuzz_format fuzz_klogsim)
for t in "${targets[@]}"; do
	[ -f "$here/$t.c" ] || { echo "run.sh: no target $t" >&2; exit 2; }
done

out=${FUZZ_OUT:-$top/build-fuzz}
cc=${CC:-clang}
case "$cc" in *clang*) ;; *) cc=clang ;; esac
command -v "$cc" >/dev/null || { echo "run.sh: $cc not found (tools/deps.sh fuzz)" >&2; exit 2; }
for p in meson ninja; do
	command -v $p >/dev/null || { echo "run.sh: $p not found (tools/deps.sh core)" >&2; exit 2; }
done

if [ ! -f "$out/build.ninja" ]; then
	echo "== meson setup $out (CC=$cc -Dfuzz=true)"
	CC="$cc" meson setup "$out" "$top" -Dfuzz=true -Dtests=false \
		-Dbench=disabled >/dev/null
fi
echo "== build ${targets[*]}"
# The targets' outputs only: the library and tools are not needed.
ninja -C "$out" "${targets[@]/#/tests/fuzz/}" >"$out/build.log" 2>&1 || {
	tail -40 "$out/build.log"
	echo "run.sh: the fuzz targets do not build (log $out/build.log;" \
		"a build directory set up otherwise: rm -rf $out)" >&2
	exit 1
}
bin=$out/tests/fuzz

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

status=0
summary=()
for t in "${targets[@]}"; do
	extra=()
	[ "$t" = fuzz_klogsim ] && extra=(-close_fd_mask=1)

	# The committed corpus is the starting point: a missing or empty one
	# would fuzz from nothing and pass.
	if [ ! -d "$here/corpus/$t" ] || [ -z "$(ls -A "$here/corpus/$t")" ]; then
		echo "run.sh: $t: no corpus in $here/corpus/$t (missing or empty)" >&2
		status=1
		summary+=("$t: NO CORPUS")
		continue
	fi

	# Regression inputs first: each one must pass.
	if [ -d "$here/regress/$t" ] && [ -n "$(ls -A "$here/regress/$t")" ]; then
		echo "== $t: replay regress/$t"
		if ! "$bin/$t" "${extra[@]}" -runs=1 "$here/regress/$t"/* \
			>"$out/$t.regress.log" 2>&1; then
			tail -40 "$out/$t.regress.log"
			echo "run.sh: $t: a regression input fails" >&2
			status=1
			summary+=("$t: REGRESSION")
			continue
		fi
	fi

	[ "$secs" -gt 0 ] || { summary+=("$t: built, regress ok"); continue; }
	work="$out/corpus/$t"
	crashes="$out/crashes/$t"
	rm -rf "$work"
	mkdir -p "$work" "$crashes"
	echo "== $t: fuzz ${secs}s"
	log="$out/$t.log"
	rc=0
	"$bin/$t" "${extra[@]}" -max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
		-artifact_prefix="$crashes/" "$work" "$here/corpus/$t" \
		>"$log" 2>&1 || rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
	if [ $rc -ne 0 ]; then
		grep -E 'ERROR|SUMMARY|fuzz:|Test unit written' "$log" | head -20 || true
		echo "run.sh: $t: FAILED (exit $rc), log $log" >&2
		status=1
		summary+=("$t: FAILED after ${runs:-?} executions")
		continue
	fi
	if [ "${runs:-0}" -eq 0 ]; then
		echo "run.sh: $t: FAILED: no execution counted in $log" >&2
		status=1
		summary+=("$t: FAILED: no executions")
		continue
	fi
	summary+=("$t: ${runs:-?} executions in ${secs}s, coverage ${cov:-?} edges, corpus $(find "$work" "$here/corpus/$t" -maxdepth 1 -type f | wc -l)")
	if [ $update -eq 1 ]; then
		mkdir -p "$work.merged"
		"$bin/$t" "${extra[@]}" -merge=1 "$work.merged" "$here/corpus/$t" "$work" \
			>"$out/$t.merge.log" 2>&1
		rm -rf "$here/corpus/$t"
		mv "$work.merged" "$here/corpus/$t"
		echo "== $t: corpus now $(find "$here/corpus/$t" -maxdepth 1 -type f | wc -l) inputs"
	fi
done

echo "== fuzz summary"
for s in "${summary[@]}"; do echo "  $s"; done
exit $status

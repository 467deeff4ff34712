#!/bin/bash
# tests/guest/run.sh [-k BZIMAGE] [-t SECONDS] [-s SUITE] [-M MODE] - run
# the in-guest syslog namespace tests.
#
#   -s SUITE  the script tests/guest/SUITE.sh (default syslog_ns_tests;
#             "reliability" is tests/guest/reliability.sh)
#   -M MODE   passed as the kernel parameter klogmode=MODE, which the
#             suite sees as $klogmode (reliability: short or full)
#   -L        the kernel has kmemleak (the debug kernel): builds the
#             planted-leak module tests/guest/kleak against the kernel's
#             objdir (KERNEL.objdir, from kernel/build-kernel.sh) into the
#             image and passes klogkmemleak=1; the suites then fail unless
#             kmemleak is there, enabled, and reports the planted leak
#
# Builds tests/guest/klogns.c, klogstress.c, klogfuzz.c,
# tests/golden/capture.c
# (the child-vs-host golden check), the installed tool
# tools/syslogns/syslogns.c and the series' kselftest
# (syslog_ns_test, from its patch) with gcc -static, makes an
# initramfs with qemu/initramfs.sh whose test command is the suite (with
# the host's iptables-legacy, and the unmodified runtimes the suite runs:
# util-linux unshare as /bin/unshare, bwrap and crun; tools/deps.sh
# installs them),
# boots the kernel (default build/kernel/bzImage, the patched one from
# kernel/build-kernel.sh) with qemu/run.sh, and prints the TAP results.
# The command line has no printk.devkmsg= (that would lock the mode): the
# tests set kernel.printk_devkmsg themselves.
# Exit status: 0 when every check passed, else non-zero (qemu/run.sh's
# codes: 124 timeout, 125 crash or panic).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
kernel=$REPO/build/kernel/bzImage
tmo=180
suite=syslog_ns_tests
params=()
kmemleak=0
while getopts "k:t:s:M:Lh" opt; do
	case $opt in
	k) kernel=$(realpath "$OPTARG") ;;
	t) tmo=$OPTARG ;;
	s) suite=$OPTARG ;;
	M) params+=(-a "klogmode=$OPTARG") ;;
	L) kmemleak=1 ;;
	*) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
	esac
done

# summary_ok FILE: the suite ran and passed: the last line is "N passed,
# 0 failed" with N > 0 ("0 passed" is a suite that did not run), there
# are N "ok" lines and no "not ok" line.
summary_ok() {
	local last p
	last=$(tail -1 "$1")
	[[ $last =~ ^([0-9]+)\ passed,\ 0\ failed$ ]] || return 1
	p=${BASH_REMATCH[1]}
	[ "$p" -gt 0 ] && [ "$(grep -c '^ok [0-9]* - ' "$1")" -eq "$p" ] &&
		! grep -q '^not ok ' "$1"
}
# Its positive controls, every run: planted bad results must be refused.
ctl=$(mktemp)
printf 'ok 1 - a\nok 2 - b\n2 passed, 0 failed\n' >"$ctl"
summary_ok "$ctl" || { echo "run.sh: control: a good result refused" >&2; exit 2; }
for bad in '0 passed, 0 failed' 'ok 1 - a\nnot ok 2 - b\n1 passed, 1 failed' \
	'ok 1 - a\n' 'ok 1 - a\n2 passed, 0 failed' 'ok 1 - a\nnot ok 2 - b\n1 passed, 0 failed'; do
	printf '%b\n' "$bad" >"$ctl"
	if summary_ok "$ctl"; then
		echo "run.sh: control: a planted bad result was accepted: $bad" >&2
		rm -f "$ctl"
		exit 2
	fi
done
rm -f "$ctl"

out=$REPO/build/guest
# the reliability suite's concurrency part wants real parallelism
[ "$suite" = reliability ] && export QEMU_SMP=${QEMU_SMP:-2}
[ -f "$HERE/$suite.sh" ] || { echo "run.sh: no suite $HERE/$suite.sh" >&2; exit 2; }
# A run's files are named after its kernel (bzImage-debug: "debug-") and
# suite (reliability: "reliability-"), so that runs on two kernels or of
# two suites can overlap (make check runs them so); its programs go to
# $out/${pre}bin.
kv=${kernel##*/bzImage}
kv=${kv#-}
pre=${kv:+$kv-}
[ "$suite" = syslog_ns_tests ] || pre+=$suite-
bin=$out/${pre}bin
mkdir -p "$bin"
# iptables-legacy for the netfilter LOG tests, with the extensions they use
XT=/usr/lib/x86_64-linux-gnu/xtables
gcc -static -O2 -Wall -Wextra -Werror -o "$bin/klogns" "$HERE/klogns.c"
gcc -static -O2 -Wall -Wextra -Werror -o "$bin/capture" "$REPO/tests/golden/capture.c"
gcc -static -O2 -Wall -Wextra -Werror -I "$REPO/tests/common" \
	-o "$bin/klogstress" "$HERE/klogstress.c" "$REPO/tests/common/selfcheck.c"
gcc -static -O2 -Wall -Wextra -Werror -pthread -o "$bin/klogfuzz" \
	"$HERE/klogfuzz.c"
gcc -static -O2 -Wall -Wextra -Werror -o "$bin/syslogns" \
	"$REPO/tools/syslogns/syslogns.c"
# The series' own kselftest (tools/testing/selftests/syslog_ns/), taken
# from its patch and built with the pristine tree's kselftest harness.
. "$REPO/qemu/lib.sh"
ensure_ksrc
kst=$bin/kselftest
rm -rf "$kst"
mkdir -p "$kst/syslog_ns"
cp "$KSRC/tools/testing/selftests/kselftest_harness.h" \
	"$KSRC/tools/testing/selftests/kselftest.h" "$kst/"
python3 - "$REPO"/kernel-glue/*-selftests-add-syslog-namespace-tests.patch \
	"$kst/syslog_ns/syslog_ns_test.c" <<'PY'
import sys
patch, dst = sys.argv[1:]
want = "+++ b/tools/testing/selftests/syslog_ns/syslog_ns_test.c"
lines = open(patch).read().split("\n")
i = lines.index(want) + 2          # skip the "@@ -0,0 +1,N @@" line
n = int(lines[i - 1].split(",")[-1].split()[0])
open(dst, "w").write("\n".join(l[1:] for l in lines[i:i + n]) + "\n")
PY
gcc -static -O2 -Wall -Werror -I "$kst" -o "$bin/syslog_ns_test" \
	"$kst/syslog_ns/syslog_ns_test.c"
kfiles=()
if [ "$kmemleak" = 1 ]; then
	grep -q '^CONFIG_DEBUG_KMEMLEAK=y$' "$kernel.config" || {
		echo "run.sh: -L, but $kernel.config has no CONFIG_DEBUG_KMEMLEAK=y" >&2
		exit 2
	}
	objdir=$(cat "$kernel.objdir")
	rm -rf "$out/${pre}kleak"
	cp -r "$HERE/kleak" "$out/${pre}kleak"
	make -s -C "$objdir" M="$out/${pre}kleak" modules
	kfiles=(-f "$out/${pre}kleak/kleak.ko:/lib/kleak.ko")
	params+=(-a klogkmemleak=1)
fi
"$REPO/qemu/initramfs.sh" -o "$out/${pre}initramfs.cpio.gz" \
	-f "$HERE/$suite.sh:/etc/$suite.sh" \
	-f "$HERE/tap.sh:/etc/tap.sh" \
	-f "$HERE/runtimes.sh:/etc/runtimes.sh" \
	-f "$HERE/klogfuzz.seeds:/etc/klogfuzz.seeds" \
	-f "$REPO/tests/golden/main.ops:/golden/main.ops" \
	-f "$REPO/tests/golden/signals.ops:/golden/signals.ops" \
	-f "$REPO/tests/golden/settings.ops:/golden/settings.ops" \
	-f "$HERE/golden_norm.awk:/golden/golden_norm.awk" \
	-f "$XT/libxt_LOG.so:$XT/libxt_LOG.so" \
	-f "$XT/libxt_standard.so:$XT/libxt_standard.so" \
	-f "$XT/libipt_icmp.so:$XT/libipt_icmp.so" \
	"${kfiles[@]}" \
	-c "sh /etc/$suite.sh" "$bin/klogns" "$bin/capture" "$bin/klogstress" \
	"$bin/klogfuzz" \
	"$bin/syslog_ns_test" "$bin/syslogns" /usr/sbin/xtables-legacy-multi \
	/usr/sbin/ebtables-legacy \
	/usr/bin/unshare /usr/bin/bwrap /usr/bin/crun
set +e
"$REPO/qemu/run.sh" -k "$kernel" -i "$out/${pre}initramfs.cpio.gz" \
	-l "$out/${pre}serial.log" -r "$out/${pre}results.tap" -t "$tmo" \
	-m none "${params[@]}"
rc=$?
set -e
cat "$out/${pre}results.tap"
if ! summary_ok "$out/${pre}results.tap"; then
	echo "run.sh: the results are not a pass: want a last line \"N passed, 0 failed\" with N > 0 and N \"ok\" lines, no \"not ok\"" >&2
	[ "$rc" -ne 0 ] || rc=1
fi
exit "$rc"

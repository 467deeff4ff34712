#!/bin/bash
# tests/guest/host_unchanged.sh [-k BZIMAGE] [NAME...] - docs/design.md S9
# on the real kernel: the host log of the patched kernel, with no child
# namespace created, answers the golden operations exactly as stock 6.12
# did.
#
# For each NAME (default: main ratelimit loss signals settings; not
# kernel, recorded on a kernel with modules and the caller id) it boots the
# patched kernel (default build/kernel/bzImage) as
# tests/golden/regenerate.sh boots the stock one (printk.devkmsg=on but
# for ratelimit and settings, which have no parameter), runs tests/golden/capture on tests/golden/NAME.ops in the
# initial syslog namespace (checked: /proc/self/ns/syslog is the initial
# one) and compares the transcript with the recorded stock one,
# tests/golden/NAME.txt.  Both are normalised by tests/golden/host_norm.py:
# timestamps and /dev/kmsg sequence numbers as docs/golden-format.md says,
# and the few results that read the boot log (which differs between two
# builds) only where they are exactly what that transcript's own preload
# predicts; in loss, after the flood, the sequence numbers and SIZE_UNREAD
# counts that follow from the ring's layout (the boot log's size).  Every
# other result must be identical.
#
# Positive controls, in the same run, for each NAME: the stock transcript
# with one result line altered (the last one, ret+1), and with one byte of
# its boot-log read changed, must each be reported as one difference.
#
# Output: TAP-like "ok"/"not ok" lines and "N passed, N failed".
# Exit status 0 only when everything passed; no stock kernel is needed.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
cd "$REPO"
kernel=build/kernel/bzImage
while getopts "k:h" opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	*) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
out=build/guest/s9
mkdir -p "$out"
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(main ratelimit loss signals settings)
INIT_NS='syslog:[4026531830]'	# PROC_SYSLOG_INIT_INO

gcc -static -O2 -Wall -Wextra -Werror -o "$out/capture" tests/golden/capture.c
files=()
for f in tests/golden/*.ops; do
	files+=(-f "$f:/golden/$(basename "$f")")
done
# shellcheck disable=SC2016 # the guest's shell expands the command
qemu/initramfs.sh -o "$out/initramfs.cpio.gz" "${files[@]}" \
	-c 'sleep 2; echo "# syslog ns: $(readlink /proc/self/ns/syslog)"; exec /bin/capture "/golden/${golden}.ops"' \
	"$out/capture"

PASS=0 FAIL=0 N=0
ok() { N=$((N + 1)); PASS=$((PASS + 1)); echo "ok $N - $1"; }
not_ok() { N=$((N + 1)); FAIL=$((FAIL + 1)); echo "not ok $N - $1"; }
# loss.txt: which records survive the overwrite depends on the ring's
# layout, i.e. on the boot log's size (host_norm.py --layout-free).
nflags=()
norm() { python3 tests/golden/host_norm.py "${nflags[@]}" "$1" 2>/dev/null; }
# ndiff A B: the number of differing result lines of two transcripts.
ndiff() {
	diff <(norm "$1") <(norm "$2") | grep -c '^[<>]' || true
}

for name in "${names[@]}"; do
	stock=tests/golden/$name.txt
	[ -f "$stock" ] || { not_ok "$name: no recorded stock transcript $stock"; continue; }
	mode=on
	[ "$name" = ratelimit ] || [ "$name" = settings ] && mode=none
	nflags=()
	[ "$name" = loss ] && nflags=(--layout-free)
	got=$out/$name.results
	rc=0
	qemu/run.sh -k "$kernel" -i "$out/initramfs.cpio.gz" -m "$mode" \
		-a "golden=$name" -t 300 -l "$out/$name.log" -r "$got" || rc=$?
	if [ "$rc" -ne 0 ]; then
		not_ok "$name: capture on the patched host exited 0 (rc=$rc; see $out/$name.log)"
		grep -E '^# (WARNING|INTRUDER)' "$got" | sed 's/^/#   /' || true
		continue
	fi
	ns=$(sed -n 's/^# syslog ns: //p' "$got")
	if [ "$ns" = "$INIT_NS" ]; then
		ok "$name: capture ran in the initial syslog namespace ($ns)"
	else
		not_ok "$name: capture ran in the initial syslog namespace (got '$ns')"
	fi
	nres=$(norm "$got" | grep -c '^< ' || true)
	nstock=$(norm "$stock" | grep -c '^< ' || true)
	n=$(ndiff "$stock" "$got")
	base=$n
	if [ "$n" -eq 0 ] && [ "$nres" -eq "$nstock" ] && [ "$nres" -gt 0 ]; then
		ok "$name: the patched host's $nres results are stock 6.12's"
	else
		not_ok "$name: the patched host's $nres results are stock 6.12's ($nstock): $n differing lines (stock <, patched >)"
		diff <(norm "$stock") <(norm "$got") | grep '^[<>]' | head -20 |
			cut -c1-200 | sed 's/^/#   /' || true
	fi

	# Positive controls: a planted defect in the stock transcript adds
	# exactly one differing pair of lines to what the comparison found.
	last=$(grep -n '^< ret=' "$stock" | tail -1 | cut -d: -f1)
	awk -v l="$last" 'NR == l { match($0, /ret=-?[0-9]+/);
		v = substr($0, RSTART + 4, RLENGTH - 4) + 1;
		$0 = substr($0, 1, RSTART + 3) v substr($0, RSTART + RLENGTH) } 1' \
		"$stock" >"$out/$name.planted-ret"
	n=$(ndiff "$out/$name.planted-ret" "$got")
	if [ "$n" -eq $((base + 2)) ]; then
		ok "$name: control: one altered result (line $last, ret+1) is caught"
	else
		not_ok "$name: control: one altered result (line $last, ret+1) is caught ($n differing lines, want $((base + 2)))"
	fi
	sed '/^< ret=[0-9]* data=<[0-9]*>\[ *[0-9.]*\] Linux version /s/Linux version/Linux versiOn/' \
		"$stock" >"$out/$name.planted-boot"
	n=$(ndiff "$out/$name.planted-boot" "$got")
	if cmp -s "$stock" "$out/$name.planted-boot"; then
		not_ok "$name: control: the transcript has a boot-log read to alter"
	elif [ "$n" -eq $((base + 2)) ]; then
		ok "$name: control: one byte changed in the boot-log read is caught"
	else
		not_ok "$name: control: one byte changed in the boot-log read is caught ($n differing lines, want $((base + 2)))"
	fi
done

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ] && [ "$PASS" -gt 0 ]

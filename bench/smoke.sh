#!/bin/sh
# smoke.sh KBENCH CSV - run kbench --smoke and check that the CSV it writes
# is well formed.  Never a timing assertion: only that every scenario ran
# and produced numbers.
set -eu
kbench=$1 csv=$2
spread_awk=$(dirname "$0")/spread.awk
rm -f "$csv" "$csv".*
"$kbench" --smoke --csv "$csv" --md "$csv.md" >/dev/null
awk -F, -v ncpu="$(nproc)" '
NR == 1 {
	if ($0 != "scenario,param,backend,metric,value") {
		print "bad header: " $0; bad = 1
	}
	next
}
NF != 5 || $1 == "" || $2 == "" || $3 == "" || $4 == "" {
	print "line " NR ": not 5 non-empty fields: " $0; bad = 1; next
}
$5 !~ /^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ && $5 != "inf" {
	print "line " NR ": value is not a number: " $0; bad = 1; next
}
$4 == "ns_per_rec" { seen[$1] = 1 }
END {
	n = split("W1-size R-scan NS-scale Cont+ts", want, " ")
	if (ncpu >= 2)
		n = split("W1-size W2-contend W1R1-follow R-scan NS-scale Cont+ts", want, " ")
	for (i = 1; i <= n; i++)
		if (!(want[i] in seen)) { print "no ns_per_rec for " want[i]; bad = 1 }
	if (NR < 2) { print "empty CSV"; bad = 1 }
	exit bad
}' "$csv"
# W2's "0 lost" is read back (verify_writers()): libklog held records
# and lost none; the control, --plant-loss (a write that drops every
# 97th record and reports success), must be counted as lost.
# w2 CSV METRIC: libklog's value of METRIC in W2-contend.
w2() {
	awk -F, -v m="$2" '$1 == "W2-contend" && $3 == "libklog" && $4 == m { print $5 }' "$1"
}
if [ "$(nproc)" -ge 2 ]; then
	held=$(w2 "$csv" held) lost=$(w2 "$csv" lost)
	if [ -z "$held" ] || [ "$held" -le 0 ] || [ "$lost" != 0 ]; then
		echo "W2 read-back: libklog held '$held' records, lost '$lost' (want > 0, 0)"
		exit 1
	fi
	"$kbench" --smoke --only W2-contend --backends libklog --plant-loss \
		--csv "$csv.planted" >/dev/null
	planted=$(w2 "$csv.planted" lost)
	if [ -z "$planted" ] || [ "$planted" -le 0 ]; then
		echo "W2 read-back control: a planted silent loss was not counted (lost '$planted')"
		exit 1
	fi
	echo "kbench smoke: W2 read back $held records, 0 lost; planted loss counted: $planted lost"
fi
# The same report twice: every target is met in both runs or in neither,
# as its own met column says, under the goal it states.
awk -f "$spread_awk" "$csv.md" "$csv.md" > "$csv.twice"
awk '
function trim(s) { gsub(/^ +| +$/, "", s); return s }
FNR == 1 { file++ }
file == 1 && /^\| target \| goal \| measured \| met \|/ { t = 1; next }
file == 1 && t && /^\|---/ { next }
file == 1 && t && !/^\|/ { t = 0; next }
file == 1 && t {
	split($0, f, "|")
	m = trim(f[5])
	want[trim(f[2])] = trim(f[3]) "|" \
		(m == "yes" ? "2 of 2" : m == "n/a" ? "n/a" : "0 of 2")
	n++
	next
}
file == 2 && FNR > 2 {
	split($0, f, "|")
	got = trim(f[3]) "|" trim(f[6])
	if (want[trim(f[2])] != got) {
		print "spread: " trim(f[2]) ": \"" got "\", want \"" \
			want[trim(f[2])] "\""
		bad = 1
	}
	rows++
}
END {
	if (rows != n || !n) { print "spread: " rows " rows for " n; bad = 1 }
	exit bad
}' "$csv.md" "$csv.twice"
# spread.awk (run.sh --consecutive) puts the targets of several runs side
# by side: a second run with fewer backends measures fewer targets, and
# a report without a targets table is refused.
"$kbench" --smoke --only W1-size --backends libklog,spin \
	--csv "$csv.second" --md "$csv.second.md" >/dev/null
spread=$(awk -f "$spread_awk" "$csv.md" "$csv.second.md")
# The table of the same report twice has a row per target (checked
# above): so must this one.
printf '%s\n' "$spread" | awk -v ntargets="$(($(wc -l < "$csv.twice") - 2))" '
NR == 1 && $0 != "| target | goal | run 1 | run 2 | met |" {
	print "spread: bad header: " $0; bad = 1
}
NR > 2 {
	rows++
	if ($0 !~ / [0-9]+ of 2 \|$/ && $0 !~ / n\/a \|$/) {
		print "spread: no met count: " $0; bad = 1
	}
}
/^\| W1 libklog \/ spin, worst size \|/ &&
    $0 !~ /\| [0-9.]+ \| [0-9.]+ \| [0-2] of 2 \|$/ {
	print "spread: W1 / spin not measured in both runs: " $0; bad = 1
}
/^\| R-scan libklog \/ prb, 1 reader \|/ &&
    $0 !~ /\| [0-9.]+ \| - \| [01] of 2 \|$/ {
	print "spread: R-scan / prb measured in the second run: " $0; bad = 1
}
/^\| in guest: / && $0 !~ /\| - \| - \| n\/a \|$/ {
	print "spread: a target measured elsewhere counted: " $0; bad = 1
}
END {
	if (rows != ntargets || !ntargets) {
		print "spread: " rows " rows for " ntargets " targets"; bad = 1
	}
	exit bad
}'
# Refused: a report without a targets table, an empty one, none at all.
echo "no targets here" > "$csv.empty.md"
: > "$csv.void.md"
for report in "$csv.empty.md" "$csv.void.md"; do
	if awk -f "$spread_awk" "$csv.md" "$report" "$csv.md" \
		>/dev/null 2>"$csv.err"; then
		echo "spread control: $report was accepted as a report"
		exit 1
	fi
	if ! grep -qF "$report has no targets table" "$csv.err"; then
		echo "spread control: $report not named: $(cat "$csv.err")"
		exit 1
	fi
done
# Only a report's first targets table counts.
cat "$csv.md" "$csv.md" > "$csv.double.md"
if [ "$(awk -f "$spread_awk" "$csv.double.md")" != \
     "$(awk -f "$spread_awk" "$csv.md")" ]; then
	echo "spread control: a second targets table in one report was read"
	exit 1
fi
if awk -f "$spread_awk" </dev/null >/dev/null 2>&1; then
	echo "spread control: no report at all was accepted"
	exit 1
fi
echo "kbench smoke: spread of two runs in" \
	"$(printf '%s\n' "$spread" | wc -l) lines, met counts as reported;" \
	"a missing, empty or tableless report refused"
echo "kbench smoke: $(($(wc -l < "$csv") - 1)) rows in $csv"

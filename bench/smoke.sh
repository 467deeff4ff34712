#!/bin/sh
# smoke.sh KBENCH CSV - run kbench --smoke and check that the CSV it writes
# is well formed.  Never a timing assertion: only that every scenario ran
# and produced numbers.
set -eu
kbench=$1 csv=$2
rm -f "$csv"
"$kbench" --smoke --csv "$csv" >/dev/null
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
echo "kbench smoke: $(($(wc -l < "$csv") - 1)) rows in $csv"

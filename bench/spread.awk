# spread.awk - the targets of several kbench runs, side by side.
#
#   awk -f bench/spread.awk run1.md run2.md ...
#
# Each argument is a report kbench wrote with --md.  Prints one markdown
# table: every target's goal, its value in each run (in the order given)
# and in how many of the runs it was met: "three consecutive runs" of
# docs/performance.md as one table.  A target a run did not measure (its
# backends were left out, or it is measured elsewhere) shows "-" and is
# not met in that run; one that no run measured says "n/a".  A report
# without a targets table is an error (exit status 1): a run that failed
# must not read as a run that met nothing.

function trim(s)
{
	gsub(/^ +| +$/, "", s)
	return s
}

FNR == 1 {
	run++
	file[run] = FILENAME
	intable = 0
}

/^\| target \| goal \| measured \| met \|/ {
	intable = 1
	seen[run] = 1
	next
}

intable && /^\|---/ {
	next
}

intable && !/^\|/ {
	intable = 0
	next
}

intable {
	split($0, f, "|")
	what = trim(f[2])
	value = trim(f[4])
	met = trim(f[5])
	if (!(what in idx)) {
		idx[what] = ++ntargets
		name[ntargets] = what
		goal[ntargets] = trim(f[3])
	}
	k = idx[what]
	if (met == "n/a" || value == "nan")
		value = "-"
	else
		measured[k]++
	val[k, run] = value
	if (met == "yes")
		nmet[k]++
}

END {
	for (r = 1; r <= run; r++) {
		if (!seen[r]) {
			printf "spread.awk: %s has no targets table\n", file[r] \
				> "/dev/stderr"
			bad = 1
		}
	}
	if (bad || !run)
		exit 1
	printf "| target | goal |"
	for (r = 1; r <= run; r++)
		printf " run %d |", r
	print " met |"
	printf "|---|---|"
	for (r = 1; r <= run; r++)
		printf "---:|"
	print "---|"
	for (k = 1; k <= ntargets; k++) {
		printf "| %s | %s |", name[k], goal[k]
		for (r = 1; r <= run; r++)
			printf " %s |", ((k, r) in val) ? val[k, r] : "-"
		if (measured[k])
			printf " %d of %d |\n", nmet[k], run
		else
			print " n/a |"
	}
}

# spread.awk - the targets of several kbench runs, side by side.
#
#   awk -f bench/spread.awk run1.md run2.md ...
#
# Each argument is a report kbench wrote with --md.  Prints one markdown
# table: every target's goal, its value in each run (in the order given)
# and in how many of the runs it was met: "three consecutive runs" of
# docs/performance.md as one table.  A target a run did not measure (its
# backends were left out, or it is measured elsewhere) shows "-" and is
# not met in that run; one that no run measured says "n/a".  Only a
# report's first targets table is read.  No argument, or a report
# without a targets table with at least one row (an empty file too), is
# an error (exit status 1): a run that failed must not read as a run
# that met nothing.

function trim(s)
{
	gsub(/^ +| +$/, "", s)
	return s
}

BEGIN {
	for (i = 1; i < ARGC; i++)
		file[++nfiles] = ARGV[i]
	if (!nfiles) {
		print "usage: awk -f spread.awk REPORT.md..." > "/dev/stderr"
		bad = 1
		exit 1
	}
}

FNR == 1 {
	# An empty file has no first line: find this one's place by name.
	while (run < nfiles && file[++run] != FILENAME)
		;
	intable = 0
}

/^\| target \| goal \| measured \| met \|/ {
	intable = !done[run]
	next
}

intable && /^\|---/ {
	next
}

intable && !/^\|/ {
	intable = 0
	done[run] = 1
	next
}

intable {
	split($0, f, "|")
	what = trim(f[2])
	value = trim(f[4])
	met = trim(f[5])
	seen[run] = 1
	if (!(what in idx)) {
		idx[what] = ++ntargets
		name[ntargets] = what
		goal[ntargets] = trim(f[3])
	}
	k = idx[what]
	if (met == "n/a")
		value = "-"
	else
		measured[k]++
	val[k, run] = value
	if (met == "yes")
		nmet[k]++
}

END {
	if (bad)
		exit 1
	for (r = 1; r <= nfiles; r++) {
		if (!seen[r]) {
			printf "spread.awk: %s has no targets table\n", file[r] \
				> "/dev/stderr"
			bad = 1
		}
	}
	if (bad)
		exit 1
	printf "| target | goal |"
	for (r = 1; r <= nfiles; r++)
		printf " run %d |", r
	print " met |"
	printf "|---|---|"
	for (r = 1; r <= nfiles; r++)
		printf "---:|"
	print "---|"
	for (k = 1; k <= ntargets; k++) {
		printf "| %s | %s |", name[k], goal[k]
		for (r = 1; r <= nfiles; r++)
			printf " %s |", ((k, r) in val) ? val[k, r] : "-"
		if (measured[k])
			printf " %d of %d |\n", nmet[k], nfiles
		else
			print " n/a |"
	}
}

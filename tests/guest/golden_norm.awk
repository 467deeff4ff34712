# tests/guest/golden_norm.awk - normalise a golden transcript (capture.c)
# so that one taken in a child syslog namespace and one taken in the host
# log can be compared line by line.
#
# Drops the header, the preload and the first section ("the state boot
# left", whose results read the boot log); prefixes every remaining line
# with its section number; replaces timestamps by T, /dev/kmsg sequence
# numbers by their distance from the first one seen, and the length a
# /dev/kmsg read returns by N (it counts those digits), so that a log
# that starts empty (a child) and one that holds the boot log (the host)
# give the same text for the same behaviour.
/^# == section: / {
	sect++
	if (sect >= 2)
		print sect ": " $0
	next
}
sect < 2 || /^# / || /^= / { next }
{
	line = $0
	gsub(/\[ *[0-9]+\.[0-9]+\]/, "[T]", line)
	sub(/data= *[0-9]+\.[0-9]+\]/, "data=T]", line)
	out = ""
	# /dev/kmsg records: "<prio>,<seq>,<usec>,<flags>;" after data= or \x0a
	while (match(line, /(data=|\\x0a)[0-9]+,[0-9]+,[0-9]+,/)) {
		rec = substr(line, RSTART, RLENGTH)
		n = split(rec, f, ",")
		pre = f[1]
		seq = f[2] + 0
		if (!based) {
			base = seq
			based = 1
		}
		out = out substr(line, 1, RSTART - 1) pre "," (seq - base) ",T,"
		line = substr(line, RSTART + RLENGTH)
	}
	# a kmsg_read's length counts the sequence number's digits
	if (out != "")
		sub(/^< ret=[0-9]+/, "< ret=N", out)
	print sect ": " out line
}

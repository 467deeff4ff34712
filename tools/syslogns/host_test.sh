#!/bin/sh
# tools/syslogns/host_test.sh SYSLOGNS STATUS REGEX [ARG...] - run
# "SYSLOGNS ARG..." and check its exit status and that a line of its
# output (stdout and stderr together) matches the extended regular
# expression REGEX.
#
# STATUS "nofeature": the kernel must lack syslog namespaces and the
# status be 1; on a kernel that has them the test is skipped (exit 77).
set -u
bin=$1 want=$2 re=$3
shift 3
if [ "$want" = nofeature ]; then
	if [ -e /proc/self/ns/syslog ]; then
		echo "host_test.sh: this kernel has syslog namespaces: skipped"
		exit 77
	fi
	want=1
fi
out=$("$bin" "$@" 2>&1 </dev/null)
rc=$?
printf '%s\n' "$out"
if [ "$rc" != "$want" ]; then
	echo "host_test.sh: exit status $rc, wanted $want"
	exit 1
fi
if ! printf '%s\n' "$out" | grep -Eq -- "$re"; then
	echo "host_test.sh: no line matches: $re"
	exit 1
fi

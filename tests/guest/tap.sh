# tests/guest/tap.sh - TAP helpers of the in-guest suites, sourced by
# syslog_ns_tests.sh and reliability.sh (installed as /etc/tap.sh).
#
# The suite sets PASS=0 FAIL=0 N=0 and T (a scratch directory) first.
#   ok DESC / not_ok DESC [LINE...]   one TAP line (and comment lines)
#   check DESC COMMAND...             the command's exit status decides
#   expect DESC WANTED COMMAND...     the command's stdout must be WANTED

ok() {
	N=$((N + 1))
	PASS=$((PASS + 1))
	echo "ok $N - $1"
}

not_ok() {
	N=$((N + 1))
	FAIL=$((FAIL + 1))
	echo "not ok $N - $1"
	shift
	# every line commented, so that no "[" line looks like the console
	printf '%s\n' "$@" | sed 's/^/#   /'
}

# check DESCRIPTION COMMAND...: the command's exit status decides.
check() {
	desc=$1
	shift
	if "$@" >$T/check.out 2>&1; then
		ok "$desc"
	else
		not_ok "$desc" "command: $*" "$(head -5 $T/check.out)"
	fi
}

# expect DESCRIPTION WANTED COMMAND...: the command's stdout must be WANTED.
expect() {
	desc=$1
	want=$2
	shift 2
	got=$("$@" 2>$T/expect.err)
	if [ "$got" = "$want" ]; then
		ok "$desc"
	else
		not_ok "$desc" "command: $*" "wanted: $want" "got: $got" \
			"$(head -3 $T/expect.err)"
	fi
}

#!/bin/bash
# kernel-glue/checkpatch.sh - scripts/checkpatch.pl --strict on every patch
# of the series, from the pristine linux-source-6.12 tree.  Prints one line
# per patch; exit status 1 if any patch has an error, a warning or a check,
# or if the library import patch is not libklog/ as it is now.
set -euo pipefail
GLUE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$GLUE/../qemu/lib.sh"
ensure_ksrc
bad=0
# The import patch is libklog/ as it is now, or nothing else is worth it.
"$GLUE/import.sh" --check || bad=1
while read -r p; do
	# /usr/bin first: checkpatch's spdxcheck wants Debian's python3
	out=$(cd "$KSRC" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl \
		--strict --quiet --no-tree "$GLUE/$p" 2>&1) || true
	if [ -n "$out" ]; then
		echo "$p:"
		# shellcheck disable=SC2001 # indents every line, not one match
		echo "$out" | sed 's/^/    /'
		bad=1
	else
		echo "$p: 0 errors, 0 warnings, 0 checks"
	fi
done < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$GLUE/series" | grep -v '^$')
exit "$bad"

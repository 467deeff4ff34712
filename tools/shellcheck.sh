#!/bin/bash
# tools/shellcheck.sh - shellcheck on every shell script of the tree: the
# *.sh files and every other file whose first line runs sh or bash (fuzz
# inputs excluded).  .shellcheckrc, at the top, lets shellcheck follow
# the files the scripts source.  Prints the findings; exits 1 if there is
# any.  A check that is wrong about a line is disabled on that line only,
# with a comment that says why: "# shellcheck disable=SCnnnn # reason".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The tree's files, NUL-separated: git's list in a clone, else find.
files() {
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git ls-files -z
	else
		find . \( -name .git -o -name 'build*' \) -prune -o -type f \
			-printf '%P\0'
	fi
}

scripts=()
while IFS= read -r -d '' f; do
	case $f in
	tests/fuzz/corpus/* | tests/fuzz/regress/*) ;;
	*.sh) scripts+=("$f") ;;
	*)
		if [ -f "$f" ] && head -n 1 -- "$f" |
			grep -qE '^#!(/usr)?/bin/(env )?(ba)?sh([[:space:]]|$)'; then
			scripts+=("$f")
		fi
		;;
	esac
done < <(files)
[ ${#scripts[@]} -gt 0 ] || { echo "shellcheck.sh: no scripts found" >&2; exit 1; }

if shellcheck -- "${scripts[@]}"; then
	echo "shellcheck.sh: ${#scripts[@]} scripts, no findings"
else
	echo "shellcheck.sh: findings above (${#scripts[@]} scripts checked)" >&2
	exit 1
fi

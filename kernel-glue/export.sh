#!/bin/bash
# kernel-glue/export.sh TREE - write kernel-glue/ from a git tree of the
# series: one commit per patch on top of the tag "pristine" (see README.md,
# "Editing the series").
#
#  0. the first commit (the library import) is brought up to date with
#     libklog/ (import.sh --tree, squashed into it);
#  1. every commit of TREE since "pristine" is re-authored with the
#     submitter's git identity (git var GIT_AUTHOR_IDENT: the
#     repository's user.name/user.email unless GIT_AUTHOR_* say
#     otherwise), never a placeholder, and carries its Signed-off-by as
#     the only one (the series has one author);
#  2. the old kernel-glue/[0-9]*.patch are replaced by "git format-patch
#     --cover-letter" of those commits (histogram diffs), the cover
#     letter's text taken from kernel-glue/cover-letter.txt (first line:
#     the subject);
#  3. kernel-glue/series lists the new patches (the cover letter is not
#     a patch and is not listed);
#  4. import.sh --check confirms that the first patch is libklog/.
set -euo pipefail

GLUE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$GLUE/.." && pwd)

die() { printf 'export.sh: error: %s\n' "$*" >&2; exit 1; }

[ $# -eq 1 ] || die "usage: export.sh TREE"
TREE=$(cd "$1" && pwd) || die "no such tree: $1"
git -C "$TREE" rev-parse -q --verify pristine >/dev/null ||
	die "$TREE has no tag \"pristine\""
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "$TREE has uncommitted changes"
id=$(git -C "$REPO" var GIT_AUTHOR_IDENT) ||
	die "no git identity: set user.name and user.email"
id=${id% * *}
name=${id% <*}
email=${id##*<}
email=${email%>}

export GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email
export GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email

# The import commit follows libklog/ as it is now.
first=$(git -C "$TREE" log --reverse --format=%s pristine..HEAD | sed -n 1p)
"$GLUE/import.sh" --tree "$TREE"
if [ -n "$(git -C "$TREE" status --porcelain -- kernel/printk/libklog)" ]; then
	git -C "$TREE" add -f -A kernel/printk/libklog
	git -C "$TREE" commit -q -m "fixup! $first"
	GIT_SEQUENCE_EDITOR=true git -C "$TREE" rebase -q -i --autosquash pristine
fi
# One Signed-off-by, the submitter's, last (the series has one author).
resign='git log -1 --format=%B | grep -v "^Signed-off-by: " | git commit -q --amend --reset-author --cleanup=strip --signoff -F -'
git -C "$TREE" rebase -q --exec "$resign" pristine ||
	die "re-authoring the commits of $TREE failed"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
git -C "$TREE" format-patch -q --diff-algorithm=histogram --full-index \
	--no-signature --cover-letter -o "$out" pristine..HEAD

# The cover letter: subject and text from cover-letter.txt.
cover=$out/0000-cover-letter.patch
subject=$(head -1 "$GLUE/cover-letter.txt")
python3 - "$cover" "$GLUE/cover-letter.txt" "$subject" <<'PY'
import sys
path, text, subject = sys.argv[1:]
s = open(path).read()
body = open(text).read().split("\n", 1)[1].strip("\n")
s = s.replace("*** SUBJECT HERE ***", subject, 1)
s = s.replace("*** BLURB HERE ***", body, 1)
open(path, "w").write(s)
PY

rm -f "$GLUE"/[0-9]*.patch
cp "$out"/*.patch "$GLUE/"
{
	sed -n '/^#/p' "$GLUE/series"
	# shellcheck disable=SC2010 # format-patch's names: [0-9A-Za-z.-]
	(cd "$out" && ls [0-9]*.patch | grep -v '^0000-cover-letter')
} >"$GLUE/series.new"
mv "$GLUE/series.new" "$GLUE/series"
"$GLUE/import.sh" --check
printf 'export.sh: wrote %s patches and the cover letter to kernel-glue/\n' \
	"$(grep -vc '^#' "$GLUE/series")" >&2

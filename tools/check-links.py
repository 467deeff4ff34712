#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""check-links.py [FILE.md...] - every relative link in the docs resolves.

Without arguments, checks every *.md file of the repository (but
build directories and tests/docs/, whose fixtures are broken on
purpose).  A Markdown link [text](target) whose target is not a URL
(scheme:) or a pure #anchor must name a file or directory that exists,
relative to the file that links (an #anchor after it is ignored), and
must stay inside the repository.  Also refuses any mention of
"../shared/", a tree that exists only where the project was written.
Prints one line per broken link and exits 1 if there was any.
"""
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(TOP, 'tests', 'docs')
LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)')


def check(path):
    bad = []
    base = os.path.dirname(os.path.abspath(path))
    with open(path, encoding='utf-8') as f:
        text = f.read()
    # Code blocks and code spans are examples, not links.
    text = re.sub(r'```.*?```', '', text, flags=re.S)
    text = re.sub(r'`[^`\n]*`', '', text)
    for n, line in enumerate(text.split('\n'), 1):
        if '../shared/' in line:
            bad.append(f'{path}: points outside the repository: {line}')
        for m in LINK.finditer(line):
            target = m.group(1)
            if re.match(r'^[a-z][a-z0-9+.-]*:', target) or \
               target.startswith('#'):
                continue
            dest = os.path.normpath(os.path.join(base,
                                                 target.split('#')[0]))
            if not (dest + os.sep).startswith(TOP + os.sep):
                bad.append(f'{path}: {target} leaves the repository')
            elif not os.path.exists(dest):
                bad.append(f'{path}: {target} does not exist')
    return bad


def main():
    files = sys.argv[1:]
    if not files:
        for root, dirs, names in os.walk(TOP):
            dirs[:] = [d for d in dirs
                       if not d.startswith(('.', 'build'))
                       and os.path.join(root, d) != FIXTURES]
            files += [os.path.join(root, n) for n in names
                      if n.endswith('.md')]
        files.sort()
    bad = []
    for f in files:
        bad += check(f)
    for b in bad:
        print(b)
    print(f'check-links.py: {len(files)} files, {len(bad)} broken links')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

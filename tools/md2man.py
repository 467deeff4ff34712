#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""md2man.py IN.md OUT - a man page (roff, man macros) from docs/man/*.md.

The pages in docs/man/ are written in a small subset of Markdown that
maps one to one onto the man macros:

  # NAME(SECTION) - summary      .TH NAME SECTION (the first line)
  ## HEADING                     .SH HEADING
  ### heading                    .SS heading
  ``` ... ```                    .EX/.EE (verbatim, no fill)
  TERM, then ": text" lines      .TP with TERM as the tag
  * item                         .IP \\(bu 2
  | a | b |  (tables)            one .TP per row: the first cell is the
                                 tag, the others the text; the header
                                 row and the |---| line are dropped
  **bold**, *italic*, `code`     \\fB \\fI \\fB
  [text](target)                 text

Anything else is a paragraph (.PP between paragraphs).  Exits 1 naming
the line for what it cannot map (a first line that is not a title, an
unterminated code block), so a page that would render wrong fails the
build instead.
"""
import re
import sys

TITLE = re.compile(r'^# ([A-Za-z0-9_.-]+)\(([0-9][a-z]*)\)(?: - (.*))?$')


def escape(text):
    """Roff-escape plain text (backslashes and hyphens are kept literal)."""
    return text.replace('\\', '\\e').replace('-', '\\-')


def inline(text):
    """Markdown inline markup to roff font changes."""
    out = []
    pos = 0
    pattern = re.compile(r'`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*'
                         r'|\[([^\]]+)\]\(([^)]+)\)')
    for m in pattern.finditer(text):
        out.append(escape(text[pos:m.start()]))
        if m.group(1) is not None:
            out.append('\\fB' + escape(m.group(1)) + '\\fR')
        elif m.group(2) is not None:
            out.append('\\fB' + inline(m.group(2)) + '\\fR')
        elif m.group(3) is not None:
            out.append('\\fI' + inline(m.group(3)) + '\\fR')
        else:
            out.append(inline(m.group(4)))
        pos = m.end()
    out.append(escape(text[pos:]))
    return ''.join(out)


def line_out(text):
    """A text line: a leading . or ' would be read as a request."""
    if text.startswith(('.', "'")):
        return '\\&' + text
    return text


def cells(row):
    """A table row's cells; \\| is a | inside a cell."""
    row = row.strip()
    row = row[1:] if row.startswith('|') else row
    row = row[:-1] if row.endswith('|') and not row.endswith('\\|') else row
    return [c.strip().replace('\\|', '|')
            for c in re.split(r'(?<!\\)\|', row)]


def convert(lines, name):
    m = TITLE.match(lines[0].rstrip('\n')) if lines else None
    if not m:
        sys.exit(f'{name}:1: error: the first line must be '
                 '"# NAME(SECTION) - summary"')
    out = [f'.TH {m.group(1).upper()} {m.group(2)} "" "libklog" '
           '"libklog manual"']
    para = []          # lines of the paragraph being collected
    i = 1

    def flush():
        if para:
            out.append('.PP')
            out.extend(line_out(inline(p)) for p in para)
            para.clear()

    while i < len(lines):
        raw = lines[i].rstrip('\n')
        s = raw.strip()
        if s.startswith('```'):
            flush()
            start = i + 1
            i += 1
            out.append('.PP')
            out.append('.EX')
            while i < len(lines) and not lines[i].startswith('```'):
                out.append(line_out(escape(lines[i].rstrip('\n'))))
                i += 1
            if i == len(lines):
                sys.exit(f'{name}:{start}: error: unterminated code block')
            out.append('.EE')
            i += 1
            continue
        if s.startswith('### '):
            flush()
            out.append('.SS ' + inline(s[4:]))
        elif s.startswith('## '):
            flush()
            out.append('.SH ' + inline(s[3:]).upper())
        elif s.startswith('|'):
            flush()
            rows = []
            while i < len(lines) and lines[i].strip().startswith('|'):
                rows.append(cells(lines[i]))
                i += 1
            # The header row and the |---| line.
            if len(rows) >= 2 and all(re.fullmatch(r':?-+:?', c)
                                      for c in rows[1]):
                rows = rows[2:]
            for r in rows:
                out.append('.TP')
                out.append(line_out(inline(r[0])))
                out.append(line_out(inline(' '.join(r[1:]))))
            continue
        elif s.startswith((': ', '* ')):
            if s.startswith(': '):
                # A definition: the previous paragraph line is its term.
                term = para.pop() if para else ''
                flush()
                out.append('.TP')
                out.append(line_out(inline(term)))
            else:
                flush()
                out.append('.IP \\(bu 2')
            out.append(line_out(inline(s[2:])))
            # Its text goes on in the indented lines that follow.
            i += 1
            while (i < len(lines) and lines[i].startswith('  ')
                   and lines[i].strip()):
                out.append(line_out(inline(lines[i].strip())))
                i += 1
            continue
        elif not s:
            flush()
        else:
            para.append(s)
        i += 1
    flush()
    return '\n'.join(out) + '\n'


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: md2man.py IN.md OUT')
    with open(sys.argv[1], encoding='utf-8') as f:
        lines = f.readlines()
    page = convert(lines, sys.argv[1])
    with open(sys.argv[2], 'w', encoding='utf-8') as f:
        f.write(page)


if __name__ == '__main__':
    main()

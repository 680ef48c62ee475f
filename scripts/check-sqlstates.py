#!/usr/bin/env python3
"""check-sqlstates.py — SQLSTATEs are spelled only in src/base/error.h.

Every SQLSTATE RockLake reports is a named constant of src/base/error.h
(RL_SQLSTATE_*, PostgreSQL's condition names). This fails listing
`src/FILE:LINE: raw SQLSTATE literal "XXXXX" (use RL_SQLSTATE_NAME)` for a
5-character string literal of digits and capitals, at least one a digit,
anywhere else in src/ — except in the files of PENDING, which #17's
conversion left to their owners (they were being changed elsewhere at the
time): a temporary exception, to shrink to nothing. A PENDING file that has
no raw literal left is named in the closing line, to drop from the list.
Run by `make layers` and tests/test_layers.py.

Usage: check-sqlstates.py [--root DIR]
"""
import argparse
import os
import re
import sys

# Files still spelling SQLSTATEs as literals: to convert, then drop from here.
PENDING = set()

LITERAL = re.compile(r'"([0-9A-Z]{5})"')
DEFINE = re.compile(r'#define\s+(RL_SQLSTATE_\w+)\s+"([0-9A-Z]{5})"')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--root', default=os.path.join(os.path.dirname(__file__), '..'))
    args = ap.parse_args()
    src = os.path.join(args.root, 'src')
    with open(os.path.join(src, 'base', 'error.h'), encoding='utf-8') as f:
        names = {code: name for name, code in DEFINE.findall(f.read())}
    problems = []
    clean = []
    every = sorted(os.path.join(d, f) for d in os.listdir(src) if os.path.isdir(os.path.join(src, d))
                   for f in os.listdir(os.path.join(src, d)))
    for fn in every:
        if not fn.endswith(('.c', '.h', '.inc')) or fn == os.path.join('base', 'error.h'):
            continue
        with open(os.path.join(src, fn), encoding='utf-8') as f:
            lines = f.read().split('\n')
        found = 0
        for no, line in enumerate(lines, 1):
            for m in LITERAL.finditer(line):
                code = m.group(1)
                if not re.search(r'[0-9]', code):
                    continue  # a word ("BYTEA", "BEGIN"), not a SQLSTATE
                found += 1
                if fn in PENDING:
                    continue
                hint = names.get(code)
                problems.append(f'src/{fn}:{no}: raw SQLSTATE literal "{code}" ' +
                                (f'(use {hint})' if hint else '(add its constant to error.h)'))
        if fn in PENDING and found == 0:
            clean.append(fn)
    for fn in sorted(PENDING):
        if not os.path.exists(os.path.join(src, fn)):
            problems.append(f'src/{fn}: in PENDING but not in src/')
    for p in problems:
        print(p)
    if problems:
        print(f'sqlstates: {len(problems)} problem(s); the constants: src/base/error.h')
        return 1
    pending = sorted(set(PENDING) - set(clean))
    print('sqlstates: every SQLSTATE outside src/base/error.h is a named constant '
          f'(still pending: {", ".join(pending) or "none"}'
          + (f'; already clean, to drop from PENDING: {", ".join(clean)}' if clean else '') + ')')
    return 0


if __name__ == '__main__':
    sys.exit(main())

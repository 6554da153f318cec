#!/usr/bin/env python3
"""Checks the source layout rule: every top-level type declared in Sources/ lives in a file named
after it (`Name.swift`, or `Name+Concern.swift` for extensions of `Name`). Prints each type that
breaks the rule and exits 1 when there is one. Generated sources are skipped.

Usage: python3 Scripts/check-layout.py   (from the package root)
"""
import os
import re
import sys

DECL = re.compile(
    r'^(?:@[\w()., ]+\s+)*'
    r'(?:(?:public|package|internal|fileprivate|private|open|final|indirect|nonisolated)\s+)*'
    r'(struct|class|enum|protocol|actor)\s+([A-Za-z_][A-Za-z0-9_]*)')


def mismatches(root):
    found = []
    for directory, _, files in os.walk(root):
        if '/Generated' in directory:
            continue
        for name in sorted(files):
            if not name.endswith('.swift'):
                continue
            path = os.path.join(directory, name)
            expected = name[:-len('.swift')].split('+')[0]
            depth = 0
            with open(path, encoding='utf-8') as source:
                for line in source:
                    text = line.rstrip('\n')
                    if depth == 0 and not text.startswith(' '):
                        match = DECL.match(text)
                        if match and match.group(2) != expected:
                            found.append(f'{path}: {match.group(1)} {match.group(2)} belongs in {match.group(2)}.swift')
                    depth += text.count('{') - text.count('}')
    return found


if __name__ == '__main__':
    problems = mismatches('Sources')
    for problem in problems:
        print(problem)
    if problems:
        print(f'{len(problems)} type(s) not in a file of their own name: one primary type per file')
        sys.exit(1)

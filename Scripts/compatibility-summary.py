#!/usr/bin/env python3
"""Recomputes the summary table of Docs/Compatibility.md from its rows: for each `## area`, the
number of table rows marked present, different and missing (sub-sections count toward their
area). Rewrites the table in place; with --check, exits 1 when the table is out of date instead.

Usage: python3 Scripts/compatibility-summary.py [--check]   (from the package root)
"""
import re
import sys

PATH = 'Docs/Compatibility.md'
STATUSES = ('present', 'different', 'missing')


def slug(title):
    return re.sub(r'[^a-z0-9 -]', '', title.lower()).replace(' ', '-')


def main():
    text = open(PATH, encoding='utf-8').read()
    lines = text.split('\n')
    areas = []
    counts = {}
    area = None
    for line in lines:
        if line.startswith('## '):
            area = line[3:].strip()
            if area in ('Summary',):
                area = None
                continue
            areas.append(area)
            counts[area] = dict.fromkeys(STATUSES, 0)
        elif area and line.startswith('|') and not line.startswith('|---'):
            cells = [c.strip() for c in line.strip('|').split('|')]
            if len(cells) >= 2 and cells[1] in STATUSES:
                counts[area][cells[1]] += 1
    areas = [a for a in areas if sum(counts[a].values()) > 0]
    table = ['| area | present | different | missing |', '|---|---:|---:|---:|']
    totals = dict.fromkeys(STATUSES, 0)
    for a in areas:
        c = counts[a]
        table.append(f'| [{a}](#{slug(a)}) | {c["present"]} | {c["different"]} | {c["missing"]} |')
        for s in STATUSES:
            totals[s] += c[s]
    table.append(f'| **total** | **{totals["present"]}** | **{totals["different"]}** | **{totals["missing"]}** |')
    start = lines.index('| area | present | different | missing |')
    end = start
    while end < len(lines) and lines[end].startswith('|'):
        end += 1
    updated = '\n'.join(lines[:start] + table + lines[end:])
    if '--check' in sys.argv:
        if updated != text:
            print(f'{PATH}: the summary table does not match the rows; run python3 Scripts/compatibility-summary.py')
            sys.exit(1)
        return
    open(PATH, 'w', encoding='utf-8').write(updated)
    print('\n'.join(table))


if __name__ == '__main__':
    main()

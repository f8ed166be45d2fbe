#!/usr/bin/env python3
"""Function numbers never change: api/functions.tsv starts with every row
frozen in tests/api/function_numbers.tsv, unchanged and in order (Android's
numbers first: same name, same number), gives no number twice (but the
alias the table declares, Android's own), and, across the whole git history
of the file, no row was ever removed or altered (rows are only appended)."""
import argparse
import subprocess

import gltest as gt

ap = argparse.ArgumentParser()
ap.add_argument('--table', required=True, help='api/functions.tsv')
ap.add_argument('--frozen', required=True, help='tests/api/function_numbers.tsv')
ap.add_argument('--repo', required=True, help='the repository, for the history of the table')
a = ap.parse_args()
ck = gt.Checker('api.function_numbers_append_only')


def rows(text):
    out = []
    for line in text.splitlines():
        if line and not line.startswith('#'):
            name, num = line.split('\t')
            out.append((name, int(num)))
    return out


def first_difference(got, want):
    return next((f'row {i}: {g} where {w} was frozen' for i, (g, w) in enumerate(zip(got, want)) if g != w),
                f'{len(got)} rows, {len(want)} frozen')


table_text = open(a.table).read()
ours = rows(table_text)
frozen = rows(open(a.frozen).read())
ck.check(f'api/functions.tsv starts with the {len(frozen)} frozen rows, unchanged and in order',
         ours[:len(frozen)] == frozen, first_difference(ours, frozen))
print(f'{len(ours) - len(frozen)} rows appended since the last freeze')

# Numbers the table itself declares shared ("#alias N"): Android's own alias.
declared = {int(l.split()[1]) for l in table_text.splitlines() if l.startswith('#alias ')}
seen, twice = {}, []
for name, num in ours:
    if num in seen and num not in declared:
        twice.append(f'number {num} given to both {seen[num]} and {name}')
    seen.setdefault(num, name)
ck.check('no number is given twice but a declared alias', not twice, twice)

# Append-only across history: every version's rows are a prefix of the next.
try:
    revs = subprocess.run(['git', '-C', a.repo, 'log', '--format=%H', '--reverse', '--', 'api/functions.tsv'],
                          capture_output=True, text=True, check=True).stdout.split()
except (OSError, subprocess.CalledProcessError) as e:
    revs = []
    print(f'note: no git history available ({e}); history not checked')
prev, changed = None, []
for rev in revs:
    text = subprocess.run(['git', '-C', a.repo, 'show', f'{rev}:api/functions.tsv'],
                          capture_output=True, text=True).stdout
    cur = rows(text)
    if prev is not None and cur[:len(prev)] != prev:
        changed.append(f'commit {rev[:12]} changed or removed existing rows of api/functions.tsv')
    prev = cur
if prev is not None and ours[:len(prev)] != prev:
    changed.append('the working copy changed or removed rows committed before')
ck.check(f'{len(revs)} committed versions of api/functions.tsv, each only appending to the one before',
         not changed, changed)
ck.exit()

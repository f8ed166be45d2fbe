#!/usr/bin/env python3
"""Function numbers never change: api/functions.tsv keeps Android's numbers
(same name, same number), gives no number twice (but Android's own alias),
and, across the whole git history of the file, no row was ever removed or
altered (rows are only appended)."""
import argparse
import os
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument('--table', required=True)
ap.add_argument('--android', required=True)
ap.add_argument('--repo', required=True)
a = ap.parse_args()


def rows(text):
    out = []
    for line in text.splitlines():
        if line and not line.startswith('#'):
            name, num = line.split('\t')
            out.append((name, int(num)))
    return out


errors = []
table_text = open(a.table).read()
ours = rows(table_text)
# Numbers the table itself declares shared ("#alias N"): Android's own alias.
declared = {int(l.split()[1]) for l in table_text.splitlines() if l.startswith('#alias ')}
by_name = dict(ours)
if os.path.exists(a.android):
    android = rows(open(a.android).read())
    for name, num in android:
        if by_name.get(name) != num:
            errors.append(f'{name}: Android number {num}, ours {by_name.get(name)}')
    android_nums = {n for _, n in android}
    print(f'{len(android)} Android numbers checked')
else:
    print(f'note: {a.android} not present; checking history only')
    android_nums = set()
seen = {}
for name, num in ours:
    if num in seen and num not in android_nums and num not in declared:
        errors.append(f'number {num} given to both {seen[num]} and {name}')
    seen.setdefault(num, name)

# Append-only across history: every version's rows are a prefix of the next.
try:
    revs = subprocess.run(['git', '-C', a.repo, 'log', '--format=%H', '--reverse', '--', 'api/functions.tsv'],
                          capture_output=True, text=True, check=True).stdout.split()
except (OSError, subprocess.CalledProcessError) as e:
    revs = []
    print(f'note: no git history available ({e}); history not checked')
prev = None
for rev in revs:
    text = subprocess.run(['git', '-C', a.repo, 'show', f'{rev}:api/functions.tsv'],
                          capture_output=True, text=True).stdout
    cur = rows(text)
    if prev is not None and cur[:len(prev)] != prev:
        errors.append(f'commit {rev[:12]} changed or removed existing rows of api/functions.tsv')
    prev = cur
if prev is not None and ours[:len(prev)] != prev:
    errors.append('the working copy changed or removed rows committed before')
print(f'{len(ours)} numbers, {len(revs)} committed versions checked')
for e in errors:
    print('FAIL:', e)
sys.exit(1 if errors else 0)

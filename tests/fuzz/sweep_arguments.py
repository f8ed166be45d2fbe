#!/usr/bin/env python3
"""Every function of a trace with its arguments damaged, replayed: for the
first record of each function, four traces (the last argument dropped, one
argument added, none left, the first one repeated so that the others shift
by one) are replayed with `gltrace replay`. A crash or a sanitizer report is
a finding; so is an exit 2 that does not name the file. Too slow for ctest
(four replays per function: check_hostile_traces.py runs a sample), it is
the sweep behind CAMPAIGN.md's argument findings.

usage: sweep_arguments.py GLTRACE TRACE [WORK_DIR]
Prints a line per trace made (function number, damage, exit status, the
last line of stderr) and ends with exit 1 when anything crashed."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from legacy_pb import encode, fields, frame, records  # noqa: E402

gltrace, trace = sys.argv[1:3]
work = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp()
msgs = list(records(subprocess.run(['zstd', '-dcq', trace], capture_output=True, check=True).stdout))


def damaged(fs):
    a = [k for k, (n, _, _) in enumerate(fs) if n == 5]
    if not a:
        return {}
    return {'drop_last': [f for k, f in enumerate(fs) if k != a[-1]],
            'extra': fs + [fs[a[-1]]],
            'none': [f for k, f in enumerate(fs) if k not in a],
            'shifted': fs[:a[0]] + [fs[a[0]]] + fs[a[0]:a[-1]] + fs[a[-1] + 1:]}


seen, crashed = set(), 0
for i, m in enumerate(msgs):
    fs = fields(m)
    fn = next(v for n, _, v in fs if n == 4)
    if fn in seen or 3000 <= fn <= 3999:  # records gltrace adds are not calls (calls go on from 4000)
        continue
    seen.add(fn)
    for what, edited in damaged(fs).items():
        path = os.path.join(work, f'fn{fn}_{what}.legacy')
        open(path, 'wb').write(frame(msgs[:i] + [encode(edited)] + msgs[i + 1:]))
        p = subprocess.run([gltrace, 'replay', path], capture_output=True, text=True, timeout=600)
        bad = p.returncode not in (0, 1, 2) or 'Sanitizer' in p.stderr or 'runtime error' in p.stderr or \
            (p.returncode == 2 and path not in p.stderr)
        crashed += bad
        last = (p.stderr.strip().splitlines() or [''])[-1]
        print(fn, what, p.returncode, 'FINDING' if bad else 'ok', last[:200])
print(f'{len(seen)} functions, {crashed} findings')
sys.exit(1 if crashed else 0)

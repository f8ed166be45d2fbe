#!/usr/bin/env python3
"""The preloaded library never stops the app: an unwritable output, an
unknown mode, or no mode at all leave the app running to its normal end,
with at most one line of ours (prefix 'gltrace:') on stderr."""
import os
import sys
import tempfile

import gltest as gt

lib, gltrace, app = sys.argv[1:4]
ck = gt.Checker('capture.faults_never_stop_the_app')


def run(env_extra, args=('2000',)):
    return gt.run([app, *args], env=gt.gl_env(lib, **env_extra))


with tempfile.TemporaryDirectory() as d:
    # 1. Output in a folder that does not exist.
    r = run({'GLTRACE': '1', 'GLTRACE_OUT': os.path.join(d, 'no', 'such', 'dir', 't.gltrace')})
    ours = gt.lib_lines(r.stderr)
    ck.check('unwritable output: app exits 0', r.returncode == 0, r.stderr)
    ck.check('unwritable output: one message naming the file', len(ours) == 1 and 'no/such/dir' in ours[0], r.stderr)
    ck.check('unwritable output: app output intact', 'calls=8000' in r.stdout, r.stdout)

    # 2. A mode this version does not know.
    r = run({'GLTRACE': 'sometimes', 'GLTRACE_OUT': os.path.join(d, 'x.gltrace')})
    ours = gt.lib_lines(r.stderr)
    ck.check('unknown mode: app exits 0', r.returncode == 0, r.stderr)
    ck.check('unknown mode: one message naming the value', len(ours) == 1 and 'sometimes' in ours[0], r.stderr)
    ck.check('unknown mode: no trace written', not os.path.exists(os.path.join(d, 'x.gltrace')))

    # 3. Preloaded but not asked to trace: silent, no file.
    r = run({'GLTRACE_OUT': os.path.join(d, 'y.gltrace')})
    ck.check('not tracing: app exits 0 and says nothing of ours',
             r.returncode == 0 and 'gltrace:' not in r.stderr, r.stderr)
    ck.check('not tracing: no trace written', not os.path.exists(os.path.join(d, 'y.gltrace')))

    # 4. gltrace record refuses an output it cannot write, before running.
    r = gt.run([gltrace, 'record', '-o', os.path.join(d, 'no', 'x.gltrace'), '--', app, '10'])
    ck.check('record: unwritable -o is exit 2 with the path named',
             r.returncode == 2 and 'no/x.gltrace' in r.stderr and 'calls=' not in r.stdout, r.stderr)

    # 5. gltrace record passes the app's exit status through.
    r = gt.run([gltrace, 'record', '-o', os.path.join(d, 'z.gltrace'), '--', 'sh', '-c', 'exit 7'])
    ck.check('record: the program\'s exit status is ours', r.returncode == 7, r.stderr)
    r = gt.run([gltrace, 'record', '--bogus', '--', app])
    ck.check('record: an unknown option is exit 2 naming it', r.returncode == 2 and '--bogus' in r.stderr, r.stderr)

ck.exit()

#!/usr/bin/env python3
"""A GL process that outlives the process `gltrace record` started (a
browser's GPU process does): record waits for it, up to --linger seconds,
then compacts its trace, which is complete with all 3 frames. With
--linger 0 record does not wait: it says the trace is still being written
and leaves it as it is; the trace is still whole once the child exits."""
import os
import re
import time

import gltest as gt
import modescheck as m

a = m.parse_args('--app')
ck = gt.Checker('outliving process')


def trace_of(d):
    files = [f for f in os.listdir(os.path.join(d, 'traces'))] if os.path.isdir(os.path.join(d, 'traces')) else []
    return os.path.join(d, 'traces', files[0]) if len(files) == 1 else None, files


# Waited for: the child draws for 1.5 s after its parent has gone.
d = m.fresh_dir(a, 'outlives_wait')
r = gt.run([a.gltrace, 'record', '-o', 'traces/', '--', a.app, '1500'], env=gt.gl_env(a.lib), cwd=d)
path, files = trace_of(d)
ck.check('linger: the run exits 0 and leaves one trace', r.returncode == 0 and path is not None, (files, r.stderr))
ck.check('linger: record says it waits for the process still writing', 'waiting up to 10 s' in r.stderr, r.stderr)
ck.check('linger: and then compacts and lists it ("wrote")',
         path is not None and re.search(r'^gltrace: wrote ' + re.escape(path) + r' \(\d+ bytes\)$', r.stderr, re.M),
         r.stderr)
if path:
    info, j = gt.info(a.gltrace, path)
    j = j or {}
    ck.check('linger: the trace is complete, with the child\'s 3 frames, one chunk per thread (compacted)',
             j.get('complete') is True and j.get('frames') == 3 and j.get('chunks') == j.get('threads'),
             info.stdout[:400] + info.stderr)
    rp = gt.run([a.gltrace, 'replay', path], env=gt.gl_env(None))
    ck.check('linger: it replays with its 3 snapshots matched',
             rp.returncode == 0 and (gt.replay_summary(rp.stderr) or (0, 0))[:2] == (3, 3), rp.stdout + rp.stderr)

# Not waited for: --linger 0.
d = m.fresh_dir(a, 'outlives_nowait')
r = gt.run([a.gltrace, 'record', '--linger', '0', '-o', 'traces/', '--', a.app, '1500'], env=gt.gl_env(a.lib), cwd=d)
path, files = trace_of(d)
ck.check('--linger 0: the run exits 0 and says the trace is left as it is',
         r.returncode == 0 and 'left as it is' in r.stderr and 'wrote' not in r.stderr, r.stderr)
deadline = time.time() + 20
while path and time.time() < deadline:
    info, j = gt.info(a.gltrace, path)
    if (j or {}).get('complete'):
        break
    time.sleep(0.2)
ck.check('--linger 0: once the child has exited, its trace is whole (3 frames), not compacted',
         path is not None and (j or {}).get('complete') is True and (j or {}).get('frames') == 3 and
         (j or {}).get('chunks', 0) > (j or {}).get('threads', 0), (files, j))

# A bad value names the flag.
r = gt.run([a.gltrace, 'record', '--linger', 'soon', '--', a.app, '0'], env=gt.gl_env(a.lib), cwd=d)
ck.check('--linger soon: exit 2 naming the flag', r.returncode == 2 and '--linger' in r.stderr, r.stderr)
ck.exit()

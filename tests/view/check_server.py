#!/usr/bin/env python3
"""gltrace view's server, as a hostile page or a user would try it.

Records a sample app (snapshots after every draw, textures), serves it
with `gltrace view` and checks:
  - security: listens on loopback only (a connection to the machine's
    other address is refused), a missing or wrong token is refused, the
    token works from the URL (then as a cookie) and as a header, a Host
    that is not a loopback name is refused (DNS rebinding), `..` and
    encoded traversal reach no file, only GET/HEAD, bad arguments get a
    4xx with a message, and the server lives through all of it;
  - the API agrees with `gltrace dump`: every call's text is dump's line,
    every call's record is dump --json --full's object, frames and
    per-function counts match, snapshots come back as PNGs of the
    recorded size, find/filter finds what grep of dump finds;
  - the index: built beside the trace, reused when fresh, rebuilt when
    the trace changes.

  - debug groups and errors: calls inside glPushDebugGroup groups have
    their depth, the app's glGetError that returned GL_INVALID_ENUM is
    marked with it.

  - a program that never swaps: its frames end at its snapshots (at
    glFinish), as gltrace info counts them.

usage: check_server.py GLTRACE APP WORK_DIR MARKER_APP UNSWAPPED_APP"""
import json
import os
import re
import shutil
import socket
import struct
import sys
import time

import gltest as gt
from viewserver import Server, non_loopback_address, wait_for

gltrace, app, work, marker_app, unswapped_app = sys.argv[1:6]
ck = gt.Checker('view.server')
gt.fresh_dir(work)
trace = os.path.join(work, 'app.gltrace')
r = gt.run([gltrace, 'record', '--fb=draw', '--textures', '-o', trace, '--', app], env=gt.gl_env(headless=True))
if not ck.check('sample app recorded', r.returncode == 0 and os.path.exists(trace), r.stderr[-800:]):
    ck.exit()

# ---- the index
# A program that never swaps: its snapshots (at glFinish) end its frames.
unswapped = os.path.join(work, 'unswapped.gltrace')
r = gt.run([gltrace, 'record', '-o', unswapped, '--', unswapped_app], env=gt.gl_env(headless=True))
p = gt.run([gltrace, 'view', unswapped, '--index'])
idx = json.loads(p.stdout) if p.returncode == 0 else {}
inf = gt.read_info(ck, gltrace, unswapped) if r.returncode == 0 else {}
ck.check('a program that never swaps: the index has its frames as info counts them (ended by snapshots; the calls '
         'after the last one frame more)', r.returncode == 0 and inf.get('frames_end_at') == 'snapshots' and
         inf.get('frames', 0) >= 2 and idx.get('frames') in (inf.get('frames'), inf.get('frames', 0) + 1),
         (r.stderr[-300:], inf, idx))
p = gt.run([gltrace, 'view', trace, '--index'])
idx = json.loads(p.stdout) if p.returncode == 0 else {}
ck.check('view --index builds TRACE.gtview beside the trace', idx.get('built') is True and
         os.path.exists(trace + '.gtview'), (p.returncode, p.stdout, p.stderr))
p = gt.run([gltrace, 'view', trace, '--index'])
ck.check('a second --index reuses it', p.returncode == 0 and json.loads(p.stdout).get('built') is False, p.stdout)
stale = os.path.join(work, 'stale.gltrace')
shutil.copy(trace, stale)
gt.run([gltrace, 'view', stale, '--index'])
with open(stale, 'ab') as f:  # a trace that changed: a skippable zstd frame more
    f.write(struct.pack('<II', 0x184D2A50, 0))
p = gt.run([gltrace, 'view', stale, '--index'])
ck.check('a trace that changed is indexed again', p.returncode == 0 and json.loads(p.stdout).get('built') is True,
         (p.stdout, p.stderr))
with open(trace + '.gtview.bad', 'wb') as f:
    f.write(b'GTVIEWIX' + b'\xff' * 200)
shutil.copy(trace, stale)
os.replace(trace + '.gtview.bad', stale + '.gtview')
p = gt.run([gltrace, 'view', stale, '--index'])
ck.check('a damaged index is rebuilt, not trusted', p.returncode == 0 and json.loads(p.stdout).get('built') is True,
         (p.stdout, p.stderr))
p = gt.run([gltrace, 'view', os.path.join(work, 'missing.gltrace'), '--index'])
ck.check('a missing trace: exit 2 naming it', p.returncode == 2 and 'missing.gltrace' in p.stderr, p.stderr)

s = Server(gltrace, trace)
if not ck.check('gltrace view prints http://127.0.0.1:PORT/?token=HEX', s.ok(), s.url):
    s.stop()
    ck.exit()
try:
    # ---- security
    ip = non_loopback_address()
    if ip:
        try:
            c = socket.create_connection((ip, s.port), timeout=5)
            c.close()
            refused = False
        except OSError:
            refused = True
        ck.check(f'a connection to this machine\'s address {ip} (not loopback) is refused', refused)
    else:
        print('note: this machine has no non-loopback IPv4 address; listening on loopback only is checked '
              'by the Host and peer checks alone')
    st, _, body = s.raw('/api/info', token=False)
    ck.check('no token: 403 with a message', st == 403 and b'token' in body, (st, body))
    st, _, body = s.raw('/api/info?token=' + '0' * 32, token=False)
    ck.check('a wrong token: 403', st == 403 and b'wrong token' in body, (st, body))
    st, _, body = s.raw('/api/info', token=False, headers={'Cookie': f'gt_token_{s.port}=' + s.token[:-1] + 'x'})
    ck.check('a wrong token as a cookie: 403', st == 403, (st, body))
    st, hdr, body = s.raw('/?token=' + s.token, token=False)
    cookie = hdr.get('Set-Cookie', '')
    ck.check('the token in the URL opens the page and sets an HttpOnly SameSite cookie',
             st == 200 and b'<html' in body and 'HttpOnly' in cookie and 'SameSite=Strict' in cookie, (st, hdr))
    st, _, body = s.raw('/api/info', token=False, headers={'Cookie': cookie.split(';')[0]})
    ck.check('the cookie then serves the API', st == 200 and json.loads(body)['calls'] > 0, (st, body))
    ck.check('the page is served with a Content-Security-Policy and no-referrer',
             "default-src 'self'" in hdr.get('Content-Security-Policy', '') and
             hdr.get('Referrer-Policy') == 'no-referrer', hdr)
    for host in ('evil.example', f'evil.example:{s.port}', f'127.0.0.1:{s.port + 1}', f'localhost.evil:{s.port}',
                 '127.0.0.2', ''):
        st, _, body = s.raw('/api/info', host=host)
        ck.check(f'Host {host!r} refused (403)', st == 403 and b'Host' in body, (st, body))
    st, _, body = s.raw('/api/info', host=False)
    ck.check('no Host header: refused', st in (400, 403), (st, body))
    for host in (f'localhost:{s.port}', f'127.0.0.1:{s.port}', f'[::1]:{s.port}', 'localhost'):
        st, _, _ = s.raw('/api/info', host=host)
        ck.check(f'Host {host!r} accepted', st == 200, st)
    for path in ('/../../../../etc/passwd', '/%2e%2e/%2e%2e/%2e%2e/etc/passwd', '/view.js/../../../etc/passwd',
                 '/..%2f..%2f..%2fetc%2fpasswd', '/%2F%2E%2E%2Fetc/passwd', '//etc/passwd', '/data/../../app.gltrace',
                 '/api/state/file?n=0&name=../../../../etc/passwd', '/api/state/file?n=0&name=..%2f..%2fapp.gltrace',
                 '/api/state/file?n=0&name=%2Fetc%2Fpasswd', '/api/image?n=../../etc/passwd',
                 '/api/report/image?k=0&which=../../etc/passwd', '/app.gltrace', '/app.gltrace.gtview'):
        st, _, body = s.raw(path)
        ck.check(f'{path}: 4xx, no file content', 400 <= st < 500 and b'root:' not in body and
                 not body.startswith(b'\x28\xb5\x2f\xfd') and b'GTVIEWIX' not in body, (st, body[:200]))
    st, _, body = s.raw('/api/info', method='POST')
    ck.check('POST: 405', st == 405, (st, body))
    for path, want in (('/api/call?n=abc', 400), ('/api/call?n=99999999999999999999999', 400),
                       ('/api/call?n=18446744073709551615', 400), ('/api/call', 400), ('/api/call?n=999999999', 404),
                       ('/api/calls?from=-1', 400), ('/api/frames?from=99999999&count=99999999', 200),
                       ('/api/calls?from=99999999999&count=1000000', 200), ('/api/find?re=((', 400),
                       # patterns whose compiling or matching takes exponential time (fuzz_view found the first)
                       ('/api/find?re=glDraw' + '%2B' * 60, 400), ('/api/find?re=' + '(' * 30 + 'a' + ')%2B' * 30, 400),
                       ('/api/find?re=(gl)a%5C1', 400), ('/api/find?re=x%7B1000%7D%7B1000%7D', 400),
                       ('/api/find?re=a%7B1,20000%7D', 400), ('/api/find?re=D%2B%2B%2Bx%2B%2B%2B%2B%2B%2B%2B*%2B%2B%2B%2B%2B%2B*', 400),
                       ('/api/find?re=(%5E)%2B%2B%2B%2B%2B', 400), ('/api/find?re=d?%2B%2B%2B%2B%2B%2B%2B%2B%2B%2B%2B', 400),
                       ('/api/find?re=%5B%5B:alpha:%5D%5D%7B1,100%7D%7C(gl)%2Bx*%7C%5EglBind(Texture%7CBuffer)%24', 200),
                       ('/api/find', 400), ('/api/find/status?id=99', 404), ('/api/stats?frame=999999', 404),
                       ('/api/timeline?f0=5&f1=2', 404), ('/api/image?n=1', 404), ('/api/nothing', 404),
                       ('/api/calls?find=77', 404), ('/api/state/file?n=0&name=', 404)):
        st, _, body = s.raw(path)
        msg = json.loads(body).get('error', '') if body.startswith(b'{') else ''
        ck.check(f'{path}: HTTP {want}' + (' with a message' if want != 200 else ''),
                 st == want and (want == 200 or len(msg) > 10), (st, body[:300]))
    long_path = '/api/call?n=' + '9' * 100000
    try:
        st, _, _ = s.raw(long_path)
    except Exception as e:  # the server may drop an oversized request line: it must live on
        st = str(e)
    ck.check('the server lives through all of that', s.alive() and s.api('/api/info')['calls'] > 0, st)

    # ---- the API against gltrace dump
    d = gt.run([gltrace, 'dump', trace])
    lines = d.stdout.rstrip('\n').split('\n')
    full = [json.loads(x) for x in gt.run([gltrace, 'dump', '--json', '--full', trace]).stdout.splitlines()]
    info = s.api('/api/info')
    ck.check('info: as many calls as dump has lines', info['calls'] == len(lines), (info, len(lines)))
    got = []
    for k in range(0, info['calls'], 50):
        got += s.api(f'/api/calls?from={k}&count=50')['calls']
    ck.check('every call\'s text is dump\'s line', [c['text'] for c in got] == lines,
             next(((a['text'], b) for a, b in zip(got, lines) if a['text'] != b), 'lengths differ'))
    bad = []
    for rec in full:
        one = s.api(f'/api/call?n={rec["seq"]}')
        if one['record'] != rec:
            bad.append((rec['seq'], one['record'], rec))
    ck.check('every call\'s record is dump --json --full\'s object', not bad, bad[:1])
    inf = gt.read_info(ck, gltrace, trace)
    frames = s.api('/api/frames?from=0&count=100000')
    ck.check('frames: as many as gltrace info counts (swaps, and the calls after the last)',
             frames['total'] in (inf.get('frames'), inf.get('frames', 0) + 1), (frames['total'], inf.get('frames')))
    ck.check('the frames cover every call once, in order',
             sum(f['calls'] for f in frames['frames']) == len(lines) and
             all(a['last'] + 1 == b['first'] for a, b in zip(frames['frames'], frames['frames'][1:])), frames)
    counts = {}
    for x in full:
        counts[x['fn']] = counts.get(x['fn'], 0) + 1
    st_all = s.api('/api/stats')
    ck.check('per-function counts of the whole trace match dump',
             {f['fn']: f['count'] for f in st_all['functions']} == counts, st_all['functions'][:5])
    draws = [x for x in full if x['fn'].startswith('glDraw')]
    ck.check('the draws are flagged', all(s.api(f'/api/call?n={x["seq"]}').get('draw') for x in draws) and draws,
             len(draws))
    snaps = [x for x in full if 'fb' in x]
    pngs_ok = []
    for x in snaps[:6]:
        st, hdr, body = s.raw(f'/api/image?n={x["seq"]}')
        w, h = struct.unpack('>II', body[16:24]) if body[:8] == b'\x89PNG\r\n\x1a\n' else (0, 0)
        pngs_ok.append(st == 200 and hdr.get('Content-Type') == 'image/png' and (w, h) == (x['fb']['width'], x['fb']['height']))
        st, _, body = s.raw(f'/api/image?n={x["seq"]}&thumb=1')
        pngs_ok.append(st == 200 and body[:4] == b'\x89PNG')
    ck.check('snapshots come back as PNGs of the recorded size, thumbnails too', snaps and all(pngs_ok), pngs_ok)
    drawn = s.api(f'/api/call?n={draws[0]["seq"]}')
    ck.check('a draw names the snapshot recorded after it', drawn['images'] and
             any(x['seq'] == drawn['images'][0] for x in snaps), drawn.get('images'))

    # find and filter: the patterns against dump's text, several at once
    def search(q):
        sid = s.api('/api/find?' + q)['id']
        stt = wait_for(lambda: (lambda j: j if j['done'] else None)(s.api(f'/api/find/status?id={sid}')))
        return sid, stt
    sid, stt = search('re=glDraw&re=GL_TRIANGLES&all=1')
    want = [int(x.split(' ')[0]) for x in lines if re.search('glDraw', x.split(' ', 1)[1]) and 'GL_TRIANGLES' in x]
    page = s.api(f'/api/calls?find={sid}&from=0&count=1000')
    ck.check('filter with two patterns (all): the calls grep of dump finds', stt and stt['matches'] == len(want) and
             [c['seq'] for c in page['calls']] == want, (stt, want, [c['seq'] for c in page['calls']]))
    sid, stt = search('re=^glBindTexture&re=^glClear%5C(')
    want = [int(x.split(' ')[0]) for x in lines if re.match(r'glBindTexture|glClear\(', x.split(' ', 1)[1])]
    nxt = s.api(f'/api/find/next?id={sid}&from={want[0]}')
    prv = s.api(f'/api/find/next?id={sid}&from={want[1]}&back=1')
    ck.check('find (any of two patterns): next and previous match', stt['matches'] == len(want) and
             nxt['seq'] == want[1] and prv['seq'] == want[0], (stt, want, nxt, prv))
    # a page filters with one search and finds with another: both answer
    fsid = s.api('/api/find?re=glDraw')['id']
    page2 = s.api(f'/api/calls?find={fsid}&from=0&count=1000')
    page1 = s.api(f'/api/calls?find={sid}&from=0&count=1000')
    ck.check('two searches at once: the older still pages after the newer starts',
             [c['seq'] for c in page1['calls']] == want and
             all(c['fn'].startswith('glDraw') for c in page2['calls']), (page1, page2))
    for _ in range(8):  # the server keeps eight: the one least recently asked about goes
        s.api('/api/find?re=glClear')
    st, _, body = s.raw(f'/api/calls?find={fsid}&from=0&count=10')
    ck.check('past eight searches the least recently used is gone, with a 404 saying so', st == 404 and
             b'no search' in body, (st, body[:300]))
    loc = s.api(f'/api/locate?n={want[1]}')
    ck.check('locate: a call\'s position and frame', got[loc['pos']]['seq'] == want[1] and
             loc['frame'] == got[loc['pos']]['frame'], loc)
    tl = s.api('/api/timeline?f0=1&f1=1')
    f1 = frames['frames'][1]
    ck.check('timeline of a frame: one entry per call, times from the frame start',
             len(tl['t']) == f1['calls'] and tl['t'][0] == got[f1['pos']]['t'] - f1['t0'] and tl['lanes'], tl)
finally:
    rc, err = s.stop()
ck.check('the server stops on SIGTERM with exit 0', rc == 0, (rc, err[-500:]))

# ---- --open: $BROWSER gets the URL; with no browser at all, a clear message
opened = os.path.join(work, 'opened.txt')
fake = os.path.join(work, 'browser.sh')
with open(fake, 'w') as f:
    f.write(f'#!/bin/sh\necho "$1" > {opened}\n')
os.chmod(fake, 0o755)
env = dict(os.environ, BROWSER=fake)
s = Server(gltrace, trace, '--open', env=env)
try:
    ck.check('--open runs $BROWSER with the URL (token included)',
             wait_for(lambda: os.path.exists(opened) and open(opened).read().strip() == s.url, 20), s.url)
finally:
    s.stop()
env = {k: v for k, v in os.environ.items() if k != 'BROWSER'}
env['PATH'] = os.path.join(work, 'empty-path')
s = Server(gltrace, trace, '--open', env=env)
rc, err = s.stop()
ck.check('--open with no browser to run: says so and keeps serving', s.ok() and 'no browser' in err and rc == 0,
         (s.url, rc, err))

# ---- a trace of many chunks (as capture wrote it), read back in reverse:
# every call found by seeking to its frame
raw = os.path.join(work, 'raw.gltrace')
r = gt.run([gltrace, 'record', '--no-compact', '--fb=draw', '-o', raw, '--', app], env=gt.gl_env(headless=True))
rfull = [json.loads(x) for x in gt.run([gltrace, 'dump', '--json', '--full', raw]).stdout.splitlines()]
s = Server(gltrace, raw)
try:
    bad = [x['seq'] for x in reversed(rfull) if s.api(f'/api/call?n={x["seq"]}')['record'] != x]
    ck.check('a trace as capture wrote it (a chunk per swap): every call read back in reverse order is dump\'s',
             r.returncode == 0 and rfull and not bad, (r.returncode, bad[:5]))
finally:
    s.stop()

# ---- debug groups and the app's GL errors
mtrace = os.path.join(work, 'marker.gltrace')
r = gt.run([gltrace, 'record', '-o', mtrace, '--', marker_app], env=gt.gl_env(headless=True))
if ck.check('marker_app recorded', r.returncode == 0, r.stderr[-800:]):
    s = Server(gltrace, mtrace)
    try:
        calls = s.api('/api/calls?from=0&count=1000')['calls']
        depth = {}
        for c in calls:
            if c['fn'] in ('glClear', 'glDrawArrays', 'glPushDebugGroup', 'glPopDebugGroup', 'glGetError'):
                depth.setdefault(c['fn'], []).append(c['depth'])
        ck.check('debug-group depth: pushes at 0 and 1, clear and first draw at 2, second draw at 1, pops at 1 and 0',
                 depth == {'glPushDebugGroup': [0, 1] * 2, 'glClear': [2, 2], 'glDrawArrays': [2, 1] * 2,
                           'glPopDebugGroup': [1, 0] * 2, 'glGetError': [0, 0]}, depth)
        errs = [(c['fn'], c.get('error')) for c in calls if c.get('error')]
        ck.check('the glGetError calls that returned GL_INVALID_ENUM are marked with it',
                 errs == [('glGetError', 'GL_INVALID_ENUM')] * 2, errs)
        pushes = [c for c in calls if c.get('push')]
        ck.check('the pushes are flagged, their labels in the text', len(pushes) == 4 and
                 '"scene"' in pushes[0]['text'] and '"opaque"' in pushes[1]['text'], [p['text'] for p in pushes])
    finally:
        s.stop()

# ---- a replay report given on the command line, its images in replay's --out
rdir = os.path.join(work, 'replay')
r = gt.run([gltrace, 'replay', trace, '--json', os.path.join(work, 'r.json'), '--out', rdir, '--save-all'],
           env=gt.gl_env(headless=True))
s = Server(gltrace, trace, '--report', os.path.join(work, 'r.json'), '--images', rdir)
try:
    rep = s.api('/api/report')
    want = json.load(open(os.path.join(work, 'r.json')))
    ck.check('/api/report: the report as replay wrote it', rep['status'] == 'done' and rep['report'] == want,
             rep.get('status'))
    st, hdr, body = s.raw('/api/report/image?k=0&which=expected')
    ck.check('/api/report/image: result 0\'s expected PNG, byte for byte', st == 200 and
             body == open(os.path.join(rdir, want['results'][0]['expected_png']), 'rb').read(), (st, body[:200]))
    st, _, body = s.raw('/api/report/image?k=99999&which=actual')
    ck.check('a result the report does not have: 404 with a message', st == 404 and b'result 99999' in body, body)
finally:
    rc, err = s.stop()
ck.check('the server stops on SIGTERM with exit 0', rc == 0, (rc, err[-500:]))
ck.exit()

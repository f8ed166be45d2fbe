#!/usr/bin/env python3
"""gltrace view's page in headless Chromium, driven through chromedriver
(W3C WebDriver, tests/view/webdriver.py), as a user would use it:

  - a sample app's trace (snapshots after every draw, textures): the film
    strip shows thumbnails; clicking a frame selects its first call;
    clicking a draw shows its arguments and its snapshot; a filter (two
    patterns) leaves only the matching calls; find next lands on a match;
    the URL (deep link) opened again shows the same frame, call and
    filter; the state panel at a draw shows the bound texture's image;
    stats sort; the timeline draws and zooms with W; a replay asked from
    the page shows expected and actual images side by side;
  - the folder written by --export, opened from file://, shows the same
    call with the same arguments and snapshot, and filters;
  - a glmark2-es2 recording (when glmark2-es2 and Xvfb are installed):
    a frame and a draw with its snapshot.
Screenshots are kept in WORK_DIR as test artifacts. Exit 77 (skipped)
when chromium or chromedriver is missing, saying so.

  - a trace with debug groups: the Tree tab nests the draws under them
    and marks the app's GL error.

usage: check_page.py GLTRACE APP WORK_DIR MARKER_APP"""
import atexit
import os
import shutil
import sys

import gltest as gt
import webdriver as wd
from viewserver import Server

gltrace, app, work, marker_app = sys.argv[1:5]
chromium, driver, why = wd.find_browser()
if why:
    print('skipped: ' + why)
    sys.exit(77)
ck = gt.Checker('view.page')
gt.fresh_dir(work)
trace = os.path.join(work, 'app.gltrace')
r = gt.run([gltrace, 'record', '--fb=draw', '--textures', '-o', trace, '--', app], env=gt.gl_env(headless=True))
if not ck.check('sample app recorded', r.returncode == 0 and os.path.exists(trace), r.stderr[-800:]):
    ck.exit()
full = [__import__('json').loads(x) for x in gt.run([gltrace, 'dump', '--json', '--full', trace]).stdout.splitlines()]
draws = [x for x in full if x['fn'].startswith('glDraw')]
shot_no = [0]


def shot(b, name):
    shot_no[0] += 1
    path = os.path.join(work, f'{shot_no[0]:02d}-{name}.png')
    b.screenshot(path)
    print('screenshot: ' + path)


def text(b, css):
    return b.js('const e = document.querySelector(arguments[0]); return e ? e.textContent : null;', css)


def selected(b):
    return b.js('return S.call;')


def wait_detail(b, seq):
    return b.wait(f'S.detail && S.detail.seq === {seq} && document.querySelector("#detail h3")', what=f'call {seq} shown')


def snapshot_shown(b):
    """(width, height) of the first image the viewer shows, or None."""
    return b.wait('(() => { const c = document.querySelector("#v-images canvas");'
                  ' return c && !document.getElementById("viewer").classList.contains("hidden") ? [c.width, c.height] : null; })()',
                  what='a snapshot in the image viewer')


def check_draw(b, where, draw):
    """Goes to draw `draw` (a dump --json --full record) by its number and
    clicks its row."""
    b.type('#goto-call', f'{draw["seq"]}\ue007')
    b.wait(f'document.querySelector(\'.row[data-seq="{draw["seq"]}"]\')', what=f'row of call {draw["seq"]}')
    b.click(f'.row[data-seq="{draw["seq"]}"]')
    wait_detail(b, draw['seq'])
    detail = text(b, '#detail')
    args_ok = all(k in detail for k in draw['args']) and str(draw['args'].get('mode', '')) in detail
    ck.check(f'{where}: clicking draw {draw["seq"]} shows {draw["fn"]} with its arguments',
             draw['fn'] in text(b, '#detail h3') and args_ok, detail[:500])
    snap = next(x for x in full_of[where] if x['seq'] > draw['seq'] and 'fb' in x)
    size = snapshot_shown(b)
    ck.check(f'{where}: its snapshot is shown at the recorded size', size == [snap['fb']['width'], snap['fb']['height']],
             (size, snap['fb']))


full_of = {'server': full, 'export': full}
b = wd.Browser(chromium, driver)
atexit.register(b.quit)  # a failure that raises must not leave the browser running
s = Server(gltrace, trace)
try:
    ck.check('server started', s.ok(), s.url)
    b.get(s.url)
    b.wait('document.body.dataset.ready', what='the first view')
    thumbs = b.wait('(() => { const i = [...document.querySelectorAll(".frame img")];'
                    ' return i.length && i.every((x) => x.complete && x.naturalWidth > 0) ? i.length : 0; })()',
                    what='thumbnails loaded')
    ck.check('the film strip shows a thumbnail per frame with a snapshot', thumbs >= 3, thumbs)
    shot(b, 'first-view')
    rows = b.js('return document.querySelectorAll(".row").length;')
    ck.check('the call list has only the visible rows in the page', 0 < rows < len(full) + 1 and rows < 100, rows)

    # a frame
    b.click('.frame[data-frame="1"]')
    frames = s.api('/api/frames?from=0&count=10')['frames']
    b.wait(f'S.call === {frames[1]["first"]}', what='frame 1 selected')
    ck.check('clicking frame 1 selects its first call', selected(b) == frames[1]['first'] and
             b.js('return document.querySelector(".frame.sel").dataset.frame') == '1')
    # a draw of frame 1 and its snapshot
    d1 = next(x for x in draws if frames[1]['first'] <= x['seq'] <= frames[1]['last'])
    check_draw(b, 'server', d1)
    shot(b, 'draw-and-snapshot')
    # state at the draw: the bound texture
    b.click('#state-btn')
    img = b.wait('(() => { const i = [...document.querySelectorAll("#state-textures img")];'
                 ' return i.length && i.every((x) => x.complete && x.naturalWidth > 0) ? i[0].title : null; })()',
                 timeout=120, what='the state panel\'s texture images')
    cap = text(b, '#state-textures figcaption') or ''
    bound = [x for x in full if x['fn'] == 'glBindTexture' and x['seq'] < d1['seq']]
    ck.check('the state panel shows the bound texture (its image, its name as the trace knows it)',
             img and img.startswith('texture-') and bound and f'texture {bound[-1]["args"]["texture"]} ' in cap,
             (img, cap, bound[-1:] if bound else None))
    shot(b, 'state-panel')

    # filter with two patterns
    b.type('#filter', 'glDraw && GL_TRIANGLES\ue007')
    want = [x['seq'] for x in draws if 'GL_TRIANGLES' in str(x['args'])]
    b.wait(f'S.total === {len(want)} && document.querySelectorAll(".row").length === {len(want)}',
           what='the filtered list')
    seqs = b.js('return [...document.querySelectorAll(".row")].map((r) => +r.dataset.seq);')
    ck.check('filter "glDraw && GL_TRIANGLES" leaves exactly the matching calls', seqs == want, (seqs, want))
    shot(b, 'filter')
    b.type('#filter', '\ue007')
    b.wait(f'S.total === {len(full)}', what='the filter cleared')

    # find
    binds = [x['seq'] for x in full if x['fn'] == 'glBindFramebuffer' and x['args']['target'] == 'GL_READ_FRAMEBUFFER']
    b.js('S.call = null;')
    b.type('#find', 'glBindFramebuffer\\(target = GL_READ\ue007')
    b.wait(f'S.call === {binds[0]}', what='the first match')
    b.click('#find-next')
    b.wait(f'S.call === {binds[1]}', what='the next match')
    b.click('#find-prev')
    b.wait(f'S.call === {binds[0]}', what='the previous match')
    ck.check('find next and previous walk the matching glBindFramebuffer calls', selected(b) == binds[0])
    shot(b, 'find')

    # deep link: the same view again
    b.type('#filter', 'glDraw\ue007')
    b.wait(f'S.total === {len(draws)} && document.querySelector(\'.row[data-seq="{draws[-1]["seq"]}"]\')',
           what='filter glDraw')
    b.click(f'.row[data-seq="{draws[-1]["seq"]}"]')
    wait_detail(b, draws[-1]['seq'])
    link = b.js('return location.href;')
    b.get('about:blank')
    b.get(link)
    b.wait('document.body.dataset.ready', what='the deep link\'s view')
    wait_detail(b, draws[-1]['seq'])
    ck.check('the deep link reopens the same call, frame and filter',
             selected(b) == draws[-1]['seq'] and b.js('return S.frame;') == draws[-1].get('frame', b.js('return S.frame;'))
             and b.js('return document.getElementById("filter").value;') == 'glDraw' and
             b.js('return S.total;') == len(draws), link)
    ck.check('... with the call\'s row selected in the list',
             b.wait(f'document.querySelector(\'.row.sel[data-seq="{draws[-1]["seq"]}"]\')', what='selected row'))
    shot(b, 'deep-link')

    # stats, timeline
    b.click('#tabs button[data-tab="stats"]')
    n = b.wait('document.querySelectorAll("#stats-table tr").length', what='stats')
    b.click('#stats-table th:nth-child(2)')
    counts = b.wait('(() => { const r = [...document.querySelectorAll("#stats-table tr")].slice(1);'
                    ' return r.length ? r.map((x) => +x.children[1].textContent) : null; })()', what='sorted stats')
    ck.check('the stats table lists the frame\'s functions, sortable by count',
             n > 2 and counts == sorted(counts, reverse=True), counts)
    shot(b, 'stats')
    b.click('#tabs button[data-tab="timeline"]')
    b.wait('TL.data', what='timeline data')
    span = b.js('return TL.b - TL.a;')
    b.keys('w')
    ck.check('the timeline draws a frame and W zooms in', b.js('return TL.b - TL.a;') < span, span)
    shot(b, 'timeline')
    # replay on request: expected and actual side by side, flicker
    b.click('#tabs button[data-tab="report"]')
    b.wait('document.getElementById("replay-btn")', what='the report tab')
    b.click('#replay-btn')
    n = b.wait('document.querySelectorAll("#tab-report tr").length', timeout=180, what='the replay\'s results')
    ck.check('replay from the page: one row per compared snapshot',
             n == len([x for x in full if x['fn'] == 'gltraceSnapshot']), n)
    b.click('#tab-report tr')
    shown = b.wait('(() => { const f = [...document.querySelectorAll("#v-images figcaption")].map((x) => x.textContent);'
                   ' return f.length >= 2 ? f : null; })()', what='expected and actual images')
    ck.check('a result shows expected and actual side by side, with a flicker toggle',
             shown[0].startswith('expected') and shown[1].startswith('actual') and
             b.js('return !document.getElementById("v-flicker-l").classList.contains("hidden");'), shown)
    shot(b, 'report')
    b.click('#tabs button[data-tab="calls"]')
finally:
    s.stop()

# ---- the exported folder from file://
out = os.path.join(work, 'export')
p = gt.run([gltrace, 'view', trace, '--export', out])
ck.check('--export writes a folder', p.returncode == 0 and os.path.exists(os.path.join(out, 'index.html')),
         (p.returncode, p.stderr))
try:
    b.get('file://' + os.path.abspath(out) + '/index.html#frame=1')
    b.wait('document.body.dataset.ready', what='the exported page')
    ck.check('the exported page runs from file:// as an export', b.js('return !!GT_EXPORT_INFO;'))
    thumbs = b.wait('(() => { const i = [...document.querySelectorAll(".frame img")];'
                    ' return i.length && i.every((x) => x.complete && x.naturalWidth > 0) ? i.length : 0; })()',
                    what='thumbnails from disk')
    ck.check('its film strip shows the thumbnails', thumbs >= 3, thumbs)
    check_draw(b, 'export', d1)
    shot(b, 'export-draw')
    b.type('#filter', 'glDraw\ue007')
    b.wait(f'S.total === {len(draws)} && document.querySelectorAll(".row").length === {len(draws)}',
           what='the export\'s filtered list')
    ck.check('the export filters too', b.js('return [...document.querySelectorAll(".row")].map((r) => +r.dataset.seq);') ==
             [x['seq'] for x in draws])
    shot(b, 'export-filter')
except wd.WebDriverError as e:
    ck.check('the exported folder opens from file://', False, str(e))

# ---- debug groups in the call tree
mtrace = os.path.join(work, 'marker.gltrace')
r = gt.run([gltrace, 'record', '-o', mtrace, '--', marker_app], env=gt.gl_env(headless=True))
if ck.check('marker_app recorded', r.returncode == 0, r.stderr[-800:]):
    s = Server(gltrace, mtrace)
    try:
        b.get(s.url + '#frame=0&tab=tree')
        b.wait('document.body.dataset.ready', what='the marker trace')
        tree = b.wait('(() => { const d = [...document.querySelectorAll("#tab-tree li.draw")];'
                      ' return d.length ? d.map((li) => { const up = []; let p = li.parentElement.closest("li");'
                      ' while (p) { up.push(p.firstChild.textContent); p = p.parentElement.closest("li"); }'
                      ' return up.map((t) => t.replace(/^\\d+ /, "").slice(0, 30)); }) : null; })()', what='the tree')
        ck.check('the tree nests the first draw under "opaque" under "scene", the second under "scene"',
                 len(tree) == 2 and tree[0][0].startswith('▾ opaque') and tree[0][1].startswith('▾ scene') and
                 tree[1][0].startswith('▾ scene') and tree[0][-1].startswith('context'), tree)
        err = b.js('return [...document.querySelectorAll("#tab-tree li.error")].map((x) => x.textContent);')
        ck.check('the glGetError that returned an error is marked in the tree', len(err) == 1 and 'glGetError' in err[0],
                 err)
        shot(b, 'tree')
    finally:
        s.stop()

# ---- glmark2-es2
glmark2 = shutil.which('glmark2-es2')
if not glmark2 or not shutil.which('Xvfb'):
    print('note: glmark2-es2 or Xvfb is not installed (ci/setup.sh installs both): no glmark2 recording checked')
else:
    xvfb, display, _ = gt.start_xvfb()
    gtrace = os.path.join(work, 'glmark2.gltrace')
    try:
        r = gt.run([gltrace, 'record', '--fb=draw', '-o', gtrace, '--', glmark2, '--size', '160x120', '-b',
                    'texture:duration=0.3', '-b', 'shading:shading=phong:duration=0.3'],
                   env=gt.gl_env(DISPLAY=display or ''), timeout=300)
    finally:
        if xvfb:
            xvfb.terminate()
            xvfb.wait()
    if ck.check('glmark2-es2 recorded under Xvfb', r.returncode == 0 and os.path.exists(gtrace), r.stderr[-800:]):
        gfull = [__import__('json').loads(x) for x in gt.run([gltrace, 'dump', '--json', '--full', gtrace]).stdout.splitlines()]
        full_of['glmark2'] = gfull
        s = Server(gltrace, gtrace)
        try:
            b.get(s.url)
            b.wait('document.body.dataset.ready', what='glmark2\'s first view')
            gframes = s.api('/api/frames?from=0&count=100')['frames']
            f = next(x for x in gframes[5:] if x['draws'])
            b.js(f'selectFrame({f["n"]}, true);')
            b.wait(f'S.call === {f["first"]}', what='a glmark2 frame')
            gdraw = next(x for x in gfull if x['fn'].startswith('glDraw') and f['first'] <= x['seq'] <= f['last'])
            check_draw(b, 'glmark2', gdraw)
            shot(b, 'glmark2-draw')
        finally:
            s.stop()
ck.exit()

#!/usr/bin/env python3
"""Numbers of gltrace view on one trace (view/README.md quotes them):
index build time against `gltrace dump` reading the same trace, the
server's first answers, the page's first view in headless Chromium
(when chromium and chromedriver are installed), a page of calls from the
middle and the end, a find over the whole trace, and the server's
resident memory against the trace's size.

usage: view/measure.py GLTRACE TRACE   (the trace's index is rebuilt)"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'view'))
import webdriver as wd  # noqa: E402
from viewserver import Server  # noqa: E402

gltrace, trace = sys.argv[1:3]
out = {'trace_bytes': os.path.getsize(trace), 'load': open('/proc/loadavg').read().split()[:3]}


def timed(argv, **kw):
    t = time.monotonic()
    p = subprocess.run(argv, stdout=subprocess.DEVNULL if kw.pop('quiet', False) else subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, **kw)
    return time.monotonic() - t, p


def rss_kb(pid):
    for line in open(f'/proc/{pid}/status'):
        if line.startswith('VmRSS:'):
            return int(line.split()[1])
    return None


for f in (trace + '.gtview',):
    if os.path.exists(f):
        os.unlink(f)
t, p = timed([gltrace, 'view', trace, '--index'])
idx = json.loads(p.stdout)
out['calls'], out['frames'] = idx['calls'], idx['frames']
out['index_seconds'] = round(t, 2)
out['index_bytes'] = os.path.getsize(idx['index'])
t, p = timed([gltrace, 'view', trace, '--index'])
out['index_reopen_seconds'] = round(t, 3)
t, _ = timed([gltrace, 'dump', trace], quiet=True)
out['dump_seconds'] = round(t, 2)

t0 = time.monotonic()
s = Server(gltrace, trace)
out['server_listening_seconds'] = round(time.monotonic() - t0, 3)
try:
    t0 = time.monotonic()
    s.api('/api/info')
    s.api('/api/frames?from=0&count=500')
    s.api('/api/calls?from=0&count=100')
    out['first_view_api_seconds'] = round(time.monotonic() - t0, 3)
    for name, pos in (('middle', idx['calls'] // 2), ('end', idx['calls'] - 100)):
        t0 = time.monotonic()
        s.api(f'/api/calls?from={pos}&count=100')
        out[f'calls_page_{name}_seconds'] = round(time.monotonic() - t0, 3)
    t0 = time.monotonic()
    s.api(f'/api/calls?from={idx["calls"] // 2 + 100}&count=100')
    out['calls_next_page_seconds'] = round(time.monotonic() - t0, 3)
    out['server_rss_kb_after_paging'] = rss_kb(s.proc.pid)
    chromium, driver, why = wd.find_browser()
    if not why:
        b = wd.Browser(chromium, driver)
        try:
            t0 = time.monotonic()
            b.get(s.url)
            b.wait('document.body.dataset.ready', timeout=120)
            out['page_first_view_seconds'] = round(time.monotonic() - t0, 3)
            t0 = time.monotonic()
            b.js(f'scrollToPos({idx["calls"] - 50});')
            b.wait(f'[...document.querySelectorAll(".row")].some((r) => +r.dataset.seq >= {idx["calls"] - 60})', timeout=60)
            out['page_jump_to_end_seconds'] = round(time.monotonic() - t0, 3)
        finally:
            b.quit()
    t0 = time.monotonic()
    fid = s.api('/api/find?re=glDrawArrays%5C(mode%20%3D%20GL_TRIANGLES')['id']
    while True:
        st = s.api(f'/api/find/status?id={fid}')
        if st['done']:
            break
        time.sleep(0.5)
    out['find_whole_trace_seconds'] = round(time.monotonic() - t0, 2)
    out['find_matches'] = st['matches']
    out['server_rss_kb_after_find'] = rss_kb(s.proc.pid)
finally:
    s.stop()
print(json.dumps(out, indent=1))

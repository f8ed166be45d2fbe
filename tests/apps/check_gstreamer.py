#!/usr/bin/env python3
"""A GStreamer GL pipeline, recorded as a user records it: Debian's
gst-launch-1.0 with gltestsrc, glcolorconvert, gleffects and glimagesink
(GLES 2 through EGL, in an X window under Xvfb) under `gltrace record`.
Every frame draws into framebuffer objects (each element's output texture)
and then into the window from a thread of GStreamer's own. The trace must
replay with every snapshot matched; three frames trimmed out of it at a
third and near its end must replay exactly on the first try, with the
state commands a later one replaced left out of their setups, and the
frames a later one repeats (every second frame repeats: two output
textures in turn), so that their setups do not grow with the start.
A second pipeline uploads video (videotestsrc, glupload: each buffer
written into a mapped pixel buffer of a pool that maps two at once, then
copied into a texture) and mixes two streams (gltransformation,
glvideomixer): more than 64 mappings in all, each buffer mapped again and
again. Its trace must replay with every snapshot matched, and its trims
must replay exactly on the first try and stay small (each pool buffer's
last whole write kept, the earlier ones left out), their setups not
growing with the start. A third reads every frame back into system
memory (gldownload: glReadPixels into pixel pack buffers): its trims too
must replay exactly on the first try without their setups growing.
Exit 77 only when GStreamer's tools or GL plugins or xvfb-run are not
installed (ci/setup.sh installs them), saying which."""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

import gltest as gt

p = argparse.ArgumentParser()
p.add_argument('--gltrace', required=True)
p.add_argument('--dir', required=True)
a = p.parse_args()

for tool in ('gst-launch-1.0', 'gst-inspect-1.0', 'xvfb-run'):
    if not shutil.which(tool):
        print(f'SKIP: {tool} is not installed (ci/setup.sh installs gstreamer1.0-tools, gstreamer1.0-gl, xvfb)')
        sys.exit(77)
for element in ('gltestsrc', 'gleffects', 'glimagesink', 'glupload', 'gltransformation', 'glvideomixer',
                'gldownload'):
    if subprocess.run(['gst-inspect-1.0', element], capture_output=True).returncode != 0:
        print(f'SKIP: GStreamer has no {element} element (ci/setup.sh installs gstreamer1.0-gl)')
        sys.exit(77)

BUFFERS = 120
work = gt.fresh_dir(os.path.join(a.dir, 'gstreamer'))
ck = gt.Checker('gstreamer')
env = dict(os.environ, GST_GL_PLATFORM='egl', GST_GL_API='gles2', GST_GL_WINDOW='x11')
pipeline = ['gst-launch-1.0', '-q', 'gltestsrc', f'num-buffers={BUFFERS}', 'pattern=mandelbrot', '!',
            'video/x-raw(memory:GLMemory),width=160,height=120', '!', 'glcolorconvert', '!',
            'gleffects', 'effect=twirl', '!', 'glimagesink', 'sync=false']
r = gt.run(['xvfb-run', '-a', '-s', '-screen 0 640x480x24', a.gltrace, 'record', '-o',
            os.path.join(work, 'gst-%p.gltrace'), '--', *pipeline], env=env, timeout=300)
traces = glob.glob(os.path.join(work, 'gst-*.gltrace'))
ck.check(f'gst-launch-1.0 ran its {BUFFERS} buffers through the pipeline and left one trace (exit 0)',
         r.returncode == 0 and len(traces) == 1, (r.returncode, traces, r.stderr[-800:]))
if len(traces) != 1:
    ck.exit()
trace = traces[0]

rp = gt.run([a.gltrace, 'replay', trace, '--no-progress'], env=gt.gl_env(headless=True))
remapped = 'from here on' in rp.stderr  # a location the driver gave otherwise
s = gt.replay_summary(rp.stderr)
ck.check(f'replayed headless, every snapshot matches, one a buffer (at least {BUFFERS})',
         rp.returncode == 0 and s and s[0] >= BUFFERS and s[1] == s[0], rp.stderr.strip()[-600:])

_, obj = gt.info(a.gltrace, trace)
frames = obj.get('frames', 0) if obj else 0
setups = []
for k in (frames // 3, frames - 6):
    out = os.path.join(work, f'gst-{k}.trim.gltrace')
    r = gt.run([a.gltrace, 'trim', trace, '--frames', f'{k}-{k + 2}', '-o', out], env=gt.gl_env(headless=True))
    m = re.search(r'left out of the setup: (\d+) bindings, settings and uniforms', r.stdout)
    ck.check(f'frames {k}-{k + 2} of {frames}: trimmed, exact on the first try (no note), the state at the '
             'start the original\'s, and some state commands a later one replaced left out',
             r.returncode == 0 and 'checked: its replay matches 3 of 3' in r.stdout and 'note: without' not in
             r.stdout and 'is the original\'s' in r.stdout and m and int(m.group(1)) > 0, (r.stdout, r.stderr))
    m = re.search(r'after a setup of (\d+) of', r.stdout)
    if m:
        setups.append(int(m.group(1)))
    rp = gt.run([a.gltrace, 'replay', out, '--no-progress'], env=gt.gl_env(headless=True))
    s = gt.replay_summary(rp.stderr)
    ck.check(f'frames {k}-{k + 2}: the trim replays on its own, 3 of 3 snapshots matched',
             rp.returncode == 0 and s and s[0] == 3 and s[1] == 3, rp.stderr.strip()[-400:])
    # A program the kept frames never use loses its link: the locations
    # asked of it go with it (else the driver answers -1 for them).
    ck.check(f'frames {k}-{k + 2}: its replay maps no location the original\'s did not',
             remapped or 'from here on' not in rp.stderr, rp.stderr.strip()[-400:])
# Every frame alternates between two output textures and two fences: a
# frame repeats the one two before it (step 4), so the setup is a few
# frames' calls wherever the start is (before, it grew by about 75 calls
# a frame).
ck.check(f'the setups do not grow with the start: {setups} records, each under 1000, the later no more than 50 over '
         'the earlier', len(setups) == 2 and max(setups) < 1000 and setups[1] <= setups[0] + 50, setups)

# Uploads through a pool of mapped pixel buffers, two streams mixed.
MIXED = 80
mixer = ['gst-launch-1.0', '-q', 'glvideomixer', 'name=m', 'sink_1::xpos=40', 'sink_1::ypos=20', 'sink_1::alpha=0.7',
         '!', 'glimagesink', 'sync=false',
         'videotestsrc', f'num-buffers={MIXED}', 'pattern=ball', '!', 'video/x-raw,width=160,height=120', '!',
         'glupload', '!', 'glcolorconvert', '!', 'm.',
         'videotestsrc', f'num-buffers={MIXED}', 'pattern=smpte', '!', 'video/x-raw,width=80,height=60', '!',
         'glupload', '!', 'gltransformation', 'rotation-z=30', '!', 'm.']
r = gt.run(['xvfb-run', '-a', '-s', '-screen 0 640x480x24', a.gltrace, 'record', '-o',
            os.path.join(work, 'mix-%p.gltrace'), '--', *mixer], env=env, timeout=300)
traces = glob.glob(os.path.join(work, 'mix-*.gltrace'))
ck.check(f'the mixing pipeline ran its {MIXED} buffers and left one trace (exit 0)',
         r.returncode == 0 and len(traces) == 1, (r.returncode, traces, r.stderr[-800:]))
if len(traces) != 1:
    ck.exit()
trace = traces[0]
maps = sum(1 for rec in gt.dump(a.gltrace, trace).objects() if rec.get('fn') == 'glMapBufferRange')
ck.check(f'the pool mapped buffers more than 64 times ({maps})', maps > 64, maps)
rp = gt.run([a.gltrace, 'replay', trace, '--no-progress'], env=gt.gl_env(headless=True))
s = gt.replay_summary(rp.stderr)
ck.check(f'the mixing pipeline replays headless, every snapshot matched (at least {MIXED})',
         rp.returncode == 0 and s and s[0] >= MIXED and s[1] == s[0], rp.stderr.strip()[-600:])
_, obj = gt.info(a.gltrace, trace)
frames = obj.get('frames', 0) if obj else 0
sizes, setups = [], []
for k in (frames // 3, frames - 6):
    out = os.path.join(work, f'mix-{k}.trim.gltrace')
    r = gt.run([a.gltrace, 'trim', trace, '--frames', f'{k}-{k + 2}', '-o', out], env=gt.gl_env(headless=True))
    ck.check(f'mixing frames {k}-{k + 2} of {frames}: trimmed, exact on the first try (no note), the state at the '
             'start the original\'s', r.returncode == 0 and 'checked: its replay matches 3 of 3' in r.stdout and
             'note: without' not in r.stdout and 'is the original\'s' in r.stdout, (r.stdout, r.stderr))
    sizes.append(os.path.getsize(out) if r.returncode == 0 else 0)
    m = re.search(r'after a setup of (\d+) of', r.stdout)
    setups.append(int(m.group(1)) if m else -1)
# Each uploaded frame is a mapping of a pool buffer written whole: the
# trim keeps each buffer's last (before, every one stayed: the later trim
# was more than half the trace).
whole = os.path.getsize(trace)
ck.check(f'the mixing trims are small ({sizes} bytes of {whole}): each under a fifth of the trace, the later at '
         'most 1.5 times the earlier', len(sizes) == 2 and 0 < sizes[0] and 0 < sizes[1] and
         max(sizes) * 5 < whole and sizes[1] * 2 <= sizes[0] * 3, (sizes, whole))
# Nor do their setups grow: the fence syncs made and deleted before the
# start go, the attachments and location queries repeated every frame.
ck.check(f'the mixing setups do not grow with the start: {setups} calls, each under 1000, the later no more than 50 '
         'over the earlier', len(setups) == 2 and 0 < min(setups) and max(setups) < 1000 and
         setups[1] <= setups[0] + 50, setups)

# Reads every frame back (gldownload into system memory): a glReadPixels
# into a pixel pack buffer of two in turn, through a framebuffer made and
# deleted for that read. Before the start, each buffer's last read goes,
# its bytes written at the start instead, and the framebuffers with it, so
# the draws the reads would need go too (before: 1724 and 5559 setup calls
# at frames 30 and 95 of 100).
DOWN = 60
down = ['gst-launch-1.0', '-q', 'videotestsrc', f'num-buffers={DOWN}', '!', 'video/x-raw,width=160,height=120', '!',
        'glupload', '!', 'glcolorconvert', '!', 'gleffects', 'effect=twirl', '!', 'glcolorconvert', '!',
        'gldownload', '!', 'video/x-raw(memory:SystemMemory)', '!', 'videoconvert', '!', 'glimagesink', 'sync=false']
r = gt.run(['xvfb-run', '-a', '-s', '-screen 0 640x480x24', a.gltrace, 'record', '-o',
            os.path.join(work, 'down-%p.gltrace'), '--', *down], env=env, timeout=300)
traces = glob.glob(os.path.join(work, 'down-*.gltrace'))
ck.check(f'the download pipeline ran its {DOWN} buffers and left one trace (exit 0)',
         r.returncode == 0 and len(traces) == 1, (r.returncode, traces, r.stderr[-800:]))
if len(traces) != 1:
    ck.exit()
trace = traces[0]
reads = sum(1 for rec in gt.dump(a.gltrace, trace).objects() if rec.get('fn') == 'glReadPixels')
ck.check(f'it read frames back with glReadPixels ({reads})', reads >= DOWN // 2, reads)
rp = gt.run([a.gltrace, 'replay', trace, '--no-progress'], env=gt.gl_env(headless=True))
s = gt.replay_summary(rp.stderr)
ck.check(f'the download pipeline replays headless, every snapshot matched (at least {DOWN})',
         rp.returncode == 0 and s and s[0] >= DOWN and s[1] == s[0], rp.stderr.strip()[-600:])
_, obj = gt.info(a.gltrace, trace)
frames = obj.get('frames', 0) if obj else 0
setups = gt.trim_at(ck, a.gltrace, trace, 'download', (frames // 3, frames - 6), work,
                     want=('the last pixel read into each of', 'vertex arrays deleted before the start'))
ck.check(f'the download setups do not grow with the start: {setups} calls, each under 1000, the later no more '
         'than 50 over the earlier', len(setups) == 2 and 0 < min(setups) and max(setups) < 1000 and
         setups[1] <= setups[0] + 50, setups)
ck.exit()

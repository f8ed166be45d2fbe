#!/usr/bin/env python3
"""A real program's snapshots against what it put on the screen: Debian's
es2gears_x11 runs recorded under Xvfb, whose screen is kept in a file
(-fbdir). After a second the app is frozen (SIGSTOP), the screen read, and
the app resumed and stopped (SIGTERM), so the trace is complete. The window
on the screen must equal one of the last snapshots of the trace: that of
the last frame presented, of the one before (presentation is asynchronous),
or of the one whose swap SIGTERM cut off. Animated frames differ (or are
the same picture when drawn within one tick of the app's clock), so a match
pins the picture.

usage: check_es2gears_pixels.py --gltrace GLTRACE --trace OUT.gltrace"""
import os
import shutil
import signal
import struct
import subprocess
import tempfile
import time

import gltest as gt
import pngio
import apptrace as at


W = H = 300  # es2gears_x11's default window, at the top left (no window manager)


def read_xwd(path):
    """The screen of an Xvfb -fbdir file (XWD, 24/32-bit TrueColor): rows top
    first, each pixel as (r, g, b)."""
    data = open(path, 'rb').read()
    hdr = struct.unpack('>25I', data[:100])
    header_size, width, height = hdr[0], hdr[4], hdr[5]
    byte_order, bpp, bpl, ncolors = hdr[7], hdr[11], hdr[12], hdr[19]
    if bpp != 32:
        raise ValueError(f'{bpp} bits per pixel')
    off = header_size + ncolors * 12
    rows = []
    for y in range(height):
        row = data[off + y * bpl: off + y * bpl + width * 4]
        px = [tuple(row[i:i + 4]) for i in range(0, len(row), 4)]
        # LSBFirst (0): bytes B, G, R, X
        rows.append([(p[2], p[1], p[0]) if byte_order == 0 else (p[1], p[2], p[3]) for p in px])
    return width, height, rows


def png_rgb(path):
    """A PNG's rows (top first) as rows of (r, g, b)."""
    w, h, rgba, _ = pngio.read(path)
    return [[tuple(rgba[(y * w + x) * 4:(y * w + x) * 4 + 3]) for x in range(w)] for y in range(h)]


def main():
    args = at.parse_args(need_app=False)
    ck = gt.Checker('es2gears_pixels')
    xvfb, gears = shutil.which('Xvfb'), shutil.which('es2gears_x11')
    if not ck.check('Xvfb and es2gears_x11 are installed (ci/setup.sh)', xvfb and gears):
        ck.exit()
    with tempfile.TemporaryDirectory() as fbdir:
        display = f':{90 + os.getpid() % 100}'
        server = subprocess.Popen([xvfb, display, '-screen', '0', f'{W}x{H}x24', '-fbdir', fbdir, '-nolisten', 'tcp'],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            time.sleep(1)
            if os.path.exists(args.trace):
                os.remove(args.trace)
            env = gt.gl_env(DISPLAY=display)
            rec = subprocess.Popen([args.gltrace, 'record', '-o', args.trace, '--', gears], env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            time.sleep(2)
            pid = subprocess.run(['pgrep', '-n', '-P', str(rec.pid)], capture_output=True, text=True).stdout.strip()
            ck.check('es2gears_x11 runs under gltrace record', pid.isdigit(), pid)
            if not pid.isdigit():
                rec.kill()
                ck.exit()
            os.kill(int(pid), signal.SIGSTOP)
            time.sleep(0.5)  # let Xvfb finish drawing what it was sent
            width, height, screen = read_xwd(os.path.join(fbdir, 'Xvfb_screen0'))
            os.kill(int(pid), signal.SIGTERM)
            os.kill(int(pid), signal.SIGCONT)
            err = rec.communicate(timeout=120)[1]
        finally:
            server.terminate()
            server.wait()
    ck.check('gltrace record says the program was stopped by SIGTERM', 'killed by signal 15' in err, err[-300:])
    d, recs = gt.read_dump(ck, args.gltrace, args.trace)
    snaps = [r['fb'] for r in recs if r['fn'] == 'gltraceSnapshot']
    # SIGTERM may land between the last snapshot and its swap: one more snapshot than swaps.
    ck.check(f'a {W}x{H} RGBA8 snapshot before every eglSwapBuffers',
             len(snaps) - len(gt.named(recs, 'eglSwapBuffers')) in (0, 1) and len(snaps) >= 3 and
             all((s['width'], s['height'], s['format'], s['type']) == (W, H, 'GL_RGBA', 'GL_UNSIGNED_BYTE')
                 for s in snaps), len(snaps))
    if len(snaps) < 2:
        ck.exit()
    window = [row[:W] for row in screen[:H]]
    frames = len(gt.named(recs, 'eglSwapBuffers'))
    with tempfile.TemporaryDirectory() as out:
        x = gt.run([args.gltrace, 'extract', args.trace, '--out', out, '--frames', f'{frames - 2}-'])
        files = sorted(os.listdir(out))
        ck.check('gltrace extract writes the snapshots of the last two frames (and of one not presented) as PNGs',
                 x.returncode == 0 and len(files) == len(snaps) - (frames - 2), (x.returncode, x.stderr, files))
        if not files:
            ck.exit()
        last = [png_rgb(os.path.join(out, f)) for f in files]
    # Two frames drawn within one tick of the app's clock are the same
    # picture (seen in CI at about 1000 frames a second; the last two or
    # three were one picture in about one run of six), so what is asked is
    # that the last ten snapshots (their hashes) are not all one: the gears
    # turn, and a match then pins a picture of them.
    distinct = {s.get('xxh3') or s.get('fnv1a') for s in snaps[-10:]}
    ck.check('the last ten snapshots are not all the same picture (the gears turn), so a match pins one',
             len(distinct) >= 2, f'{len(distinct)} distinct of {len(snaps[-10:])}')
    match = [files[i] for i, img in enumerate(last) if img == window]
    ck.check('the window on the screen equals one of them, pixel for pixel',
             len(match) >= 1, f'screen {width}x{height}; matches {match}')
    ck.exit()


if __name__ == '__main__':
    main()

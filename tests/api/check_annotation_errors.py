#!/usr/bin/env python3
"""The generator refuses to build when a pointer parameter has no
annotation, naming the command and the parameter; and when an annotation
names a parameter the command does not have."""
import os
import subprocess
import sys
import tempfile

api, gl_xml, egl_inc = sys.argv[1:4]
src = open(os.path.join(api, 'annotations.txt')).read().splitlines()
headers = [os.path.join(egl_inc, 'EGL', h) for h in ('egl.h', 'eglext.h')]


def run(lines):
    with tempfile.TemporaryDirectory() as d:
        ann = os.path.join(d, 'annotations.txt')
        open(ann, 'w').write('\n'.join(lines) + '\n')
        return subprocess.run([sys.executable, os.path.join(api, 'gen_api.py'), '--gl-xml', gl_xml,
                               '--egl-headers', *headers, '--annotations', ann, '--out', d],
                              capture_output=True, text=True)


failures = 0
# 1. Without the line for glReadPixels' pixels, the build must fail naming it.
cut = [l for l in src if not l.startswith('ptr glReadPixels')]
r = run(cut)
if r.returncode == 0 or 'glReadPixels parameter pixels' not in r.stderr:
    print('FAIL: missing glReadPixels annotation not reported:', r.returncode, r.stderr[-500:])
    failures += 1
# 2. Without the EGL attribute-list rule, every EGL attrib_list is named.
cut = [l for l in src if not l.startswith('ptr egl*                    attrib_list')]
r = run(cut)
if r.returncode == 0 or 'eglCreateContext parameter attrib_list' not in r.stderr:
    print('FAIL: missing EGL attrib_list annotation not reported:', r.returncode, r.stderr[-500:])
    failures += 1
# 3. An exact rule naming a parameter the command lacks is an error.
r = run(['ptr glReadPixels pixels out nosuchparam*4'] + src)
if r.returncode == 0 or 'nosuchparam' not in r.stderr:
    print('FAIL: bad parameter name in a count not reported:', r.returncode, r.stderr[-500:])
    failures += 1
# 4. The real file builds.
r = run(src)
if r.returncode != 0:
    print('FAIL: the real annotation file does not build:', r.stderr[-800:])
    failures += 1
print(f'{4 - failures} passed, {failures} failed')
sys.exit(1 if failures else 0)

#!/usr/bin/env python3
"""The generator refuses to build when a pointer parameter has no
annotation, naming the command and the parameter; when an annotation
names a parameter the command does not have; and when the facts about a
command do not fit together (a multi-draw without a draw count, an array
setter replay cannot call, a driver function not covered)."""
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
# 4. Without the line that says the EXT multi-draws' primcount is a draw
#    count, the registry's names make it an instance count: refused.
cut = [l for l in src if not l.startswith('draw glMultiDraw*EXT')]
r = run(cut)
if r.returncode == 0 or 'glMultiDrawArraysEXT' not in r.stderr:
    print('FAIL: a multi-draw without a draw count not reported:', r.returncode, r.stderr[-500:])
    failures += 1
# 5. A draw role, a driver function or an array setter that cannot be.
for line, word in (('draw glDrawArrays first=nosuchparam', 'nosuchparam'),
                   ('driver glNoSuchFunction', 'glNoSuchFunction'),
                   ('class glDrawArrays arrays', 'glDrawArrays')):
    r = run([line] + src)
    if r.returncode == 0 or word not in r.stderr:
        print(f'FAIL: {line!r} not refused:', r.returncode, r.stderr[-500:])
        failures += 1
# 6. The real file builds.
r = run(src)
if r.returncode != 0:
    print('FAIL: the real annotation file does not build:', r.stderr[-800:])
    failures += 1
print(f'{8 - failures} passed, {failures} failed')
sys.exit(1 if failures else 0)

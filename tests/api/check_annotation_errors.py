#!/usr/bin/env python3
"""The generator refuses to build when a pointer parameter has no
annotation, naming the command and the parameter; when an annotation
names a parameter the command does not have; and when the facts about a
command do not fit together (a multi-draw without a draw count, an array
setter replay cannot call, a driver function not covered, a `reads` line
an earlier one shadows, a conditional key part out of place)."""
import os
import subprocess
import sys
import tempfile

import gltest as gt

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


ck = gt.Checker('api.missing_annotation_fails_build')
# 1. Without the line for glReadPixels' pixels, the build must fail naming it.
r = run([l for l in src if not l.startswith('ptr glReadPixels')])
ck.check('a missing glReadPixels annotation fails the build, naming the parameter',
         r.returncode != 0 and 'glReadPixels parameter pixels' in r.stderr, (r.returncode, r.stderr[-500:]))
# 2. Without the EGL attribute-list rule, every EGL attrib_list is named.
r = run([l for l in src if not l.startswith('ptr egl*                    attrib_list')])
ck.check('a missing EGL attrib_list annotation fails the build, naming eglCreateContext\'s',
         r.returncode != 0 and 'eglCreateContext parameter attrib_list' in r.stderr, (r.returncode, r.stderr[-500:]))
# 3. An exact rule naming a parameter the command lacks is an error.
r = run(['ptr glReadPixels pixels out nosuchparam*4'] + src)
ck.check('a count naming a parameter the command lacks fails the build, naming it',
         r.returncode != 0 and 'nosuchparam' in r.stderr, (r.returncode, r.stderr[-500:]))
# 4. Without the line that says the EXT multi-draws' primcount is a draw
#    count, the registry's names make it an instance count: refused.
r = run([l for l in src if not l.startswith('draw glMultiDraw*EXT')])
ck.check('a multi-draw without a draw count fails the build, naming it',
         r.returncode != 0 and 'glMultiDrawArraysEXT' in r.stderr, (r.returncode, r.stderr[-500:]))
# 5. A draw role, a driver function or an array setter that cannot be.
for line, word in (('draw glDrawArrays first=nosuchparam', 'nosuchparam'),
                   ('driver glNoSuchFunction', 'glNoSuchFunction'),
                   ('class glDrawArrays arrays', 'glDrawArrays')):
    r = run([line] + src)
    ck.check(f'{line!r} fails the build, naming {word}',
             r.returncode != 0 and word in r.stderr, (r.returncode, r.stderr[-500:]))
# 6. A `reads` line an earlier, wider one shadows (first match wins) is
#    refused: glGen* before glGenerateMipmap once made mipmap generation
#    read nothing, and trim's step 8 left out the binding it read.
i = next(k for k, l in enumerate(src) if l.startswith('reads glGenerateMipmap'))
j = next(k for k, l in enumerate(src) if l.startswith('reads glGen*'))
swapped = list(src)
swapped[i], swapped[j] = src[j], src[i]
r = run(swapped)
ck.check('a reads line shadowed by an earlier glob fails the build, naming it',
         i < j and r.returncode != 0 and 'reads glGenerateMipmap*: no command takes this line' in r.stderr,
         (i, j, r.returncode, r.stderr[-500:]))
# 7. A part that counts for one value of the first (@GL_PNAME?VALUE) is
#    the last of two, and names an enum that exists.
for line, word in (('state glBindBuffer bind[@GL_VERTEX_ARRAY_BINDING?GL_ELEMENT_ARRAY_BUFFER,target]',
                    '@GL_PNAME?VALUE'),
                   ('state glBindBuffer bind[target,@GL_VERTEX_ARRAY_BINDING?GL_NO_SUCH_ENUM]', 'GL_NO_SUCH_ENUM')):
    r = run([line] + src)
    ck.check(f'{line!r} fails the build, naming {word}',
             r.returncode != 0 and word in r.stderr, (r.returncode, r.stderr[-500:]))
# 8. The real file builds.
r = run(src)
ck.check('the real annotation file builds', r.returncode == 0, r.stderr[-800:])
ck.exit()

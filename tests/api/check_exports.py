#!/usr/bin/env python3
"""libgltrace.so exports every command of the covered APIs: GLES 1.1, 2.0,
3.0, 3.1, 3.2 and every gles1/gles2 extension in the registry, and every
EGL command in the Khronos EGL headers. The expected set is computed here
from the registry on its own (not with the generator's code)."""
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import gltest as gt

lib, gl_xml, egl_inc = sys.argv[1:4]
apis = {'gles1', 'gles2'}
root = ET.parse(gl_xml).getroot()
want = set()
for f in root.iter('feature'):
    if f.get('api') in apis:
        for req in f.iter('require'):
            if req.get('api') in (None, *apis):
                want |= {c.get('name') for c in req.iter('command')}
for e in root.find('extensions'):
    if apis & set((e.get('supported') or '').split('|')):
        for req in e.iter('require'):
            if req.get('api') in (None, *apis):
                want |= {c.get('name') for c in req.iter('command')}
gl_count = len(want)
egl = set()
for h in ('egl.h', 'eglext.h'):
    egl |= set(re.findall(r'^EGLAPI [^;]*?EGLAPIENTRY (egl\w+)', open(f'{egl_inc}/EGL/{h}').read(), re.M))
want |= egl

out = subprocess.run(['nm', '-D', '--defined-only', lib], capture_output=True, text=True, check=True).stdout
exported = {l.split()[-1] for l in out.splitlines() if l.split() and l.split()[-2] in ('T', 'W', 'i')}
missing = sorted(want - exported)
# GLX's two lookups hand out the traced GLES entry points (capture/cap_glx_proc.c).
glx = {'glXGetProcAddress', 'glXGetProcAddressARB'}
extra = sorted(n for n in exported - want - glx if n.startswith(('gl', 'egl')))
print(f'registry: {gl_count} GLES commands + {len(egl)} EGL commands = {len(want)}; '
      f'libgltrace.so exports {len(want & exported)} of them')
ck = gt.Checker('api.exports_cover_registry')
ck.check('libgltrace.so exports every command of the covered registry', not missing,
         'missing: ' + ' '.join(missing[:50]))
ck.check('libgltrace.so exports no gl/egl name outside the covered registry', not extra,
         'not in the covered registry: ' + ' '.join(extra[:50]))
others = sorted(n for n in exported - want if not n.startswith(('gl', 'egl')))
print('other exports:', ' '.join(others))
ck.exit()

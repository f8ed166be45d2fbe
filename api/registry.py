"""The API description: GLES (from the Khronos gl.xml) and EGL (from the
Khronos EGL headers), as one list of commands with typed parameters.

Why EGL comes from headers: Debian ships gl.xml in khronos-api but no
egl.xml. The EGL headers (libegl-dev: EGL/egl.h, EGL/eglext.h) are generated
by Khronos from egl.xml, carry every command's exact C prototype and are what
the traced app itself is compiled against, so parsing their prototypes gives
the same signatures egl.xml would, with no second copy to keep in step. What
egl.xml has beyond signatures (array lengths) lives in our annotation file,
where it would have to be for most EGL pointers anyway.
"""

import re
import xml.etree.ElementTree as ET

# ---------------------------------------------------------------- kinds
# How a C type is recorded (GLMessage.DataType.Type) and shown.
# kind: INT BYTE CHAR ENUM BOOL FLOAT INT64 HANDLE POINTER VOID
SCALAR_KINDS = {
    'void': 'VOID',
    'GLenum': 'ENUM', 'EGLenum': 'ENUM',
    'GLboolean': 'BOOL', 'EGLBoolean': 'BOOL',
    'GLbyte': 'BYTE', 'GLubyte': 'BYTE', 'GLchar': 'CHAR', 'char': 'CHAR',
    'GLshort': 'INT', 'GLushort': 'UINT', 'GLint': 'INT', 'GLuint': 'UINT',
    'GLsizei': 'INT', 'GLbitfield': 'BITS', 'GLfixed': 'INT', 'GLclampx': 'INT',
    'GLhalf': 'UINT', 'GLhalfNV': 'UINT', 'EGLint': 'INT', 'int': 'INT',
    'EGLNativeFileDescriptorKHR': 'INT',
    'GLfloat': 'FLOAT', 'GLclampf': 'FLOAT',
    'GLdouble': 'DOUBLE', 'GLclampd': 'DOUBLE',
    'GLint64': 'INT64', 'GLint64EXT': 'INT64', 'GLuint64': 'UINT64',
    'GLuint64EXT': 'UINT64', 'GLintptr': 'INT64', 'GLsizeiptr': 'INT64',
    'GLvdpauSurfaceNV': 'INT64', 'EGLAttrib': 'INT64', 'EGLAttribKHR': 'INT64',
    'EGLTime': 'UINT64', 'EGLTimeKHR': 'UINT64', 'EGLTimeNV': 'UINT64',
    'EGLuint64KHR': 'UINT64', 'EGLuint64NV': 'UINT64',
    'EGLnsecsANDROID': 'INT64', 'EGLsizeiANDROID': 'INT64',
    # opaque handles: recorded as 64-bit values, shown in hex
    'GLsync': 'HANDLE', 'GLeglImageOES': 'HANDLE', 'GLeglClientBufferEXT': 'HANDLE',
    'EGLDisplay': 'HANDLE', 'EGLConfig': 'HANDLE', 'EGLSurface': 'HANDLE',
    'EGLContext': 'HANDLE', 'EGLImage': 'HANDLE', 'EGLImageKHR': 'HANDLE',
    'EGLSync': 'HANDLE', 'EGLSyncKHR': 'HANDLE', 'EGLSyncNV': 'HANDLE',
    'EGLClientBuffer': 'HANDLE', 'EGLStreamKHR': 'HANDLE', 'EGLDeviceEXT': 'HANDLE',
    'EGLOutputLayerEXT': 'HANDLE', 'EGLOutputPortEXT': 'HANDLE',
    'EGLLabelKHR': 'HANDLE', 'EGLObjectKHR': 'HANDLE',
    'EGLNativeDisplayType': 'HANDLE', 'EGLNativeWindowType': 'HANDLE',
    'EGLNativePixmapType': 'HANDLE', 'EGLDEBUGPROCKHR': 'FUNCPTR',
    'EGLSetBlobFuncANDROID': 'FUNCPTR', 'EGLGetBlobFuncANDROID': 'FUNCPTR',
    '__eglMustCastToProperFunctionPointerType': 'FUNCPTR',
    'GLDEBUGPROC': 'FUNCPTR', 'GLDEBUGPROCKHR': 'FUNCPTR', 'GLVULKANPROCNV': 'FUNCPTR',
}


class CType:
    """A parameter or return type: its C text, base type and pointer depth."""

    def __init__(self, text):
        self.text = ' '.join(text.replace('*', ' * ').split()).replace(' *', '*')
        self.text = self.text.replace('*', ' *').replace('* *', '**').strip()
        words = self.text.replace('*', ' ').split()
        self.const = 'const' in words
        words = [w for w in words if w not in ('const', 'struct')]
        self.base = words[-1] if words else 'void'
        self.is_struct = 'struct' in text.split()
        self.pointer = self.text.count('*')

    @property
    def kind(self):
        if self.pointer:
            return 'POINTER'
        if self.base not in SCALAR_KINDS:
            raise KeyError(self.base)
        return SCALAR_KINDS[self.base]

    def decl(self, name=''):
        return (self.text + ' ' + name).replace('* ', '*').strip() if name else self.text


class Param:
    def __init__(self, name, ctype, group=None, length=None, klass=None):
        self.name = name
        self.type = ctype
        self.group = group
        self.len = length
        self.klass = klass  # the registry's object class ("texture", ...): a name replay maps
        self.ann = None   # the annotation that applies (pointer parameters)


class Command:
    def __init__(self, name, api, ret, params):
        self.name = name
        self.api = api           # 'gl' or 'egl'
        self.ret = ret           # CType
        self.ret_group = None
        self.ret_class = None
        self.params = params
        self.number = None
        self.alias_index = 0
        self.sources = []        # features/extensions that list it
        self.hooks = {}          # from the annotation file: stage -> C function


# ---------------------------------------------------------------- gl.xml

GL_APIS = ('gles2', 'gles1')


def _api_ok(elem, apis):
    a = elem.get('api')
    return a is None or a in apis


def load_gl(path):
    """Returns (commands by name in registry order, type definitions C text,
    enum entries [(name, value, groups, covered)])."""
    root = ET.parse(path).getroot()
    defs = {}
    for c in root.find('commands'):
        proto = c.find('proto')
        name = proto.find('name').text
        rtext = ''.join(t for t in proto.itertext())
        rtext = rtext[:rtext.rfind(name)]
        params = []
        for p in c.findall('param'):
            if not _api_ok(p, GL_APIS):
                continue
            pname = p.find('name').text
            ptext = ''.join(p.itertext())
            ptext = ptext[:ptext.rfind(pname)]
            params.append(Param(pname, CType(ptext), p.get('group'), p.get('len'), p.get('class')))
        cmd = Command(name, 'gl', CType(rtext), params)
        cmd.ret_group = proto.get('group')
        cmd.ret_class = proto.get('class')
        defs[name] = cmd

    wanted = {}
    req_enums = []

    def take(req, source):
        for e in req.findall('command'):
            wanted.setdefault(e.get('name'), []).append(source)
        for e in req.findall('enum'):
            req_enums.append(e.get('name'))

    for f in root.findall('feature'):
        if f.get('api') not in GL_APIS:
            continue
        for req in f.findall('require'):
            if _api_ok(req, GL_APIS):
                take(req, f.get('name'))
    for ext in root.find('extensions'):
        supported = (ext.get('supported') or '').split('|')
        if not any(a in supported for a in GL_APIS):
            continue
        for req in ext.findall('require'):
            if _api_ok(req, GL_APIS):
                take(req, ext.get('name'))

    cmds = {n: defs[n] for n in defs if n in wanted}
    for n, c in cmds.items():
        c.sources = wanted[n]

    types = []
    for t in root.find('types'):
        if not _api_ok(t, GL_APIS + (None,)) and t.get('api') not in GL_APIS:
            continue
        types.append(''.join(t.itertext()))

    covered = set(req_enums)
    enums = []
    for block in root.findall('enums'):
        bgroup = block.get('group')
        for e in block.findall('enum'):
            if not _api_ok(e, GL_APIS):
                continue
            val = e.get('value')
            try:
                v = int(val, 0)
            except (TypeError, ValueError):
                continue
            groups = set((e.get('group') or '').split(',')) - {''}
            if bgroup:
                groups.add(bgroup)
            enums.append((e.get('name'), v, groups, e.get('name') in covered))
    return cmds, types, enums


# ---------------------------------------------------------------- EGL headers

_PROTO = re.compile(r'^EGLAPI\s+(.+?)\s*EGLAPIENTRY\s+(egl\w+)\s*\((.*)\);\s*$')
_DEFINE = re.compile(r'^#define\s+(EGL_\w+)\s+((?:0x[0-9A-Fa-f]+|-?\d+))\s*$')


def load_egl(header_paths):
    """Parses EGLAPI prototypes and numeric EGL_ defines from the headers."""
    cmds = {}
    enums = []
    for path in header_paths:
        ext = None
        with open(path) as f:
            lines = f.read().replace('\\\n', ' ').splitlines()
        for line in lines:
            m = re.match(r'^#ifndef\s+(EGL_[A-Z0-9]+_\w+)\s*$', line)
            if m:
                ext = m.group(1)
            m = _PROTO.match(line.strip())
            if m:
                ret, name, args = m.groups()
                params = []
                if args.strip() not in ('', 'void'):
                    for a in args.split(','):
                        a = a.strip()
                        pm = re.match(r'^(.*?)(\w+)$', a)
                        params.append(Param(pm.group(2), CType(pm.group(1))))
                c = Command(name, 'egl', CType(ret), params)
                c.sources = [ext or 'EGL_core']
                cmds.setdefault(name, c)
                continue
            m = _DEFINE.match(line.strip())
            if m:
                enums.append((m.group(1), int(m.group(2), 0), set(), True))
    return cmds, enums


def load(gl_xml, egl_headers):
    gl, types, gl_enums = load_gl(gl_xml)
    egl, egl_enums = load_egl(egl_headers)
    cmds = dict(gl)
    cmds.update(egl)
    return cmds, types, gl_enums, egl_enums

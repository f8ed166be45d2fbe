"""Reads api/state.tsv (the GL state `gltrace inspect` dumps: the queries,
the gl.xml groups of their pnames, and what each pname's value is) and
writes gt_api_states.c, the tables behind api/gt_api_state.h: one row per
query and GLES pname, with the number of values (api/get_counts.tsv), the
type of value, the target a binding binds and the GLES versions and
extensions gl.xml says define it; the EGL attributes asked of configs,
contexts and surfaces (values from the EGL headers); the shape of each
uniform type; GLES 1's matrix stacks and client array pointers."""

import os

import emit_enums
import emit_get_counts

QUERIES = ['get', 'enabled', 'texenv', 'light', 'material', 'attrib', 'texture', 'level', 'sampler',
           'attachment', 'program', 'buffer', 'renderbuffer', 'current_query']
TYPES = ['int', 'bool', 'float', 'int64', 'enum', 'bits']
CLASSES = ['texture', 'buffer', 'framebuffer', 'renderbuffer', 'program', 'vertex_array', 'sampler',
           'xfb', 'pipeline', 'query']
SCOPES = ['-', 'unit', 'client-unit']
FUNCTION_USES = QUERIES + ['client-unit', 'matrix-mode', 'push-matrix', 'pop-matrix', 'load-matrix', 'pointer',
                           'bind-buffer', 'pixel-store', 'bind-texture', 'texture-level',
                           'texture-image', 'buffer-range', 'buffer-data', 'texture-level-3d', 'texture-image-3d',
                           'texture-storage', 'gen-textures', 'delete-textures', 'copy-image']
EGL_QUERIES = ['config', 'context', 'surface']
EGL_TYPES = ['int', 'bool', 'enum', 'bits']
UNIFORM_BASES = {'float': 'f', 'int': 'i', 'uint': 'u', 'bool': 'b'}


class Fact:
    def __init__(self, type_, scope, index, also, values, target=None, window=False):
        self.type, self.scope, self.index, self.also, self.values = type_, scope, index, also, values
        self.target, self.window = target, window


class Tables:
    """What state.tsv says besides the queries' pnames."""
    def __init__(self):
        self.fns, self.egl, self.uniforms, self.stacks, self.pointers = [], [], {}, [], []


def gl_enum(enums, name, where):
    if name not in enums:
        raise SystemExit(f'{where}: {name} is no GLES enum of gl.xml')
    return name


def read_other(p, where, enums, egl_enums, t):
    """The lines that are no pname: 1 when p is one of them."""
    if p[0] == 'function':
        if len(p) != 4 or p[1] not in FUNCTION_USES:
            raise SystemExit(f'{where}: expected function USE FLOAT_FUNCTION INT_FUNCTION, USE one of {FUNCTION_USES}')
        t.fns.append(tuple(p[1:]))
    elif p[0] == 'egl':
        if len(p) != 4 or p[1] not in EGL_QUERIES or p[3] not in EGL_TYPES:
            raise SystemExit(f'{where}: expected egl {"|".join(EGL_QUERIES)} EGL_ATTRIBUTE {"|".join(EGL_TYPES)}')
        if p[2] not in egl_enums:
            raise SystemExit(f'{where}: {p[2]} is no EGL enum of the EGL headers')
        t.egl.append((p[1], p[2], p[3]))
    elif p[0] in ('set', 'toggle', 'each'):
        pass  # how state is written back: emit_setters.py
    elif p[0] == 'uniform':
        if len(p) != 5 or p[2] not in UNIFORM_BASES or not p[3].isdigit():
            raise SystemExit(f'{where}: expected uniform GL_TYPE {"|".join(UNIFORM_BASES)} COMPONENTS SETTER')
        t.uniforms[gl_enum(enums, p[1], where)] = (UNIFORM_BASES[p[2]], int(p[3]))
    elif p[0] == 'stack':
        if len(p) != 5 or p[4] not in ('-', 'unit'):
            raise SystemExit(f'{where}: expected stack GL_MODE GL_MATRIX_PNAME GL_DEPTH_PNAME -|unit')
        t.stacks.append(tuple(gl_enum(enums, n, where) for n in p[1:4]) + (p[4],))
    elif p[0] == 'pointer':
        if len(p) != 5 or p[4] not in ('-', 'client-unit'):
            raise SystemExit(f'{where}: expected pointer GL_POINTER_PNAME GL_ARRAY GL_BUFFER_PNAME -|client-unit')
        t.pointers.append(tuple(gl_enum(enums, n, where) for n in p[1:4]) + (p[4],))
    else:
        return 0
    return 1


def read_tsv(path, enums, egl_enums):
    """({query: [groups]}, {pname: Fact}, Tables)"""
    queries, facts, t = {}, {}, Tables()
    for where, p in emit_get_counts.data_lines(path):
        line = ' '.join(p)
        if p[0] == 'query':
            if len(p) < 3 or p[1] not in QUERIES:
                raise SystemExit(f'{where}: expected query QUERY GROUP..., QUERY one of {QUERIES}')
            queries[p[1]] = p[2:]
            continue
        if read_other(p, where, enums, egl_enums, t):
            continue
        target, window = None, p[-1] == 'window-buffer'
        if window:
            p.pop()
        if p[-1].startswith('target='):
            target = gl_enum(enums, p.pop()[7:], where)
        if len(p) not in (4, 5):
            raise SystemExit(f'{where}: expected PNAME TYPE SCOPE ALSO [VALUES] [target=GL_T] [window-buffer], '
                             f'got {line!r}')
        name, type_, scope, also = p[:4]
        if name not in enums:
            raise SystemExit(f'{where}: {name} is no GLES enum of gl.xml')
        if name in facts:
            raise SystemExit(f'{where}: {name} is listed twice')
        if type_ not in TYPES + CLASSES:
            raise SystemExit(f'{where}: TYPE {type_!r} is none of {TYPES + CLASSES}')
        index = None
        if scope.startswith('index:'):
            index = scope[6:]
            if not index.isdigit() and index not in enums:
                raise SystemExit(f'{where}: index bound {index} is no count or GLES enum')
            scope = '-'
        if scope not in SCOPES:
            raise SystemExit(f'{where}: SCOPE {scope!r} is none of {SCOPES} or index:N')
        also = [] if also == '-' else also.split(',')
        for q in also:
            if q not in QUERIES:
                raise SystemExit(f'{where}: no query {q!r}')
        if len(p) == 5 and not p[4].isdigit():
            raise SystemExit(f'{where}: VALUES must be a count')
        if target and type_ not in CLASSES:
            raise SystemExit(f'{where}: target= is for bindings (a TYPE naming an object class)')
        if window and type_ != 'enum':
            raise SystemExit(f'{where}: window-buffer is for an enum naming a buffer')
        facts[name] = Fact(type_, scope, index, also, int(p[4]) if len(p) == 5 else None, target, window)
    missing = [q for q in QUERIES if q not in queries and q != 'level']
    if missing:
        raise SystemExit(f'{path}: no query line for {missing}')
    return queries, facts, t


def group_members(root):
    groups = {}
    for block in root.findall('enums'):
        for e in block.findall('enum'):
            if e.get('api') not in emit_enums.APIS:
                continue
            for g in (e.get('group') or '').split(','):
                if g:
                    groups.setdefault(g, []).append(e.get('name'))
    return groups


def other_tables(t, enums, egl_enums):
    """The C of the tables besides the pnames'."""
    L = ['', 'const gt_api_state_fn gt_api_state_fns[] = {']
    L += [f'    {{"{u}", "{fl}", "{it}"}},' for u, fl, it in t.fns]
    L += ['};', f'const size_t gt_api_nstate_fns = {len(t.fns)};', '', 'const gt_api_egl_attrib gt_api_egl_attribs[] = {']
    L += [f'    {{0x{egl_enums[n]:x}, "{n}", GT_EGL_{q.upper()}, GT_STATE_{ty.upper()}}},' for q, n, ty in t.egl]
    L += ['};', f'const size_t gt_api_negl_attribs = {len(t.egl)};', '',
          'const gt_api_uniform_type gt_api_uniform_types[] = {']
    L += [f'    {{0x{enums[n]:x}u, \'{b}\', {c}}}, /* {n} */' for n, (b, c) in sorted(t.uniforms.items())]
    L += ['};', f'const size_t gt_api_nuniform_types = {len(t.uniforms)};', '', 'const gt_api_stack gt_api_stacks[] = {']
    L += [f'    {{0x{enums[m]:x}u, 0x{enums[x]:x}u, 0x{enums[d]:x}u, "{m}", {int(sc == "unit")}}},'
          for m, x, d, sc in t.stacks]
    L += ['};', f'const size_t gt_api_nstacks = {len(t.stacks)};', '', 'const gt_api_pointer gt_api_pointers[] = {']
    L += [f'    {{0x{enums[p]:x}u, 0x{enums[a]:x}u, 0x{enums[b]:x}u, "{p}", {int(sc == "client-unit")}}},'
          for p, a, b, sc in t.pointers]
    L += ['};', f'const size_t gt_api_npointers = {len(t.pointers)};', '']
    return L


def enum_values(root):
    """{GL enum name: its 32-bit value}, of gl.xml's GLES enums."""
    enums = {}
    for name, text in emit_enums.gl_enum_values(root):
        try:
            enums[name] = int(text.rstrip('ul'), 0) & 0xffffffff
        except ValueError:
            pass
    return enums


def write(out, root, state_path, counts_path, egl_enums=()):
    enums = enum_values(root)
    defs = emit_get_counts.defined_by(root)
    counts = {r.name: r for r in emit_get_counts.read_tsv(counts_path, enums)}
    counts_by_value = {enums[n]: r for n, r in counts.items()}
    egl = {n: v & 0xffffffff for n, v, _, _ in egl_enums}
    queries, facts, tables = read_tsv(state_path, enums, egl)
    groups = group_members(root)
    rows = {}
    for qi, q in enumerate(QUERIES):
        names = [n for g in queries.get(q, []) for n in groups.get(g, [])]
        names += [n for n, f in facts.items() if q in f.also]
        for name in names:
            gles1, gles, exts = defs.get(name, (0, 0, []))
            if not (gles1 or gles or exts):
                continue  # not a GLES pname
            key = (qi, enums[name])
            if key in rows:  # the same value under another name (an _OES alias): the core one
                old = rows[key][0]
                if defs[old][0] or defs[old][1]:
                    continue
            rows[key] = (name, gles1, gles, exts)
    L = ['/* Generated by api/gen_api.py from api/state.tsv, api/get_counts.tsv and gl.xml. Do not edit. */',
         '#include "gt_api_state.h"', '', 'const gt_api_state gt_api_states[] = {']
    for (qi, value), (name, gles1, gles, exts) in sorted(rows.items()):
        f = facts.get(name) or Fact('int', '-', None, [], None)
        c = counts_by_value.get(value)
        if c and f.values is not None:
            raise SystemExit(f'{state_path}: {name} has a count in get_counts.tsv already')
        values = f.values if f.values is not None else c.values if c else 1
        counted = f'0x{enums[c.counted_by]:x}u' if c and c.counted_by else '0'
        if qi == QUERIES.index('enabled'):
            f = Fact('bool', f.scope, None, f.also, 1, None, f.window)  # glIsEnabled gives a boolean
        if f.type in CLASSES:
            type_, cls = 'GT_STATE_NAME', 1 + CLASSES.index(f.type)
        else:
            type_, cls = f'GT_STATE_{f.type.upper()}', 0
        scope = 'GT_STATE_' + {'-': 'CONTEXT', 'unit': 'UNIT', 'client-unit': 'CLIENT_UNIT'}[f.scope]
        index_count, index_bound = 0, '0'
        if f.index and qi == 0:
            if f.index.isdigit():
                index_count = int(f.index)
            else:
                index_bound = f'0x{enums[f.index]:x}u'
        target = f'0x{enums[f.target]:x}u' if f.target else '0'
        L.append(f'    {{0x{value:x}u, "{name}", {qi}, {type_}, {cls}, {scope}, {values}, {counted}, '
                 f'{index_count}, {index_bound}, {gles1}, {gles}, "{" ".join(exts)}", {target}, '
                 f'{int(f.window)}}},')
    L += ['};', f'const size_t gt_api_nstates = {len(rows)};']
    L += other_tables(tables, enums, egl)
    with open(os.path.join(out, 'gt_api_states.c'), 'w') as f:
        f.write('\n'.join(L))
    write_bindings(out, rows, facts, enums)


def write_bindings(out, rows, facts, enums):
    """gt_api_bindings.c: gt_api_binding_of, the glGet pname that names the
    object bound to a target, from the target= column of state.tsv's
    binding rows. A file of its own, so that the capture library links
    this switch without the state tables."""
    cases = {}
    for (qi, _), (name, _, _, _) in sorted(rows.items()):
        f = facts.get(name)
        if qi == QUERIES.index('get') and f and f.target:
            cases.setdefault(enums[f.target], (f.target, name))
    L = ['/* Generated by api/gen_api.py from api/state.tsv and gl.xml. Do not edit. */',
         '#include "gt_api_state.h"', '', 'uint32_t gt_api_binding_of(uint32_t target)', '{', '    switch (target) {']
    L += [f'    case 0x{v:x}u: return 0x{enums[n]:x}u; /* {t}: {n} */' for v, (t, n) in sorted(cases.items())]
    L += ['    default: return 0;', '    }', '}', '']
    with open(os.path.join(out, 'gt_api_bindings.c'), 'w') as f:
        f.write('\n'.join(L))

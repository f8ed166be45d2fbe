"""Writes gt_api_data.c: the tables behind api/gt_api.h (functions, their
parameters, numbers, enum names) that dump, info and replay read."""

import os
import re

KINDS = ['VOID', 'INT', 'UINT', 'BITS', 'BYTE', 'CHAR', 'ENUM', 'BOOL', 'FLOAT',
         'DOUBLE', 'INT64', 'UINT64', 'HANDLE', 'POINTER', 'FUNCPTR']
DIRS = ['none', 'in', 'out', 'inout', 'deferred', 'callback', 'opaque']
GROUP_ANY_GL, GROUP_ANY_EGL = 0, 1
_SUFFIX = re.compile(r'_(ARB|EXT|OES|KHR|NV|AMD|APPLE|ANGLE|IMG|QCOM|ARM|INTEL|MESA|ANDROID|OVR|DMP|FJ|VIV|SEC|MESAX|NVX|SGIX|SGIS|IBM|HP|ATI|SUN|WIN|3DFX|S3|GREMEDY)$')


def class_enum(cls):
    """The C name of a `class` of api/annotations.txt (gt_api.h)."""
    return 'GT_CLASS_' + cls.upper()


def cstr(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


_EGL_VENDOR = re.compile(r'_(WL|HI|NOK|TIZEN|ANGLE|MESA|NV|ANDROID|IMG|QCOM|ARM|SEC|HUAWEI|EMSCRIPTEN)$')


def _egl_suffix_rank(name):
    # Several EGL extensions reuse one value (0x31D5 is EGL_PLATFORM_X11_KHR
    # and EGL_WAYLAND_BUFFER_WL): core names first, then KHR, EXT, vendors.
    if _EGL_VENDOR.search(name):
        return 3
    if name.endswith('_EXT'):
        return 2
    if name.endswith('_KHR') or name.endswith('_OES'):
        return 1
    return 3 if _SUFFIX.search(name) else 0


def _rank(name, covered):
    # Prefer names GLES itself defines, then names without a vendor suffix.
    return (0 if covered else 1, 1 if _SUFFIX.search(name) else 0)


def enum_tables(cmds, gl_enums, egl_enums):
    groups = {}
    for c in cmds:
        for g in [c.ret_group] + [p.group for p in c.params]:
            if g and g not in groups:
                groups[g] = len(groups) + 2
    best = {}  # (group, value) -> (rank, order, name)
    for order, (name, value, egroups, covered) in enumerate(gl_enums):
        value &= 0xffffffff
        r = _rank(name, covered)
        for g in [GROUP_ANY_GL] + [groups[x] for x in egroups if x in groups]:
            cur = best.get((g, value))
            if cur is None or (r, order) < cur[:2]:
                best[(g, value)] = (r, order, name)
    for order, (name, value, _, _) in enumerate(egl_enums):
        value &= 0xffffffff
        # EGL_FALSE/EGL_TRUE and the like share small numbers with every
        # count; only name values in EGL's own enum range and specials.
        key = (GROUP_ANY_EGL, value)
        r = (0 if name.count('_') and value >= 0x3000 else 1, _egl_suffix_rank(name))
        cur = best.get(key)
        if cur is None or (r, order) < cur[:2]:
            best[key] = (r, order, name)
    return groups, sorted((g, v, n[2]) for (g, v), n in best.items())


OBJ_CLASS = {'texture': 'GT_STATE_TEXTURE_NAME', 'buffer': 'GT_STATE_BUFFER_NAME',
             'renderbuffer': 'GT_STATE_RENDERBUFFER_NAME', 'program': 'GT_STATE_PROGRAM_NAME',
             'shader': 'GT_STATE_PROGRAM_NAME', 'sampler': 'GT_STATE_SAMPLER_NAME',
             'framebuffer': 'GT_STATE_FRAMEBUFFER_NAME', 'vertex array': 'GT_STATE_VERTEX_ARRAY_NAME',
             'transform feedback': 'GT_STATE_XFB_NAME', 'program pipeline': 'GT_STATE_PIPELINE_NAME',
             'query': 'GT_STATE_QUERY_NAME', 'sync': 'GT_STATE_SYNC_NAME'}


def object_fields(c, values):
    """The obj_* fields of c's gt_api_fn: its `object` line."""
    writes = getattr(c, 'obj_writes', 0)
    if not c.object:
        return f'GT_OBJ_NONE, 0, 0, 0, 0, {writes}'
    role, where, param, klass = c.object
    target = 0
    if where == 'bound_to':
        if param not in values:
            raise SystemExit(f'gen_api.py: object {c.name}: bound:{param}: no such enum')
        target, param = values[param], 0
    cls = OBJ_CLASS[klass] if klass else 'GT_STATE_NO_CLASS'
    return f'GT_OBJ_{role.upper()}, GT_WHERE_{where.upper()}, {param}, {cls}, 0x{target:x}u, {writes}'


def state_keys(cmds, values):
    """The gt_api_key arrays of the commands' `state` lines (their names
    numbered from 1 in sorted order) and, by command, its fields."""
    names = sorted({k[0].lstrip('~').split('?')[0] for c in cmds for k in (c.state or []) if k[0] != '-'})
    number = {n: i + 1 for i, n in enumerate(names)}
    kinds = {'param': 'GT_PART_PARAM', 'bound': 'GT_PART_BOUND', 'get': 'GT_PART_GET', 'value': 'GT_PART_VALUE',
             'boundto': 'GT_PART_BOUND_TO', 'binding': 'GT_PART_BINDING'}
    L, fields = [], {}
    for c in cmds:
        if not c.state:
            fields[c.name] = 'NULL, 0'
            continue
        if len(c.state) > 16:  # replay/rp_trim_sets.c SETS_MAX_KEYS
            raise SystemExit(f'gen_api.py: state {c.name}: {len(c.state)} keys, at most 16')
        L.append(f'static const gt_api_key k_{c.name}[] = {{')
        for name, parts in c.state:
            if name == '-':  # a `reads` line's: no key set
                L.append('    {0, 0, GT_KEY_NONE, {{0, 0}}}, /* sets none */')
                continue
            flags = 'GT_KEY_CHANGES' if name[0] == '~' else 'GT_KEY_ANY' if parts == '*' else '0'
            name, parts = name.lstrip('~'), [] if parts == '*' else parts
            if '?' in name:  # NAME?PARAM=VALUE: read when the parameter is VALUE (no parts of its own)
                name, cond = name.split('?')
                param, value = cond.split('=')
                pos = [p.name for p in c.params]
                if param not in pos:
                    raise SystemExit(f'gen_api.py: state {c.name}: {param}: no such parameter')
                v = int(value) if value.isdigit() else values.get(value)
                if v is None:
                    raise SystemExit(f'gen_api.py: state {c.name}: {value}: no such enum')
                L.append(f'    {{{number[name]}, 0, GT_KEY_WHEN, {{{{GT_PART_PARAM, {pos.index(param)}u}}, '
                         f'{{GT_PART_VALUE, 0x{v:x}u}}}}}}, /* {name} when {param} is {value} */')
                continue
            ps = []
            for kind, v in parts:
                if kind == 'getwhen':  # @GL_PNAME?VALUE, the last part: the condition goes in part[2]
                    flags = 'GT_KEY_PART_WHEN'
                    cond = int(v[1]) if v[1].isdigit() else values.get(v[1])
                    if v[0] not in values or cond is None:
                        raise SystemExit(f'gen_api.py: state {c.name}: {v[0]} or {v[1]}: no such enum')
                    ps.append(f'{{GT_PART_GET, 0x{values[v[0]]:x}u}}')
                    ps.append(f'{{GT_PART_VALUE, 0x{cond:x}u}}')
                    continue
                if isinstance(v, str):
                    if v not in values:
                        raise SystemExit(f'gen_api.py: state {c.name}: {v}: no such enum')
                    v = values[v]
                ps.append(f'{{{kinds[kind]}, 0x{v:x}u}}')
            L.append(f'    {{{number[name]}, {len(parts)}, {flags}, {{{", ".join(ps) or "{0, 0}"}}}}}, /* {name} */')
        L.append('};')
        fields[c.name] = f'k_{c.name}, {len(c.state)}'
    return L, fields


def write(out, cmds, gl_enums, egl_enums, rows, synthetic):
    groups, enums = enum_tables(cmds, gl_enums, egl_enums)
    values = {n: v for n, v, _, _ in gl_enums}
    L = ['/* Generated by api/gen_api.py from gl.xml, the EGL headers and',
         ' * api/annotations.txt. Do not edit. */',
         '#include "gt_api.h"', '#include "gt_api_state.h"', '']
    for c in cmds:
        if not c.params:
            continue
        L.append(f'static const gt_api_param p_{c.name}[] = {{')
        for p in c.params:
            k = p.type.kind
            d = DIRS.index(p.ann.dir) if p.ann else 0
            g = groups.get(p.group, GROUP_ANY_EGL if c.api == 'egl' else GROUP_ANY_GL)
            oc = OBJ_CLASS.get(p.klass, 'GT_STATE_NO_CLASS') if p.klass else 'GT_STATE_NO_CLASS'
            by = c.maps.get(p.name, '').partition('named:')[2]  # the class another parameter's enum gives
            by = next((j + 1 for j, q in enumerate(c.params) if q.name == by), 0) if by else 0
            L.append(f'    {{{cstr(p.name)}, {cstr(p.type.text)}, GT_K_{k}, {d}, {g}, {oc}, {by}}},')
        L.append('};')
    L.append('')
    keys, state_fields = state_keys(cmds, values)
    L += keys
    L.append('')
    L.append(f'const size_t gt_api_nfns = {len(cmds)};')
    L.append('const gt_api_fn gt_api_fns[] = {')
    for c in cmds:
        g = groups.get(c.ret_group, GROUP_ANY_EGL if c.api == 'egl' else GROUP_ANY_GL)
        params = f'p_{c.name}' if c.params else 'NULL'
        L.append(f'    {{{cstr(c.name)}, {c.number}, {c.alias_index}, {int(c.api == "egl")}, '
                 f'{len(c.params)}, GT_K_{c.ret.kind}, {g}, {cstr(c.ret.text)}, {params}, {class_enum(c.cls)}, '
                 f'{object_fields(c, values)}, {state_fields[c.name]}, '
                 f'{OBJ_CLASS.get(c.ret_class, "GT_STATE_NO_CLASS") if c.ret_class else "GT_STATE_NO_CLASS"}}},')
    L.append('};')
    L.append('')
    # every numbered name, covered or not, so old traces still show names
    order = {}
    for name, num in rows:
        order.setdefault(num, []).append(name)
    named = sorted((num, order[num].index(name), name) for name, num in rows)
    L.append(f'const size_t gt_api_nnames = {len(named)};')
    L.append('const gt_api_name gt_api_names[] = {')
    for num, alias, name in named:
        L.append(f'    {{{num}, {alias}, {cstr(name)}}},')
    L.append('};')
    L.append('')
    L.append(f'const size_t gt_api_nenums = {len(enums)};')
    L.append('const gt_api_enum gt_api_enums[] = {')
    for g, v, n in enums:
        L.append(f'    {{{g}, 0x{v:x}u, {cstr(n)}}},')
    L.append('};')
    with open(os.path.join(out, 'gt_api_data.c'), 'w') as f:
        f.write('\n'.join(L) + '\n')

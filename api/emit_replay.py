"""Writes the generated half of replay (gt_replay_gen.c): one routine per
GL command that decodes its recorded arguments, maps object names, calls the
driver and learns the names the driver handed out. Everything it knows about
a command comes from the registry (types, object classes) and
api/annotations.txt (pointer directions and sizes, `replay` and `map`
lines, replay hooks), never from names here."""
import os
import re

from annotations import ARRAY_PARAMS
from emit_capture import c_expr, elem_type, params_decl, pn
from emit_tables import class_enum

CLASSES = {'program': 'RP_PROGRAM', 'shader': 'RP_PROGRAM', 'texture': 'RP_TEXTURE', 'buffer': 'RP_BUFFER',
           'framebuffer': 'RP_FRAMEBUFFER', 'vertex array': 'RP_VERTEX_ARRAY', 'query': 'RP_QUERY',
           'renderbuffer': 'RP_RENDERBUFFER', 'sampler': 'RP_SAMPLER', 'transform feedback': 'RP_XFB',
           'program pipeline': 'RP_PIPELINE', 'sync': None, 'display list': None}


SIZEFN_REPLAY = {}  # set by write(): the size functions' replay bounds


def out_room(c, i, p):
    """C for the bytes the call may write behind out pointer i (its count
    over parameters decoded before it), '0' where replay cannot tell."""
    ann = p.ann
    before = {q.name for q in c.params[:i]}
    if ann.count_kind == 'expr':
        used = set(re.findall(r'[A-Za-z_]\w*', ann.count))
        if used <= before | {'sizeof'} or not used & {q.name for q in c.params}:
            return f'rp_need_mul((long)({c_expr(ann.count, c, {})}), (long)sizeof({elem_type(p.type)}))'
    if ann.count_kind == 'sizefn':
        fn, args = ann.count[1:].split('(', 1)
        args = [a for a in args[:-1].split(',') if a]
        if fn in SIZEFN_REPLAY and set(args) <= before:
            call = f'{SIZEFN_REPLAY[fn]}(r' + ''.join(f', (intptr_t)(x_{a})' for a in args) + ')'
            return f'rp_need_mul({call}, (long)sizeof({elem_type(p.type)}))'
    return '0'


def decode(c, i, p):
    """C that sets parameter i's local from the record."""
    t, k = p.type, p.type.kind
    ann = p.ann
    if k == 'POINTER':
        decl = t.decl(pn(p))
        cast = f'({t.text})'
        offset_ok = int(bool(ann and ann.count_kind == 'sizefn' and
                             any(f in ann.count for f in ('cap_size_pack', 'cap_size_unpack', 'cap_size_indices'))))
        if ann is None or ann.dir in ('deferred', 'opaque', 'callback'):
            return f'    {decl} = {cast}rp_arg_addr(m, {i});'
        if t.pointer == 2 and ann.count_kind == 'strings':
            return f'    {decl} = {cast}rp_arg_strings(r, m, {i});'
        if ann.dir == 'out':
            room = out_room(c, i, p)
            line = f'    {decl} = {cast}rp_arg_out(r, m, {i}, {offset_ok}, {room});'
            if room == '0':
                return line
            return line + f'\n    if (!{pn(p)} && r->sum->error[0])\n        return;'
        if t.pointer == 1 and elem_type(t) in ('GLchar', 'const GLchar', 'GLcharARB'):
            # Text counted in bytes (labels, debug messages): with a negative
            # length the driver reads up to a NUL, which the bytes may lack.
            return f'    {decl} = {cast}rp_arg_text(r, m, {i});'
        return f'    {decl} = {cast}rp_arg_in(r, m, {i}, {offset_ok});'
    if k == 'FUNCPTR':
        return f'    {t.decl(pn(p))} = NULL; /* callbacks are never called on replay */'
    if k == 'FLOAT':
        return f'    {t.decl(pn(p))} = rp_arg_f(m, {i});'
    if k == 'DOUBLE':
        return f'    {t.decl(pn(p))} = rp_arg_d(m, {i});'
    if k == 'HANDLE':
        return f'    {t.decl(pn(p))} = ({t.text})(uintptr_t)rp_handle(r, rp_arg_u(m, {i}));'
    expr = f'({t.text})rp_arg_i(m, {i})'
    cls = CLASSES.get(p.klass) if p.klass else None
    if cls:
        expr = f'({t.text})rp_name(r, {cls}, (uint32_t)rp_arg_i(m, {i}))'
    if p.name in c.maps and ':' in c.maps[p.name]:
        # KIND:PARAM: the name's class follows another parameter's enum.
        kind, by = c.maps[p.name].split(':')
        j = next((k for k, q in enumerate(c.params) if q.name == by), None)
        if j is None:
            raise SystemExit(f'gen_api.py: map {c.name} {p.name}: no parameter {by}')
        expr = f'({t.text})rp_map_{kind}(r, (uint32_t)rp_arg_i(m, {i}), (uint32_t)rp_arg_i(m, {j}))'
    elif p.name in c.maps:
        expr = f'({t.text})rp_map_{c.maps[p.name]}(r, m, rp_arg_i(m, {i}))'
    return f'    {t.decl(pn(p))} = {expr};'


def need(c, p, enums, sizefn_replay):
    """C for the least number of bytes the driver reads behind `in` pointer
    p, from the replayed arguments and state; None where replay cannot tell
    (a size function without a replay bound, strings, attribute lists)."""
    ann = p.ann
    if p.type.kind != 'POINTER' or not ann or ann.dir != 'in' or p.type.pointer != 1:
        return None
    if ann.count_kind == 'expr':
        # Saturating: a recorded 64-bit size times the element size must not
        # wrap into a small bound (rp_need.c).
        return f'rp_need_mul((long)({c_expr(ann.count, c, enums)}), (long)sizeof({elem_type(p.type)}))'
    if ann.count_kind == 'sizefn':
        fn, args = ann.count[1:].split('(', 1)
        if fn not in sizefn_replay:
            return None
        args = [a for a in args[:-1].split(',') if a]
        # A size function counts elements (bytes behind a void pointer).
        call = f'{sizefn_replay[fn]}(r' + ''.join(f', (intptr_t)({c_expr(a, c, enums)})' for a in args) + ')'
        return f'rp_need_mul({call}, (long)sizeof({elem_type(p.type)}))'
    return None


def data_checks(c, i, p, enums, sizefn_replay):
    """C refusing a record whose data behind `in` pointer p is shorter than
    the call reads (rp_need.c): a NULL too, unless p is `nullable` (the GL
    reads nothing through it then); where replay cannot tell the size, an
    address of the app's with no data behind it; strings fewer or shorter
    than the call's count and lengths say; an attribute list without its
    terminating GL_NONE."""
    ann = p.ann
    if p.type.kind != 'POINTER' or not ann or ann.dir != 'in':
        return []
    n = need(c, p, enums, sizefn_replay)
    offset = ann.count_kind == 'sizefn' and any(f in ann.count for f in ('cap_size_unpack', 'cap_size_indices'))
    if n:
        # NULL is offset 0 where the pointer may be an offset into a buffer.
        guard = f'rp_arg_present(m, {i}) && ' if p.nullable or offset else ''
        return [f'    if ({guard}rp_short(r, m, {i}, "{p.name}", {n}))', '        return;']
    if p.type.pointer == 2 and ann.count_kind == 'strings':
        count, length = ann.count[len('strings('):-1].split(',')
        li = next((k for k, q in enumerate(c.params) if q.name == length), -1)
        cnt = f'(long)({c_expr(count, c, enums)})'
        return [f'    if (rp_strings_short(r, m, {i}, "{p.name}", {cnt}, {li}))', '        return;']
    if ann.count_kind == 'attribs':
        return [f'    if (rp_attribs_short(r, m, {i}, "{p.name}"))', '        return;']
    if ann.count_kind in ('sizefn', 'string') and not offset and not (p.klass and CLASSES.get(p.klass)):
        return [f'    if (rp_no_data(r, m, {i}, "{p.name}"))', '        return;']
    return []


def routine(c, enums, sizefn_replay):
    R = c.ret.kind != 'VOID'
    L = [f'static void rp_{c.name}(rp *r, const rp_msg *m)', '{']
    for i, p in enumerate(c.params):
        L.append(decode(c, i, p))
        cls = CLASSES.get(p.klass) if p.klass else None
        if p.type.kind == 'POINTER' and cls and p.ann and p.ann.dir == 'in':
            # An array of names the driver reads: mapped element by element.
            L.append(f'    {pn(p)} = ({p.type.text})rp_names_in(r, {cls}, m, {i});')
    for i, p in enumerate(c.params):
        L += data_checks(c, i, p, enums, sizefn_replay)
    args = ', '.join(pn(p) for p in c.params)
    call = f'((rp_pfn_{c.name})r->fn[RP_IDX_{c.name}])({args})'
    L.append(f'    {c.ret.decl() + " ret = " if R else ""}{call};')
    for i, p in enumerate(c.params):
        cls = CLASSES.get(p.klass) if p.klass else None
        if p.type.kind == 'POINTER' and cls and p.ann and p.ann.dir == 'out':
            L.append(f'    rp_names_out(r, {cls}, m, {i}, {pn(p)});')
    if R:
        rcls = CLASSES.get(c.ret_class) if getattr(c, 'ret_class', None) else None
        if rcls:
            L.append(f'    rp_name_set(r, {rcls}, (uint32_t)rp_ret_u(m), (uint32_t)ret);')
        elif c.ret.kind == 'HANDLE':
            L.append('    rp_handle_set(r, rp_ret_u(m), (uint64_t)(uintptr_t)ret);')
    if 'replay' in c.hooks:
        rv = ('(uint64_t)(uintptr_t)ret' if c.ret.kind in ('HANDLE', 'POINTER') else '(uint64_t)ret') if R else '0'
        L.append(f'    {c.hooks["replay"]}(r, m, {rv});')
    elif R:
        L.append('    (void)ret;')
    L.append('}')
    return L


def checkable(c):
    """A query `replay --check` can issue and compare: skipped on replay, no
    callback, something to compare (a return value or an output)."""
    if c.api != 'gl' or c.replay != 'skip' or not c.check:
        return False
    if any(p.type.kind == 'FUNCPTR' for p in c.params):
        return False
    outs = [p for p in c.params if p.type.kind == 'POINTER' and p.ann and p.ann.dir in ('out', 'inout')]
    return bool(outs) or c.ret.kind != 'VOID'


def check_routine(c, enums):
    """Issues the query with the replayed arguments into zeroed buffers of
    the recorded outputs' size, then compares (replay/rp_check.c)."""
    L = [f'static void rp_chk_{c.name}(rp *r, const rp_msg *m)', '{']
    if 'check' in c.hooks:
        L += [f'    {c.hooks["check"]}(r, m);', '}']
        return L
    for i, p in enumerate(c.params):
        if p.type.kind == 'POINTER' and p.ann and p.ann.dir in ('out', 'inout'):
            L.append(f'    {p.type.decl(pn(p))} = ({p.type.text})rp_check_out_buffer(r, m, {i});')
        else:
            L.append(decode(c, i, p))
    args = ', '.join(pn(p) for p in c.params)
    call = f'((rp_pfn_{c.name})r->fn[RP_IDX_{c.name}])({args})'
    if c.ret.kind == 'VOID':
        L.append(f'    {call};')
    elif c.ret.kind == 'POINTER':
        L.append(f'    rp_check_ret_string(r, m, (const char *){call});')
    elif c.ret.kind == 'FLOAT':
        L.append(f'    float ret = {call};')
        L.append('    uint32_t bits;')
        L.append('    __builtin_memcpy(&bits, &ret, 4);')
        L.append('    rp_check_ret(r, m, bits, 1);')
    else:
        L.append(f'    rp_check_ret(r, m, (uint64_t)(int64_t){call}, 0);')
    for i, p in enumerate(c.params):
        if p.type.kind == 'POINTER' and p.ann and p.ann.dir in ('out', 'inout'):
            L.append(f'    rp_check_out(r, m, {i}, "{p.name}", {pn(p)});')
    L.append('}')
    return L


def array_setters(cmds):
    """rp_array_setter_of: the `class arrays` commands by number, each with
    a routine that calls it with a recorded client array's values."""
    idx = {c.name: i for i, c in enumerate(cmds)}
    setters = [c for c in cmds if c.cls == 'arrays']
    L = []
    for c in setters:
        if c.alias_index:
            raise SystemExit(f'gen_api.py: {c.name}: an array setter is recorded by number alone (alias 0)')
        fn = f'rp_fn(r, RP_IDX_{c.name})'
        args = ', '.join(ARRAY_PARAMS[p.name] for p in c.params)
        L += [f'static void rp_set_{c.name}(rp *r, const rp_array *a)', '{',
              f'    void *fn = {fn};', '    if (fn)', f'        ((rp_pfn_{c.name})fn)({args});', '}']
    L.append('const rp_array_setter *rp_array_setter_of(int32_t number)')
    L.append('{')
    L.append('    static const rp_array_setter t[] = {')
    for c in setters:
        attrib = int(c.maps.get('index') == 'attrib')
        unit = f'RP_IDX_{c.unit_select}' if c.unit_select else '-1'
        if c.unit_select and c.unit_select not in idx:
            raise SystemExit(f'gen_api.py: unit {c.name}: {c.unit_select} is not covered')
        L.append(f'        {{rp_set_{c.name}, {attrib}, {unit}, {c.components}}},')
    L += ['    };', '    switch (number) {']
    for k, c in enumerate(setters):
        L.append(f'    case {c.number}: return &t[{k}]; /* {c.name} */')
    L += ['    default: return NULL;', '    }', '}', '']
    return L


def write_handlers(out, cmds):
    """rp_handlers_gen.h: the hand-written EGL handlers `replay ... egl
    HANDLER` lines name, so that their definitions are checked against it."""
    names = sorted({c.egl_handler for c in cmds if c.egl_handler})
    L = ['/* Generated by api/gen_api.py from api/annotations.txt. Do not edit. */',
         '#ifndef RP_HANDLERS_GEN_H', '#define RP_HANDLERS_GEN_H', '#include "rp_internal.h"', '']
    L += [f'rp_egl_handler {n};' for n in names]
    L += ['', '#endif', '']
    with open(os.path.join(out, 'rp_handlers_gen.h'), 'w') as f:
        f.write('\n'.join(L))


def write(out, cmds, enums, sizefn_replay):
    SIZEFN_REPLAY.update(sizefn_replay)
    gl = [c for c in cmds if c.api == 'gl']
    write_handlers(out, cmds)
    L = ['/* Generated by api/gen_api.py from the registry and api/annotations.txt. Do not edit. */',
         '#include "gt_api.h"', '#include "rp_handlers_gen.h"', '']
    hooks = sorted({c.hooks['replay'] for c in gl if 'replay' in c.hooks})
    for h in hooks:
        L.append(f'void {h}(rp *r, const rp_msg *m, uint64_t ret);')
    for i, c in enumerate(cmds):
        L.append(f'#define RP_IDX_{c.name} {i}')
    for c in gl:
        if c.replay == 'call' or checkable(c):
            L.append(f'typedef {c.ret.decl()} (*rp_pfn_{c.name})({params_decl(c)});')
        elif c.cls == 'arrays' or any(s.unit_select == c.name for s in cmds):
            raise SystemExit(f'gen_api.py: {c.name}: replay calls an array setter and its unit selector: `replay call`')
    checks = sorted({c.hooks['check'] for c in gl if 'check' in c.hooks})
    for h in checks:
        L.append(f'void {h}(rp *r, const rp_msg *m);')
    L.append('')
    for c in gl:
        if c.replay == 'call':
            L += routine(c, enums, sizefn_replay)
            L.append('')
        elif checkable(c):
            L += check_routine(c, enums)
            L.append('')
    L += array_setters(cmds)
    L.append('const rp_entry rp_entries[] = {')
    for i, c in enumerate(cmds):
        how = {'call': 'RP_CALL', 'skip': 'RP_SKIP', 'egl': 'RP_EGL'}[c.replay]
        handler = f'rp_{c.name}' if c.api == 'gl' and c.replay == 'call' else 'NULL'
        chk = f'rp_chk_{c.name}' if checkable(c) else 'NULL'
        egl = c.egl_handler if c.replay == 'egl' and c.egl_handler else 'NULL'
        pixels = {'-': 'RP_PIXELS_NONE', 'reads': 'RP_PIXELS_READS', 'clears': 'RP_PIXELS_CLEARS',
                  'discards': 'RP_PIXELS_DISCARDS'}[c.pixels]
        L.append(f'    {{{c.number}, {c.alias_index}, "{c.name}", {handler}, {how}, {class_enum(c.cls)}, '
                 f'{pixels}, {chk}, {egl}}},')
    L.append('};')
    L.append(f'const size_t rp_nentries = {len(cmds)};')
    with open(os.path.join(out, 'gt_replay_gen.c'), 'w') as f:
        f.write('\n'.join(L) + '\n')

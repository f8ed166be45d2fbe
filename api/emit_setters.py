"""Reads the `set`, `toggle` and `uniform` lines of api/state.tsv (how the
context's own state and a program's uniforms are written back) and writes
gt_api_setters.c: the table of setters (api/gt_api_state.h,
gt_api_setters) and, for every function they name, a caller that takes its
arguments as numbers (gt_api_call): the one place that knows each setter's
C signature, from the registry."""

import os

import emit_get_counts

ARG_WORDS = {'index': 'GT_SET_INDEX', 'unit': 'GT_SET_UNIT', 'GL_TEXTUREi': 'GT_SET_UNIT_ENUM'}
MAX_ARGS = 10
# `function` lines whose functions a reset writes too: GLES 1's matrix
# stacks are written back by loading each one's top in its mode.
WRITTEN_USES = ('matrix-mode', 'load-matrix')


def parse_arg(word, enums, where):
    """(kind, component, enum name)"""
    if word in ARG_WORDS:
        return ARG_WORDS[word], 0, None
    name, comp = word, None
    if word.endswith(']') and '[' in word:
        name, comp = word[:-1].split('[', 1)
    if name not in enums:
        raise SystemExit(f'{where}: {name} is no GLES enum of gl.xml')
    if comp is None:
        return 'GT_SET_ENUM', 0, name
    if comp == '*':
        return 'GT_SET_PNAME_ALL', 0, name
    if not comp.isdigit():
        raise SystemExit(f'{where}: {word}: expected PNAME[i] or PNAME[*]')
    return 'GT_SET_PNAME', int(comp), name


EACH_QUERIES = ('texenv', 'material', 'light')


def read_lines(path, enums, cmds):
    """[(fn, off_fn, [(kind, comp, enum)], when_pname, when)], {uniform type: setter}, {other functions},
    [(query, of, float_fn, int_fn, first, eye)]"""
    setters, uniforms, others, each = [], {}, set(), []
    for where, p in emit_get_counts.data_lines(path):
        if p[0] == 'uniform' and len(p) == 5:
            uniforms[p[1]] = p[4]
            check_fn(p[4], cmds, where)
        elif p[0] == 'toggle':
            if len(p) != 3:
                raise SystemExit(f'{where}: expected toggle ENABLE DISABLE')
            setters.append((check_fn(p[1], cmds, where), check_fn(p[2], cmds, where), [], None, 0))
        elif p[0] == 'set':
            setters.append(read_set(p, where, enums, cmds))
        elif p[0] == 'function' and p[1] in WRITTEN_USES:
            others.add(check_fn(p[2], cmds, where))
        elif p[0] == 'each':
            if (len(p) not in (6, 7) or p[1] not in EACH_QUERIES or p[2] not in enums or p[5] not in enums or
                    p[6:] not in ([], ['eye'])):
                raise SystemExit(f'{where}: expected each {"|".join(EACH_QUERIES)} GL_OF FLOAT_SETTER INT_SETTER '
                                 'GL_FIRST [eye]')
            each.append((p[1], p[2], check_fn(p[3], cmds, where), check_fn(p[4], cmds, where), p[5], len(p) == 7))
    return setters, uniforms, others, each


def read_set(p, where, enums, cmds):
    words, when_pname, when = p[2:], None, 0
    if len(words) >= 2 and words[-2] == 'when':
        cond = words[-1]
        words = words[:-2]
        when_pname, when = (cond[:-3], 2) if cond.endswith('!=0') else (cond[:-2], 1) if cond.endswith('=0') else (None, 0)
        if not when or when_pname not in enums:
            raise SystemExit(f'{where}: expected when PNAME=0 or when PNAME!=0, got {cond!r}')
    c = cmds.get(check_fn(p[1], cmds, where))
    if len(words) != len(c.params) or len(words) > MAX_ARGS:
        raise SystemExit(f'{where}: {p[1]} takes {len(c.params)} parameters, the line gives {len(words)} arguments')
    args = []
    for w, prm in zip(words, c.params):
        kind, comp, name = parse_arg(w, enums, where)
        if (kind == 'GT_SET_PNAME_ALL') != bool(prm.type.pointer):
            raise SystemExit(f'{where}: {w}: PNAME[*] is for a pointer parameter, and a pointer takes one')
        args.append((kind, comp, name))
    return p[1], None, args, when_pname, when


def check_fn(name, cmds, where):
    if name not in cmds or cmds[name].api != 'gl':
        raise SystemExit(f'{where}: {name} is no GLES command of gl.xml')
    return name


def caller(i, c):
    """static void call_I(void *f, const double *a, int n): scalars from a[]
    in order; a pointer parameter (at most one, last) gets the rest."""
    decl = ', '.join(p.type.text for p in c.params)
    L = [f'static int call_{i}(void *f, const double *a, int n) /* {c.name} */', '{']
    vals = []
    for k, p in enumerate(c.params):
        if p.type.pointer:
            if k != len(c.params) - 1:
                raise SystemExit(f'gen_api.py: {c.name}: a setter\'s pointer parameter must be its last')
            L += [f'    {p.type.base} v[64];', f'    if (n - {k} > 64 || n < {k})', '        return -1;',
                  f'    for (int j = {k}; j < n; j++)', f'        v[j - {k}] = ({p.type.base})a[j];']
            vals.append('v')
        elif p.type.base == 'GLboolean':
            vals.append(f'(GLboolean)(a[{k}] != 0)')
        elif p.type.base in ('GLfloat', 'GLclampf'):
            vals.append(f'(GLfloat)a[{k}]')
        else:
            vals.append(f'({p.type.base})(long long)a[{k}]')
    if not any(p.type.pointer for p in c.params):
        L.append(f'    if (n < {len(c.params)})')
        L.append('        return -1;')
    L += [f'    ((void (*)({decl or "void"}))f)({", ".join(vals)});', '    return 0;', '}']
    return L


def write(out, cmds, state_path, enums):
    setters, uniforms, others, each = read_lines(state_path, enums, cmds)
    names = sorted({s[0] for s in setters} | {s[1] for s in setters if s[1]} | set(uniforms.values()) | others |
                   {e[2] for e in each} | {e[3] for e in each})
    L = ['/* Generated by api/gen_api.py from api/state.tsv and gl.xml. Do not edit. */',
         '#include <GLES3/gl32.h>', '#include <string.h>', '', '#include "gt_api_state.h"', '']
    for i, n in enumerate(names):
        L += caller(i, cmds[n]) + ['']
    L += ['static const struct { const char *name; int (*call)(void *, const double *, int); } calls[] = {']
    L += [f'    {{"{n}", call_{i}}},' for i, n in enumerate(names)]
    L += ['};', '',
          'int gt_api_call(const char *name, void *fn, const double *a, int n)', '{',
          '    for (size_t i = 0; fn && i < sizeof calls / sizeof calls[0]; i++)',
          '        if (!strcmp(calls[i].name, name))', '            return calls[i].call(fn, a, n);',
          '    return -1;', '}', '', 'const gt_api_setter gt_api_setters[] = {']
    for fn, off, args, when_pname, when in setters:
        a = ', '.join(f'{{{k}, {c}, {"0x%xu" % enums[n] if n else 0}}}' for k, c, n in args)
        wp = f'0x{enums[when_pname]:x}u' if when_pname else '0'
        L.append(f'    {{"{fn}", {f"{chr(34)}{off}{chr(34)}" if off else "NULL"}, {len(args)}, {{{a}}}, {wp}, {when}}},')
    L += ['};', f'const size_t gt_api_nsetters = {len(setters)};', '', 'const gt_api_each gt_api_eaches[] = {']
    L += [f'    {{GT_STATE_{q.upper()}, 0x{enums[of]:x}u, "{fl}", "{it}", 0x{enums[first]:x}u, {int(eye)}}}, '
          f'/* {of}, {first} */' for q, of, fl, it, first, eye in each]
    L += ['};', f'const size_t gt_api_neaches = {len(each)};', '',
          'const char *gt_api_uniform_setter(uint32_t type)', '{', '    switch (type) {']
    L += [f'    case 0x{enums[t]:x}u: return "{f}"; /* {t} */' for t, f in sorted(uniforms.items()) if t != 'GL_INT']
    L += [f'    default: return "{uniforms["GL_INT"]}"; /* GL_INT\'s: samplers, images, atomic counters */',
          '    }', '}', '']
    with open(os.path.join(out, 'gt_api_setters.c'), 'w') as f:
        f.write('\n'.join(L))

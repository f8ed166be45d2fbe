#!/usr/bin/env python3
"""gltrace's one generator: reads the API description (Khronos gl.xml, the
Khronos EGL headers, api/annotations.txt, api/functions.tsv) and writes
everything per-function that capture, tools and tests need. Standard library
only. Generated files go to the build tree and are never committed.

  gen_api.py --out DIR            write the generated sources
  gen_api.py --assign-numbers     append numbers for covered commands that
                                  functions.tsv lacks (a developer step; the
                                  result is committed)
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import annotations  # noqa: E402
import emit_capture  # noqa: E402
import emit_enums  # noqa: E402
import emit_get_counts  # noqa: E402
import emit_state  # noqa: E402
import emit_setters  # noqa: E402
import emit_draws  # noqa: E402
import emit_tables  # noqa: E402
import emit_replay  # noqa: E402
import emit_test  # noqa: E402
import registry  # noqa: E402

FIRST_NEW_NUMBER = 4000


def read_numbers(path):
    """[(name, number)] in file order; checks the file's own consistency."""
    rows = []
    with open(path) as f:
        for no, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            parts = line.split('\t')
            if len(parts) != 2 or not parts[1].lstrip('-').isdigit():
                sys.exit(f'{path}:{no}: expected NAME<TAB>NUMBER, got {line!r}')
            rows.append((parts[0], int(parts[1])))
    seen = {}
    for name, num in rows:
        if name in seen:
            sys.exit(f'{path}: {name} is listed twice')
        seen[name] = num
    return rows


def number_commands(cmds, rows, path):
    """Gives each command its number and alias index (names that share a
    number, like Android's 521, are told apart by their order in the file)."""
    by_name = dict(rows)
    order = {}
    for name, num in rows:
        order.setdefault(num, []).append(name)
    missing = []
    for c in cmds.values():
        if c.name not in by_name:
            missing.append(c.name)
            continue
        c.number = by_name[c.name]
        c.alias_index = order[c.number].index(c.name)
    if missing:
        sys.exit(f'{path}: no number for {len(missing)} covered command(s): '
                 f'{", ".join(sorted(missing)[:20])}{" ..." if len(missing) > 20 else ""}\n'
                 f'run: python3 api/gen_api.py --assign-numbers (then commit api/functions.tsv)')


def assign_numbers(cmds, rows, path):
    have = {n for n, _ in rows}
    used = {num for _, num in rows}
    nxt = max([FIRST_NEW_NUMBER - 1] + [u for u in used if u >= FIRST_NEW_NUMBER]) + 1
    new = sorted((c for c in cmds.values() if c.name not in have),
                 key=lambda c: (c.api != 'gl', c.name))
    with open(path, 'a') as f:
        for c in new:
            f.write(f'{c.name}\t{nxt}\n')
            nxt += 1
    print(f'{path}: appended {len(new)} number(s)')


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--gl-xml', default='/usr/share/khronos-api/gl.xml')
    ap.add_argument('--egl-headers', nargs='+',
                    default=['/usr/include/EGL/egl.h', '/usr/include/EGL/eglext.h'])
    ap.add_argument('--numbers', default=os.path.join(HERE, 'functions.tsv'))
    ap.add_argument('--annotations', default=os.path.join(HERE, 'annotations.txt'))
    ap.add_argument('--get-counts', default=os.path.join(HERE, 'get_counts.tsv'))
    ap.add_argument('--out', help='folder for the generated sources')
    ap.add_argument('--assign-numbers', action='store_true')
    ap.add_argument('--capture-parts', type=int, default=4,
                    help='files the capture wrappers are spread over (cap_wrap_K.c)')
    a = ap.parse_args()

    for p in [a.gl_xml] + a.egl_headers:
        if not os.path.exists(p):
            sys.exit(f'gen_api.py: {p} not found (install khronos-api and libegl-dev: ci/setup.sh)')
    cmds, types, gl_enums, egl_enums = registry.load(a.gl_xml, a.egl_headers)
    for c in cmds.values():
        for t, what in [(c.ret, 'return type')] + [(p.type, p.name) for p in c.params]:
            try:
                t.kind
            except KeyError:
                sys.exit(f'gen_api.py: {c.name} {what}: type {t.text!r} has no recording kind (registry.py SCALAR_KINDS)')
    rows = read_numbers(a.numbers)
    if a.assign_numbers:
        assign_numbers(cmds, rows, a.numbers)
        return
    number_commands(cmds, rows, a.numbers)
    try:
        rules = annotations.Rules(a.annotations)
        rules.apply(list(cmds.values()))
    except annotations.AnnotationError as e:
        sys.exit(f'gen_api.py: {e}')
    if not a.out:
        sys.exit('gen_api.py: --out DIR is required')
    if not 1 <= a.capture_parts <= len(cmds):
        sys.exit(f'gen_api.py: --capture-parts {a.capture_parts}: between 1 and {len(cmds)}')
    os.makedirs(a.out, exist_ok=True)
    ordered = sorted(cmds.values(), key=lambda c: c.name)
    synthetic = [(n, num) for n, num in rows if num >= 3000 and num < FIRST_NEW_NUMBER]
    emit_tables.write(a.out, ordered, gl_enums, egl_enums, rows, synthetic)
    enums = {n: v for n, v, _, _ in gl_enums + egl_enums}
    emit_capture.write(a.out, ordered, types, enums, rules.sizefns, a.capture_parts)
    emit_draws.write(a.out, ordered)
    emit_test.write(a.out, ordered)
    emit_replay.write(a.out, ordered, enums, rules.sizefn_replay)
    gl_root = emit_enums.load(a.gl_xml)
    emit_enums.write(a.out, gl_root)
    emit_get_counts.write(a.out, gl_root, a.get_counts)
    emit_state.write(a.out, gl_root, os.path.join(HERE, 'state.tsv'), a.get_counts, egl_enums)
    emit_setters.write(a.out, cmds, os.path.join(HERE, 'state.tsv'), emit_state.enum_values(gl_root))


if __name__ == '__main__':
    main()

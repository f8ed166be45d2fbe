#!/usr/bin/env python3
"""Per-function facts live in api/annotations.txt, not in hand-written C.

  check_name_literals.py literals REPO
    No string literal in the hand-written runtime C (capture/ replay/ cli/
    proto/ diff/, *.c and *.h) is a GL or EGL function name, such as
    "glDrawArrays" or the prefix "eglSwapBuffers": a name compared, looked
    up or tabled in C is a fact about that function, and belongs in the API
    description. Text that only mentions a function (a log or error
    message: "the attribute list of eglCreateImage%s is cut short") is
    not a name literal. A bootstrap name that cannot be otherwise is
    allowed where a comment with `bootstrap:` and the reason is on its line
    or the line before.

  check_name_literals.py drivers REPO
    Every driver function hand-written capture code calls (cap_real.f.NAME,
    CAP_REAL_OR_NULL(NAME), CAP_REAL_IDX(NAME), REAL(type, NAME)) has a
    `driver NAME` line in api/annotations.txt, and every such line is used.

The rules are checked on examples first, so a rule that stopped finding
what it should fails here too."""
import os
import re
import sys

import gltest as gt

DIRS = ('capture', 'replay', 'cli', 'proto', 'diff')
NAME = re.compile(r'^e?gl[A-Z][A-Za-z0-9_]*$')
DRIVER_USE = re.compile(r'cap_real\.f\.(\w+)|CAP_REAL_(?:OR_NULL|IDX)\((\w+)\)|\bREAL\(\s*\w+\s*,\s*(\w+)\s*\)')


def lex(text):
    """(string literals, comments, code) of C source: [(line, text)] each
    for the first two (a literal's contents as written; adjacent literals
    are separate), and the source with its comments blanked."""
    strings, comments, code = [], [], []
    last = 0
    i, line, n = 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == '\n':
            line += 1
            i += 1
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            comments.append((line, text[i:j]))
            code.append(text[last:i])
            last = i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            body = text[i:j]
            for k, part in enumerate(body.split('\n')):
                comments.append((line + k, part))
            line += body.count('\n')
            code.append(text[last:i] + '\n' * body.count('\n'))
            last = i = j
        elif c in '"\'':
            j, start = i + 1, line
            while j < n and text[j] != c:
                if text[j] == '\\':
                    j += 1
                elif text[j] == '\n':
                    line += 1
                j += 1
            if c == '"':
                strings.append((start, text[i + 1:j]))
            i = j + 1
        else:
            i += 1
    code.append(text[last:])
    return strings, comments, ''.join(code)


def name_literals(text):
    """[(line, name)] of the literals that are a function name and carry no
    bootstrap comment."""
    strings, comments, _ = lex(text)
    marked = {ln for ln, c in comments if 'bootstrap:' in c.lower()}
    return [(ln, s) for ln, s in strings if NAME.match(s) and ln not in marked and ln - 1 not in marked]


def driver_uses(text):
    """The driver functions the code calls (macro definitions aside)."""
    code = lex(text)[2]
    code = re.sub(r'^[ \t]*#[ \t]*define\b(?:.*\\\n)*.*$', '', code, flags=re.M)
    return {next(g for g in m.groups() if g) for m in DRIVER_USE.finditer(code)}


# Examples the rules must get right: names they must find, text they must not take.
NAME_LITERALS = [
    'int k = cap_fn_index("glDrawArrays");',
    'if (strncmp(name, "eglSwapBuffers", 14) == 0)',
    'static const char *n[] = {"glVertexPointer", "glColorPointer"};',
    '/* bootstrap: a reason */\nint a;\nf("eglGetProcAddress");',
]
NOT_NAME_LITERALS = [
    'cap_log("the application called %s, which the driver does not provide", n);',
    'snprintf(e, n, "the attribute list of eglCreateImage%s is cut short", k);',
    '/* calls glDrawArrays("glDrawArrays") */ int x;',
    'if (libs[0]) /* bootstrap: it finds the others */\n    p = dlsym(libs[0], "eglGetProcAddress");',
    'p = dlsym(l, "eglGetProcAddress"); /* bootstrap: it finds the others */',
    'const char *s = "GL_VERSION"; char c = \'"\'; const char *t = "gl";',
]
DRIVER_CALLS = ('cap_real.f.glGetIntegerv(p, &v); x = CAP_REAL_OR_NULL(glIsProgram); '
                'y = REAL(fn, glGetProgramiv); /* cap_real.f.glFinish */\n'
                '#define CAP_R(name) \\\n    cap_real.f.name\n')


def self_test(ck):
    for src in NAME_LITERALS:
        ck.check(f'the literal rule finds the name literal in {src!r}', name_literals(src))
    for src in NOT_NAME_LITERALS:
        found = name_literals(src)
        ck.check(f'the literal rule takes no name literal from {src!r}', not found, found)
    found = driver_uses(DRIVER_CALLS)
    ck.check('the driver-call rule finds the three calls of its example, not the one in a comment '
             'nor the one in a #define', found == {'glGetIntegerv', 'glIsProgram', 'glGetProgramiv'}, sorted(found))


def sources(repo, dirs):
    for d in dirs:
        for f in sorted(os.listdir(os.path.join(repo, d))):
            if f.endswith(('.c', '.h')):
                yield os.path.join(d, f), open(os.path.join(repo, d, f), encoding='utf-8').read()


def check_literals(ck, repo):
    found = [(path, ln, s) for path, text in sources(repo, DIRS) for ln, s in name_literals(text)]
    for path, ln, s in found:
        print(f'{path}:{ln}: "{s}": a GL/EGL function name in hand-written C')
    ck.check(f'no GL/EGL function name is a string literal in hand-written C ({"/ ".join(DIRS)}/)', not found,
             f'{len(found)} listed above: say what is special about each function in api/annotations.txt and read '
             'it from the generated tables (a bootstrap name that cannot be otherwise: a `bootstrap:` comment with '
             'the reason on its line or the line before)')


def check_drivers(ck, repo):
    declared = {}
    with open(os.path.join(repo, 'api', 'annotations.txt')) as f:
        for no, raw in enumerate(f, 1):
            w = raw.split('#', 1)[0].split()
            if len(w) == 2 and w[0] == 'driver':
                declared[w[1]] = no
    used = {}
    for path, text in sources(repo, ('capture',)):
        for name in driver_uses(text):
            used.setdefault(name, path)
    undeclared = [f'{path}: calls the driver\'s {name}: declare it with `driver {name}` in api/annotations.txt'
                  for name, path in sorted(used.items()) if name not in declared]
    unused = [f'api/annotations.txt:{no}: driver {name}: no hand-written capture code calls it'
              for name, no in sorted(declared.items()) if name not in used]
    for line in undeclared + unused:
        print(line)
    ck.check('every driver function hand-written capture code calls has a `driver` line in api/annotations.txt',
             not undeclared, f'{len(undeclared)} listed above')
    ck.check('every `driver` line of api/annotations.txt is called by hand-written capture code',
             not unused, f'{len(unused)} listed above')


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ('literals', 'drivers'):
        sys.exit(__doc__)
    mode, repo = sys.argv[1:3]
    ck = gt.Checker('api.no_function_names_in_runtime_c' if mode == 'literals' else 'api.driver_calls_declared')
    self_test(ck)
    (check_literals if mode == 'literals' else check_drivers)(ck, repo)
    ck.exit()


if __name__ == '__main__':
    main()

"""Reads api/annotations.txt and attaches to every pointer parameter (and
pointer return value) of the covered commands the rule that describes it.
Every error names the file, line, command and parameter."""

import fnmatch
import re

DIRS = {'auto', 'in', 'out', 'inout', 'deferred', 'callback', 'opaque'}


class AnnotationError(Exception):
    pass


class Ptr:
    """What lies behind one pointer: direction and count (see the file)."""

    def __init__(self, direction, count, line):
        self.dir = direction
        self.count = count
        self.line = line

    @property
    def count_kind(self):
        c = self.count
        if c == '-':
            return 'none'
        if c in ('string', 'attribs'):
            return c
        if c.startswith('strings('):
            return 'strings'
        if c.startswith('outstring('):
            return 'outstring'
        if c.startswith('@'):
            return 'sizefn'
        return 'expr'


class Rules:
    def __init__(self, path):
        self.path = path
        self.ptr = []       # (cmd glob, param glob, dir, count, lineno)
        self.sizefns = {}   # name -> [arg names]
        self.sizefn_replay = {}  # name -> replay's lower bound of it (bytes), where there is one
        self.hooks = []     # (cmd glob, stage, cfunc, lineno)
        self.replay = []    # (cmd glob, how, lineno): how replay treats a command
        self.checks = []    # (cmd glob, yes/no, lineno): whether replay --check compares a query
        self.maps = []      # (cmd glob, param glob, kind, lineno): values replay maps
        self.classes = []   # (cmd glob, class, lineno): draw, frame or none (timing mode)
        with open(path) as f:
            for no, raw in enumerate(f, 1):
                line = raw.split('#', 1)[0].strip()
                if not line:
                    continue
                w = line.split()
                if w[0] == 'ptr' and len(w) == 5:
                    if w[3] not in DIRS:
                        raise AnnotationError(f'{path}:{no}: unknown direction {w[3]!r}')
                    self.ptr.append((w[1], w[2], w[3], w[4], no))
                elif w[0] == 'sizefn' and len(w) in (2, 3):
                    m = re.match(r'^(\w+)\(([\w,]*)\)$', w[1])
                    if not m:
                        raise AnnotationError(f'{path}:{no}: bad sizefn {w[1]!r}')
                    self.sizefns[m.group(1)] = m.group(2).split(',') if m.group(2) else []
                    if len(w) == 3:
                        r = re.match(r'^replay=(\w+)$', w[2])
                        if not r:
                            raise AnnotationError(f'{path}:{no}: expected replay=FUNCTION, not {w[2]!r}')
                        self.sizefn_replay[m.group(1)] = r.group(1)
                elif w[0] == 'check' and len(w) == 3:
                    if w[2] not in ('yes', 'no'):
                        raise AnnotationError(f'{path}:{no}: check takes yes or no, not {w[2]!r}')
                    self.checks.append((w[1], w[2], no))
                elif w[0] == 'replay' and len(w) == 3:
                    if w[2] not in ('call', 'skip', 'egl'):
                        raise AnnotationError(f'{path}:{no}: unknown replay treatment {w[2]!r}')
                    self.replay.append((w[1], w[2], no))
                elif w[0] == 'map' and len(w) == 4:
                    self.maps.append((w[1], w[2], w[3], no))
                elif w[0] == 'class' and len(w) == 3:
                    if w[2] not in ('draw', 'frame', 'current', 'none'):
                        raise AnnotationError(f'{path}:{no}: unknown class {w[2]!r}')
                    self.classes.append((w[1], w[2], no))
                elif w[0] == 'hook' and len(w) == 4:
                    if w[2] not in ('pre', 'post', 'end', 'replace', 'replay', 'error', 'idle', 'check'):
                        raise AnnotationError(f'{path}:{no}: unknown hook stage {w[2]!r}')
                    self.hooks.append((w[1], w[2], w[3], no))
                else:
                    raise AnnotationError(f'{path}:{no}: cannot read {line!r}')

    def _check_count(self, cmd, pname, count, no):
        names = {p.name for p in cmd.params}
        where = f'{self.path}:{no}: {cmd.name} {pname}'
        if count in ('-', 'string', 'attribs', 'registry'):
            return
        m = re.match(r'^strings\((\w+),(-1|\w+)\)$', count) or re.match(r'^outstring\((\w+),(-|\w+)\)$', count)
        if m:
            for a in m.groups():
                if a not in ('-1', '-') and a not in names:
                    raise AnnotationError(f'{where}: {a!r} is not a parameter')
            return
        m = re.match(r'^@(\w+)\((.*)\)$', count)
        if m:
            fn, args = m.group(1), [a for a in m.group(2).split(',') if a]
            if fn not in self.sizefns:
                raise AnnotationError(f'{where}: size function {fn} is not declared')
            if len(args) != len(self.sizefns[fn]):
                raise AnnotationError(f'{where}: {fn} takes {len(self.sizefns[fn])} arguments')
            for a in args:
                if not (a in names or re.match(r'^(-?\d+|GL_\w+|EGL_\w+)$', a)):
                    raise AnnotationError(f'{where}: {a!r} is not a parameter')
            return
        for ident in re.findall(r'[A-Za-z_]\w*', count):
            if ident not in names:
                raise AnnotationError(f'{where}: {ident!r} in {count!r} is not a parameter')

    def match(self, cmd, pname, plen, const):
        """The first rule for this pointer, or None."""
        for cglob, pglob, d, count, no in self.ptr:
            if not fnmatch.fnmatchcase(cmd.name, cglob) or not fnmatch.fnmatchcase(pname, pglob):
                continue
            if count == 'registry':
                if not plen or 'COMPSIZE' in plen:
                    continue
                count = plen.replace(' ', '')
            if d == 'auto':
                d = 'in' if const else 'out'
            try:
                self._check_count(cmd, pname, count, no)
            except AnnotationError:
                # A glob line whose count names parameters this command does
                # not have is not meant for it; an exact line is a mistake.
                if any(ch in cglob for ch in '*?['):
                    continue
                raise
            return Ptr(d, count, no)
        return None

    def apply(self, cmds):
        """Attaches rules; raises naming every uncovered pointer."""
        missing = []
        for c in cmds:
            for p in c.params:
                if p.type.pointer:
                    p.ann = self.match(c, p.name, p.len, p.type.const)
                    if p.ann is None:
                        missing.append(f'{c.name} parameter {p.name} ({p.type.text})')
            c.ret_ann = None
            if c.ret.pointer:
                c.ret_ann = self.match(c, "return", None, c.ret.const)
                if c.ret_ann is None:
                    missing.append(f'{c.name} return value ({c.ret.text})')
            for cglob, stage, fn, no in self.hooks:
                if fnmatch.fnmatchcase(c.name, cglob):
                    c.hooks.setdefault(stage, fn)
            c.cls = next((k for g, k, _ in self.classes if fnmatch.fnmatchcase(c.name, g)), 'none')
            c.replay = next((how for g, how, _ in self.replay if fnmatch.fnmatchcase(c.name, g)), 'call')
            c.check = next((k for g, k, _ in self.checks if fnmatch.fnmatchcase(c.name, g)), 'yes') == 'yes'

            c.maps = {}
            for p in c.params:
                kind = next((k for g, pg, k, _ in self.maps
                             if fnmatch.fnmatchcase(c.name, g) and fnmatch.fnmatchcase(p.name, pg)), None)
                if kind:
                    c.maps[p.name] = kind
            # `-` (a first match that says "none") keeps a glob off a command.
            c.hooks = {stage: fn for stage, fn in c.hooks.items() if fn != '-'}
        if missing:
            raise AnnotationError(
                f'{self.path}: no annotation for {len(missing)} pointer(s):\n  ' + '\n  '.join(missing))
        names = {c.name for c in cmds}
        for cglob, stage, fn, no in self.hooks:
            if not any(fnmatch.fnmatchcase(n, cglob) for n in names):
                raise AnnotationError(f'{self.path}:{no}: hook for {cglob}: no covered command matches')
        for cglob, k, no in self.classes:
            if not any(fnmatch.fnmatchcase(n, cglob) for n in names):
                raise AnnotationError(f'{self.path}:{no}: class for {cglob}: no covered command matches')

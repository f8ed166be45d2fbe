"""Reads api/annotations.txt and attaches to every pointer parameter (and
pointer return value) of the covered commands the rule that describes it.
Every error names the file, line, command and parameter."""

import fnmatch
import re

DIRS = {'auto', 'in', 'out', 'inout', 'deferred', 'callback', 'opaque'}
# `object` lines: what a command does to one object, and where it is.
OBJECT_ROLES = ('contents', 'pins', 'deletes', 'reads', 'asks', 'maps', 'unmaps', 'flushes')
# The registry's object classes an `object` line may name (shaders share
# the programs' names).
OBJECT_CLASSES = {'texture': 'texture', 'buffer': 'buffer', 'renderbuffer': 'renderbuffer', 'program': 'program',
                  'shader': 'program', 'sampler': 'sampler', 'sync': 'sync', 'framebuffer': 'framebuffer',
                  'query': 'query', 'vertex array': 'vertex array'}
# `state` lines: a command that only sets a piece of state (trim's step 8).
# A key's part asked of the replay's driver: @GL_PNAME (glGetIntegerv), or
# @bound:PARAM (the object bound to the target PARAM holds), or
# @bound:GL_TARGET (the object bound to that target: no key read implied).
STATE_KEY = re.compile(r'^(~?[A-Za-z_]\w*)(?:\[([^\]]*)\])?$')
CLASSES = ('none', 'draw', 'frame', 'current', 'teardown', 'arrays', 'context', 'push', 'pop', 'pbuffer', 'api', 'flush')
# Argument roles of a draw that reads client arrays, and the registry's
# parameter names that give them (`draw` lines name the others).
DRAW_ROLES = ('first', 'count', 'type', 'indices', 'instancecount', 'basevertex', 'drawcount', 'start', 'end',
              'baseinstance')
DRAW_NAMES = {'first': 'first', 'count': 'count', 'type': 'type', 'indices': 'indices',
              'instancecount': 'instancecount', 'primcount': 'instancecount',
              'basevertex': 'basevertex', 'drawcount': 'drawcount', 'start': 'start', 'end': 'end',
              'baseinstance': 'baseinstance'}


# What replay has of a client array (a glVertexAttribPointerData record),
# by the setters' parameter names: the C expression over rp_array *a.
ARRAY_PARAMS = {'index': '(GLuint)a->index', 'size': 'a->size', 'type': 'a->type',
                'normalized': 'a->normalized', 'stride': 'a->stride', 'pointer': 'a->ptr'}


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
        self.classes = []   # (cmd glob, class, lineno): what a command is to every tool
        self.handlers = []  # (cmd glob, C handler, lineno): replay's hand-written EGL handlers
        self.draws = []     # (cmd glob, {role: param} or None, lineno): roles names do not give
        self.units = []     # (cmd glob, selector command, lineno): arrays set per texture unit
        self.components = []  # (cmd glob, N, lineno): an array setter's fixed components per element
        self.pixels = []    # (cmd glob, reads/clears/discards/-, lineno): what a command does with the framebuffer's pixels
        self.nullable = []  # (cmd glob, param glob, lineno): `in` pointers the GL reads nothing through when NULL
        self.objects = []   # (cmd glob, role, where, lineno): what a command does to one object (trim)
        self.writes = []    # (cmd glob, param, lineno): the object a command also writes (a copy's destination)
        self.drivers = []   # (command, lineno): the driver's functions hand-written capture calls
        self.exposes = []   # (cmd glob, lineno): makes an object's contents reachable through another
        self.states = []    # (cmd glob, [key, read keys...] or None, lineno): what a state command sets (trim)
        self.reads = []     # (cmd glob, [read keys...], lineno): the state another command reads (trim)
        self.reads_used = set()  # line numbers of the `reads` lines some command took (first match)
        self.driver_names = []
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
                elif w[0] == 'replay' and len(w) in (3, 4):
                    if w[2] not in ('call', 'skip', 'egl'):
                        raise AnnotationError(f'{path}:{no}: unknown replay treatment {w[2]!r}')
                    if len(w) == 4 and (w[2] != 'egl' or not re.match(r'^rp_\w+$', w[3])):
                        raise AnnotationError(f'{path}:{no}: only `egl` names a handler, rp_NAME')
                    self.replay.append((w[1], w[2], no))
                    if len(w) == 4:
                        self.handlers.append((w[1], w[3], no))
                elif w[0] == 'draw' and len(w) >= 3:
                    self.draws.append((w[1], self._draw_roles(w[2:], path, no), no))
                elif w[0] == 'unit' and len(w) == 3:
                    self.units.append((w[1], w[2], no))
                elif w[0] == 'components' and len(w) == 3:
                    if not w[2].isdigit() or not 1 <= int(w[2]) <= 4:
                        raise AnnotationError(f'{path}:{no}: components takes 1 to 4, not {w[2]!r}')
                    self.components.append((w[1], int(w[2]), no))
                elif w[0] == 'pixels' and len(w) == 3:
                    if w[2] not in ('reads', 'clears', 'discards', '-'):
                        raise AnnotationError(f'{path}:{no}: pixels takes reads, clears, discards or -, not {w[2]!r}')
                    self.pixels.append((w[1], w[2], no))
                elif w[0] == 'exposes' and len(w) == 2:
                    self.exposes.append((w[1], no))
                elif w[0] == 'object' and len(w) == 4:
                    if w[2] not in OBJECT_ROLES:
                        raise AnnotationError(f'{path}:{no}: object takes {", ".join(OBJECT_ROLES)}, not {w[2]!r}')
                    self.objects.append((w[1], w[2], w[3], no))
                elif w[0] == 'writes' and len(w) == 3:
                    self.writes.append((w[1], w[2], no))
                elif w[0] == 'state' and len(w) >= 3:
                    keys = None if w[2:] == ['-'] else [self._state_key(k, path, no, i == 0)
                                                        for i, k in enumerate(w[2:])]
                    self.states.append((w[1], keys, no))
                elif w[0] == 'reads' and len(w) >= 3:
                    keys = [] if w[2:] == ['-'] else [self._state_key(k, path, no, False) for k in w[2:]]
                    self.reads.append((w[1], keys, no))
                elif w[0] == 'nullable' and len(w) == 3:
                    self.nullable.append((w[1], w[2], no))
                elif w[0] == 'driver' and len(w) == 2:
                    self.drivers.append((w[1], no))
                elif w[0] == 'map' and len(w) == 4:
                    if w[3].startswith('class:') and w[3][len('class:'):] not in OBJECT_CLASSES:
                        raise AnnotationError(f'{path}:{no}: unknown object class {w[3]!r}')
                    self.maps.append((w[1], w[2], w[3], no))
                elif w[0] == 'class' and len(w) == 3:
                    if w[2] not in CLASSES:
                        raise AnnotationError(f'{path}:{no}: unknown class {w[2]!r}')
                    self.classes.append((w[1], w[2], no))
                elif w[0] == 'hook' and len(w) == 4:
                    if w[2] not in ('pre', 'post', 'end', 'replace', 'replay', 'error', 'idle', 'check'):
                        raise AnnotationError(f'{path}:{no}: unknown hook stage {w[2]!r}')
                    self.hooks.append((w[1], w[2], w[3], no))
                else:
                    raise AnnotationError(f'{path}:{no}: cannot read {line!r}')

    @staticmethod
    def _draw_roles(words, path, no):
        if words == ['-']:
            return None
        roles = {}
        for w in words:
            role, _, param = w.partition('=')
            if role not in DRAW_ROLES or not param:
                raise AnnotationError(f'{path}:{no}: expected ROLE=PARAM (roles: {" ".join(DRAW_ROLES)}), not {w!r}')
            roles[role] = param
        return roles

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
            c.egl_handler = next((h for g, h, _ in self.handlers if fnmatch.fnmatchcase(c.name, g)), None)
            c.draw_roles = self._roles_of(c)
            c.unit_select = next((s for g, s, _ in self.units if fnmatch.fnmatchcase(c.name, g)), None)
            c.components = next((k for g, k, _ in self.components if fnmatch.fnmatchcase(c.name, g)), 0)
            c.pixels = next((k for g, k, _ in self.pixels if fnmatch.fnmatchcase(c.name, g)), '-')
            for p in c.params:  # `map ... class:CLASS`: the registry's class, where gl.xml gives none
                kind = next((k for g, pg, k, _ in self.maps
                             if fnmatch.fnmatchcase(c.name, g) and fnmatch.fnmatchcase(p.name, pg)), '')
                if kind.startswith('class:'):
                    p.klass = kind[len('class:'):]
                p.named_by = kind[len('named:'):] if kind.startswith('named:') else None
            c.object = self._object_of(c)
            c.obj_writes = self._writes_of(c)
            c.exposes = any(fnmatch.fnmatchcase(c.name, g) for g, _ in self.exposes)
            c.state = self._state_of(c)
            for p in c.params:
                p.nullable = any(fnmatch.fnmatchcase(c.name, g) and fnmatch.fnmatchcase(p.name, pg)
                                 for g, pg, _ in self.nullable)
            c.check = next((k for g, k, _ in self.checks if fnmatch.fnmatchcase(c.name, g)), 'yes') == 'yes'

            c.maps = {}
            for p in c.params:
                kind = next((k for g, pg, k, _ in self.maps
                             if fnmatch.fnmatchcase(c.name, g) and fnmatch.fnmatchcase(p.name, pg)), None)
                if kind and not kind.startswith('class:'):
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
        for what, rows in (('class', self.classes), ('replay handler', self.handlers), ('draw', self.draws),
                           ('unit', self.units), ('components', self.components), ('nullable', self.nullable),
                           ('pixels', self.pixels), ('object', [(g, r, n) for g, r, _, n in self.objects]),
                           ('writes', self.writes),
                           ('state', self.states)):
            for cglob, _, no in rows:
                if not any(fnmatch.fnmatchcase(n, cglob) for n in names):
                    raise AnnotationError(f'{self.path}:{no}: {what} for {cglob}: no covered command matches')
        for name, no in self.drivers:
            if name not in names:
                raise AnnotationError(f'{self.path}:{no}: driver {name}: not a covered command')
        self.driver_names = sorted({n for n, _ in self.drivers})
        self._check_arrays(cmds)
        self._check_state_reads(cmds)
        for g, _, no in self.reads:
            if no not in self.reads_used:  # an earlier, wider glob took all it names (first match wins)
                raise AnnotationError(f'{self.path}:{no}: reads {g}: no command takes this line (an earlier '
                                      f'line matches all it names)')

    def _writes_of(self, c):
        """1 + the index of the parameter naming the object c also writes
        (its `writes` line), or 0."""
        for g, name, no in self.writes:
            if not fnmatch.fnmatchcase(c.name, g):
                continue
            i = next((i for i, p in enumerate(c.params) if p.name == name), None)
            if i is None or not (c.params[i].klass in OBJECT_CLASSES or getattr(c.params[i], 'named_by', None)):
                raise AnnotationError(f'{self.path}:{no}: writes {c.name}: {name!r} is not a parameter naming an '
                                      'object')
            return i + 1
        return 0

    def _object_of(self, c):
        """(role, where, param index, class) of the first `object` line
        matching c, or None. where: param (the object the parameter names),
        bound (the one bound to the target a parameter holds), bound_to (to
        a fixed target: param is then the enum's name), active (the query
        active on the target a parameter holds, before the command: an
        end), current (the program in use), all (every object of the share
        group). A glob line whose parameter c lacks is not meant for it."""
        pos = {p.name: i for i, p in enumerate(c.params)}
        for g, role, where, no in self.objects:
            if not fnmatch.fnmatchcase(c.name, g):
                continue
            glob = any(ch in g for ch in '*?[')
            err = None
            if where == 'current':
                return (role, 'current', 0, 'program')
            if where == 'all':
                return (role, 'all', 0, None)
            if where.startswith('bound:GL_'):
                return (role, 'bound_to', where[6:], None)
            if where == 'active':  # no target: the one this context's last such begin named
                return (role, 'active', 255, 'query')
            if where.startswith('active:'):
                if where[7:] in pos:
                    return (role, 'active', pos[where[7:]], 'query')
                err = f'{where[7:]!r} is not a parameter'
                if not glob:
                    raise AnnotationError(f'{self.path}:{no}: object {c.name}: {err}')
                continue
            if where.startswith('bound:'):
                if where[6:] in pos:
                    return (role, 'bound', pos[where[6:]], None)
                err = f'{where[6:]!r} is not a parameter'
            elif where == '-':
                named = [i for i, p in enumerate(c.params) if p.klass in OBJECT_CLASSES]
                if len(named) == 1:
                    return (role, 'param', named[0], OBJECT_CLASSES[c.params[named[0]].klass])
                err = f'{len(named)} parameters name an object of {", ".join(sorted(set(OBJECT_CLASSES)))}'
            elif where in pos:
                p = c.params[pos[where]]
                if p.klass in OBJECT_CLASSES:
                    return (role, 'param', pos[where], OBJECT_CLASSES[p.klass])
                if getattr(p, 'named_by', None):  # its class another parameter gives: asked at replay
                    return (role, 'param', pos[where], None)
                err = f'parameter {where!r} names no object of {", ".join(sorted(set(OBJECT_CLASSES)))}'
            else:
                err = f'{where!r} is not a parameter'
            if not glob:
                raise AnnotationError(f'{self.path}:{no}: object {c.name}: {err}')
        return None

    @staticmethod
    def _state_key(word, path, no, first):
        """(name, [part...]) of a `state` key: NAME or NAME[PART,...]; the
        key set may be ~NAME (it changes what is there), a key read NAME[*]
        (every key of that name). A part @GL_PNAME?VALUE (the last of two)
        counts only when the first part is VALUE; the read of GL_PNAME it
        implies is added by _keys_of as GL_PNAME?PARAM=VALUE, which the
        emitter (api/emit_tables.py) resolves."""
        m = STATE_KEY.match(word)
        parts = m.group(2).split(',') if m and m.group(2) else []
        if not m or len(parts) > 3 or not all(parts) or (m.group(1)[0] == '~') != (first and m.group(1)[0] == '~') \
                or (parts == ['*'] and first) or ('*' in parts and parts != ['*']):
            raise AnnotationError(f'{path}:{no}: expected NAME or NAME[PART,...] (up to 3 parts; ~NAME only for the '
                                  f'key set, NAME[*] only for a key read), not {word!r}')
        if parts == ['*']:
            return m.group(1), '*'
        for i, part in enumerate(parts):
            if part.startswith('binding:') and not re.match(r'^binding:\w+$', part):
                raise AnnotationError(f'{path}:{no}: a binding target is binding:PARAM, not {part!r}')
            if part.startswith('@') and not re.match(r'^@(GL_\w+|bound:\w+)$', part) and \
                    not (re.match(r'^@GL_\w+\?(\d+|GL_\w+)$', part) and 0 < i == len(parts) - 1 < 2):
                raise AnnotationError(f'{path}:{no}: a part asked of the driver is @GL_PNAME, @bound:PARAM or '
                                      f'@bound:GL_TARGET (or, last of two, @GL_PNAME?VALUE), not {part!r}')
        return m.group(1), parts

    def _state_of(self, c):
        """[(name, parts)...] of the first `state` line matching c: the key
        it sets, then the keys it reads, each part resolved to ('param',
        index), ('bound', index), ('get', 'GL_PNAME') or ('value', number or
        'GL_ENUM'); a part asked of the driver reads the key of that name
        too. Else of the first `reads` line: the key set is ('-', []), none.
        None: neither. A glob line naming a parameter c lacks is not meant
        for it."""
        out = self._keys_of(c, self.states, 'state')
        if out is None:
            out = self._keys_of(c, [(g, [('-', [])] + keys, no) for g, keys, no in self.reads], 'reads')
            if out is not None:
                self.reads_used.add(next(no for g, _, no in self.reads if fnmatch.fnmatchcase(c.name, g)))
        return out

    def _keys_of(self, c, lines, what):
        pos = {p.name: i for i, p in enumerate(c.params)}
        for g, keys, no in lines:
            if not fnmatch.fnmatchcase(c.name, g):
                continue
            if keys is None:
                return None
            out, err = [], None
            for name, parts in keys:
                if parts == '*':
                    out.append((name, '*'))
                    continue
                res = []
                for part in parts:
                    if part.startswith('@bound:GL_'):  # a fixed target: the object bound there
                        res.append(('boundto', part[7:]))
                    elif part.startswith('@bound:'):
                        if part[7:] not in pos:
                            err = f'{part[7:]!r} is not a parameter'
                        res.append(('bound', pos.get(part[7:], 0)))
                    elif part.startswith('binding:'):  # a target's binding target (rp_trim_binding_target)
                        if part[8:] not in pos:
                            err = f'{part[8:]!r} is not a parameter'
                        res.append(('binding', pos.get(part[8:], 0)))
                    elif part.startswith('@') and '?' in part:  # counts when the first part is VALUE
                        pname, value = part[1:].split('?')
                        res.append(('getwhen', (pname, value, parts[0])))
                    elif part.startswith('@'):
                        res.append(('get', part[1:]))
                    elif re.match(r'^(\d+|GL_\w+)$', part):
                        res.append(('value', int(part) if part.isdigit() else part))
                    elif part in pos:
                        res.append(('param', pos[part]))
                    else:
                        err = f'{part!r} is not a parameter'
                out.append((name, res))
            if err:
                if any(ch in g for ch in '*?['):
                    continue
                raise AnnotationError(f'{self.path}:{no}: {what} {c.name}: {err}')
            for name, res in list(out):
                for kind, v in (res if res != '*' else []):
                    if kind == 'get' and (v, []) not in out[1:]:
                        out.append((v, []))
                    elif kind == 'getwhen':  # read as the part counts: when the first part is VALUE
                        out.append((f'{v[0]}?{v[2]}={v[1]}', []))
            return out
        return None

    def _check_state_reads(self, cmds):
        """Every key a state command reads is one some command sets (by
        name and number of parts): a misspelt read would read nothing."""
        sets = {(k[0][0].lstrip('~'), len(k[0][1])) for k in (c.state for c in cmds) if k and k[0][0] != '-'}
        names = {n for n, _ in sets}
        for c in cmds:
            for name, parts in (c.state or [])[1:]:
                name = name.split('?')[0]
                if (parts == '*' and name not in names) or (parts != '*' and (name, len(parts)) not in sets):
                    no = next(n for g, _, n in self.states + self.reads if fnmatch.fnmatchcase(c.name, g))
                    raise AnnotationError(f'{self.path}:{no}: state {c.name}: reads {name} with '
                                          f'{"any" if parts == "*" else len(parts)} parts, which no state command '
                                          f'sets')

    def _roles_of(self, c):
        """{role: parameter index} of a draw that reads client arrays, or
        None: from the parameter names, unless a `draw` line says otherwise.
        A draw reads client arrays when it has a count and a first vertex or
        indices; a count that is an array makes it a multi-draw."""
        if c.cls != 'draw':
            return None
        pos = {p.name: i for i, p in enumerate(c.params)}
        for g, r, no in self.draws:
            if not fnmatch.fnmatchcase(c.name, g):
                continue
            missing = [p for p in (r or {}).values() if p not in pos]
            if not missing:
                given = r
                break
            # As for `ptr` lines: a glob is not meant for a command without
            # those parameters; an exact name is a mistake.
            if not any(ch in g for ch in '*?['):
                raise AnnotationError(f'{self.path}:{no}: {c.name} has no parameter {missing[0]!r}')
        else:
            given = {}
        if given is None:  # `draw COMMAND -`
            return None
        roles = {role: pos[param] for role, param in given.items()}
        taken = set(given.values())
        for i, p in enumerate(c.params):
            role = DRAW_NAMES.get(p.name)
            if role and p.name not in taken and role not in roles:
                roles[role] = i
        if 'count' not in roles or ('first' not in roles and 'indices' not in roles):
            return None
        return roles

    def _check_arrays(self, cmds):
        """An array setter (`class arrays`) is called by replay with the
        recorded array's values: its parameters must be ones replay has."""
        byname = {c.name: c for c in cmds}
        for c in cmds:
            if c.unit_select:
                sel = byname.get(c.unit_select)
                if c.cls != 'arrays' or not sel or [p.type.text for p in sel.params] != ['GLenum']:
                    raise AnnotationError(f'{self.path}: unit {c.name} {c.unit_select}: an array setter and a '
                                          'covered command of one GLenum parameter')
            if c.cls == 'arrays' and bool(c.components) == any(p.name == 'size' for p in c.params):
                raise AnnotationError(f'{self.path}: class arrays: {c.name}: a `components` line goes with a '
                                      'setter that has no size parameter, and only with one')
            if c.components and c.cls != 'arrays':
                raise AnnotationError(f'{self.path}: components {c.name}: not an array setter')
            if c.cls == 'arrays':
                extra = [p.name for p in c.params if p.name not in ARRAY_PARAMS]
                if extra:
                    raise AnnotationError(f'{self.path}: class arrays: {c.name} has parameters replay cannot '
                                          f'give: {", ".join(extra)}')

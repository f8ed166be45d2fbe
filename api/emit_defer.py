"""Which commands capture may hold back while writing is off, and the C
that says which piece of state each one sets (capture/cap_defer.c).

Before the start of a mid-run capture (GLTRACE_START_FRAME, the trace
server's spool before a host's start) a command that only sets state (a
`state` line of api/annotations.txt, the same lines trim's step 8 reads)
is not written at once: it waits in the thread's queue, keyed by the piece
it sets, and a later command setting the same piece replaces it. Any other
command writes the queue first. So a loop that sets state and draws
nothing writes one command per piece, and what a draw sees is what it saw.
A query replay does not issue (`replay ... skip`: glGet*, glIs*) is not
written at all then (api/emit_capture.py): trim leaves it out of a setup.
Nor is a draw into a window surface that its thread has swapped (trim's
step 2 leaves such draws out) on a GLES 1 or 2 context (no transform
feedback or storage writes, which trim keeps): the window's pixels are
written where writing comes on again (capture/cap_defer.c). Which
framebuffer is bound for drawing is tracked like a selector, from the
binding commands (DRAW_TARGETS below).

A key here is the `state` line's name and parts, computed before the call
from the command's arguments and from the selectors (the pieces named
@GL_PNAME, which the commands of a `state` line of that name and no parts
set: glActiveTexture sets GL_ACTIVE_TEXTURE). Capture tracks a selector
from its command's one argument; a selector not known on this thread since
its last eglMakeCurrent makes the command one written at once. A command
whose key needs the driver (@bound:...), that changes what is there
(~NAME), or that has a hook writing or reading around it, is always
written at once."""

SEL_MAX = 8      # capture/cap_internal.h CAP_DEFER_NSEL
NAMES_MAX = 256  # capture/cap_defer.c Q_NAMES


def key_names(cmds):
    """The key names, numbered from 1 in sorted order (0: no key)."""
    names = sorted({k[0].lstrip('~').split('?')[0] for c in cmds for k in (c.state or []) if k[0] != '-'})
    if len(names) >= NAMES_MAX:
        raise SystemExit(f'gen_api.py: {len(names)} state key names, capture counts at most {NAMES_MAX - 1}')
    return {n: i + 1 for i, n in enumerate(names)}


# The binding targets that bind the framebuffer draws go to: GLES 2's one
# target binds both; GLES 3 splits it. (The registry says which parameter
# names a framebuffer, not what its targets mean.)
DRAW_TARGETS = ('GL_FRAMEBUFFER', 'GL_DRAW_FRAMEBUFFER')
DRAW_FB = 'draw framebuffer'  # the pseudo-selector's name in selectors()


def selectors(cmds):
    """pname -> slot, for the `state` lines that set a selector: a key named
    GL_PNAME with no parts. Its value is the command's one argument. Then
    DRAW_FB, the framebuffer bound for drawing (draw_binding)."""
    slots = {}
    for c in cmds:
        if not c.state or c.state[0][0] == '-' or c.state[0][1] or not c.state[0][0].startswith('GL_'):
            continue
        if len(c.params) != 1 or c.params[0].type.pointer:
            raise SystemExit(f'gen_api.py: state {c.name}: a selector ({c.state[0][0]}) is set by the one '
                             f'argument of its command; {c.name} has {len(c.params)}')
        slots.setdefault(c.state[0][0], len(slots))
    slots[DRAW_FB] = len(slots)
    if len(slots) > SEL_MAX:
        raise SystemExit(f'gen_api.py: {len(slots)} selectors, capture tracks at most {SEL_MAX}')
    return slots


def _part(kind, v, c, enums, sel, first):
    """(C value, C condition for it to be known[, C condition that it
    counts]) of one part, or None."""
    if kind in ('param', 'binding'):
        # A binding target is the parameter itself here: capture keys each
        # target apart (binding GL_FRAMEBUFFER is not taken for the draw
        # binding, which a later draw binding would replace whole: it sets
        # the read binding too, as trim's rp_trim_binding_also knows).
        return f'(uint64_t)(int64_t)x_{c.params[v].name}', None
    if kind == 'value':
        n = v if isinstance(v, int) else enums.get(v)
        return (f'0x{n & 0xffffffff:x}u', None) if n is not None else None
    if kind == 'get' and v in sel:
        return f't->sel[{sel[v]}]', f't->sel[{sel[v]}] != CAP_SEL_UNKNOWN'
    if kind == 'getwhen' and v[0] in sel and v[2] in [p.name for p in c.params]:
        cond = int(v[1]) if v[1].isdigit() else enums.get(v[1])
        if cond is None:
            return None
        is_it = f'x_{v[2]} == 0x{cond & 0xffffffff:x}u'
        return (f'({is_it} ? t->sel[{sel[v[0]]}] : 0)', f'(!({is_it}) || t->sel[{sel[v[0]]}] != CAP_SEL_UNKNOWN)',
                f'({is_it})')
    return None  # asked of the driver (@bound:...): not known to capture


def plan(c, names, sel, enums):
    """(C statements filling dk[], C condition that every key is known,
    number of keys, selector slot the command sets or None), or None when
    the command is always written at once."""
    if not c.state or c.state[0][0] == '-' or c.state[0][0].startswith('~') or c.ret.kind != 'VOID':
        return None
    if any(stage in c.hooks for stage in ('pre', 'end', 'replace', 'idle')):
        return None
    stmts, known = [], []
    for i, (name, parts) in enumerate(c.state):
        if parts == '*':  # a read of every key of the name
            stmts.append(f'dk[{i}] = (cap_defer_key){{{names[name]}, 0, 1, {{0, 0, 0}}}};')
            continue
        if '?' in name:  # NAME?PARAM=VALUE: a read of selector NAME when the parameter is VALUE
            base, cond = name.split('?')
            param, value = cond.split('=')
            n = int(value) if value.isdigit() else enums.get(value)
            if n is None or base not in sel or param not in [p.name for p in c.params]:
                return None
            is_it = f'x_{param} == 0x{n & 0xffffffff:x}u'
            stmts.append(f'dk[{i}] = (cap_defer_key){{({is_it}) ? {names[base]} : 0, 0, 0, {{0, 0, 0}}}};')
            known.append(f'(!({is_it}) || t->sel[{sel[base]}] != CAP_SEL_UNKNOWN)')
            continue
        vals, nparts = [], str(len(parts))
        for j, (kind, v) in enumerate(parts):
            got = _part(kind, v, c, enums, sel, j == 0)
            if got is None:
                return None
            vals.append(got[0])
            if got[1]:
                known.append(got[1])
            if kind == 'getwhen':  # not counted when its condition fails: the key of fewer parts others read
                nparts = f'({got[2]} ? {len(parts)} : {len(parts) - 1})'
        vals += ['0'] * (3 - len(vals))
        stmts.append(f'dk[{i}] = (cap_defer_key){{{names[name.lstrip("~")]}, {nparts}, 0, '
                     f'{{{", ".join(vals)}}}}};')
    slot = sel.get(c.state[0][0]) if not c.state[0][1] else None
    return stmts, ' && '.join(dict.fromkeys(known)) or '1', len(c.state), slot


def draw_binding(c, sel, enums):
    """C that notes the framebuffer a binding command binds for drawing, or
    None: a `state` line keyed bind[target] whose command names a
    framebuffer (registry class) and a target."""
    if not c.state or c.state[0][0] != 'bind' or c.state[0][1] == '*':
        return None
    fb = [p for p in c.params if p.klass == 'framebuffer']
    target = [p for p in c.params if p.name == 'target']
    if len(fb) != 1 or len(target) != 1:
        return None
    cond = ' || '.join(f'x_target == 0x{enums[e]:x}u' for e in DRAW_TARGETS)
    return [f'    if (atomic_load_explicit(&cap_defer_on, memory_order_relaxed) && ({cond}))',
            f'        cap_defer_select(t, {sel[DRAW_FB]}, (uint64_t)x_{fb[0].name});']


def window_draw(c, sel):
    """The C condition under which draw command c is not written, or None:
    a draw (class draw, with a primitive mode: not a compute dispatch), a
    clear (`pixels ... clears`) or a blit (`pixels ... reads` with a mask
    and a filter: it writes the buffers its mask names, as a clear does;
    into the window it is left out as a draw is, and into levels followed
    there is nothing to write before it: what it read or wrote is in the
    levels read back, and the window's pixels, where writing comes on)."""
    names = {p.name for p in c.params}
    is_draw = c.cls == 'draw' and 'mode' in names
    is_blit = c.pixels == 'reads' and {'mask', 'filter'} <= names
    if not (is_draw or is_blit or c.pixels == 'clears') or c.ret.kind != 'VOID':
        return None
    mask = f'(uint32_t)x_{c.params[0].name}' if c.pixels == 'clears' else \
        '(uint32_t)x_mask' if is_blit else 'CAP_DRAW_ALL'  # a clear's first: its mask
    return (f'CAP_UNLIKELY(atomic_load_explicit(&cap_defer_on, memory_order_relaxed)) && cap_defer_now() && '
            f'cap_defer_window_draw(t, {sel[DRAW_FB]}, {mask})')


# ---------------------------------------------------------------- texture levels written off
# Before the start, capture/cap_texhold.c keeps out uploads into 2D, cube
# map, 3D and array texture levels it can read back, and writes the level
# read back instead. Which commands those are comes from their `object`
# line (the contents of the texture bound to `target`) and their registry
# parameters: an image (a level, a width and a height, and a depth for a
# 3D one; no compressed size, no storage's level count) defines a level
# when it has an internal format, and changes part of one when it has an x
# offset.
_NOT_IMAGE = {'imageSize', 'levels'}


def _bound_target(c):
    o = c.object
    return o and o[0] == 'contents' and o[1] == 'bound' and c.params[o[2]].name == 'target'


def texture_upload(c):
    """The C condition under which upload c is not written, or None."""
    names = {p.name for p in c.params}
    if not _bound_target(c) or not {'level', 'width', 'height'} <= names or names & _NOT_IMAGE:
        return None
    if 'internalformat' in names:
        define, ifmt = 1, '(uint32_t)x_internalformat'
    elif 'xoffset' in names:
        define, ifmt = 0, '0'
    else:
        return None
    fmt = '(uint32_t)x_format' if 'format' in names else '0'  # a copy's: from its internal format
    typ = '(uint32_t)x_type' if 'type' in names else '0'
    depth = 'x_depth' if define and 'depth' in names else '1'
    return (f'CAP_UNLIKELY(atomic_load_explicit(&cap_defer_on, memory_order_relaxed)) && cap_defer_now() && '
            f'cap_texhold_upload(t, {define}, (uint32_t)x_target, x_level, {ifmt}, x_width, x_height, {depth}, '
            f'{fmt}, {typ})')


def texture_clear(c):
    """The C condition under which a command that changes a level of the
    texture it names (glClearTexImageEXT: an object line `contents` of a
    texture parameter, and a level) is not written: the level is followed
    (capture/cap_texhold.c), or None."""
    o = c.object
    if not o or o[0] != 'contents' or o[1] != 'param' or o[3] != 'texture' or \
            'level' not in {p.name for p in c.params}:
        return None
    return (f'CAP_UNLIKELY(atomic_load_explicit(&cap_defer_on, memory_order_relaxed)) && cap_defer_now() && '
            f't->th_levels && cap_texhold_named(t, x_{c.params[o[2]].name}, x_level)')


def buffer_write(c):
    """The C condition under which a write of buffer contents (the buffer
    bound to `target`: a whole one with a size and usage, or a part at an
    offset) is not written (capture/cap_bufhold.c), or None."""
    names = {p.name for p in c.params}
    if not _bound_target(c) or 'data' not in names or 'size' not in names or names & {'level', 'levels'}:
        return None
    if 'usage' in names:
        call = 'cap_bufhold_data(t, (uint32_t)x_target, (int64_t)x_size, (uint32_t)x_usage)'
    elif 'offset' in names:
        call = 'cap_bufhold_subdata(t, (uint32_t)x_target)'
    else:
        return None
    return f'CAP_UNLIKELY(atomic_load_explicit(&cap_defer_on, memory_order_relaxed)) && cap_defer_now() && {call}'


def pixel_read(c):
    """The C condition under which a pixel read (`pixels reads` whose
    object is the buffer bound to a fixed target, the pack buffer) is not
    written before the start: into the app's memory replay needs nothing of
    it, into a buffer written off it changes that buffer."""
    o = c.object
    if c.pixels != 'reads' or not o or o[0] != 'contents' or o[1] != 'bound_to':
        return None
    return ('CAP_UNLIKELY(atomic_load_explicit(&cap_defer_on, memory_order_relaxed)) && cap_defer_now() && '
            'cap_bufhold_pixel_read(t)')


def texture_storage(c):
    """C noting the levels a storage command (a level count, an internal
    format, a size) makes, or []: its record is written (it makes the
    levels immutable), their uploads and passes are then left out like any
    level's and written back with `texture-level` (`texture-level-3d`)."""
    names = {p.name for p in c.params}
    if not _bound_target(c) or not {'levels', 'internalformat', 'width', 'height'} <= names:
        return []
    depth = 'x_depth' if 'depth' in names else '1'
    return ['    if (CAP_UNLIKELY(atomic_load_explicit(&cap_defer_on, memory_order_relaxed)) && cap_defer_now())',
            '        cap_texhold_storage(t, (uint32_t)x_target, x_levels, (uint32_t)x_internalformat, x_width, '
            f'x_height, {depth});']


def renderbuffer_storage(c):
    """C noting the renderbuffer a storage command of the renderbuffer
    bound (its target's registry group) makes, or []: its record is
    written; draws into it are then left out, and it is written back by a
    copy from a texture (capture/cap_texhold.c)."""
    names = {p.name for p in c.params}
    target = next((p for p in c.params if p.name == 'target'), None)
    if not _bound_target(c) or target is None or target.group != 'RenderbufferTarget' or \
            not {'internalformat', 'width', 'height'} <= names:
        return []
    samples = 'x_samples' if 'samples' in names else '0'
    return ['    if (CAP_UNLIKELY(atomic_load_explicit(&cap_defer_on, memory_order_relaxed)) && cap_defer_now())',
            f'        cap_texhold_renderbuffer(t, (uint32_t)x_target, {samples}, (uint32_t)x_internalformat, '
            'x_width, x_height);']


def texture_before(c):
    """C run before command c is written while levels are written off, or
    []: a command that may read any texture or draw into one (a draw, a
    clear, a read or copy of pixels other than a swap's, a copy between
    objects, an EGL image made) writes the changed levels first; one that otherwise changes the
    texture bound to its target (mipmaps, storage, a compressed upload)
    writes and forgets that texture's; a written upload, and a mapping of
    a buffer written off (capture/cap_bufhold.c), write buffers first;
    one that makes something hold a
    texture (an attachment) marks it; a deletion forgets the deleted, and
    writes a marked one first."""
    o = c.object
    if c.cls == 'draw' or (c.pixels in ('reads', 'clears') and c.cls != 'frame') or (o and o[0] == 'reads') or \
            c.exposes:
        return ['    if (CAP_UNLIKELY(t->th_changed | t->bh_changed))', '        cap_hold_reading(t);']
    if texture_upload(c):  # written: it may read a pixel unpack buffer
        return ['    if (CAP_UNLIKELY(t->bh_changed))', '        cap_bufhold_unpacking(t);']
    if texture_storage(c):
        return texture_storage(c)
    if renderbuffer_storage(c):
        return renderbuffer_storage(c)
    if _bound_target(c) and {'size', 'flags', 'data'} <= {p.name for p in c.params}:
        # A buffer's storage (written): followed from there.
        return ['    if (CAP_UNLIKELY(atomic_load_explicit(&cap_defer_on, memory_order_relaxed)) && cap_defer_now())',
                '        cap_bufhold_storage(t, (uint32_t)x_target, (int64_t)x_size, (uint32_t)x_flags);']
    if o and o[0] == 'maps' and o[1] == 'bound':
        # A write-only mapping of a buffer written off keeps its bytes out.
        access = next((p for p in c.params if p.name == 'access'), None)
        bits = f'(uint32_t)x_access' if access is not None and access.type.kind == 'BITS' else '0'
        names = {p.name for p in c.params}
        rng = '(int64_t)x_offset, (int64_t)x_length' if {'offset', 'length'} <= names else '0, -1'
        return ['    if (CAP_UNLIKELY(t->bh_buffers) && atomic_load_explicit(&cap_defer_on, memory_order_relaxed))',
                f'        cap_bufhold_map(t, (uint32_t)x_target, {bits}, {rng});']
    if _bound_target(c) and not buffer_write(c) and (not c.state or c.state[0][0] == '-'):
        return ['    if (CAP_UNLIKELY(t->th_levels | t->bh_buffers))', '        cap_hold_touch(t, (uint32_t)x_target);']
    if o and o[0] == 'pins' and o[1] == 'param' and c.params[o[2]].klass == 'texture' and not c.params[o[2]].type.pointer:
        # Held by a framebuffer: a deletion then writes it (draws into it
        # through that framebuffer are no longer followed by name).
        return ['    if (CAP_UNLIKELY(atomic_load_explicit(&cap_defer_on, memory_order_relaxed)) && cap_defer_now())',
                f'        cap_texhold_pinned(t, x_{c.params[o[2]].name});']
    if o and o[0] == 'deletes':
        for klass, held, fn in (('texture', 'th_levels', 'cap_texhold_deleted'),
                                ('renderbuffer', 'th_levels', 'cap_texhold_rb_deleted'),
                                ('buffer', 'bh_buffers', 'cap_bufhold_deleted')):
            named = [p for p in c.params if p.klass == klass and p.type.pointer]
            if len(named) == 1 and any(p.name == 'n' for p in c.params):
                return [f'    if (CAP_UNLIKELY(t->{held}))', f'        {fn}(t, x_n, x_{named[0].name});']
    return []

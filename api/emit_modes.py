"""The per-command part of the error and timing modes, written by
emit_capture.py: the wrappers into the cap_wrap_K.c parts, the
tables into cap_gen.c:

  cap_er_NAME   (GLTRACE=error) the real call, then the driver's glGetError;
                an error goes to cap_error_report (capture/cap_errors.c) with
                the arguments as 64-bit values. GL commands only: EGL has
                its own error state, which the app reads with eglGetError.
  cap_tm_NAME   (GLTRACE=timing) the real call between two clock reads, one
                event into the thread's buffer (capture/cap_timing.c).
  cap_err_wrap, cap_tm_wrap   the wrappers by index (NULL: the driver's
                function itself goes into that mode's table)
  cap_fn_class  draw / frame / current / none, from `class` lines in annotations.txt

What differs per command comes from the registry and annotations.txt."""


def _val(p, pn):
    k = p.type.kind
    if k in ('HANDLE', 'POINTER', 'FUNCPTR'):
        return f'(uint64_t)(uintptr_t)({pn(p)})'
    if k == 'FLOAT':
        return f'gt_u64_f({pn(p)})'
    if k == 'DOUBLE':
        return f'(uint64_t)gt_double_bits({pn(p)})'
    return f'gt_u64_i({pn(p)})'


def _vals(c, pn):
    return ', '.join(_val(p, pn) for p in c.params)


def error_wrapper(c, pn, params_decl, args_list):
    if not has_error_wrapper(c):
        return []
    R = c.ret.kind != 'VOID'
    decl = c.ret.decl()
    L = [f'{decl} cap_er_{c.name}({params_decl(c)})', '{',
         f'    {decl + " r = " if R else ""}cap_real.f.{c.name}({args_list(c)});',
         '    unsigned e = cap_real.f.glGetError();',
         '    if (CAP_UNLIKELY(e != 0)) {',
         f'        const uint64_t hv[] = {{{_vals(c, pn) or "0"}}};',
         f'        cap_error_report(GT_IDX_{c.name}, e, hv);',
         '    }']
    if R:
        L.append('    return r;')
    L.append('}')
    return L


def timing_wrapper(c, params_decl, args_list):
    R = c.ret.kind != 'VOID'
    decl = c.ret.decl()
    real = f'cap_real.f.{c.name}({args_list(c)})'
    return [f'{decl} cap_tm_{c.name}({params_decl(c)})', '{',
            '    cap_tm_thread *t = cap_tm_get();',
            '    if (CAP_UNLIKELY(t == NULL))',
            f'        return {real};' if R else f'        {{ {real}; return; }}',
            '    uint64_t c0 = CAP_UNLIKELY(cap_opt_threadtime) ? cap_thread_cpu_ns() : 0;',
            '    uint64_t t0 = cap_clock_now();',
            f'    {decl + " r = " if R else ""}{real};',
            '    uint64_t t1 = cap_clock_now();',
            f'    cap_tm_event(t, GT_IDX_{c.name}, t0, t1, c0);',
            '    return r;' if R else '    return;',
            '}']


def error_hook_protos(cmds, params_decl):
    return [f'{c.ret.decl()} {c.hooks["error"]}({params_decl(c)});' for c in cmds if 'error' in c.hooks]


def has_error_wrapper(c):
    return c.api != 'egl' and 'error' not in c.hooks


def wrappers(cmds, pn, params_decl, args_list):
    """The wrappers of cmds (one part of the whole list)."""
    L = []
    for c in cmds:
        L += error_wrapper(c, pn, params_decl, args_list)
        L += timing_wrapper(c, params_decl, args_list)
    return L


def protos(cmds, params_decl):
    """Declarations of every wrapper, for the tables."""
    L = []
    for c in cmds:
        if has_error_wrapper(c):
            L.append(f'{c.ret.decl()} cap_er_{c.name}({params_decl(c)});')
        L.append(f'{c.ret.decl()} cap_tm_{c.name}({params_decl(c)});')
    return L


def tables(cmds):
    L = ['/* ------------------------------------------------ error and timing modes */', '']
    L.append('const cap_proc cap_err_wrap[CAP_NFNS] = {')
    for c in cmds:
        if 'error' in c.hooks:
            L.append(f'    (cap_proc){c.hooks["error"]},')
        elif c.api == 'egl':
            L.append('    NULL,')
        else:
            L.append(f'    (cap_proc)cap_er_{c.name},')
    L.append('};')
    L.append('const cap_proc cap_tm_wrap[CAP_NFNS] = {')
    for c in cmds:
        L.append(f'    (cap_proc)cap_tm_{c.name},')
    L.append('};')
    L.append('const uint8_t cap_fn_class[CAP_NFNS] = {')
    for c in cmds:
        L.append(f'    GT_CLASS_{c.cls.upper()},')
    L.append('};')
    return L

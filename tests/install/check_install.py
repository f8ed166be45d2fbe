#!/usr/bin/env python3
"""`cmake --install` as a user meets it: installed into a fresh prefix, the
layout (the tool, the capture library in its folder, a man page per
command that renders, the CMake package and the pkg-config file that
gives the right paths), a sample app recorded and replayed with the
installed gltrace only, the capture library preloaded by path; then the
example project (tests/install/example) configured against the prefix
with find_package(gltrace): its trace tests pass on a good trace (with
-L traces, -j, and the two -I shards covering them once), and fail, naming
the test, on a trace whose clear colour was altered.

usage: check_install.py CMAKE CTEST BUILD_DIR BINDIR LIBDIR MANDIR APP WORK_DIR"""
import functools
import os
import re
import shutil
import sys

import gltest as gt
import legacy_pb

here = os.path.dirname(os.path.abspath(__file__))
cmake, ctest, build, bindir, libdir, mandir, app, work = sys.argv[1:9]
GL_CLEAR_COLOR = 26  # api/functions.tsv (Android's number)
HEADLESS = gt.gl_env(headless=True)
# Replay must work with no display; an install or a nested ctest is not a hang.
run = functools.partial(gt.run, env=HEADLESS, timeout=600)
ck = gt.Checker('install.prefix_and_package')

shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
prefix = os.path.join(work, 'prefix')

# --- install, and what it put where

r = run([cmake, '--install', build, '--prefix', prefix])
if not ck.check('cmake --install into a fresh prefix', r.returncode == 0, r.stdout + r.stderr):
    ck.exit()
gltrace = os.path.join(prefix, bindir, 'gltrace')
capture = os.path.join(prefix, libdir, 'gltrace', 'libgltrace.so')
cmakedir = os.path.join(prefix, libdir, 'cmake', 'gltrace')
pcdir = os.path.join(prefix, libdir, 'pkgconfig')
man1 = os.path.join(prefix, mandir, 'man1')
ck.check('gltrace in bin, executable', os.access(gltrace, os.X_OK), gltrace)
ck.check('libgltrace.so in LIBDIR/gltrace', os.path.isfile(capture), capture)
ck.check('nothing but the tool beside it in bin', os.listdir(os.path.dirname(gltrace)) == ['gltrace'],
         os.listdir(os.path.dirname(gltrace)))
ck.check('the CMake package: config, version file, gltrace_add_trace_test',
         all(os.path.isfile(os.path.join(cmakedir, f)) for f in
             ('gltraceConfig.cmake', 'gltraceConfigVersion.cmake', 'gltraceTraceTests.cmake')),
         os.listdir(cmakedir) if os.path.isdir(cmakedir) else 'no ' + cmakedir)

top = run([gltrace, '--help']).stdout
cmds = re.findall(r'^  (\w+)\s', top.split('commands:')[-1], re.M)
ck.check('gltrace --help lists the commands', len(cmds) >= 8, top)
pages = sorted(os.listdir(man1)) if os.path.isdir(man1) else []
want = sorted(['gltrace.1'] + [f'gltrace-{c}.1' for c in cmds])
ck.check('a man page for gltrace and one per command, no other', pages == want, (pages, want))
MAN = gt.gl_env(headless=True, MANWIDTH='80', LANG='C.UTF-8', MAN_KEEP_FORMATTING='', MANPAGER='cat', PAGER='cat')
for page in want:
    path = os.path.join(man1, page)
    text = open(path).read() if os.path.isfile(path) else ''
    name = page[:-2]
    r = run(['man', '-l', path], env=MAN) if shutil.which('man') else None
    shown = r.stdout if r and r.returncode == 0 else ''
    ck.check(f'{page}: roff with a NAME section naming {name}, renders with man -l',
             re.search(r'^\.SH NAME\n' + re.escape(name.replace('-', '\\-')) + r' \\- \S', text, re.M) and
             (r is None or (name in shown and 'SYNOPSIS' in shown)), (text[:300], r and r.stderr))
    if shutil.which('groff'):
        g = run(['groff', '-man', '-Tutf8', '-ww', '-z', path])
        ck.check(f'{page}: groff -ww has no warning', g.returncode == 0 and not g.stderr.strip(), g.stderr)
if shutil.which('man'):
    r = run(['man', '-M', os.path.join(prefix, mandir), '-w', 'gltrace-replay'], env=MAN)
    ck.check('man -M PREFIX/share/man finds gltrace-replay by name', r.returncode == 0 and
             os.path.samefile(r.stdout.strip(), os.path.join(man1, 'gltrace-replay.1')), (r.stdout, r.stderr))
    r = run(['man', '-l', os.path.join(man1, 'gltrace-replay.1')], env=MAN)
    help_replay = run([gltrace, 'replay', '--help']).stdout
    opts = set(re.findall(r'^\s+(--[a-z-]+)', help_replay, re.M))
    ck.check("gltrace-replay(1) shows every option of replay's --help",
             len(opts) > 5 and all(o in r.stdout for o in opts), sorted(o for o in opts if o not in r.stdout))

PC = gt.gl_env(headless=True, PKG_CONFIG_PATH=pcdir)
version = run([gltrace, '--version']).stdout.split()[-1]
r = run(['pkg-config', '--modversion', 'gltrace'], env=PC)
ck.check("pkg-config --modversion gltrace: gltrace --version's", r.stdout.strip() == version, (r.stdout, r.stderr))
for var, path in (('gltrace', gltrace), ('capturelib', capture)):
    r = run(['pkg-config', f'--variable={var}', 'gltrace'], env=PC)
    got = r.stdout.strip()
    ck.check(f'pkg-config --variable={var} gives the installed file', r.returncode == 0 and
             os.path.exists(got) and os.path.samefile(got, path), (got, r.stderr))

# --- record and replay with the installed tool alone

traces = os.path.join(work, 'traces')
good_dir, bad_dir = os.path.join(traces, 'good'), os.path.join(traces, 'bad')
os.makedirs(good_dir)
os.makedirs(bad_dir)
good = os.path.join(good_dir, 'scene.gltrace')
# From another folder: nothing of the build tree is beside it.
r = run([gltrace, 'record', '-o', good, '--', app])
ck.check('the installed gltrace records the sample app', r.returncode == 0 and os.path.isfile(good), r.stderr)
r = run([gltrace, 'replay', good])
s = gt.replay_summary(r.stderr)
ck.check('the installed gltrace replays it, every snapshot matched (exit 0)',
         r.returncode == 0 and s and s[0] > 0 and s[1] == s[0], r.stderr)

preloaded = os.path.join(work, 'preloaded.gltrace')
r = run([app], env=gt.gl_env(capture, headless=True, GLTRACE='full', GLTRACE_OUT=preloaded))
ck.check('the installed capture library preloaded by path records the app', r.returncode == 0 and
         os.path.isfile(preloaded), r.stderr)
r = run([gltrace, 'replay', preloaded])
ck.check('that trace replays, every snapshot matched (exit 0)', r.returncode == 0, r.stderr)

# The same scene with frame 1's clear colour altered (as replay.options_and_reports does).
# A recording that failed leaves nothing to alter: seen stays 0, the check below fails.
altered, seen = legacy_pb.with_float_arg(legacy_pb.read_trace(good), GL_CLEAR_COLOR, 2, 1, 1.0)
bad = os.path.join(bad_dir, 'scene.gltrace')
open(bad, 'wb').write(altered)
r = run([gltrace, 'replay', bad])
ck.check('the altered trace fails its replay (exit 1)', seen >= 2 and r.returncode == 1, (seen, r.stderr))

# --- the example project, through find_package(gltrace)


def example(name, trace_dir, *extra):
    out = os.path.join(work, name)
    r = run([cmake, '-S', os.path.join(here, 'example'), '-B', out, f'-DCMAKE_PREFIX_PATH={prefix}',
             f'-DTRACE_DIR={trace_dir}', *extra])
    ck.check(f'{name}: the example configures with find_package(gltrace)', r.returncode == 0, r.stdout + r.stderr)
    return out


def listed(out, *args):
    r = run([ctest, '-N', *args], cwd=out)
    return sorted(re.findall(r'Test\s+#\d+: (\S+)', r.stdout)) if r.returncode == 0 else None


def ctest_in(out, *args):
    return run([ctest, *args], cwd=out)


ok = example('example-good', good_dir, f'-DEXAMPLE_APP={app}')
names = ['trace.fresh', 'trace.scene', 'trace.scene.tolerant']


def selected(*args):
    """The trace tests ctest selects, and whether the recording that
    trace.fresh needs (its fixture) comes with it exactly when it does."""
    got = listed(ok, *args) or []
    traces = [n for n in got if n.startswith('trace.')]
    return traces, ('record.app' in got) == ('trace.fresh' in got)


ck.check('the example has a trace test per trace and option set, labelled traces',
         selected('-L', 'traces') == (names, True), listed(ok, '-L', 'traces'))
ck.check('DEVICE gives a label: -L device:other selects the tolerant one',
         selected('-L', 'traces', '-L', 'device:other') == (['trace.scene.tolerant'], True),
         listed(ok, '-L', 'device:other'))
shards = [selected('-L', 'traces', '-I', f'{i},,2') for i in (1, 2)]
ck.check('-I 1,,2 and -I 2,,2 split the trace tests, each once, fixtures following',
         all(follows for _, follows in shards) and sorted(shards[0][0] + shards[1][0]) == names and
         all(shard for shard, _ in shards) and not set(shards[0][0]) & set(shards[1][0]), shards)
r = ctest_in(ok, '-L', 'traces', '-j2', '--output-on-failure')
ck.check("the example's ctest -L traces -j2 passes on the good trace (recording included)",
         r.returncode == 0 and '100% tests passed' in r.stdout and 'record.app' in r.stdout, r.stdout[-1500:])
r = ctest_in(ok, '-L', 'traces', '-I', '2,,2')
ck.check('a shard runs on its own', r.returncode == 0 and '100% tests passed' in r.stdout, r.stdout[-1500:])

ko = example('example-bad', bad_dir)
r = ctest_in(ko, '-L', 'traces', '-j2', '--output-on-failure')
failed = sorted(re.findall(r'^\s+\d+ - (\S+) \(Failed\)', r.stdout, re.M))
ck.check("the example's ctest fails on the altered trace, both its tests named, replay's difference shown",
         r.returncode != 0 and failed == ['trace.scene', 'trace.scene.tolerant'] and
         'first difference at call' in r.stdout, r.stdout[-2500:])
ck.exit()

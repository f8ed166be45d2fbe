#!/usr/bin/env python3
"""piglit's GLES cases natively, under `gltrace record` and replayed.

Every GLES case of piglit's opengl and shader profiles (the *_gles1/2/3
programs, shader_runner_gles2/3 with its .shader_test files) runs on EGL
surfaceless (llvmpipe) natively, then under `gltrace record --fb=draw` and
under `gltrace record` with the default snapshots, and each trace is
replayed with --check. A case round-trips exactly when both recordings keep
the native verdict (result and subtests), both replays compare something
(snapshots, the app's pixel reads, its queries), every snapshot, pixel read
and query matches, nothing is unreadable or left uncompared, replay warns
about no data it lacked and capture logged nothing (such as a draw it
could not snapshot).

Results: one CSV row per case (--csv) and one summary line. Cases that do
not round-trip are checked against the known-failures file (case, class,
reason): a failure not listed, or listed under another class, is an
unexpected failure; a listed case that now round-trips is an unexpected
pass. Either makes the exit status 1; the lines naming them come first.
Exit 77 when piglit is not installed (ctest counts it as skipped).
"""
import argparse
import ast
import concurrent.futures
import csv
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
PIGLIT_DIRS = ['/usr/lib/x86_64-linux-gnu/piglit', '/usr/lib/piglit', '/usr/local/lib/piglit']
PROFILES = ['opengl', 'shader']
MODES = [('draw', ['--fb=draw']), ('swap', [])]
SUMMARY_RE = re.compile(r'^gltrace replay: .*\d+ snapshots: ')
WROTE_RE = re.compile(r'^gltrace: wrote ')
CHECK_RE = re.compile(r'^gltrace replay: (--check: |  call \d+ )')


def find_piglit(given):
    for d in ([given] if given else PIGLIT_DIRS):
        if d and os.path.isfile(os.path.join(d, 'tests', 'opengl.xml.gz')):
            return d
    return None


def is_gles(prog):
    return prog.endswith(('_gles1', '_gles2', '_gles3')) or prog.startswith('shader_runner_gles')


def case_command(root, kind, cmd, concurrent):
    """The command line piglit's framework itself would run."""
    argv = [os.path.join(root, 'bin', cmd[0])] + cmd[1:]
    if kind == 'shader':
        return [argv[0], os.path.join(root, cmd[1]), '-auto', '-fbo']
    if kind == 'gl_builtin':
        argv[1] = os.path.join(root, 'tests', cmd[1])
        return argv
    return argv + (['-auto', '-fbo'] if concurrent else ['-auto'])


def read_cases(root):
    cases = []
    for prof in PROFILES:
        with gzip.open(os.path.join(root, 'tests', prof + '.xml.gz')) as f:
            tree = ET.parse(f)
        for t in tree.getroot():
            opts = {o.get('name'): o.get('value') for o in t}
            if 'command' not in opts:
                continue
            cmd = ast.literal_eval(opts['command'])
            if not is_gles(cmd[0]):
                continue
            concurrent = opts.get('run_concurrent', 'True') == 'True'
            cases.append((t.get('name'), case_command(root, t.get('type'), cmd, concurrent)))
    return cases


def verdict_of(rc, out, timed_out):
    """piglit's verdict: the last 'PIGLIT:' result, with its subtests."""
    if timed_out:
        return 'timeout', {}
    result, subtests = None, {}
    for line in out.splitlines():
        if not line.startswith('PIGLIT: '):
            continue
        try:
            msg = json.loads(line[len('PIGLIT: '):])
        except ValueError:
            continue
        if 'result' in msg:
            result = msg['result']
        subtests.update(msg.get('subtest', {}))
    if rc < 0 or rc > 128:  # a signal (gltrace record exits 128 + its number)
        return 'crash', subtests
    if result is None:
        result = 'pass' if rc == 0 else 'skip' if rc == 77 else 'fail'
    return result, subtests


def run_proc(argv, env, timeout, cwd=None):
    try:
        p = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout, text=True, errors='replace')
        return p.returncode, p.stdout, p.stderr, False
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors='replace') if isinstance(e.stdout, bytes) else (e.stdout or '')
        err = e.stderr.decode(errors='replace') if isinstance(e.stderr, bytes) else (e.stderr or '')
        return -9, out, err, True


def replay(gltrace, trace, timeout):
    jpath = trace + '.json'
    rc, _, err, timed_out = run_proc([gltrace, 'replay', trace, '--check', '--json', jpath,
                                      '--no-progress'],
                                     None, timeout)
    r = {'rc': rc, 'snapshots': 0, 'matched': 0, 'differing': 0, 'not_compared': 0, 'unreadable': 0,
         'reads': 0, 'reads_matched': 0, 'reads_differing': 0, 'queries': 0, 'mismatches': 0,
         'warnings': []}
    if timed_out:
        r['error'] = 'replay timed out'
        return r
    try:
        with open(jpath) as f:
            rep = json.load(f)
        for k in r:
            if k in rep:
                r[k] = rep[k]
        r['queries'] = rep.get('check', {}).get('queries', 0)
        r['mismatches'] = rep.get('check', {}).get('mismatches', 0)
        if rep.get('error'):
            r['error'] = rep['error']
    except (OSError, ValueError) as e:
        r['error'] = 'no report: %s' % e
    r['warnings'] = [l for l in err.splitlines()
                     if l.strip() and not SUMMARY_RE.match(l) and not CHECK_RE.match(l)]
    return r


def mode_problem(native, rec_verdict, rep):
    """The class of what went wrong in one mode, or None."""
    if rec_verdict != native:
        return 'verdict-changed'
    if rep.get('error'):
        return 'replay-error'
    if rep['unreadable']:
        return 'unreadable'
    if rep['differing'] or rep['reads_differing']:
        return 'replay-differs'
    if rep['not_compared']:
        return 'not-compared'
    if rep['mismatches']:
        return 'check-differs'
    if rep['snapshots'] == 0 and rep['reads'] == 0 and rep['queries'] == 0:
        return 'nothing-compared'
    if rep['rc'] != 0:
        return 'replay-error'
    if rep['warnings']:
        return 'replay-warning'
    return None


def run_case(args, name, argv):
    env = dict(os.environ, PIGLIT_PLATFORM='surfaceless_egl')
    cwd = args.piglit
    rc, out, _, to = run_proc(argv, env, args.timeout, cwd)
    native = verdict_of(rc, out, to)
    row = {'case': name, 'native': native[0]}
    if native[0] == 'skip':
        row['outcome'] = 'skip'
        return row
    safe = re.sub(r'[^A-Za-z0-9_.-]+', '_', name)
    problems = []
    for mode, flags in MODES:
        trace = os.path.join(args.out, 'traces', '%s.%s.gltrace' % (safe, mode))
        rc, out, err, to = run_proc([args.gltrace, 'record', '-o', trace] + flags + ['--'] + argv,
                                    env, args.timeout, cwd)
        rec = verdict_of(rc, out, to)
        told = [l for l in err.splitlines() if l.startswith('gltrace:') and not WROTE_RE.match(l)]
        row[mode + '_verdict'] = rec[0] if rec[1] == native[1] else rec[0] + '+subtests'
        if not os.path.exists(trace):
            rep = {'error': 'no trace', 'warnings': [], 'rc': 2}
            for k in ('snapshots', 'matched', 'differing', 'not_compared', 'unreadable', 'reads',
                      'reads_matched', 'reads_differing', 'queries', 'mismatches'):
                rep[k] = 0
        else:
            rep = replay(args.gltrace, trace, args.timeout)
        for k in ('snapshots', 'matched', 'differing', 'unreadable', 'not_compared', 'reads',
                  'reads_matched', 'reads_differing', 'queries', 'mismatches'):
            row['%s_%s' % (mode, k)] = rep[k]
        row[mode + '_warnings'] = ' | '.join(rep['warnings'][:3] + ([rep['error']] if rep.get('error') else []))
        row[mode + '_capture_log'] = ' | '.join(told[:3])
        p = mode_problem(native, rec, rep) or ('capture-warning' if told else None)
        if p:
            problems.append('%s:%s' % (mode, p))
        elif not args.keep:
            for f in (trace, trace + '.json'):
                if os.path.exists(f):
                    os.remove(f)
    row['outcome'] = ' '.join(problems) if problems else 'exact'
    return row


def read_known(path):
    known = {}
    if not path or not os.path.exists(path):
        return known
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line.strip() or line.startswith('#'):
                continue
            parts = line.split('\t')
            if len(parts) != 3:
                sys.exit('%s:%d: expected case<TAB>class<TAB>reason' % (path, n))
            known[parts[0]] = (parts[1], parts[2])
    return known


FIELDS = ['case', 'native', 'outcome'] + ['%s_%s' % (m, k) for m, _ in MODES for k in (
    'verdict', 'snapshots', 'matched', 'differing', 'unreadable', 'not_compared', 'reads',
    'reads_matched', 'reads_differing', 'queries', 'mismatches', 'warnings', 'capture_log')]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--gltrace', required=True)
    ap.add_argument('--piglit', help='piglit folder (default: where Debian installs it)')
    ap.add_argument('--out', default='piglit-out', help='traces and reports (default piglit-out)')
    ap.add_argument('--csv', help='CSV file (default OUT/results.csv)')
    ap.add_argument('--known', default=os.path.join(HERE, 'known_failures.tsv'))
    ap.add_argument('--cases', help='file of case names to run, one a line (default: all GLES cases)')
    ap.add_argument('--match', help='run only cases whose name matches this regular expression')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--timeout', type=float, default=180, help='seconds per process (default 180)')
    ap.add_argument('--keep', action='store_true', help='keep the traces of exact cases too')
    args = ap.parse_args()

    args.piglit = find_piglit(args.piglit)
    if not args.piglit:
        print('piglit: not installed (apt-get install piglit); skipped', file=sys.stderr)
        return 77
    args.gltrace = os.path.abspath(args.gltrace)
    args.out = os.path.abspath(args.out)
    os.makedirs(os.path.join(args.out, 'traces'), exist_ok=True)
    cases = read_cases(args.piglit)
    if args.cases:
        with open(args.cases) as f:
            wanted = [l.strip() for l in f if l.strip() and not l.startswith('#')]
        byname = dict(cases)
        missing = [w for w in wanted if w not in byname]
        if missing:
            print('piglit: %s: not in the profiles: %s' % (args.cases, ', '.join(missing)), file=sys.stderr)
            return 2
        cases = [(w, byname[w]) for w in wanted]
    if args.match:
        cases = [c for c in cases if re.search(args.match, c[0])]
    known = read_known(args.known)

    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        futs = [ex.submit(run_case, args, n, a) for n, a in cases]
        for f in futs:
            rows.append(f.result())

    unexpected_fail, unexpected_pass, known_hit = [], [], []
    for r in rows:
        if r['outcome'] == 'skip':
            continue
        k = known.get(r['case'])
        if r['outcome'] == 'exact':
            if k:
                unexpected_pass.append(r)
        elif k and k[0] == r['outcome']:
            known_hit.append(r)
        else:
            unexpected_fail.append(r)
    csv_path = args.csv or os.path.join(args.out, 'results.csv')
    with open(csv_path, 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, extrasaction='ignore')
        w.writeheader()
        for r in rows:
            w.writerow(r)
    for r in unexpected_fail:
        k = known.get(r['case'])
        print('UNEXPECTED FAILURE %s: %s%s' % (r['case'], r['outcome'],
              ' (known as %s)' % k[0] if k else ''))
    for r in unexpected_pass:
        print('UNEXPECTED PASS %s: round-trips exactly now; remove it from %s' % (r['case'], args.known))
    ran = [r for r in rows if r['outcome'] != 'skip']
    exact = [r for r in ran if r['outcome'] == 'exact']
    print('piglit: %d GLES cases, %d skip natively, %d run natively (%d pass, %d fail/other), '
          '%d round-trip exactly, %d known failures, %d unexpected failures, %d unexpected passes; %s' % (
              len(rows), len(rows) - len(ran), len(ran), sum(r['native'] == 'pass' for r in ran),
              sum(r['native'] != 'pass' for r in ran), len(exact), len(known_hit),
              len(unexpected_fail), len(unexpected_pass), csv_path))
    return 1 if unexpected_fail or unexpected_pass else 0


if __name__ == '__main__':
    sys.exit(main())

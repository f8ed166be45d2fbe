#!/usr/bin/env python3
"""`gltrace suite` as a CI user runs it: a suite built from sample-app
and glmark2-es2 recordings with every status (Pass, Fail with images under softpipe, Error
for a cut trace, Crash, Timeout, Flake, Skip, ExpectedFail, UnexpectedPass),
its reports; shards 1/3..3/3 (by --shard and by the GitLab, Kubernetes and
GitHub variables) merged equal to the whole run; --resume; update then run
passing with comments kept; add; exit statuses.

usage: check_suite.py GLTRACE APPS_DIR WORK_DIR"""
import csv
import functools
import hashlib
import json
import os
import shutil
import sys
import time
import xml.etree.ElementTree as ET

import gltest as gt

gltrace, apps, work = sys.argv[1:4]
HERE = os.path.dirname(os.path.abspath(__file__))
# The CI engines' shard variables of the caller left out too (gl_env leaves
# out GLTRACE_SHARD*): the whole run must not be a shard of it.
SHARD_VARIABLES = ('CI_NODE_INDEX', 'CI_NODE_TOTAL', 'JOB_COMPLETION_INDEX')
HEADLESS = {k: v for k, v in gt.gl_env(headless=True).items() if k not in SHARD_VARIABLES}
run = functools.partial(gt.run, env=HEADLESS, timeout=300)
ck = gt.Checker('suite.run_shards_update')


def suite(*args, env=HEADLESS):
    return run([gltrace, 'suite', *args], env=env)


def results(out):
    with open(os.path.join(out, 'results.csv')) as f:
        return {r['trace']: r for r in csv.DictReader(f)}


def statuses(out):
    return {t: r['status'] for t, r in results(out).items()}


shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
os.chdir(work)
os.makedirs('traces')

# --- recordings of the sample apps
APPS = ['es2_triangle', 'es3_scene', 'fbo_snapshots', 'uploads', 'gles1_scene', 'es2_subimage', 'two_threads',
        'es2_render_texture']
for app in APPS:
    r = run([gltrace, 'record', '-o', f'traces/{app}.gltrace', '--', os.path.join(apps, app)])
    ck.check(f'{app}: recorded', r.returncode == 0, r.stderr)

# --- and of a real program: two glmark2-es2 scenes, windowed under an Xvfb
# of the test's own (ci/setup.sh installs both), taken into the suite like
# the sample apps' recordings.
GLMARK2 = {'glmark2_texture': 'texture', 'glmark2_build': 'build:use-vbo=true'}
tools = {t: shutil.which(t) for t in ('Xvfb', 'glmark2-es2')}
if ck.check('Xvfb and glmark2-es2 are installed', all(tools.values()), tools):
    xvfb, display, _ = gt.start_xvfb()
    if ck.check('Xvfb started and gave its display number', display):
        try:
            for name, scene in GLMARK2.items():
                r = run([gltrace, 'record', '-o', f'traces/{name}.gltrace', '--', tools['glmark2-es2'],
                         '--size', '160x120', '-b', f'{scene}:duration=0.3'], env=dict(HEADLESS, DISPLAY=display))
                if ck.check(f'{name}: recorded under Xvfb', r.returncode == 0 and
                            os.path.exists(f'traces/{name}.gltrace'), (r.returncode, r.stderr[-800:])):
                    APPS.append(name)
        finally:
            xvfb.terminate()
            xvfb.wait(timeout=20)
with open('traces/es3_scene.gltrace', 'rb') as f:
    open('traces/cut.gltrace', 'wb').write(f.read()[:3000])
for name in ('crash', 'hang', 'flaky', 'expected_crash', 'not_crashing'):
    shutil.copy('traces/es2_triangle.gltrace', f'traces/{name}.gltrace')

# --- gltrace suite add: creates the file, lists traces once
r = suite('add', 'suite.yml', *[f'traces/{a}.gltrace' for a in APPS[:3]])
# es3_scene again among the rest: listed once
r2 = suite('add', 'suite.yml', 'traces/es3_scene.gltrace', *[f'traces/{a}.gltrace' for a in APPS[3:]])
text = open('suite.yml').read()
ck.check('add: creates the suite, adds each trace once with expect: recorded (exit 0)',
         r.returncode == 0 and r2.returncode == 0 and text.count('es3_scene.gltrace:') == 1 and
         text.count('expect: recorded') == len(APPS), text)

flaky_state = os.path.join(work, 'flaky.state')
with open('suite.yml', 'a') as f:
    f.write(f"""  traces/cut.gltrace:          # unusable: an Error, the others still run
  traces/crash.gltrace:
    wrapper: [sh, -c, 'kill -SEGV $$']
  traces/hang.gltrace:
    wrapper: [sh, -c, 'exec sleep 60']
    timeout: 1
  traces/flaky.gltrace:
    wrapper: [{HERE}/flaky_once.sh, {flaky_state}]
  traces/expected_crash.gltrace:
    wrapper: [sh, -c, 'kill -ABRT $$']
    label: crash
  traces/not_crashing.gltrace:
    label: [crash]
  traces/skipped.gltrace:
    label: skip
devices:
  llvmpipe: {{}}
  softpipe:
    env: {{GALLIUM_DRIVER: softpipe}}
""")
EXPECT = {f'traces/{a}.gltrace': 'Pass' for a in APPS}
EXPECT.update({'traces/cut.gltrace': 'Error', 'traces/crash.gltrace': 'Crash', 'traces/hang.gltrace': 'Timeout',
               'traces/flaky.gltrace': 'Flake', 'traces/expected_crash.gltrace': 'ExpectedFail',
               'traces/not_crashing.gltrace': 'UnexpectedPass', 'traces/skipped.gltrace': 'Skip'})

# --- the whole run
t0 = time.time()
r = suite('run', 'suite.yml', '--device', 'llvmpipe', '--out', 'whole')
wall = time.time() - t0
got = statuses('whole')
ck.check('run: every status as the suite makes it', got == EXPECT,
         {k: (v, EXPECT.get(k)) for k, v in got.items() if EXPECT.get(k) != v} or (got, r.stderr))
ck.check('run: exit 1 (some results unexpected)', r.returncode == 1, r.stderr)
res = results('whole')
ck.check('run: the cut trace says why (its file named)', 'cut.gltrace' in res['traces/cut.gltrace']['message'],
         res['traces/cut.gltrace'])
ck.check('run: the crash names its signal', 'signal 11' in res['traces/crash.gltrace']['message'],
         res['traces/crash.gltrace'])
ck.check('run: the flake ran twice', res['traces/flaky.gltrace']['attempts'] == '2', res['traces/flaky.gltrace'])
ck.check('run: the hang was ended at its limit', float(res['traces/hang.gltrace']['duration']) < 5, res)
fails = list(csv.DictReader(open('whole/failures.csv')))
ck.check('failures.csv: exactly the unexpected results',
         sorted(f['trace'] for f in fails) == sorted(t for t, s in EXPECT.items()
                                                     if s in ('Error', 'Crash', 'Timeout', 'UnexpectedPass')), fails)
rj = json.load(open('whole/results.json'))
ck.check('results.json: a result per trace, the device, the counts',
         rj['device'] == 'llvmpipe' and len(rj['results']) == len(EXPECT) and rj['counts']['Pass'] == len(APPS) and
         rj['unexpected'] == 4, rj.get('counts'))
ju = ET.parse('whole/junit.xml').getroot()
cases = ju.findall('.//testcase')
ck.check('junit.xml: a test case per trace, crash/timeout/error as errors, unexpected pass as a failure',
         len(cases) == len(EXPECT) and ju.find('testsuite').get('errors') == '3' and
         ju.find('testsuite').get('failures') == '1', ET.tostring(ju)[:500])
html = open('whole/report.html').read()
ck.check('report.html: unexpected results first', html.find('>Crash<') < html.find('>Pass<') and
         html.find('>Error<') < html.find('>Pass<'), html[:300])
ck.check('report.html and images/index.html written', os.path.exists('whole/images/index.html'))

# --- softpipe: a trace that renders otherwise fails, with its pictures
r = suite('run', 'suite.yml', '--device', 'softpipe', '--out', 'soft', '-q')
got = statuses('soft')
ck.check('softpipe: es2_render_texture differs from its llvmpipe recording: Fail',
         got.get('traces/es2_render_texture.gltrace') == 'Fail', got)
rt = results('soft')['traces/es2_render_texture.gltrace']
ck.check('softpipe: the first differing call is named', rt['first_difference'].startswith('call '), rt)
imgs = os.listdir(os.path.join('soft', rt['dir'], 'img'))
ck.check('softpipe: expected, actual and diff PNGs of the failure',
         any('expected' in i for i in imgs) and any('actual' in i for i in imgs) and any('diff' in i for i in imgs),
         imgs)
html = open('soft/report.html').read()
ck.check('softpipe: the report shows the failure\'s pictures', 'img/' in html and '-actual.png' in html, html[:500])
ck.check('softpipe: images/index.html holds the differing snapshots',
         'img/actual/' in open('soft/images/index.html').read())


# --- shards: by --shard and by each engine's variables, merged equal the whole run
def comparable(out):
    return {t: (r['status'], r['first_difference']) for t, r in results(out).items()}


def flaky_reset():
    if os.path.exists(flaky_state):
        os.remove(flaky_state)


ENGINES = {
    '--shard': lambda i: (['--shard', f'{i}/3'], {}),
    'GitLab': lambda i: ([], {'CI_NODE_INDEX': str(i), 'CI_NODE_TOTAL': '3'}),
    'Kubernetes': lambda i: ([], {'JOB_COMPLETION_INDEX': str(i - 1), 'GLTRACE_SHARD_TOTAL': '3'}),
    'GitHub': lambda i: ([], {'GLTRACE_SHARD': f'{i}/3'}),
}
for engine, how in ENGINES.items():
    dirs = []
    for i in (1, 2, 3):
        flaky_reset()
        args, env = how(i)
        d = f'shard-{engine}-{i}'
        r = suite('run', 'suite.yml', '--device', 'llvmpipe', '--out', d, '-q', *args, env=dict(HEADLESS, **env))
        dirs.append(d)
    sizes = [len(results(d)) for d in dirs]
    m = suite('merge', *dirs, '--out', f'merged-{engine}')
    ck.check(f'{engine}: three shards of sizes {sizes} (interleaved), merged equal the whole run (exit 1 as it)',
             comparable(f'merged-{engine}') == comparable('whole') and m.returncode == 1 and
             max(sizes) - min(sizes) <= 1, (comparable(f'merged-{engine}'), m.stderr))
mj = json.load(open('merged-GitLab/results.json'))
ck.check('merge: one results.json, one report', len(mj['results']) == len(EXPECT) and
         os.path.exists('merged-GitLab/report.html'))
r = suite('run', 'suite.yml', '--device', 'llvmpipe', '--out', 'x', env=dict(HEADLESS, CI_NODE_INDEX='4',
                                                                               CI_NODE_TOTAL='3'))
ck.check('a shard index past the total: exit 2, the variables named', r.returncode == 2 and 'CI_NODE_INDEX' in r.stderr,
         r.stderr)

# --- --resume: a run cut short finishes what is missing
flaky_reset()
lines = open('whole/results.csv').read().splitlines(True)
os.makedirs('resumed', exist_ok=True)
with open('resumed/results.csv', 'w') as f:
    f.writelines(lines[:4])
    f.write(lines[4][:10])  # half a line, as a killed run leaves it
r = suite('run', 'suite.yml', '--device', 'llvmpipe', '--out', 'resumed', '--resume')
done = [line.split(',')[0] for line in lines[1:4]]
ck.check('--resume: the results kept, the rest run, the statuses those of the whole run',
         statuses('resumed') == EXPECT and all(f'] Pass {t} ' not in r.stderr for t in done) and
      len(results('resumed')) == len(EXPECT), (statuses('resumed'), r.stderr))

# --- update then run: checksums per device, comments and order kept
with open('sums.yml', 'w') as f:
    f.write("""# driver team's suite: checksums per device
traces-db:
  download-url: "file:///nonexistent/"   # traces are local here
traces:
  traces/es2_render_texture.gltrace:
    softpipe:
      label: [slow]     # a comment kept
      checksum: 0000000000000000
  traces/es3_scene.gltrace:
    # checksums per snapshot, written by update
    softpipe:
  traces/uploads.gltrace:
    llvmpipe:
      checksum: 1
devices:
  softpipe: {env: {GALLIUM_DRIVER: softpipe}}
""")
before = open('sums.yml').read()
r = suite('run', 'sums.yml', '--device', 'softpipe', '--out', 'sums1', '-q')
got = statuses('sums1')
ck.check('checksums: a wrong checksum and a missing one fail; a trace with no entry is skipped (Mesa style)',
         got == {'traces/es2_render_texture.gltrace': 'Fail', 'traces/es3_scene.gltrace': 'Fail',
                 'traces/uploads.gltrace': 'Skip'} and r.returncode == 1, (got, r.stderr))
r = suite('update', 'sums.yml', '--device', 'softpipe', '--from', 'sums1', '--only', 'changed')
after_changed = open('sums.yml').read()
r = suite('update', 'sums.yml', '--device', 'softpipe', '--from', 'sums1', '--only', 'missing')
after = open('sums.yml').read()
kept = [line for line in before.splitlines() if 'checksum: 0000' not in line]
ck.check('update: every other line kept (comments, labels, order), the checksum replaced, new ones added',
         r.returncode == 0 and all(line in after.splitlines() for line in kept) and 'checksum: 0000' not in after and
         after.count('-surface-color: ') >= 1 and 'checksum: 1\n' in after and
         'checksum: 0000' not in after_changed and '-surface-color' not in after_changed, after)
r = suite('run', 'sums.yml', '--device', 'softpipe', '--out', 'sums2', '-q')
ck.check('update then run: every trace passes (exit 0)', r.returncode == 0 and
         statuses('sums2')['traces/es3_scene.gltrace'] == 'Pass', (statuses('sums2'), r.stderr))

# --- unusable input: exit 2 naming file, line and column
open('bad.yml', 'w').write('traces:\n  a.gltrace:\n    label: [sometimes]\n')
r = suite('run', 'bad.yml', '--device', 'd', '--out', 'bad')
ck.check('an unknown label: exit 2, file:line:column named', r.returncode == 2 and 'bad.yml:3:' in r.stderr, r.stderr)
open('bad2.yml', 'w').write('traces:\n  a: [1,\n')
r = suite('run', 'bad2.yml', '--device', 'd', '--out', 'bad')
ck.check('not YAML: exit 2, file:line:column named', r.returncode == 2 and 'bad2.yml:' in r.stderr, r.stderr)
r = suite('run', 'suite.yml', '--out', 'bad')
ck.check('no --device: exit 2 with the usage', r.returncode == 2 and 'usage' in r.stderr, r.stderr)

# --- a URL fetched and checked
sha = hashlib.sha256(open('traces/uploads.gltrace', 'rb').read()).hexdigest()
open('url.yml', 'w').write(f"""traces:
  uploads-by-url:
    url: file://{work}/traces/uploads.gltrace
    sha256: {sha}
  wrong-checksum:
    url: file://{work}/traces/uploads.gltrace
    sha256: {'0' * 64}
""")
r = suite('run', 'url.yml', '--device', 'd', '--out', 'url', '-q')
ck.check('a URL: fetched and passing; a wrong SHA-256: Error', statuses('url') ==
         {'uploads-by-url': 'Pass', 'wrong-checksum': 'Error'}, (statuses('url'), r.stderr))

# --- everything expected: exit 0
open('ok.yml', 'w').write('traces:\n' + ''.join(f'  traces/{a}.gltrace:\n    expect: recorded\n' for a in APPS))
r = suite('run', 'ok.yml', '--device', 'llvmpipe', '--out', 'ok', '-q')
ck.check('a suite whose results are all as expected: exit 0', r.returncode == 0, r.stderr)
print(f'suite of {len(EXPECT)} traces: {wall:.2f} s')
ck.exit()

"""What the tests of tests/modes share: their arguments, running a program
with the capture library preloaded and a clean GLTRACE* environment, and
the Checker of tests/apps/apptrace.py (every result printed, exit 1 if any
failed). Standard library only."""
import argparse
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'apps'))
from apptrace import Checker  # noqa: E402,F401

TIMEOUT = 120


def parse_args(*extra):
    p = argparse.ArgumentParser()
    p.add_argument('--gltrace', required=True)
    p.add_argument('--lib', required=True, help='libgltrace.so')
    p.add_argument('--apps', required=True, help='build folder of tests/apps (es2_triangle, two_threads)')
    p.add_argument('--dir', required=True, help='a folder of our own for the outputs')
    for e in extra:
        p.add_argument(e, required=True)
    return p.parse_args()


def fresh_dir(a, name):
    d = os.path.join(a.dir, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def env_with(a, **kw):
    """The environment of a traced run: the library preloaded, no GLTRACE*
    variable of the caller's, then kw."""
    env = {k: v for k, v in os.environ.items() if not k.startswith('GLTRACE')}
    old = env.get('LD_PRELOAD')
    env['LD_PRELOAD'] = a.lib + (':' + old if old else '')
    env.update(kw)
    return env


def run(argv, env=None, cwd=None):
    return subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)


def ours(stderr):
    return [l for l in stderr.splitlines() if l.startswith('gltrace:')]

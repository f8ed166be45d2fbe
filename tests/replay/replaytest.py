"""replaytest: what the tests/replay checks share: a check that prints ok or
FAIL and remembers failures, running a command (headless by default: no
DISPLAY, no WAYLAND_DISPLAY, as replay must work), and reading replay's
summary line. Standard library only."""
import os
import re
import subprocess
import sys

failures = []
HEADLESS = {k: v for k, v in os.environ.items() if k not in ('DISPLAY', 'WAYLAND_DISPLAY')}


def check(name, cond, detail=''):
    print(('ok   ' if cond else 'FAIL ') + name + ('' if cond else ': ' + str(detail)[:1500]))
    if not cond:
        failures.append(name)
    return cond


def run(argv, env=HEADLESS, text=True, timeout=600):
    return subprocess.run(argv, capture_output=True, text=text, timeout=timeout, env=env)


def summary(err):
    """(snapshots, matched, differ, not compared) from replay's summary
    line, or None when it printed none."""
    m = re.search(r'(\d+) snapshots: (\d+) matched, (\d+) differ, (\d+) not compared', err)
    return tuple(map(int, m.groups())) if m else None


def finish():
    print(f'{len(failures)} failed' if failures else 'all passed')
    sys.exit(1 if failures else 0)

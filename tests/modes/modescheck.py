"""What the tests of tests/modes share beyond tests/lib/gltest.py: their
arguments and a fresh output folder of each case's own. Standard library
only."""
import argparse
import os

import gltest as gt


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
    """The case's folder name in the test's own folder, emptied."""
    return gt.fresh_dir(os.path.join(a.dir, name))

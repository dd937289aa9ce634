#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""How many files one message's way through the core visits.

Usage: scripts/core-walk.py [--tree] [PATHFILE [TREE]]

PATHFILE (default scripts/core-walk.put, one PUT and its ACK at the
initiator) has sections: a line '@root' (where the user or the LND calls
the core) and the functions the message goes through below it, one per
line ('#' starts a comment); 'callee < caller' enters callee only from
that caller (where an earlier call of it is an error branch).  The walk
starts at each root in turn and descends into the callees of its section
in source order, each once, and back; functions are found in
TREE/lnet/*.c (default: this repo).  Prints the files visited, and how
many times the walk goes back to a file it had left, with the returns
from callees and counting calls only.
Documentation/core.rst, "Layout", gives the figures.
"""
import glob
import os
import re
import sys

DEF_RE = re.compile(r'^(?:[a-z][^\n;]*?\b)?([a-z_]\w*)\([^;{]*?\)\s*\n\{',
                    re.M)
CALL_RE = re.compile(r'\b(\w+)\s*\(')


def read_path(name):
    roots = []  # (root, {function: its only caller or None})
    with open(name) as f:
        for ln in f:
            ln = ln.split('#')[0].strip()
            if not ln:
                continue
            if ln.startswith('@'):
                roots.append((ln[1:], {ln[1:]: None}))
            elif not roots:
                sys.exit('%s: a function before the first @root' % name)
            else:
                fn, _, caller = (w.strip() for w in ln.partition('<'))
                roots[-1][1][fn] = caller or None
    return roots


def read_defs(tree):
    defs = {}  # name -> (file, body)
    for name in sorted(glob.glob(os.path.join(tree, 'lnet', '*.c'))):
        with open(name) as f:
            src = f.read()
        for m in DEF_RE.finditer(src):
            depth, i = 1, m.end()
            while depth:
                depth += (src[i] == '{') - (src[i] == '}')
                i += 1
            defs[m.group(1)] = (os.path.basename(name), src[m.end():i])
    return defs


def count(seq):
    runs = [f for i, f in enumerate(seq) if not i or seq[i - 1] != f]
    left, back = set(), 0
    for i, f in enumerate(runs):
        back += f in left
        if i:
            left.add(runs[i - 1])
    return back


def main():
    args = [a for a in sys.argv[1:] if a != '--tree']
    tree_out = '--tree' in sys.argv[1:]
    here = os.path.dirname(os.path.abspath(__file__))
    pathfile = args[0] if args else os.path.join(here, 'core-walk.put')
    tree = args[1] if len(args) > 1 else os.path.dirname(here)
    roots = read_path(pathfile)
    defs = read_defs(tree)
    missing = sorted(set().union(*[set(s) for _, s in roots]) -
                     set(defs))
    if missing:
        sys.exit('not defined in lnet/*.c: ' + ' '.join(missing))
    seq, calls = [], []

    def walk(fn, seen, depth, section):
        f, body = defs[fn]
        seq.append(f)
        calls.append(f)
        if tree_out:
            print('  ' * depth + fn, f)
        for m in CALL_RE.finditer(body):
            c = m.group(1)
            if c in section and c not in seen and \
               section[c] in (None, fn):
                seen.add(c)
                walk(c, seen, depth + 1, section)
                seq.append(f)

    for root, section in roots:
        walk(root, {root}, 0, section)
    files = list(dict.fromkeys(seq))
    print('files %d: %s' % (len(files), ' '.join(files)))
    print('back to a file left: %d (%d counting calls only)' %
          (count(seq), count(calls)))


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""bundle_edit.py - turn a copy of a simulated bundle into the shapes real
collections take, for the tests of ingest (t49-bundles.sh):

  names DIR           each communicator under two names, as HCCL prints
                      them: the root info identifier on the creation lines
                      (Entry-HcclCommInitRootInfo, SetupAgent, success),
                      group_name_K everywhere else (hcclCommInitInfo
                      identifier[...], failure lines, tags)
  shift DIR US        every plog-form timestamp under DIR moved by US us
  stale SRC DST PID US   SRC copied to DST (a plog of an earlier pid):
                      PID for the original pid, timestamps moved by US us;
                      --no-init drops its communicator creation lines
  cut FILE N          FILE cut in the middle of line N (a line of an
                      error's first timestamp when N is 0): the file ends
                      there, without a newline
  upto DIR SECONDS    every log under DIR ends where its log time passes
                      SECONDS after the first time under DIR (a job still
                      running then: lines without a time follow the line
                      before them)
"""
import datetime
import os
import re
import sys

TS = re.compile(r'(\d{4})-(\d{2})-(\d{2})-(\d{2}):(\d{2}):(\d{2})\.(\d{3})\.(\d{3})')
CREATE = ('Entry-HcclCommInitRootInfo', 'SetupAgent', 'HcclCommInitRootInfo success')
ROOTINFO = re.compile(r'\d+\.\d+\.\d+\.\d+%[A-Za-z0-9]+_\d+_(\d+)_\d+')


def files(root):
    for dp, _, fn in os.walk(root):
        for f in sorted(fn):
            if f.endswith('.log'):
                yield os.path.join(dp, f)


def rd(p):
    with open(p, encoding='utf-8', errors='surrogateescape') as fp:
        return fp.read()


def wr(p, s):
    with open(p, 'w', encoding='utf-8', errors='surrogateescape') as fp:
        fp.write(s)


def shifted(s, us):
    def one(m):
        t = datetime.datetime(*[int(x) for x in m.groups()[:6]],
                              int(m.group(7)) * 1000 + int(m.group(8)))
        t += datetime.timedelta(microseconds=us)
        return t.strftime('%Y-%m-%d-%H:%M:%S.') + '%03d.%03d' % (
            t.microsecond // 1000, t.microsecond % 1000)
    return TS.sub(one, s)


def names(root):
    for p in files(root):
        out = []
        for line in rd(p).split('\n'):
            if not any(c in line for c in CREATE):
                line = group_names(line)
            out.append(line)
        wr(p, '\n'.join(out))


def group_names(line):
    return ROOTINFO.sub(lambda m: 'group_name_%d' % (int(m.group(1)) + 1), line)


def shift(root, us):
    for p in files(root):
        wr(p, shifted(rd(p), us))


def stale(src, dst, pid, us, no_init):
    old = re.search(r'-(\d+)_', os.path.basename(src)).group(1)
    s = shifted(rd(src), us).replace(old, pid)
    if no_init:
        s = '\n'.join(l for l in s.split('\n')
                      if 'CommInit' not in l and 'SetupAgent' not in l)
    wr(dst, s)


def cut(p, n):
    lines = rd(p).split('\n')
    if n == 0:
        n = next(i for i, l in enumerate(lines, 1) if l.startswith('[ERROR]'))
    line = lines[n - 1]
    m = TS.search(line)
    # in the middle of the line's timestamp: "...07:30:36.0"
    end = m.start() + 21 if m else len(line) // 2
    wr(p, '\n'.join(lines[:n - 1]) + '\n' + line[:end])


def stamp(m):
    y, mo, d, h, mi, se, ms, us = (int(x) for x in m.groups())
    return datetime.datetime(y, mo, d, h, mi, se, ms * 1000 + us)


def upto(root, seconds):
    paths = list(files(root))
    first = min(stamp(m) for p in paths for m in [TS.search(rd(p))] if m)
    end = first + datetime.timedelta(seconds=seconds)
    for p in paths:
        keep = []
        for line in rd(p).split('\n'):
            m = TS.search(line)
            if m and stamp(m) > end:
                break
            keep.append(line)
        wr(p, '\n'.join(keep).rstrip('\n') + '\n' if keep else '')


def main(a):
    if a[0] == 'names':
        names(a[1])
    elif a[0] == 'shift':
        shift(a[1], int(a[2]))
    elif a[0] == 'stale':
        stale(a[1], a[2], a[3], int(a[4]), '--no-init' in a)
    elif a[0] == 'cut':
        cut(a[1], int(a[2]))
    elif a[0] == 'upto':
        upto(a[1], float(a[2]))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv[1:])

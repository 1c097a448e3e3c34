#!/usr/bin/env python3
"""One state transfer step by step, from a kept `./bftws measure transfer --keep` run directory.

Merges the step lines of every replica's log (TransferTrace, the keystore reads, the state-transfer WARN line)
by wall-clock time and prints them in ms after the restarted replica's first FetchState, with the replica's name.
usage: transfer_breakdown.py RUN_DIR [--all]   (--all: also the lines of the other replicas before the fetch)
"""
import re
import sys
from pathlib import Path

LINE = re.compile(r'^(\d\d):(\d\d):(\d\d)\.(\d\d\d) \[([^\]]*)\] (\w+) (\S+) - (.*)$')
KEEP = ('TransferTrace', 'LoadedOnce', 'TotalOrderManager', 'BftReplica')


def ms(m):
    h, mi, s, frac = (int(m.group(i)) for i in range(1, 5))
    return ((h * 60 + mi) * 60 + s) * 1000 + frac


def main():
    run = Path(sys.argv[1])
    events = []
    for log in sorted(run.glob('replica*.log')):
        who = log.stem
        for line in log.read_text(errors='replace').splitlines():
            m = LINE.match(line)
            if not m or not m.group(7).rsplit('.', 1)[-1] in KEEP:
                continue
            text = m.group(8)
            if m.group(7).endswith('TotalOrderManager') and 'state transfer' not in text:
                continue
            events.append((ms(m), who, m.group(5), text))
    events.sort()
    first = next((t for t, who, _, text in events if 'restart' in who and 'FetchState' in text and 'sent to' in text),
                 None)
    if first is None:
        print('no FetchState of a restarted replica found')
        first = events[0][0] if events else 0
    for t, who, thread, text in events:
        if t < first - 15000 and '--all' not in sys.argv:
            continue
        print(f'{t - first:+8d} ms  {who:18s} {thread:24s} {text[:200]}')


if __name__ == '__main__':
    main()

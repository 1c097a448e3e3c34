#!/usr/bin/env python3
"""Failover breakdown from a kept run of `./bftws measure failover --keep` (docs/recovery.md).

usage: failover_breakdown.py RUN_DIR MEASURE_OUTPUT [--table]

--table: one Markdown row per kill instead (each step at the f+1-th survivor to reach it).

MEASURE_OUTPUT is what the measure command printed (its table gives each kill's wall-clock time). For every kill it
prints, in ms after the kill, each survivor's suspicion (with the core's reason: when the waiting request arrived and
when the last commit was) and the steps ViewChangeTrace logged (new-view sent, view entered, first pre-prepare /
prepare / commit, first committed batch, first execution, first reply to a client in the new view), and the client's
slow answers (Transmission at debug level) around the kill.
"""
import re
import sys
from datetime import datetime, timedelta
from pathlib import Path

TS = re.compile(r'^(\d\d:\d\d:\d\d\.\d\d\d) ')


def ms(t):
    return datetime.strptime(t, '%H:%M:%S.%f')


def main(run_dir, output):
    kills = []
    for line in Path(output).read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if len(cells) >= 9 and cells[0].isdigit() and TS.match(cells[1] + ' '):
            kills.append((int(cells[0]), ms(cells[1]), cells[2], cells[3] + ', ' + cells[4] + ' slots', cells[5]))
        elif len(cells) >= 8 and cells[0].isdigit() and TS.match(cells[1] + ' '):
            kills.append((int(cells[0]), ms(cells[1]), cells[2], cells[3], cells[4]))
    events = []
    for log in sorted(Path(run_dir).glob('replica*.log')):
        for line in log.read_text(errors='replace').splitlines():
            m = TS.match(line)
            if not m:
                continue
            if ('suspects the primary' in line or 'ViewChangeTrace' in line or 'entered view' in line
                    or 'recovering' in line):
                events.append((ms(m.group(1)), log.stem, line.split(' - ', 1)[-1]))
    for line in Path(output).read_text().splitlines():
        m = TS.match(line)
        if m and 'Transmission' in line:
            events.append((ms(m.group(1)), 'client', line.split(' - ', 1)[-1]))
    events.sort(key=lambda e: e[0])
    for i, (n, at, primary, views, client) in enumerate(kills):
        end = kills[i + 1][1] if i + 1 < len(kills) else at + timedelta(seconds=60)
        print(f'kill {n}: {primary} at {at.time()}, views {views}, client {client} ms')
        for t, who, what in events:
            if at - timedelta(seconds=2) <= t < min(end, at + timedelta(seconds=8)):
                print(f'  {(t - at).total_seconds() * 1000:8.0f} {who:9} {what[:200]}')
        print()




def table(run_dir, output):
    """One Markdown row per kill: ms after the kill at which each step was reached (the f+1-th survivor, f = 1)."""
    kills = []
    for line in Path(output).read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if len(cells) >= 8 and cells[0].isdigit() and TS.match(cells[1] + ' '):
            slots = cells[4] if len(cells) >= 9 else '?'
            kills.append((int(cells[0]), ms(cells[1]), cells[2], slots, cells[-4 if len(cells) >= 9 else -4]))
    steps = {}
    for log in sorted(Path(run_dir).glob('replica*.log')):
        for line in log.read_text(errors='replace').splitlines():
            m = TS.match(line)
            if not m:
                continue
            t = ms(m.group(1))
            name = log.stem.split('.')[0]
            if 'suspects the primary' in line and 'restarted from its data' not in line:
                steps.setdefault('suspect', []).append((t, name))
            s = re.search(r'view \d+: (.+?) \+[\d.]+ ms after suspecting', line)
            if s:
                steps.setdefault(s.group(1), []).append((t, name))
    print('| kill | primary | slots | client ms | suspicions | new-view sent | backups in view | first prepare sent'
          ' (2nd) | first commit sent (2nd) | committed (2nd) | reply (2nd) |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    for i, (n, at, primary, slots, client) in enumerate(kills):
        end = kills[i + 1][1] if i + 1 < len(kills) else at + timedelta(seconds=60)

        def when(key, k):
            ts = sorted({who: t for t, who in reversed(steps.get(key, [])) if at < t < end and who != primary}.values())
            return f'{(ts[k - 1] - at).total_seconds() * 1000:.0f}' if len(ts) >= k else '-'
        sus = [t for t, who in steps.get('suspect', []) if at < t < min(end, at + timedelta(seconds=3))]
        s = f'{(min(sus) - at).total_seconds() * 1000:.0f}-{(max(sus) - at).total_seconds() * 1000:.0f}' if sus else '-'
        print(f'| {n} | {primary} | {slots} | {client} | {s} | {when("new-view sent", 1)} | '
              f'{when("view entered", 3)} | {when("first prepare sent", 2)} | {when("first commit sent", 2)} | '
              f'{when("first batch committed", 2)} | {when("first reply to a client", 2)} |')


if __name__ == '__main__':
    if len(sys.argv) > 3 and sys.argv[3] == '--table':
        table(*sys.argv[1:3])
    else:
        main(*sys.argv[1:3])

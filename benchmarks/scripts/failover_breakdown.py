#!/usr/bin/env python3
"""Failover breakdown from a kept run of `./bftws measure failover --keep` (docs/recovery.md).

usage: failover_breakdown.py RUN_DIR MEASURE_OUTPUT

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
        if len(cells) >= 8 and cells[0].isdigit() and TS.match(cells[1] + ' '):
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
                if who == 'client' or 'entered view' in what and 'ViewChangeTrace' not in what:
                    pass
                print(f'  {(t - at).total_seconds() * 1000:8.0f} {who:9} {what[:200]}')
        print()


if __name__ == '__main__':
    main(*sys.argv[1:3])

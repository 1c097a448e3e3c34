#!/usr/bin/env python3
"""Aggregate JFR execution samples of one replica inside its view-change windows.

usage: jfr_viewchange.py REPLICA.jfr REPLICA.log [--until entered|reply] [--top N]
Windows: from each 'suspects the primary' line to the following 'view entered' (or 'first reply') line of the
same log. Prints self and inclusive sample counts per method (inclusive: once per stack), and per category.
"""
import json, re, subprocess, sys
from collections import Counter
from datetime import datetime, timezone

args = sys.argv[1:]
jfr, log = args[0], args[1]
until = 'view entered'
if '--until' in args:
    until = {'entered': 'view entered', 'reply': 'first reply to a client'}[args[args.index('--until') + 1]]
top = int(args[args.index('--top') + 1]) if '--top' in args else 40
day = None
windows = []
start = None
TS = re.compile(r'^(\d\d:\d\d:\d\d\.\d\d\d) ')
for line in open(log, errors='replace'):
    m = TS.match(line)
    if not m:
        continue
    t = m.group(1)
    if 'suspects the primary' in line and start is None:
        start = t
    elif until in line and start is not None:
        windows.append((start, t)); start = None
out = subprocess.run(['jfr', 'print', '--json', '--stack-depth', '64', '--events', 'jdk.ExecutionSample', jfr],
                     capture_output=True, text=True, check=True).stdout
events = json.loads(out)['recording']['events']
def hms(iso):
    # '2026-11-21T16:49:47.123456789Z' or with offset
    t = iso.split('T')[1]
    return t[:12]
def inwin(t):
    return any(a <= t <= b for a, b in windows)
CATS = [
    ('RSA sign', ['sun.security.rsa.RSACore.crtCrypt', 'RSASignature.engineSign', 'MessageSigner.sign']),
    ('RSA verify', ['RSASignature.engineVerify']),
    ('canonical form', ['CanonicalForm.', 'SigningInput.of', 'CanonicalWriter']),
    ('message hash/equals', ['.hashCode', '.equals']),
    ('XML decode', ['MessageDecoder.', 'XmlInput.', 'BundleCodec.decode']),
    ('XML encode', ['MessageEncoder.', 'BundleCodec.encode']),
    ('MAC', ['security.mac.']),
    ('core', ['org.bftws.core.']),
    ('journal', ['Journal.']),
    ('HTTP/axis2', ['org.apache.axis2', 'org.apache.http']),
    ('AXIOM/stax', ['org.apache.axiom', 'com.ctc.wstx']),
    ('logging', ['org.slf4j']),
]
selfc, incl, cats, threads, innermost, outer2 = Counter(), Counter(), Counter(), Counter(), Counter(), Counter()
n = 0
for e in events:
    v = e['values']
    if not inwin(hms(v['startTime'])):
        continue
    frames = v['stackTrace']['frames'] if v.get('stackTrace') else []
    names = [(f['method']['type']['name'] + '.' + f['method']['name']).replace('/', '.') for f in frames]
    if not names:
        continue
    n += 1
    threads[re.sub(r'\d+', 'N', v['sampledThread']['javaName'] or '?')] += 1
    selfc[names[0]] += 1
    ours = [x for x in names if x.startswith('org.bftws') and '$$Lambda' not in x]
    innermost[ours[0] if ours else 'none: ' + names[-1]] += 1
    outer2[' > '.join(reversed(ours[-3:])) if ours else 'none: ' + names[-1]] += 1
    for m in set(names):
        incl[m] += 1
    stack = ' '.join(names)
    for cat, keys in CATS:
        if any(k in stack for k in keys):
            cats[cat] += 1
            break
    else:
        cats['other: ' + names[0]] += 1
print(f'{jfr}: windows {windows}')
print(f'samples in windows: {n} (of {len(events)})')
print('threads:', threads.most_common(8))
print('\ncategory (first match, inclusive):')
for c, k in cats.most_common(25):
    print(f'  {k:5d} {100*k/max(n,1):5.1f}%  {c}')
print('\nself:')
for m, k in selfc.most_common(top):
    print(f'  {k:5d}  {m}')
print('\ninnermost org.bftws frame:')
for m, k in innermost.most_common(top):
    print(f'  {k:5d}  {m}')
print('\noutermost org.bftws frames (entry points):')
for m, k in outer2.most_common(top):
    print(f'  {k:5d}  {m}')
print('\ninclusive (org.bftws only):')
for m, k in [x for x in incl.most_common() if 'org.bftws' in x[0]][:top]:
    print(f'  {k:5d}  {m}')

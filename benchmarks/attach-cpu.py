#!/usr/bin/env python3
"""The attach transient in CPU time (BENCHMARKS.md section 16's addendum, section 22): what an attach costs a busy
application, read from the CPU time of each thread of the target (/proc/PID/task/*/stat), which the load of other
processes on the machine moves far less than throughput per second. Starts `PacedShop` (benchmarks.jar), waits 20 s,
reads every thread's CPU time, waits W s, reads again, runs `java -jar AGENT attach PID OPTIONS,backend=portable,...`,
reads again W s after the attach began (a thread that ended in the window counts with its last reading, taken every
0.2 s), then status, detach, quit. Prints the app's work per CPU-second (PacedShop rounds per CPU-second of its `shop`
thread, after the attach against before it) and the extra CPU of the JVM's other threads (after minus before),
split C2 / C1 / ramp (jetw-attach-ramp) / jetw (the agent's other threads) / VM thread / GC / other.

  python3 benchmarks/attach-cpu.py JAVA benchmarks/target/benchmarks.jar AGENT_JAR 'include=org.h2.**,attachHot=defer' [W [JVM_FLAGS...]]
  # Temurin 25: add 40 -XX:+EnableDynamicAgentLoading; the one-class floor: 'include=dev.jetw.bench.real.PacedShop'"""
import subprocess, sys, time, os, threading, re
ETL = "/tmp/jetw-attach-cpu.etl"
java, bench, agent, options = sys.argv[1:5]
W = int(sys.argv[5]) if len(sys.argv) > 5 else 40
flags = sys.argv[6:]
p = subprocess.Popen([java] + flags + ['-cp', bench, 'dev.jetw.bench.real.PacedShop'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
state = {'rounds': 0, 'pid': None}
def reader():
    for line in p.stdout:
        if line.startswith('tick '):
            state['rounds'] = int(line.split()[2])
        elif line.startswith('pid '):
            state['pid'] = line.split()[1]
threading.Thread(target=reader, daemon=True).start()
p.stdin.write('pid\n'); p.stdin.flush()
while state['pid'] is None: time.sleep(0.05)
pid = state['pid']
def snap():
    r = {}
    for tid in os.listdir(f'/proc/{pid}/task'):
        try:
            comm = open(f'/proc/{pid}/task/{tid}/comm').read().strip()
            st = open(f'/proc/{pid}/task/{tid}/stat').read()
            f = st[st.rindex(')')+2:].split()
            r[tid] = (comm, (int(f[11]) + int(f[12])) / 100.0)
        except OSError:
            pass
    st = open(f'/proc/{pid}/stat').read()
    f = st[st.rindex(')')+2:].split()
    return r, state['rounds'], time.time(), (int(f[11]) + int(f[12])) / 100.0
def cat(comm):
    if comm == 'shop': return 'shop'
    if comm.startswith('C2 '): return 'C2'
    if comm.startswith('C1 '): return 'C1'
    if comm == 'VM Thread': return 'VM'
    if comm.startswith('jetw-attach'): return 'ramp'
    if comm.startswith('jetw'): return 'jetw'
    if comm.startswith('GC') or comm.startswith('G1'): return 'GC'
    return 'other'
def delta(a, b):
    d = {}
    for tid, (comm, c) in b[0].items():
        c0 = a[0].get(tid, (comm, 0.0))[1]
        d[cat(comm)] = d.get(cat(comm), 0.0) + c - c0
    live = sum(d.values())
    d['ended threads'] = (b[3] - a[3]) - live
    return d, b[1] - a[1]
def jetw(*args):
    return subprocess.run([java, '-jar', agent] + list(args), capture_output=True, text=True).stdout.strip()
seen = {}
def poll():
    while True:
        try:
            r = snap()[0]
        except Exception:
            return
        for tid, v in r.items(): seen[tid] = v
        time.sleep(0.2)
time.sleep(20)
s0 = snap(); time.sleep(W); s1 = snap()
seen.clear(); threading.Thread(target=poll, daemon=True).start()
t0 = time.time()
reply = jetw('attach', pid, options + ',backend=portable,file=' + ETL)
cmd_s = time.time() - t0
time.sleep(max(0, t0 + W - time.time())); s2 = snap()
for tid, v in list(seen.items()):
    if tid not in s2[0]: s2[0][tid] = v  # ended during the window: its last reading
status = jetw('status', pid)
det = jetw('detach', pid)
p.stdin.write('quit\n'); p.stdin.flush(); p.wait(30)
(db, rb), (da, ra) = delta(s0, s1), delta(s1, s2)
wb, wa = rb / db['shop'], ra / da['shop']
extra = {k: da.get(k, 0) - db.get(k, 0) for k in set(da) | set(db) if k != 'shop'}
tot = sum(extra.values())
print(f"agent={os.path.basename(agent)} options={options} W={W} attach_cmd={cmd_s:.1f}s attach_epoch={t0:.1f}")
print(f"  work/CPU-s after/before = {wa:.1f}/{wb:.1f} = {wa/wb:.2f}   (rounds {rb}/{ra}, shop cpu {db['shop']:.1f}/{da['shop']:.1f})")
print(f"  extra CPU other threads = {tot:.1f} s (" + ', '.join(f"{k} {v:.1f}" for k, v in sorted(extra.items(), key=lambda kv: -kv[1])) + ")")
for l in status.splitlines():
    if l.startswith('attach ramp') or l.startswith('methods') or 'fail' in l.lower(): print('  ' + l[:400])
print('  detach: ' + det.replace('\n', ' ')[:200])
try: os.remove(ETL)
except OSError: pass

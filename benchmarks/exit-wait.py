#!/usr/bin/env python3
"""The exit wait of a short job (BENCHMARKS.md section 21): per pair, no agent, a base agent jar and a new one in
turn (the order reversed every other pair), `ShopApp 8` on Temurin 25 then JDK 17, with the default options and
verbose=true (the new jar's stop then reports what it waited for).

  python3 benchmarks/exit-wait.py PAIRS OUT.tsv BASE_JAR NEW_JAR   # from the repository root, after package
  python3 benchmarks/exit-wait.py --stats OUT.tsv

One row per run: jdk, pair, arm, wall s, CPU s (user + sys of the JVM, from wait4), exit gap ms (from ShopApp's
last line, "process cpu", to the process's end), events written, dropped, lost (the exit line), JVM runtime events
in the trace (the jetw Jvm* providers of `jetw etl summary`), the stop's report."""
import os, sys, time, subprocess, re, statistics as st
jdks = {"25": "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java", "17": "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"}
B = "benchmarks/target/benchmarks.jar"; ETL = "/tmp/jetw-exit-wait.etl"; JETW = "./jetw"
def run(java, agent):
    cmd = [java]
    if agent: cmd.append("-javaagent:%s=include=dev.jetw.bench.real.ShopApp,file=%s,overwrite=true,verbose=true" % (agent, ETL))
    cmd += ["-cp", B, "dev.jetw.bench.real.ShopApp", "8"]
    t0 = time.time()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, bufsize=0)
    tcpu = None; lines = []
    for line in iter(p.stdout.readline, b''):
        l = line.decode(errors='replace').rstrip(); lines.append(l)
        if l.startswith("process cpu"): tcpu = time.time()
    _, status, ru = os.wait4(p.pid, 0)
    t1 = time.time()
    cpu = ru.ru_utime + ru.ru_stime
    written = dropped = lost = jvm = "-"; report = "-"
    for l in lines:
        m = re.match(r"jetw: (\d+) events written, (\d+) dropped, (\d+) lost", l)
        if m: written, dropped, lost = m.groups()
        if l.startswith("jetw: jvm events: stop at exit: "): report = l[len("jetw: jvm events: stop at exit: "):]
    if agent:
        s = subprocess.run([JETW, "etl", "summary", ETL], capture_output=True, text=True).stdout
        jvm = sum(int(m.group(1)) for m in re.finditer(r"jetw Jvm\w+\s+(\d+)", s))
    return t1 - t0, cpu, (t1 - tcpu) * 1000 if tcpu else float('nan'), written, dropped, lost, jvm, report
def measure(pairs, out, arms):
  with open(out, "a") as f:
      for jdk in ["25", "17"]:
          for i in range(pairs):
              order = ["none", "base", "new"] if i % 2 == 0 else ["new", "base", "none"]
              for arm in order:
                  r = run(jdks[jdk], arms[arm])
                  row = "%s\t%d\t%s\t%.3f\t%.2f\t%.0f\t%s\t%s\t%s\t%s\t%s" % ((jdk, i + 1, arm) + r)
                  print(row, flush=True); f.write(row + "\n"); f.flush()

def stats(path):
    rows=[l.rstrip("\n").split("\t") for l in open(path)]
    def med(xs): return "%s (%s-%s)"%(fmt(st.median(xs)),fmt(min(xs)),fmt(max(xs)))
    def fmt(x): return ("%.0f"%x) if abs(x)>=20 else ("%.2f"%x)
    for jdk in ["25","17"]:
        R={a:{int(r[1]):r for r in rows if r[0]==jdk and r[2]==a} for a in ["none","base","new"]}
        n=len(R["new"])
        print("JDK",jdk,"pairs",n)
        for a in ["none","base","new"]:
            w=[float(r[3]) for r in R[a].values()]; c=[float(r[4]) for r in R[a].values()]; g=[float(r[5]) for r in R[a].values()]
            line="  %-4s wall %s s  cpu %s s  exit gap %s ms"%(a,med(w),med(c),med(g))
            if a!="none":
                wr=[int(r[6]) for r in R[a].values()]; d=sum(int(r[7]) for r in R[a].values()); l=sum(int(r[8]) for r in R[a].values()); j=[int(r[9]) for r in R[a].values()]
                line+="  written %s dropped %d lost %d  jvm events %s (sum %d)"%(med(wr),d,l,med(j),sum(j))
            print(line)
        ks=sorted(R["new"])
        dw=[float(R["new"][k][3])-float(R["base"][k][3]) for k in ks]
        dc=[float(R["new"][k][4])-float(R["base"][k][4]) for k in ks]
        dg=[float(R["new"][k][5])-float(R["base"][k][5]) for k in ks]
        gn=[float(R["new"][k][5])-float(R["none"][k][5]) for k in ks]
        gb=[float(R["base"][k][5])-float(R["none"][k][5]) for k in ks]
        print("  paired new-base: wall %s s, cpu %s s, exit gap %s ms"%(med(dw),med(dc),med(dg)))
        print("  exit gap minus none's: base %s ms, new %s ms"%(med(gb),med(gn)))
        print("  per pair exit gap base:", " ".join("%.0f"%float(R["base"][k][5]) for k in ks))
        print("  per pair exit gap new: ", " ".join("%.0f"%float(R["new"][k][5]) for k in ks))
        print("  per pair exit gap none:", " ".join("%.0f"%float(R["none"][k][5]) for k in ks))
        print("  per pair wall base:", " ".join(R["base"][k][3] for k in ks))
        print("  per pair wall new: ", " ".join(R["new"][k][3] for k in ks))
        print("  stop report ms new:", " ".join(R["new"][k][10].split(" ended ")[1].split(" ")[0] if " ended " in R["new"][k][10] else "?" for k in ks))

if __name__ == "__main__":
    if sys.argv[1] == "--stats":
        stats(sys.argv[2])
    else:
        measure(int(sys.argv[1]), sys.argv[2], {"none": None, "base": sys.argv[3], "new": sys.argv[4]})

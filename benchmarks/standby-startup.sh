#!/bin/bash
# What -javaagent:jetw-agent.jar=standby costs a JVM's start-up (BENCHMARKS.md §26): hello world, no agent against
# standby, paired in one run. Round 0 is a warm-up (left out); the order is reversed every other round. Writes its
# files in DIR (hello/Hello.class, times.txt of "ARM ROUND wall-s maxrss-KB" lines from GNU time) and prints per arm
# the median (min-max) wall and peak RSS, and per round standby/none of wall and standby-none of peak RSS.
# usage: benchmarks/standby-startup.sh JAVA JAR DIR [ROUNDS=20]
set -eu
J=$1; JAR=$(readlink -f $2); D=$3; R=${4:-20}
mkdir -p $D/hello
cat > $D/hello/Hello.java <<'JAVA'
public class Hello { public static void main(String[] a) { System.out.println("hello"); } }
JAVA
$(dirname $J)/javac -d $D/hello $D/hello/Hello.java
T=$D/times.txt; : > $T
for i in $(seq 0 $R); do
  if [ $((i % 2)) = 0 ]; then order="none standby"; else order="standby none"; fi
  for arm in $order; do
    if [ $arm = none ]; then flag=""; else flag="-javaagent:$JAR=standby"; fi
    /usr/bin/time -a -o $T -f "$arm $i %e %M" $J $flag -cp $D/hello Hello > $D/out.txt 2>&1
    grep -qx hello $D/out.txt || { echo "round $i $arm: no hello"; cat $D/out.txt; exit 1; }
    [ ! -s <(grep -v '^hello$' $D/out.txt) ] || { echo "round $i $arm: other output:"; cat $D/out.txt; exit 1; }
  done
done
python3 - $T <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
by = {}
for arm, r, wall, rss in rows:
    if int(r) > 0:
        by.setdefault(int(r), {})[arm] = (float(wall), int(rss))
def f(xs, fmt): return (fmt % st.median(xs)) + " (" + (fmt % min(xs)) + "-" + (fmt % max(xs)) + ")"
for arm in ("none", "standby"):
    print("%-8s wall %s s, peak RSS %s MiB" % (arm, f([v[arm][0] for v in by.values()], "%.3f"), f([v[arm][1] / 1024 for v in by.values()], "%.1f")))
print("standby/none wall per round: %s; standby-none peak RSS per round: %s MiB; %d rounds" % (
    f([v["standby"][0] / v["none"][0] for v in by.values()], "%.3f"),
    f([(v["standby"][1] - v["none"][1]) / 1024 for v in by.values()], "%.1f"), len(by)))
PY

#!/bin/bash
# What -javaagent:jetw-agent.jar=standby costs a JVM's start-up (BENCHMARKS.md §26): hello world with no agent, with
# a no-op Java agent (an empty premain in a jar of its own, built here: what any -javaagent costs) and with standby,
# paired in one run. Round 0 is a warm-up (left out); the order is reversed every other round. Writes its files in DIR
# (hello/, noop/, times.txt of "ARM ROUND wall-s maxrss-KB" lines: the wall from date +%s%N around GNU time, which
# adds its own fork and exec to every arm alike, the peak RSS from GNU time) and
# prints per arm the median (min-max) wall and peak RSS, and per round the ratios of wall and differences of peak RSS.
# usage: benchmarks/standby-startup.sh JAVA JAR DIR [ROUNDS=20]
set -eu
J=$1; JAR=$(readlink -f $2); D=$3; R=${4:-20}
mkdir -p $D/hello
cat > $D/hello/Hello.java <<'JAVA'
public class Hello { public static void main(String[] a) { System.out.println("hello"); } }
JAVA
$(dirname $J)/javac -d $D/hello $D/hello/Hello.java
mkdir -p $D/noop/src/noop $D/noop/classes
cat > $D/noop/src/noop/Noop.java <<'JAVA'
package noop;
public final class Noop { public static void premain(String options, java.lang.instrument.Instrumentation inst) { } }
JAVA
printf 'Premain-Class: noop.Noop\nCan-Retransform-Classes: true\n' > $D/noop/manifest.txt
$(dirname $J)/javac -d $D/noop/classes $D/noop/src/noop/Noop.java
$(dirname $J)/jar cfm $D/noop/noop.jar $D/noop/manifest.txt -C $D/noop/classes .
T=$D/times.txt; : > $T
for i in $(seq 0 $R); do
  if [ $((i % 2)) = 0 ]; then order="none noop standby"; else order="standby noop none"; fi
  for arm in $order; do
    case $arm in none) flag="";; noop) flag="-javaagent:$D/noop/noop.jar";; standby) flag="-javaagent:$JAR=standby";; esac
    t0=$(date +%s%N)
    /usr/bin/time -o $D/rss.txt -f "%M" $J $flag -cp $D/hello Hello > $D/out.txt 2>&1
    echo "$arm $i $(( ($(date +%s%N) - t0) / 1000 ))e-6 $(cat $D/rss.txt)" >> $T
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
for arm in ("none", "noop", "standby"):
    print("%-8s wall %s ms, peak RSS %s MiB" % (arm, f([v[arm][0] * 1000 for v in by.values()], "%.1f"), f([v[arm][1] / 1024 for v in by.values()], "%.1f")))
for a, b in (("standby", "none"), ("noop", "none"), ("standby", "noop")):
    print("%s/%s wall per round: %s; %s-%s peak RSS per round: %s MiB; %d rounds" % (a, b,
        f([v[a][0] / v[b][0] for v in by.values()], "%.2f"), a, b,
        f([(v[a][1] - v[b][1]) / 1024 for v in by.values()], "%.1f"), len(by)))
PY

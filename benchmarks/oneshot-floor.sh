#!/bin/bash
# Where the one-shot's cost lies (BENCHMARKS.md §25): ShopApp 8 (~1 s of work, checksum 5dc68dcf01e) paired in one run,
# one JAR, arms: no agent; JFR alone (-XX:StartFlightRecording); one class included (default, jvm=none); include=org.h2.**
# (default; jvm=none; jvm=none,propagate=false; hotMethods=HOT; hotMethods=HOT with jvm=none,propagate=false). Pair 0 is a
# warm-up (drop it); the order is reversed every other pair. Appends "ARM PAIR wall user sys maxrss-KB" lines to OUT.
# HOT: `java -jar JAR etl hot-methods -o HOT FIRST.etl` of a first run with include=org.h2.** (docs/agent-options.md).
# usage: benchmarks/oneshot-floor.sh JAVA JAR benchmarks/target/benchmarks.jar HOT OUT [PAIRS=5] [ARMS]
set -u
J=$1; JAR=$2; BJ=$3; HOT=$4; OUT=$5; P=${6:-5}
ARMS=${7:-"none jfr one onenone whole wholenone wholenp hot hotnp"}
B="-cp $BJ dev.jetw.bench.real.ShopApp 8"
W=include=org.h2.**,overwrite=true,file=/tmp/osf-w.etl
O=include=dev.jetw.bench.real.ShopApp,overwrite=true,file=/tmp/osf-o.etl
: > $OUT
for i in $(seq 0 $P); do
  order=$ARMS; if [ $((i % 2)) = 1 ]; then order=$(echo $ARMS | tr ' ' '\n' | tac | tr '\n' ' '); fi
  for row in $order; do case $row in
    none)      a="";;
    jfr)       a="-XX:StartFlightRecording";;
    one)       a="-javaagent:$JAR=$O";;
    onenone)   a="-javaagent:$JAR=$O,jvm=none";;
    whole)     a="-javaagent:$JAR=$W";;
    wholenone) a="-javaagent:$JAR=$W,jvm=none";;
    wholenp)   a="-javaagent:$JAR=$W,jvm=none,propagate=false";;
    hot)       a="-javaagent:$JAR=$W,hotMethods=$HOT";;
    hotnp)     a="-javaagent:$JAR=$W,hotMethods=$HOT,jvm=none,propagate=false";;
  esac
  /usr/bin/time -a -o $OUT -f "$row $i %e %U %S %M" $J $a $B > /tmp/osf-run.out 2>/tmp/osf-run.err
  grep -q 5dc68dcf01e /tmp/osf-run.out || echo "CHECKSUM MISSING $row $i" >> $OUT; done
done

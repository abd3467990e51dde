#!/bin/bash
# The one-shot real workload (BENCHMARKS.md §19, §23): ShopApp 8 (~1 s of work, checksum 5dc68dcf01e) paired in one
# run: no agent, one class included (NEWJAR), include=org.h2.** with NEWJAR and with BASEJAR. Pair 0 is a warm-up (drop
# it); the order is reversed every other pair. Appends "ARM PAIR wall user sys maxrss-KB" lines to OUT (GNU time).
# X: more agent options for the three agent arms, e.g. ",jvm=none,propagate=false" (none by default).
# usage: benchmarks/oneshot.sh JAVA NEWJAR BASEJAR benchmarks/target/benchmarks.jar OUT [PAIRS=5] [X]
set -u
J=$1; NEW=$2; BASE=$3; BJ=$4; OUT=$5; P=${6:-5}; X=${7:-}
B="-cp $BJ dev.jetw.bench.real.ShopApp 8"
: > $OUT
for i in $(seq 0 $P); do
  if [ $((i % 2)) = 0 ]; then order="none one new base"; else order="base new one none"; fi
  for row in $order; do case $row in
    none) /usr/bin/time -a -o $OUT -f "none $i %e %U %S %M" $J $B > /tmp/os.out;;
    one)  /usr/bin/time -a -o $OUT -f "one $i %e %U %S %M"  $J -javaagent:$NEW=include=dev.jetw.bench.real.ShopApp,overwrite=true,file=/tmp/q1.etl$X $B > /tmp/os.out 2>/tmp/os.err;;
    new)  /usr/bin/time -a -o $OUT -f "new $i %e %U %S %M"  $J -javaagent:$NEW=include=org.h2.**,overwrite=true,file=/tmp/qn.etl$X $B > /tmp/os.out 2>/tmp/os.err;;
    base) /usr/bin/time -a -o $OUT -f "base $i %e %U %S %M" $J -javaagent:$BASE=include=org.h2.**,overwrite=true,file=/tmp/qb.etl$X $B > /tmp/os.out 2>/tmp/os.err;;
  esac; grep -q 5dc68dcf01e /tmp/os.out || echo "CHECKSUM MISSING $row $i" >> $OUT; done
done

#!/bin/bash
# The one-shot real workload (BENCHMARKS.md §19, §23, §27): ShopApp 8 (~1 s of work, checksum 5dc68dcf01e) paired in one
# run: no agent, one class included (NEWJAR), include=org.h2.** with NEWJAR and with BASEJAR. Pair 0 is a warm-up (drop
# it); the order is reversed every other pair. Appends "ARM PAIR wall user sys maxrss-KB" lines to OUT (GNU time).
# X: more agent options for the three agent arms, e.g. ",jvm=none,propagate=false" (none by default).
# Traces and the runs' output go to a directory of their own (TRACES=DIR, default a new mktemp -d, printed), so that
# runs beside each other do not write the same files; with KEEP=1 every pair's traces are kept as ARM-PAIR.etl.
# usage: [TRACES=DIR] [KEEP=1] benchmarks/oneshot.sh JAVA NEWJAR BASEJAR benchmarks/target/benchmarks.jar OUT [PAIRS=5] [X]
set -u
J=$1; NEW=$2; BASE=$3; BJ=$4; OUT=$5; P=${6:-5}; X=${7:-}
D=${TRACES:-$(mktemp -d)}; mkdir -p $D; echo "oneshot: traces in $D" >&2
B="-cp $BJ dev.jetw.bench.real.ShopApp 8"
: > $OUT; : > $OUT.events
for i in $(seq 0 $P); do
  if [ $((i % 2)) = 0 ]; then order="none one new base"; else order="base new one none"; fi
  if [ "${KEEP:-0}" = 1 ]; then s=-$i; else s=; fi
  for row in $order; do case $row in
    none) /usr/bin/time -a -o $OUT -f "none $i %e %U %S %M" $J $B > $D/os.out;;
    one)  /usr/bin/time -a -o $OUT -f "one $i %e %U %S %M"  $J -javaagent:$NEW=include=dev.jetw.bench.real.ShopApp,overwrite=true,file=$D/one$s.etl$X $B > $D/os.out 2>$D/os.err;;
    new)  /usr/bin/time -a -o $OUT -f "new $i %e %U %S %M"  $J -javaagent:$NEW=include=org.h2.**,overwrite=true,file=$D/new$s.etl$X $B > $D/os.out 2>$D/os.err;;
    base) /usr/bin/time -a -o $OUT -f "base $i %e %U %S %M" $J -javaagent:$BASE=include=org.h2.**,overwrite=true,file=$D/base$s.etl$X $B > $D/os.out 2>$D/os.err;;
  esac; grep -q 5dc68dcf01e $D/os.out || echo "CHECKSUM MISSING $row $i" >> $OUT
  if [ $row = new ] || [ $row = base ]; then grep -o '[0-9]* events written' $D/os.err | sed "s/^/events $row $i /" >> $OUT.events; fi; done
done

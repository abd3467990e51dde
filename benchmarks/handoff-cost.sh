#!/usr/bin/env bash
# Cost per submitted task of cross-thread links (BENCHMARKS.md §11): HandoffBenchmark in three states,
# alternated ROUNDS times in one run (no agent, propagate=false, propagate=true, again...), so drift
# spreads over all three. The agent traces only the submitting method (dev.jetw.bench.work.HandoffWork).
# JMH settings: JMH (default "-f 1 -wi 3 -w 1s -i 5 -r 1s"). Prints every JMH result line, tagged with its state.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-2}
JMH=${JMH:-"-f 1 -wi 3 -w 1s -i 5 -r 1s"}
JAR=benchmarks/target/benchmarks.jar
AGENT=$(pwd)/agent/dist/target/jetw-agent.jar
DIR=$(mktemp -d)
for round in $(seq 1 "$ROUNDS"); do
  for state in none false true; do
    if [ "$state" = none ]; then args=(); else
      args=(-jvmArgsAppend "-javaagent:$AGENT=include=dev.jetw.bench.work.HandoffWork,backend=portable,jvm=none,propagate=$state,file=$DIR/$state-$round.etl")
    fi
    java -jar "$JAR" 'HandoffBenchmark' $JMH ${args[@]+"${args[@]}"} 2>&1 | grep -E '^HandoffBenchmark\.' | sed "s/^/round $round  $state  /"
  done
done
rm -rf "$DIR"

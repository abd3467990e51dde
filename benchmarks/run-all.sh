#!/usr/bin/env bash
# Runs every figure of BENCHMARKS.md once, from the repository root, after `mvn -o -q install -DskipTests`.
# Output: one log per figure in ${OUT:-/tmp/jetw-bench-out}. About 25 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/jetw-bench-out}
mkdir -p "$OUT"
JAR=benchmarks/target/benchmarks.jar
JMH="-f 2 -wi 2 -w 1s -i 3 -r 1s"

# 1-3: instrumented call in four states + JFR around the same work, with -prof gc.
java -Dforks=3 -Dwarmups=5 -Diterations=5 -cp "$JAR" dev.jetw.bench.RunAll agent/dist/target/jetw-agent.jar \
  > "$OUT/instrumented-call.txt" 2>&1
# 3-4: writer throughput and allocation, 1 and 2 threads; jetw and JFR.
for t in 1 2; do
  java -jar "$JAR" 'TraceWriterBenchmark.startEnd$' $JMH -t $t -prof gc > "$OUT/writer-t$t.txt" 2>&1
  java -jar "$JAR" 'JfrEventBenchmark.beginCommit$' $JMH -t $t -prof gc > "$OUT/jfr-t$t.txt" 2>&1
done
# The write path alone, in memory (no disk, no drops): ns per START+END, payloads as the agent passes
# them (one word each) and staged in the scratch's ByteBuffer (checkpoints, exception ENDs).
java -jar "$JAR" 'TraceWriterBenchmark.startEnd$' -p mode=buffering -p payload=word,buffer -bm avgt -tu ns \
  -f 3 -wi 3 -w 1s -i 5 -r 1s -prof gc > "$OUT/writer-memory.txt" 2>&1
# The clock floor: System.nanoTime, currentTimeMillis and JFR's own tick counter.
java -jar "$JAR" ClockBenchmark > "$OUT/clock.txt" 2>&1
# 5: native crossing floor.
java -jar "$JAR" NativeCrossingBenchmark $JMH > "$OUT/native-crossing.txt" 2>&1
# 6: the sample application, alternating no agent / agent, REPS times each, 20,000 orders a run (≈ 10 s).
ORDERS=20000 REPS=10 bash benchmarks/sample-throughput.sh > "$OUT/sample.txt" 2>&1
echo "done: $OUT"

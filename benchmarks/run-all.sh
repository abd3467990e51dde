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
# The clock sources (cost and precision) and 5: the native crossing floor, JNA direct vs FFM. The FFM
# variants need Java 22+ (FFM_JAVA); without one they are left out and the rest runs on the default java.
FFM_JAVA=${FFM_JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
if [ -x "$FFM_JAVA" ]; then
  "$FFM_JAVA" -jar "$JAR" ClockBenchmark > "$OUT/clock.txt" 2>&1
  "$FFM_JAVA" --enable-native-access=ALL-UNNAMED -cp "$JAR" dev.jetw.bench.ClockResolution > "$OUT/clock-resolution.txt" 2>&1
  "$FFM_JAVA" -jar "$JAR" NativeCrossingBenchmark $JMH > "$OUT/native-crossing.txt" 2>&1
else
  java -jar "$JAR" 'ClockBenchmark.(nanoTime|currentTimeMillis|clockMillis|instantNow|tickerVolatile|jfrCounterTime)$' \
    > "$OUT/clock.txt" 2>&1
  java -cp "$JAR" dev.jetw.bench.ClockResolution > "$OUT/clock-resolution.txt" 2>&1
  java -jar "$JAR" 'NativeCrossingBenchmark.(direct|interfaceMapped|javaBaseline)$' $JMH > "$OUT/native-crossing.txt" 2>&1
fi
# 6: the sample application, alternating no agent / agent, REPS times each, 20,000 orders a run (≈ 10 s).
ORDERS=20000 REPS=10 bash benchmarks/sample-throughput.sh > "$OUT/sample.txt" 2>&1
echo "done: $OUT"

#!/usr/bin/env bash
# The application-level figure: the sample's orders/s with no agent and with the agent instrumenting
# every sample method (include=dev.jetw.samples.**, writing through the portable backend).
# Runs alternate (no agent, agent) REPS times to spread drift evenly; prints each run, mean ± sd, the
# ratio of the means and the paired ratio with its 95 % interval. ORDERS per run (default 5000).
# COMPARE=jvm compares instead the agent with the default JVM runtime events (jvm= default set,
# docs/jvm-events.md) against the agent with jvm=none, both tracing every sample method.
# COMPARE=preset compares no agent against preset=always-on (the in-memory ring, dumped at exit)
# tracing every sample method. COMPARE=propagate compares the agent with cross-thread links off
# (propagate=false) and on (the default), both tracing every sample method. COMPARE=kernel compares the agent
# without and with kernel=process,thread,cswitch,disk_io (Linux, as root: docs/linux-kernel-events.md), both
# tracing every sample method, and prints each kernel run's collector line. Every agent run writes a file of its own (jetw refuses to overwrite one).
set -euo pipefail
cd "$(dirname "$0")/.."
REPS=${REPS:-5}
ORDERS=${ORDERS:-5000}
SAMPLE=samples/target/jetw-samples.jar
AGENT=$(pwd)/agent/dist/target/jetw-agent.jar
ETL_DIR=$(mktemp -d)
rate() { sed -n 's/.*(\([0-9.]*\) orders\/s).*/\1/p'; }
none=(); agent=()
BASE_NAME="no agent"; NEW_NAME="with agent"
if [ "${COMPARE:-}" = jvm ]; then BASE_NAME="jvm=none"; NEW_NAME="jvm=default"; fi
if [ "${COMPARE:-}" = propagate ]; then BASE_NAME="propagate=false"; NEW_NAME="propagate=true"; fi
if [ "${COMPARE:-}" = kernel ]; then BASE_NAME="agent"; NEW_NAME="agent + kernel=process,thread,cswitch,disk_io"; fi
NEW_OPTIONS=include=dev.jetw.samples.**,backend=portable
if [ "${COMPARE:-}" = preset ]; then NEW_NAME="preset=always-on"; NEW_OPTIONS="$NEW_OPTIONS,preset=always-on"; fi
if [ "${COMPARE:-}" = kernel ]; then NEW_OPTIONS="$NEW_OPTIONS,kernel=process,thread,cswitch,disk_io"; fi
KERNEL_LINES=$(mktemp)
for i in $(seq 1 "$REPS"); do
  if [ "${COMPARE:-}" = propagate ]; then
    none+=("$(java -javaagent:"$AGENT"=include=dev.jetw.samples.**,propagate=false,backend=portable,file="$ETL_DIR/base-$i.etl" -jar "$SAMPLE" --orders "$ORDERS" 2>&1 | rate)")
  elif [ "${COMPARE:-}" = kernel ]; then
    none+=("$(java -javaagent:"$AGENT"=include=dev.jetw.samples.**,backend=portable,file="$ETL_DIR/base-$i.etl" -jar "$SAMPLE" --orders "$ORDERS" 2>&1 | rate)")
  elif [ "${COMPARE:-}" = jvm ]; then
    none+=("$(java -javaagent:"$AGENT"=include=dev.jetw.samples.**,jvm=none,backend=portable,file="$ETL_DIR/base-$i.etl" -jar "$SAMPLE" --orders "$ORDERS" 2>&1 | rate)")
  else
    none+=("$(java -jar "$SAMPLE" --orders "$ORDERS" 2>&1 | rate)")
  fi
  agent+=("$(java -javaagent:"$AGENT"="$NEW_OPTIONS",file="$ETL_DIR/agent-$i.etl" -jar "$SAMPLE" --orders "$ORDERS" 2>&1 | tee /dev/stderr | tee -a "$KERNEL_LINES" | rate)")
done
if [ "${COMPARE:-}" = kernel ]; then
  echo "kernel collector, per run:"; grep -o 'kernel events: .*))' "$KERNEL_LINES" | sed 's/^/  /' || echo "  (no kernel line: not Linux, or not root)"
fi
rm -f "$KERNEL_LINES"
rm -rf "$ETL_DIR"
stats() { printf '%s\n' "$@" | awk '{s+=$1; q+=$1*$1; n++} END {m=s/n; sd=sqrt((q-n*m*m)/(n-1)); printf "%.1f ± %.1f (sd, n=%d)", m, sd, n}'; }
echo "$BASE_NAME orders/s: ${none[*]}  -> $(stats "${none[@]}")"
echo "$NEW_NAME orders/s: ${agent[*]}  -> $(stats "${agent[@]}")"
printf '%s\n' "${none[@]}" > /tmp/.jetw-none; printf '%s\n' "${agent[@]}" > /tmp/.jetw-agent
paste /tmp/.jetw-none /tmp/.jetw-agent | awk '{a+=$1; b+=$2} END {printf "ratio agent/no-agent: %.3f\n", b/a}'
# Paired: each (no agent, agent) pair ran back to back and shares the machine's drift, so the mean of
# the per-pair ratios with a Student t interval (95 %) says how sure the figure is.
paste /tmp/.jetw-none /tmp/.jetw-agent | awk '
  BEGIN { split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", t, " ") }
  { r = $2 / $1; s += r; q += r * r; n++ }
  END { m = s / n; sd = sqrt((q - n * m * m) / (n - 1)); tv = (n - 1 <= 30) ? t[n - 1] : 1.96;
        printf "paired ratio agent/no-agent: %.3f, 95 %% interval %.3f to %.3f (n=%d pairs)\n", m, m - tv * sd / sqrt(n), m + tv * sd / sqrt(n), n }'
rm -f /tmp/.jetw-none /tmp/.jetw-agent

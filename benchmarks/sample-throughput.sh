#!/usr/bin/env bash
# The application-level figure: the sample's orders/s with no agent and with the agent instrumenting
# every sample method (include=dev.jetw.samples.**, writing through the portable backend).
# Runs alternate (no agent, agent) REPS times to spread drift evenly; prints each run and mean ± sd.
set -euo pipefail
cd "$(dirname "$0")/.."
REPS=${REPS:-5}
ORDERS=${ORDERS:-5000}
SAMPLE=samples/target/jetw-samples.jar
AGENT=$(pwd)/agent/dist/target/jetw-agent.jar
ETL=$(mktemp -d)/sample.etl
rate() { sed -n 's/.*(\([0-9.]*\) orders\/s).*/\1/p'; }
none=(); agent=()
for i in $(seq 1 "$REPS"); do
  none+=("$(java -jar "$SAMPLE" --orders "$ORDERS" 2>&1 | rate)")
  agent+=("$(java -javaagent:"$AGENT"=include=dev.jetw.samples.**,backend=portable,file="$ETL" -jar "$SAMPLE" --orders "$ORDERS" 2>&1 | tee /dev/stderr | rate)")
done
rm -f "$ETL"
stats() { printf '%s\n' "$@" | awk '{s+=$1; q+=$1*$1; n++} END {m=s/n; sd=sqrt((q-n*m*m)/(n-1)); printf "%.1f ± %.1f (sd, n=%d)", m, sd, n}'; }
echo "no agent   orders/s: ${none[*]}  -> $(stats "${none[@]}")"
echo "with agent orders/s: ${agent[*]}  -> $(stats "${agent[@]}")"
printf '%s\n' "${none[@]}" > /tmp/.jetw-none; printf '%s\n' "${agent[@]}" > /tmp/.jetw-agent
paste /tmp/.jetw-none /tmp/.jetw-agent | awk '{a+=$1; b+=$2} END {printf "ratio agent/no-agent: %.3f\n", b/a}'
rm -f /tmp/.jetw-none /tmp/.jetw-agent

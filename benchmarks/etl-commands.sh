#!/usr/bin/env bash
# Each `jetw etl` command on a generated trace, before (BEFORE_JAR) and after (AFTER_JAR), alternating
# A/B per command, with /usr/bin/time -v: wall time and max RSS. Output: a markdown table on stdout.
# usage: benchmarks/etl-commands.sh BEFORE_JAR AFTER_JAR TRACE.etl   (see BENCHMARKS.md §10)
# BEFORE_OPTS / AFTER_OPTS: JVM options of each side (e.g. AFTER_OPTS=-Xmx256m, what ./jetw etl uses).
# The trace: java -cp benchmarks/target/classes:AFTER_JAR dev.jetw.bench.etl.EtlTraceGenerator /tmp/t.etl 10000000
set -euo pipefail
before="$1"; after="$2"; trace="$3"
work="$(mktemp -d /tmp/jetw-etl-bench.XXXXXX)"
trap 'rm -rf "$work"' EXIT
measure() { # opts jar args... -> "seconds maxRssMB status"
  local opts="$1" jar="$2"; shift 2
  local status=0
  # shellcheck disable=SC2086
  /usr/bin/time -v -o "$work/time" java $opts -cp "$jar" dev.jetw.analysis.cli.EtlTool "$@" >"$work/out" 2>"$work/err" || status=$?
  local wall rss
  wall=$(grep 'Elapsed (wall clock)' "$work/time" | awk '{print $NF}' | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
  rss=$(grep 'Maximum resident set size' "$work/time" | awk '{print int($NF/1024)}')
  echo "$wall $rss $status"
}
echo "| command | before: s | before: max RSS MB | after: s | after: max RSS MB |"
echo "|---|---:|---:|---:|---:|"
run() { # label args... (the output file, if any, is $work/o)
  local label="$1"; shift
  read -r bw br bs < <(measure "${BEFORE_OPTS:-}" "$before" "$@")
  rm -f "$work/o"
  read -r aw ar as < <(measure "${AFTER_OPTS:-}" "$after" "$@")
  rm -f "$work/o"
  echo "| $label | $bw (exit $bs) | $br | $aw (exit $as) | $ar |"
}
run "summary" summary "$trace"
run "dump (stdout to a file)" dump "$trace"
run "tree" tree "$trace"
run "tree --slowest" tree --slowest "$trace"
run "methods" methods "$trace"
run "chrome-trace" chrome-trace -o "$work/o" "$trace"
read -r aw ar as < <(measure "${AFTER_OPTS:-}" "$after" perfetto "$trace" "$work/o.pftrace")
size=$(stat -c %s "$work/o.pftrace" 2>/dev/null || echo 0)
echo "| perfetto (new; $((size / 1048576)) MB .pftrace) | - | - | $aw (exit $as) | $ar |"

#!/usr/bin/env bash
# jetw demo (`./jetw demo`): build what is missing, run the sample order gateway under the agent, then
# show what the trace holds: the summary, the call tree of the slowest request, and a Perfetto JSON file.
#
# usage: samples/demo.sh [--no-build] [--orders N] [--agent-options 'key=value,...']
#   --no-build        never run Maven (the jars must exist)
#   --orders N        orders the sample sends (default 200)
#   --agent-options   extra agent options appended to the defaults, e.g. 'backend=portable,level=5'
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
agent_jar="$repo/agent/dist/target/jetw-agent.jar"
samples_jar="$repo/samples/target/jetw-samples.jar"

die() { echo "demo: $*" >&2; exit 1; }

build=auto
orders=200
extra_options=""
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=never; shift ;;
    --orders) [ $# -ge 2 ] || die "option --orders needs a value"; orders="$2"; shift 2 ;;
    --agent-options) [ $# -ge 2 ] || die "option --agent-options needs a value"; extra_options="$2"; shift 2 ;;
    -h|--help) sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1'; allowed: --no-build, --orders N, --agent-options OPTS" ;;
  esac
done
case "$orders" in ''|*[!0-9]*) die "option --orders: '$orders' is not a whole number; allowed: 1..10000000" ;; esac

command -v java >/dev/null 2>&1 || die "java not found on PATH; install a JDK (8 or later; 17 to build) and retry"

# True when a jar is missing, or a source file or pom is newer than the older of the two jars.
needs_build() {
  [ -f "$agent_jar" ] && [ -f "$samples_jar" ] || return 0
  local oldest="$agent_jar"
  [ "$samples_jar" -ot "$agent_jar" ] && oldest="$samples_jar"
  [ -n "$(find "$repo" \( -name target -o -name .git -o -name traces \) -prune -o \
           \( -path '*/src/*' -o -name pom.xml \) -type f -newer "$oldest" -print -quit)" ]
}

if [ "$build" = auto ] && needs_build; then
  command -v mvn >/dev/null 2>&1 || die "mvn not found on PATH; install Maven 3.8+ (it builds the agent and the sample)"
  echo "demo: building the agent and the sample (mvn -B -q -ntp -DskipTests install) ..."
  (cd "$repo" && mvn -B -q -ntp -DskipTests install) || die "the build failed; run 'mvn -B -DskipTests install' to see why"
fi
[ -f "$agent_jar" ] || die "$agent_jar is missing; run ./jetw build"
[ -f "$samples_jar" ] || die "$samples_jar is missing; run ./jetw build"

mkdir -p "$repo/traces"
stamp="$(date +%Y%m%d-%H%M%S)"
etl="$repo/traces/demo-$stamp.etl"
json="$repo/traces/demo-$stamp.json"
pftrace="$repo/traces/demo-$stamp.pftrace"

# Trace the order service, not the harness that drives it: the app's main and wiring (dev.jetw.samples.*),
# the load generator's clients (load.*) and the gateway's accept/read loops (OrderGateway) are left out,
# so every top-level call in the trace is one request and the slowest one is worth a look.
# No backend option: the agent's default (auto) picks the Windows backend on Windows, portable elsewhere.
options="include=dev.jetw.samples.**,exclude=dev.jetw.samples.*;dev.jetw.samples.load.*;dev.jetw.samples.gateway.OrderGateway,file=$etl"
# On Linux the kernel's evidence goes into the same trace (docs/linux-kernel-events.md): as root, tree --why
# then says which part of the slowest request ran, waited for a CPU or waited (and for whom); otherwise the
# agent prints one line saying what is missing and how to grant it, and the summary lists it as a problem.
[ "$(uname -s)" = Linux ] && options="$options,kernel=process,thread,cswitch,disk_io"
[ -z "$extra_options" ] || options="$options,$extra_options"

java_flags=()
# JDK 24+ warns about JNA's native access unless it is enabled explicitly (JEP 472).
spec="$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
case "$spec" in 1.*|'') ;; *) [ "$spec" -ge 24 ] && java_flags+=(--enable-native-access=ALL-UNNAMED) ;; esac

echo "demo: java ${java_flags[*]:-}-javaagent:agent/dist/target/jetw-agent.jar=$options -jar samples/target/jetw-samples.jar --orders $orders"
java ${java_flags[@]+"${java_flags[@]}"} "-javaagent:$agent_jar=$options" -jar "$samples_jar" --orders "$orders" \
  || die "the sample exited with status $?; see its output above"
[ -s "$etl" ] || die "the agent wrote no trace at $etl; see the agent's message above"

echo
echo "== Trace summary ($etl)"
# Exit status 3 says the trace is incomplete (events lost, e.g. kernel events on a busy machine): the
# summary lists it as a problem, and the demo goes on.
"$repo/jetw" etl summary "$etl" || [ $? -eq 3 ]
echo
echo "== Call tree of the slowest request, with where its time went (tree --why)"
"$repo/jetw" etl tree --slowest --why "$etl" || [ $? -eq 3 ]
echo
"$repo/jetw" etl perfetto --quiet "$etl" "$pftrace" >/dev/null 2>&1
[ -s "$pftrace" ] || die "no Perfetto trace was written at $pftrace"
echo "== Perfetto trace: $pftrace"
echo "   open https://ui.perfetto.dev and drop the file on it."
"$repo/jetw" etl chrome-trace --quiet -o "$json" "$etl" >/dev/null
[ -s "$json" ] || die "no Perfetto JSON was written at $json"
echo "== The same as Trace Event Format JSON (small traces; also chrome://tracing): $json"

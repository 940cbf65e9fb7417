#!/bin/bash
# Two builds of earshotd listening at once to one private PulseAudio, beside a parec: each
# daemon's CPU (schedstat, all threads) over the same 25 s, ÷ parec's. Running both at once
# cancels the shared machine's drift from run to run, not the spread between two processes.
#
# Both daemons are started here the same way, the first one alternating from run to run; the
# benchmark's own daemon only provides the sound server, the looping microphone and the parecs.
# Check with the same directory twice: on the shared 2-core VM, B ÷ A for one build has read
# 0.74–1.33, the same way round for a while, so a difference below a third needs many runs.
#
# Usage: Scripts/listening_side_by_side.sh DIR_A DIR_B [RUNS]
#   DIR_A, DIR_B: directories each holding a release earshotd (DIR_B also earshot-bench).
set -euo pipefail
a=$(realpath "$1"); b=$(realpath "$2"); runs=${3:-3}
cpu_ns() { local total=0; for t in /proc/$1/task/*; do total=$((total + $(cut -d' ' -f1 "$t/schedstat"))); done; echo $total; }
start_daemon() {  # DIR HOME: an earshotd from DIR on the benchmark's sound server; prints its pid
  mkdir -p "$2/.config"
  HOME=$2 XDG_CONFIG_HOME=$2/.config XDG_RUNTIME_DIR=$2 PULSE_SERVER=$server \
    "$1/earshotd" --socket "$2/earshot.sock" --listen --stt none --tts none > "$2/log" 2>&1 &
  echo $!
}
for run in $(seq 1 "$runs"); do
  "$b/earshot-bench" live --seconds 40 --stt none > /dev/null 2>&1 &
  bench=$!
  sleep 6
  daemon_bench=$(pgrep -x -P "$bench" earshotd | head -1)
  server=$(tr '\0' '\n' < "/proc/$daemon_bench/environ" | sed -n 's/^PULSE_SERVER=//p')
  home_a=$(mktemp -d); home_b=$(mktemp -d)
  if (( run % 2 )); then
    daemon_a=$(start_daemon "$a" "$home_a"); daemon_b=$(start_daemon "$b" "$home_b")
  else
    daemon_b=$(start_daemon "$b" "$home_b"); daemon_a=$(start_daemon "$a" "$home_a")
  fi
  sleep 4
  parec_pid=""
  for p in $(pgrep -x -P "$bench" parec); do
    tr '\0' '\n' < "/proc/$p/environ" | grep -q PULSE_CLIENTCONFIG || parec_pid=$p
  done
  a0=$(cpu_ns "$daemon_a"); b0=$(cpu_ns "$daemon_b"); p0=$(cpu_ns "$parec_pid")
  sleep 25
  a1=$(cpu_ns "$daemon_a"); b1=$(cpu_ns "$daemon_b"); p1=$(cpu_ns "$parec_pid")
  python3 -c "
a, b, p = ($a1 - $a0) / 25e7, ($b1 - $b0) / 25e7, ($p1 - $p0) / 25e7
print(f'run $run: A {a:.2f} % (÷ parec {a / p:.2f}), B {b:.2f} % (÷ parec {b / p:.2f}), parec {p:.2f} %, B ÷ A {b / a:.2f}')"
  kill "$daemon_a" "$daemon_b"; wait "$daemon_a" "$daemon_b" 2>/dev/null || true
  wait "$bench" || true
  rm -rf "$home_a" "$home_b"
done

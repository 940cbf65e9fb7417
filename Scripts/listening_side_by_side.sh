#!/bin/bash
# Two builds of earshotd listening at once to one private PulseAudio, beside a parec: each
# daemon's CPU (schedstat, all threads) over the same 25 s, ÷ parec's. Run-to-run drift on a
# shared machine moves one build's figure by a third; running both at once cancels it.
#
# Usage: Scripts/listening_side_by_side.sh DIR_A DIR_B [RUNS]
#   DIR_A, DIR_B: directories each holding a release earshotd (DIR_B also earshot-bench, whose
#   `live` benchmark provides the sound server, the looping microphone and the parecs).
set -euo pipefail
a=$(realpath "$1"); b=$(realpath "$2"); runs=${3:-3}
cpu_ns() { local total=0; for t in /proc/$1/task/*; do total=$((total + $(cut -d' ' -f1 "$t/schedstat"))); done; echo $total; }
for run in $(seq 1 "$runs"); do
  "$b/earshot-bench" live --seconds 40 --stt none > /dev/null 2>&1 &
  bench=$!
  sleep 6
  daemon_b=$(pgrep -x -P "$bench" earshotd | head -1)
  server=$(tr '\0' '\n' < "/proc/$daemon_b/environ" | sed -n 's/^PULSE_SERVER=//p')
  home=$(mktemp -d); mkdir -p "$home/.config"
  HOME=$home XDG_CONFIG_HOME=$home/.config XDG_RUNTIME_DIR=$home PULSE_SERVER=$server \
    "$a/earshotd" --socket "$home/earshot.sock" --listen --stt none --tts none > "$home/log" 2>&1 &
  daemon_a=$!
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
  kill "$daemon_a"; wait "$daemon_a" 2>/dev/null || true
  wait "$bench" || true
  rm -rf "$home"
done

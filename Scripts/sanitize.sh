#!/usr/bin/env bash
# `make sanitize`: the live suites (capture, playback, socket, barge-in, reconnect, reload) built
# with ThreadSanitizer, then with AddressSanitizer (LeakSanitizer included), each in a scratch
# directory of its own (.build-tsan, .build-asan). A report from the tests or from any
# daemon they start fails the run. Reports land in .build-tsan/reports/ and .build-asan/reports/;
# suppressions live in Scripts/Sanitizers/, each with the proof that it is no fault.
#   Scripts/sanitize.sh [thread|address ...]
set -euo pipefail
cd "$(dirname "$0")/.."

sanitizers=("$@")
[ ${#sanitizers[@]} -gt 0 ] || sanitizers=(thread address)
swift=${SWIFT:-swift}
# The test sound servers' own checks (bit-exact loopback, start-up, cleanup) test the harness, not
# Earshot, and a starved PipeWire graph is not bit-exact: they run in `make test` only.
harness='TestSoundServerTests'
suites='EarshotPulseTests|EarshotServerTests|LiveCaptureTests|LiveMicrophoneTests|LiveBargeInTests|LiveConfigTests|LiveConfigFaultTests|LiveSpeakingTests|LiveSoundServerFaultTests'

# A report's findings and, under each, its frames in Earshot's own code, demangled: CI shows the
# end of the output, and a whole stack there pushes the frame that says whose fault it is off screen.
findings() {
    grep -E '^(==[0-9]+==)?(ERROR|WARNING)|^SUMMARY|^(Direct|Indirect) leak|Earshot' "$1" \
        | "$swift" demangle --simplified 2>/dev/null | cut -c1-220 | head -30 || true
}

failed=0
briefs=""
for sanitizer in "${sanitizers[@]}"; do
    case $sanitizer in
    thread) variable=TSAN_OPTIONS; options="halt_on_error=0 second_deadlock_stack=1"; scratch=.build-tsan ;;
    address) variable=ASAN_OPTIONS; options="halt_on_error=0 detect_leaks=1"; scratch=.build-asan ;;
    *) echo "unknown sanitizer '$sanitizer': thread or address" >&2; exit 2 ;;
    esac
    reports=$PWD/$scratch/reports
    # The normal build's package checkouts, so this build needs no network.
    if [ ! -d "$scratch/checkouts" ] && [ -d .build/checkouts ]; then
        mkdir -p "$scratch"
        cp -a .build/checkouts .build/repositories .build/workspace-state.json "$scratch"/ 2>/dev/null || true
    fi
    rm -rf "$reports" && mkdir -p "$reports/canary"

    echo "== $sanitizer sanitizer: building" >&2
    started=$SECONDS
    # ld.gold cannot export ASan's local assembly symbols and says so once per symbol: noise.
    "$swift" build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" 2>&1 \
        | grep -v -e "Cannot export local symbol" >&2
    built=$((SECONDS - started))

    # The canary proves that this sanitizer reports, and reports where we look.
    "$swift"c -sanitize="$sanitizer" -g Scripts/Sanitizers/canary-"$sanitizer".swift -o "$scratch/canary" 2>&1 \
        | grep -v -e "Cannot export local symbol" >&2 || true
    env "$variable=$options log_path=$reports/canary/report" "$scratch/canary" >/dev/null 2>&1 || true
    if ! ls "$reports"/canary/report.* >/dev/null 2>&1; then
        echo "the $sanitizer sanitizer did not report the canary's deliberate error: its reports cannot be trusted" >&2
        exit 1
    fi

    # Suppressions, each with why the report is not a fault: TSan's in thread.supp, LeakSanitizer's
    # (part of ASan) in leak.supp, read through LSAN_OPTIONS.
    leaks=""
    [ -f Scripts/Sanitizers/thread.supp ] && [ "$sanitizer" = thread ] && options="$options suppressions=$PWD/Scripts/Sanitizers/thread.supp"
    [ "$sanitizer" = address ] && leaks="suppressions=$PWD/Scripts/Sanitizers/leak.supp print_suppressions=0"
    echo "== $sanitizer sanitizer: the live suites" >&2
    started=$SECONDS
    status=0
    env "$variable=$options log_path=$reports/report" LSAN_OPTIONS="$leaks" EARSHOT_SANITIZER="$sanitizer" \
        CI="${CI:-true}" "$swift" test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" \
        --no-parallel --filter "$suites" --skip "$harness" >"$scratch/test.log" 2>&1 || status=$?
    ran=$((SECONDS - started))
    summary=$(grep -E '^(✔|✘) Test run with' "$scratch/test.log" | tail -1 || true)
    count=$(find "$reports" -maxdepth 1 -name 'report.*' | wc -l)
    echo "$sanitizer: built in ${built} s, tests in ${ran} s: ${summary:-no summary (see $scratch/test.log)}; $count report(s)"
    if [ "$count" -gt 0 ]; then
        for report in "$reports"/report.*; do
            echo "--- $report" && head -40 "$report"
            briefs+="--- $report"$'\n'"$(findings "$report")"$'\n'
        done
        failed=1
    fi
    if [ "$status" -ne 0 ]; then
        grep -E '^✘' "$scratch/test.log" | head -20 || true
        failed=1
    fi
    # A run cut short (a crash, a trap, a signal) prints no summary: show how it ended.
    if [ -z "$summary" ]; then
        echo "--- the end of $scratch/test.log (exit status $status)"
        tail -60 "$scratch/test.log"
        failed=1
    fi
done
[ -z "$briefs" ] || printf '=== the findings, with their frames in Earshot\n%s' "$briefs"
exit $failed

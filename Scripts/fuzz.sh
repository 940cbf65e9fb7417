#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/) and runs each for a while: `make fuzz SECONDS=N`.
#   Scripts/fuzz.sh SECONDS [TARGET...]
# Working corpora grow in .build-fuzz/corpus/<target> (seeded from Fuzz/Corpus/<target> and from
# Tests/Fixtures), crashing inputs land in .build-fuzz/crashes/<target>/ (not artifacts/: SwiftPM empties that one), logs in
# .build-fuzz/logs/<target>.log. Prints one row per target: executions, exec/s, coverage, crashes.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(RequestFuzzer JSONFuzzer WAVFuzzer OpusFuzzer SettingsFuzzer VoiceFuzzer ScriptFuzzer WyomingFuzzer ServerSentEventsFuzzer OpenAIChatStreamFuzzer)
fi
scratch=.build-fuzz
swift=${SWIFT:-swift}

# The normal build's package checkouts, so the fuzz build needs no network.
if [ ! -d "$scratch/checkouts" ] && [ -d .build/checkouts ]; then
    mkdir -p "$scratch"
    cp -a .build/checkouts .build/repositories .build/workspace-state.json "$scratch"/ 2>/dev/null || true
fi

# `--sanitize fuzzer` makes SwiftPM leave `main` to libFuzzer; the -Xswiftc flag comes last and
# wins, adding AddressSanitizer (SwiftPM passes each --sanitize as its own -sanitize=, and swiftc
# keeps only the last one).
for target in "${targets[@]}"; do
    echo "building $target" >&2
    EARSHOT_FUZZ=1 "$swift" build -c release --scratch-path "$scratch" \
        --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address --product "$target" 2>&1 \
        | grep -v -e "Cannot export local symbol" -e '^\[' >&2 || true
    [ -x "$scratch/release/$target" ] || { echo "$target did not build" >&2; exit 1; }
done

# Fixtures that make good seeds, by target (beginnings of WAV files: the parser reads the header,
# then samples; whole files only slow the fuzzer).
seed() {
    local target=$1 into=$2
    [ -d "Fuzz/Corpus/$target" ] && cp -n Fuzz/Corpus/"$target"/* "$into"/ 2>/dev/null || true
    case $target in
    RequestFuzzer | JSONFuzzer)
        for file in Tests/Fixtures/*/*.json; do head -c 2048 "$file" >"$into/fixture-$(basename "$file")"; done ;;
    WAVFuzzer)
        for file in Tests/Fixtures/*/*.wav; do head -c 1024 "$file" >"$into/fixture-$(basename "$file")"; done ;;
    SettingsFuzzer) cp config.example.toml "$into/fixture-config.example.toml" ;;
    VoiceFuzzer) for file in voices/*.toml; do cp "$file" "$into/fixture-$(basename "$file")"; done ;;
    ScriptFuzzer)
        for file in Tests/Fixtures/conversation/*.toml; do cp "$file" "$into/fixture-$(basename "$file")"; done ;;
    esac
}

printf '%-24s %12s %9s %7s %8s %8s\n' target executions exec/s cov ft crashes
for target in "${targets[@]}"; do
    corpus=$scratch/corpus/$target
    artifacts=$scratch/crashes/$target
    log=$scratch/logs/$target.log
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    seed "$target" "$corpus"
    # Long SSE inputs only repeat what 2 KiB holds (events are capped at 1 KiB) and slow the run
    # threefold as the corpus grows.
    max_len=65536
    [ "$target" = ServerSentEventsFuzzer ] && max_len=2048
    status=0
    LSAN_OPTIONS=suppressions=Fuzz/lsan-suppressions.txt:print_suppressions=0 \
        "$scratch/release/$target" "$corpus" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
        -max_len="$max_len" -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log" 2>&1 || status=$?
    done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
    runs=$(grep -E "^stat::number_of_executed_units:" "$log" | tail -1 | awk "{print \$2}" || true)
    rate=$(grep -E "^stat::average_exec_per_sec:" "$log" | tail -1 | awk "{print \$2}" || true)
    cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$done_line")
    ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$done_line")
    crashes=$(find "$artifacts" -type f | wc -l)
    [ "$status" -eq 0 ] || echo "$target stopped with status $status: see $log" >&2
    printf '%-24s %12s %9s %7s %8s %8s\n' "$target" "${runs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$crashes"
done

#!/usr/bin/env python3
"""Turn taking on a turn set with its audio started a few milliseconds later.

    Scripts/turns_at_phases.py SET EARSHOT [--offsets 0,40,80,120] [--eagerness medium] [--stt embedded] [--jobs 2] [--why]

A live microphone does not cut the person's audio into 10 ms frames where the fixture does: the
detector's and the recogniser's frames fall wherever the capture began. This replays each scene of
SET (a turns-dev style directory: NAME.wav and its labels NAME.json; a scene's file may be
NAME_condition.wav for labels NAME.json) with `earshot replay --stt embedded` (or `--stt none`: no words) after dropping its
first N samples (16 kHz: 40 samples = 2.5 ms), moves the labels' times by as much, and scores each
run with the shared `score_turns.py`: one summary row per offset, then the spread.

With `--why`, what decided each turn's end: per reason the endpointer gave (`finished`, `silence`,
`unfinished`, …) how many turns it ended over all offsets and their end-of-turn latency, then each
turn that waited 900 ms or more, with the silence it waited and the last words heard, and the
turns by the family of the voice that said them (the labels' `kind`: `flite`, `espeak`, `real`):
the recogniser hears some families far better than others, and the words judge the ends.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import wave
from concurrent.futures import ThreadPoolExecutor

TIME_KEYS = {"start", "end"}


def shifted(labels, seconds):
    """The labels with every start and end `seconds` earlier."""
    if isinstance(labels, dict):
        return {k: round(v - seconds, 6) if k in TIME_KEYS and isinstance(v, (int, float)) else shifted(v, seconds)
                for k, v in labels.items()}
    if isinstance(labels, list):
        return [shifted(v, seconds) for v in labels]
    return labels


def trimmed_set(set_dir, offset, out_dir):
    """Writes SET's scenes without their first `offset` samples, and their labels moved, to out_dir."""
    for name in sorted(os.listdir(set_dir)):
        path = os.path.join(set_dir, name)
        if name.endswith(".wav"):
            with wave.open(path) as source:
                params = source.getparams()
                frames = source.readframes(params.nframes)
            if params.framerate != 16000:
                sys.exit(f"{name}: {params.framerate} Hz; the offsets are counted in 16 kHz samples")
            width = params.sampwidth * params.nchannels
            with wave.open(os.path.join(out_dir, name), "wb") as target:
                target.setparams(params)
                target.writeframes(frames[offset * width:])
        elif name.endswith(".json"):
            with open(path) as source:
                labels = json.load(source)
            with open(os.path.join(out_dir, name), "w") as target:
                json.dump(shifted(labels, offset / 16000), target)


def voice_families(set_dir, scene):
    """Each labelled turn's id → the family of the voice of its first utterance."""
    with open(os.path.join(set_dir, scene + ".json")) as source:
        labels = json.load(source)
    return {t["id"]: (t.get("utterances") or [{}])[0].get("kind", "?") for t in labels["turns"]}


def scored_scenes(score_json):
    """The scenes of a `score_turns.py --json` file, each with its scored turns."""
    with open(score_json) as source:
        return next(iter(json.load(source).values()))["scenes"]


def family_rows(score_json, set_dir):
    """(family, case, good, split, EOT s or None) of each labelled turn."""
    rows = []
    for scene in scored_scenes(score_json):
        families = voice_families(set_dir, scene["scene"])
        for turn in scene["turns"]:
            rows.append((families.get(turn["id"], "?"), turn["case"], turn["good"], turn["split"], turn.get("eot_latency")))
    return rows


def decisions(score_json, logs):
    """(EOT s, reason, silence waited s, scene, labelled text, final transcript) of each detected
    turn: the reason and the silence are the `speech` `end` event's at or before the decision."""
    rows = []
    for scene in scored_scenes(score_json):
        with open(os.path.join(logs, scene["file"][:-4] + ".jsonl")) as log:
            events = [json.loads(line) for line in log if '"level"' not in line]
        for turn in scene["turns"]:
            latency = turn.get("eot_latency")
            if latency is None:
                continue
            decided = turn["end"] + latency
            ends = [e for e in events if e["event"] == "speech" and e.get("phase") == "end" and e["t"] <= decided + 0.001]
            finals = [e["text"] for e in events if e["event"] == "transcript" and e.get("final") and e["t"] <= decided + 0.2]
            end = ends[-1] if ends else {}
            rows.append((latency, end.get("reason", "?"), decided - end.get("t", decided), scene["scene"],
                         turn["text"], finals[-1] if finals else ""))
    return rows


def median(values):
    ordered = sorted(values)
    return ordered[len(ordered) // 2] if ordered else 0


def nearest_rank(values, share):
    ordered = sorted(values)
    return ordered[max(0, -(-len(ordered) * share // 100) - 1)] if ordered else 0


def print_families(rows, offsets):
    print(f"\nBy the family of the voice ({len(offsets)} offsets; good, mid-sentence splits and turns summed over them):")
    print("| voices | turns | good | mid-sentence splits | EOT median / p90 ms | ends waiting ≥ 900 ms |")
    print("|---|---|---|---|---|---|")
    for family in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == family]
        thinking = [r for r in mine if r[1] == "thinking"]
        latencies = [r[4] for r in mine if r[4] is not None]
        print(f"| {family} | {len(mine)} | {sum(r[2] for r in mine)} | {sum(r[3] for r in thinking)}/{len(thinking)} "
              f"| {median(latencies) * 1000:.0f} / {nearest_rank(latencies, 90) * 1000:.0f} "
              f"| {sum(1 for v in latencies if v >= 0.9)} |")


def print_why(rows, offsets):
    print(f"\nWhat decided the ends ({len(offsets)} offsets, {len(rows)} turn ends):")
    print("| reason | turn ends | EOT median / max ms |")
    print("|---|---|---|")
    for reason in sorted({r[1] for r in rows}):
        latencies = [r[0] for r in rows if r[1] == reason]
        print(f"| {reason} | {len(latencies)} | {median(latencies) * 1000:.0f} / {max(latencies) * 1000:.0f} |")
    print("\nTurns that waited 900 ms or more (EOT, reason, silence waited, scene, labels | last final):")
    for latency, reason, silence, scene, text, final in sorted(r for r in rows if r[0] >= 0.9):
        print(f"  {latency * 1000:5.0f} {reason:10} {silence:.2f} s {scene}  {text[-40:]!r} | {final[-40:]!r}")


def replay(earshot, wav, log, eagerness, stt):
    with open(log, "w") as out:
        subprocess.run([earshot, "replay", wav, "--stt", stt, "--eagerness", eagerness],
                       stdout=out, stderr=subprocess.DEVNULL, check=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("set_dir")
    parser.add_argument("earshot")
    parser.add_argument("--offsets", default="0,40,80,120")
    parser.add_argument("--eagerness", default="medium")
    parser.add_argument("--stt", default="embedded", choices=["embedded", "none"])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--why", action="store_true", help="what decided each end: reasons, and the long waits")
    parser.add_argument("--scorer", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "tools", "score_turns.py"))
    args = parser.parse_args()
    offsets = [int(o) for o in args.offsets.split(",")]
    rows, why, families = [], [], []
    for offset in offsets:
        with tempfile.TemporaryDirectory() as work:
            scenes, logs = os.path.join(work, "set"), os.path.join(work, "logs")
            os.makedirs(scenes)
            os.makedirs(logs)
            trimmed_set(args.set_dir, offset, scenes)
            wavs = [n for n in sorted(os.listdir(scenes)) if n.endswith(".wav")]
            with ThreadPoolExecutor(args.jobs) as pool:
                list(pool.map(lambda n: replay(args.earshot, os.path.join(scenes, n),
                                               os.path.join(logs, n[:-4] + ".jsonl"), args.eagerness, args.stt), wavs))
            score_json = os.path.join(work, "score.json")
            scored = subprocess.run([sys.executable, args.scorer, scenes, logs, "--no-details", "--json", score_json],
                                    capture_output=True, text=True, check=True).stdout
            if args.why:
                why += decisions(score_json, logs)
                families += family_rows(score_json, scenes)
            row = next(line for line in scored.splitlines() if line.startswith("| **all**"))
            header = next(line for line in scored.splitlines() if line.startswith("| group"))
            rows.append((offset, header, row))
    print(f"Turn taking on {os.path.basename(os.path.normpath(args.set_dir))} (replay --stt {args.stt}, eagerness "
          f"{args.eagerness}), the audio started later by each offset:")
    print("| offset " + rows[0][1])
    print("|---" * (rows[0][1].count("|")) + "|")
    for offset, _, row in rows:
        print(f"| {offset} samples ({offset / 16:.1f} ms) {row}")
    print("(One decode per offset; a figure that moves with the offset is the recogniser's, not the set's.)")
    if args.why:
        print_why(why, offsets)
        print_families(families, offsets)


if __name__ == "__main__":
    main()

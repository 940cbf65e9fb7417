#!/usr/bin/env python3
"""Turn taking on a turn set with its audio started a few milliseconds later.

    Scripts/turns_at_phases.py SET EARSHOT [--offsets 0,40,80,120] [--eagerness medium] [--stt embedded] [--jobs 2]

A live microphone does not cut the person's audio into 10 ms frames where the fixture does: the
detector's and the recogniser's frames fall wherever the capture began. This replays each scene of
SET (a turns-dev style directory: NAME.wav and its labels NAME.json; a scene's file may be
NAME_condition.wav for labels NAME.json) with `earshot replay --stt embedded` (or `--stt none`: no words) after dropping its
first N samples (16 kHz: 40 samples = 2.5 ms), moves the labels' times by as much, and scores each
run with the shared `score_turns.py`: one summary row per offset, then the spread.
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
    parser.add_argument("--scorer", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "tools", "score_turns.py"))
    args = parser.parse_args()
    offsets = [int(o) for o in args.offsets.split(",")]
    rows = []
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
            scored = subprocess.run([sys.executable, args.scorer, scenes, logs, "--no-details"],
                                    capture_output=True, text=True, check=True).stdout
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


if __name__ == "__main__":
    main()

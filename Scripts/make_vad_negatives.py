#!/usr/bin/env python3
"""Generates non-speech transients for fitting SpectralVAD (see fit_vad.py --negatives).

The dev set's only loud non-speech is steady noise and babble, so a model fitted on it alone
learns that any sudden swing in level is speech, and holds "speech" for a second after a door
knock or a click. These files teach it otherwise: noise bursts, decaying knocks, clicks, typing-like
click trains and short beeps over quiet backgrounds, all labelled non-speech. Deterministic
(seeded). Writes a directory laid out like vad-dev: WAVs, one <scene>.json each, manifest.csv.

Usage: Scripts/make_vad_negatives.py OUT_DIR [--files 12] [--seconds 12] [--seed 1]
Needs numpy.
"""
import argparse, json, os
import numpy as np
from labelled_set import RATE, write_wav, write_manifest



def coloured(rng, n, exponent):
    spectrum = np.fft.rfft(rng.standard_normal(n))
    f = np.fft.rfftfreq(n, 1 / RATE)
    gain = np.zeros_like(f)
    gain[f > 20] = f[f > 20] ** (-exponent / 2)
    x = np.fft.irfft(spectrum * gain, n)
    return x / (np.std(x) + 1e-12)


def db(level):
    return 10 ** (level / 20)


def event(rng):
    kind = rng.choice(["burst", "knock", "click", "typing", "beep"], p=[0.3, 0.25, 0.15, 0.2, 0.1])
    if kind == "burst":
        n = int(rng.uniform(0.02, 0.25) * RATE)
        x = coloured(rng, n, rng.choice([0, 1])) * db(rng.uniform(-35, -10))
        ramp = min(32, n // 2)
        x[:ramp] *= np.linspace(0, 1, ramp); x[-ramp:] *= np.linspace(1, 0, ramp)
    elif kind == "knock":
        n = int(0.4 * RATE)
        x = coloured(rng, n, rng.choice([0, 1, 2])) * np.exp(-np.arange(n) / (rng.uniform(0.02, 0.15) * RATE))
        x *= db(rng.uniform(-25, -5)) / (np.abs(x).max() + 1e-12)
    elif kind == "click":
        n = int(rng.uniform(0.001, 0.004) * RATE)
        x = rng.standard_normal(n) * rng.uniform(0.1, 0.8)
    elif kind == "typing":
        gaps = rng.uniform(0.08, 0.25, rng.integers(3, 9))
        n = int((gaps.sum() + 0.01) * RATE)
        x = np.zeros(n)
        peak = rng.uniform(0.03, 0.4)
        for at in np.cumsum(gaps) - gaps[0]:
            i = int(at * RATE)
            m = int(0.004 * RATE)
            x[i:i + m] += rng.standard_normal(m) * peak * np.exp(-np.arange(m) / 16)
    else:
        n = int(rng.uniform(0.08, 0.3) * RATE)
        t = np.arange(n) / RATE
        x = np.sin(2 * np.pi * rng.uniform(400, 2000) * t) * db(rng.uniform(-30, -10))
        ramp = 80
        x[:ramp] *= np.linspace(0, 1, ramp); x[-ramp:] *= np.linspace(1, 0, ramp)
    return str(kind), x


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--files", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=12)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    rows = []
    for i in range(args.files):
        scene = f"neg_{i:02d}"
        n = int(args.seconds * RATE)
        background = ["silence", "white", "pink", "brown"][i % 4]
        level = rng.uniform(-75, -45)
        x = np.zeros(n) if background == "silence" else \
            coloured(rng, n, {"white": 0, "pink": 1, "brown": 2}[background]) * db(level)
        events, at = [], rng.uniform(0.3, 1.0)
        while at < args.seconds - 0.5:
            kind, e = event(rng)
            start = int(at * RATE)
            e = e[: n - start]
            x[start:start + len(e)] += e
            events.append({"start": round(at, 3), "kind": kind})
            at += len(e) / RATE + rng.uniform(0.4, 1.5)
        file = f"{scene}_{background}.wav"
        write_wav(os.path.join(args.out, file), x)
        frames = int(np.ceil(n / 160))
        json.dump({"scene": scene, "frames": "0" * frames, "segments": [],
                   "note": f"no speech: transients over {background} background", "events": events},
                  open(os.path.join(args.out, scene + ".json"), "w"))
        rows.append([file, scene, "transients", "", scene + ".json"])
    write_manifest(args.out, rows)


if __name__ == "__main__":
    main()

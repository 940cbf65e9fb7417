#!/usr/bin/env python3
"""Builds a held-out-like check set for SpectralVAD from the VAD dev set.

The dev set's noisy files all come from scenes s01..s05. This script mixes the clean scenes
s06..s10 (never noisy in the dev set, so their utterances never reached the noisy part of the
fit) with freshly generated noise, one noise type per scene, at 20, 10, 5 and 0 dB, following the
dev set README's recipe (SNR over the labelled speech frames vs the whole-file noise power; peak
kept <= 0.98). Babble: 10 streams of time-reversed utterances of scenes s01..s05, gains +-3 dB.
It approximates the evaluator's generator; it is not it. Writes WAVs, the scenes' JSON labels,
manifest.csv, and the clean scenes unlisted (fit_vad.py uses them for its targets).

Usage: Scripts/make_vad_check_set.py OUT_DIR [--dev DIR] [--seed 7] [--rotate 0]
  --rotate k  shifts which noise goes with which scene.
Needs numpy.
"""
import argparse, json, os, shutil
import numpy as np
from labelled_set import read_wav, write_wav, write_manifest

NOISES = ["white", "pink", "brown", "hum", "babble"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--dev", default="../shared/fixtures/vad-dev")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rotate", type=int, default=0)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    dev = lambda name: os.path.join(args.dev, name)

    def shaped(n, exponent):
        spectrum = np.fft.rfft(rng.standard_normal(n))
        f = np.fft.rfftfreq(n, 1 / 16000)
        gain = np.zeros_like(f)
        gain[f > 20] = f[f > 20] ** (-exponent / 2)
        return np.fft.irfft(spectrum * gain, n)

    pool = []
    for s in range(1, 6):
        labels = json.load(open(dev(f"dev_s{s:02d}.json")))
        x = read_wav(dev(f"dev_s{s:02d}_clean.wav"))
        for seg in labels["segments"]:
            pool.append(x[int(seg["start"] * 16000):int(seg["end"] * 16000)][::-1].copy())

    def babble(n):
        out = np.zeros(n)
        for _ in range(10):
            stream, length = [], 0
            while length < n + 16000:
                u = pool[rng.integers(len(pool))]
                stream.append(u / np.sqrt(np.mean(u ** 2) + 1e-12))
                length += len(u)
            offset = rng.integers(0, 16000)
            out += np.concatenate(stream)[offset:offset + n] * 10 ** (rng.uniform(-3, 3) / 20)
        return out

    def hum(n):
        t = np.arange(n) / 16000
        drift = 1 + 0.002 * np.sin(2 * np.pi * 0.1 * t + rng.uniform(0, 6.3))
        phase = 2 * np.pi * 50 * np.cumsum(drift) / 16000
        out = sum((1 / k if k % 2 else 0.4 / k) * np.sin(k * phase + rng.uniform(0, 6.3)) for k in range(1, 40))
        return out * (1 + 0.1 * np.sin(2 * np.pi * 0.3 * t + rng.uniform(0, 6.3)))

    make = {"white": lambda n: rng.standard_normal(n), "pink": lambda n: shaped(n, 1),
            "brown": lambda n: shaped(n, 2), "hum": hum, "babble": babble}
    rows = []
    for i, s in enumerate(range(6, 11)):
        noise = NOISES[(i + args.rotate) % len(NOISES)]
        scene = f"dev_s{s:02d}"
        shutil.copy(dev(scene + ".json"), os.path.join(args.out, scene + ".json"))
        shutil.copy(dev(scene + "_clean.wav"), os.path.join(args.out, scene + "_clean.wav"))
        labels = np.array([c == "1" for c in json.load(open(dev(scene + ".json")))["frames"]])
        x = read_wav(dev(scene + "_clean.wav"))
        frames = np.concatenate([x, np.zeros(max(0, len(labels) * 160 - len(x)))])[: len(labels) * 160].reshape(-1, 160)
        speech_power = (frames[labels] ** 2).mean()
        n = make[noise](len(x))
        for snr in (20, 10, 5, 0):
            mix = x + n * np.sqrt(speech_power / 10 ** (snr / 10) / np.mean(n ** 2))
            if np.abs(mix).max() > 0.98:
                mix *= 0.98 / np.abs(mix).max()
            file = f"{scene}_{noise}_snr{snr:02d}.wav"
            write_wav(os.path.join(args.out, file), mix)
            rows.append([file, scene, noise, snr, scene + ".json"])
    write_manifest(args.out, rows)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Fits the weights of SpectralVAD (Sources/EarshotAudio/Spectral/SpectralVADModel.swift).

The detector's features come from the Swift code itself (`earshot vad FILE --format features`),
so the fit sees exactly what the detector computes. Steps:

1. For every WAV of a labelled set laid out like vad-dev (manifest.csv + <scene>.json), dump the
   per-window features with the release binary.
2. Training targets: the labelled speech frames that carry sound, i.e. whose energy in the
   scene's clean version is within 35 dB of their utterance's loudest frame. Labelled pauses
   inside utterances are left out of the fit (weight 0): the frame model cannot hear them, the
   HMM smoother bridges them.
3. Inputs: each feature either at the window centred on the judged frame n (the one ending at
   frame n+1) or averaged over the windows ending at frames n..n+3 (the 30 ms look-ahead).
4. Model: a two-layer logistic network (HIDDEN tanh units, one logistic output), L2-penalised
   log-loss on standardised inputs, L-BFGS from a few seeds (lowest training loss wins); the
   standardisation is folded into the exported weights.
5. Optional --negatives sets (Scripts/make_vad_negatives.py: knocks, clicks, bursts, beeps over
   quiet backgrounds, all non-speech) join the fit at NEGATIVE_WEIGHT; without them the model
   learns from the dev set that any sudden swing in level is speech and holds it for a second.
6. --cv additionally reports a 2-fold time-split cross-validation (fit on the first half of every
   file, score the second half, and vice versa), which is how the feature set and the size of
   the network were chosen; the exported model is fitted on all frames.

Usage (as the committed model was made):
    swift build -c release
    Scripts/make_vad_negatives.py /tmp/vad-negatives
    Scripts/fit_vad.py --negatives /tmp/vad-negatives --cv
    swift build -c release    # with the new SpectralVADModel.swift
Needs numpy and scipy.
"""
import argparse, csv, json, os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
import numpy as np
import scipy.optimize as so
from labelled_set import read_wav

# (feature column, context): "centred" = window ending at frame n+1, "mean" = windows n..n+3.
INPUTS = [
    ("likelihood", "centred"), ("harmonicity", "centred"), ("maxBandSNR", "centred"),
    ("bandSNRSpread", "centred"), ("snrModulation", "centred"), ("fastModulation", "centred"),
    ("fastSubbandModulation", "centred"), ("likelihood", "mean"), ("maxBandSNR", "mean"),
    ("medianNoiseSNR", "centred"), ("maxBandLowQuantileSNR", "centred"), ("levelBelowPeak", "mean"),
    ("recentHarmonicity", "centred"),
]
HIDDEN = 4
# Weight of the frames of --negatives sets (no speech at all) against the dev set's frames: enough
# to stop knocks and clicks from holding "speech" for a second, not so much that quiet speech is lost.
NEGATIVE_WEIGHT = 0.3
L2 = 1e-3
SEEDS = (0, 1, 2)
STAY_IN_SPEECH = 0.98
STAY_IN_NON_SPEECH = 0.98
ACTIVE_RANGE_DB = 35
WEBRTC = {"clean": .963, "20": .950, "10": .889, "5": .734, "0": .644}




def load_set(directory, earshot, cache):
    rows = list(csv.DictReader(open(os.path.join(directory, "manifest.csv"))))
    os.makedirs(cache, exist_ok=True)

    def dump(row):
        out = os.path.join(cache, row["file"] + ".csv")
        with open(out, "w") as f:
            subprocess.run([earshot, "vad", os.path.join(directory, row["file"]), "--format", "features"],
                           stdout=f, check=True)
        return out

    with ThreadPoolExecutor(max_workers=2) as pool:
        paths = list(pool.map(dump, rows))
    # The clean version of each scene: listed in the manifest, or lying next to it unlisted.
    clean = {r["scene"]: r["scene"] + "_clean.wav" for r in rows}
    clean.update({r["scene"]: r["file"] for r in rows if r["noise"] == "clean"})
    active_cache, recordings = {}, []
    for row, path in zip(rows, paths):
        scene = row["scene"]
        labels_file = row.get("labels") or scene + ".json"
        labels = np.array([c == "1" for c in json.load(open(os.path.join(directory, labels_file)))["frames"]])
        if scene not in active_cache:
            active_cache[scene] = active_frames(read_wav(os.path.join(directory, clean[scene])), labels) \
                if labels.any() else np.zeros(len(labels), bool)
        with open(path) as f:
            names = f.readline().strip().split(",")
        table = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
        n = min(len(table), len(labels))
        recordings.append(dict(
            file=row["file"], noise=row["noise"],
            condition=str(int(float(row["snr_db"]))) if row.get("snr_db") else row["noise"],
            features={name: table[:n, i] for i, name in enumerate(names)},
            labels=labels[:n], active=active_cache[scene][:n]))
    return recordings


def active_frames(clean, labels):
    n = len(labels)
    clean = np.concatenate([clean, np.zeros(max(0, n * 160 - len(clean)))])[: n * 160]
    energy = 10 * np.log10((clean.reshape(n, 160) ** 2).mean(1) + 1e-12)
    active = np.zeros(n, bool)
    i = 0
    while i < n:
        if labels[i]:
            j = i
            while j < n and labels[j]:
                j += 1
            active[i:j] = energy[i:j] > energy[i:j].max() - ACTIVE_RANGE_DB
            i = j
        else:
            i += 1
    return active


def inputs_of(recording):
    columns = []
    for name, context in INPUTS:
        v = recording["features"][name]
        last = len(v) - 1
        at = lambda k: v[np.minimum(np.arange(len(v)) + k, last)]
        columns.append(at(1) if context == "centred" else np.mean([at(k) for k in range(4)], 0))
    return np.stack(columns, 1)


def fit_network(x, y, w, seed):
    mu, sd = x.mean(0), x.std(0) + 1e-9
    z = (x - mu) / sd
    d = z.shape[1]

    def unpack(b):
        return b[: d * HIDDEN].reshape(d, HIDDEN), b[d * HIDDEN: d * HIDDEN + HIDDEN], \
            b[d * HIDDEN + HIDDEN: d * HIDDEN + 2 * HIDDEN], b[-1]

    def loss(b):
        w1, b1, w2, b2 = unpack(b)
        h = np.tanh(z @ w1 + b1)
        p = 1 / (1 + np.exp(-np.clip(h @ w2 + b2, -30, 30)))
        total = w.sum()
        value = -(w * (y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))).sum() / total \
            + L2 * ((w1 ** 2).sum() + (w2 ** 2).sum())
        dz = w * (p - y) / total
        dh = np.outer(dz, w2) * (1 - h * h)
        grad = np.concatenate([(z.T @ dh + 2 * L2 * w1).ravel(), dh.sum(0), h.T @ dz + 2 * L2 * w2, [dz.sum()]])
        return value, grad

    rng = np.random.default_rng(seed)
    start = np.concatenate([rng.normal(0, 0.5, d * HIDDEN), np.zeros(HIDDEN), rng.normal(0, 0.5, HIDDEN), [0.0]])
    result = so.minimize(loss, start, jac=True, method="L-BFGS-B", options={"maxiter": 1000})
    w1, b1, w2, b2 = unpack(result.x)
    return result.fun, (w1 / sd[:, None], b1 - (mu / sd) @ w1, w2, b2)


def fit(recordings, mask=None):
    parts = [(inputs_of(r), r) for r in recordings]
    sel = (lambda r: mask[r["file"]]) if mask else (lambda r: slice(None))
    x = np.concatenate([xi[sel(r)] for xi, r in parts])
    y = np.concatenate([r["active"][sel(r)] for _, r in parts]).astype(float)
    pause = np.concatenate([(r["labels"] & ~r["active"])[sel(r)] for _, r in parts])
    negative = np.concatenate([np.full(len(r["labels"]), r.get("negative", False))[sel(r)] for _, r in parts])
    w = np.where(pause, 0.0, np.where(negative, NEGATIVE_WEIGHT, 1.0))
    best = min((fit_network(x, y, w, s) for s in SEEDS), key=lambda t: t[0])
    # The prior of the speech scenes: the negatives are there to teach, not to shift the prior.
    prior = float((y * w)[~negative].sum() / w[~negative].sum())
    return best[1], prior


def log_odds(params, x):
    w1, b1, w2, b2 = params
    return np.clip(np.tanh(x @ w1 + b1) @ w2 + b2, -30, 30)


def decide(z, prior):
    evidence = np.exp(z - np.log(prior / (1 - prior)))
    out, q = np.zeros(len(z), bool), 0.5
    for i, e in enumerate(evidence):
        pred = q * STAY_IN_SPEECH + (1 - q) * (1 - STAY_IN_NON_SPEECH)
        q = pred * e / (pred * e + 1 - pred)
        out[i] = q >= 0.5
    return out


def f1_table(recordings, decisions):
    """F1 per condition and per noise type; for sets without speech, the false-alarm rate."""
    pooled = {}
    for r in recordings:
        d, y = decisions[r["file"]], r["labels"]
        for key in (r["condition"], "noise:" + r["noise"]):
            c = pooled.setdefault(key, np.zeros(4))
            c += [(d & y).sum(), (d & ~y).sum(), (~d & y).sum(), (~y).sum()]
    return {k: 2 * c[0] / max(2 * c[0] + c[1] + c[2], 1) if c[0] + c[2] > 0 else c[1] / max(c[3], 1)
            for k, c in pooled.items()}


def print_table(title, table):
    columns = [c for c in ("clean", "20", "10", "5", "0") if c in table]
    print(title, " ".join(f"{c}:{table[c]:.3f}" for c in columns),
          "| margin over WebRTC %.3f |" % min(table[c] - WEBRTC[c] for c in columns),
          " ".join(f"{k[6:]}:{v:.3f}" for k, v in table.items() if k.startswith("noise:")))
    # Sets without speech report their false-alarm rate instead of F1.


def cross_validate(recordings):
    z = {r["file"]: np.zeros(len(r["labels"])) for r in recordings}
    first = {r["file"]: np.arange(len(r["labels"])) < len(r["labels"]) // 2 for r in recordings}
    for train_first in (True, False):
        mask = {k: (v if train_first else ~v) for k, v in first.items()}
        params, prior = fit(recordings, mask)
        for r in recordings:
            test = ~mask[r["file"]]
            z[r["file"]][test] = log_odds(params, inputs_of(r))[test]
    return f1_table(recordings, {r["file"]: decide(z[r["file"]], prior) for r in recordings})


def swift_model(params, prior):
    w1, b1, w2, b2 = params
    fmt = lambda values: ", ".join(f"{v:.6g}" for v in values)
    inputs = "\n".join(f"        (.{n}, .{c})," for n, c in INPUTS)
    hidden = "\n".join(f"        {fmt(w1[:, h])}," for h in range(HIDDEN))
    return f"""// Generated by Scripts/fit_vad.py from the vad-dev set; do not edit by hand.

/// The fitted weights of `SpectralVAD`: a two-layer logistic network over window features,
/// then a two-state (speech / non-speech) hidden Markov smoother.
enum SpectralVADModel {{
    /// Which rows of features an input reads, relative to the frame being judged (frame n):
    /// the window ending at frame n + 1 (centred on frame n), or the mean of the windows ending
    /// at frames n...n + 3.
    enum Context: Sendable {{ case centred, mean }}

    static let inputs: [(SpectralFeatures.Name, Context)] = [
{inputs}
    ]
    /// `hiddenWeights[h * inputs.count + i]` weighs input i in hidden unit h.
    static let hiddenWeights: [Float] = [
{hidden}
    ]
    static let hiddenBias: [Float] = [{fmt(b1)}]
    static let outputWeights: [Float] = [{fmt(w2)}]
    static let outputBias: Float = {b2:.6g}
    /// Fraction of speech frames in the training targets: the prior the network's output assumes.
    static let trainingPrior: Float = {prior:.6g}
    /// Probabilities of staying in speech and in non-speech from one frame to the next.
    static let stayInSpeech: Float = {STAY_IN_SPEECH}
    static let stayInNonSpeech: Float = {STAY_IN_NON_SPEECH}
}}
"""


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dev", default="../shared/fixtures/vad-dev")
    parser.add_argument("--earshot", default=os.path.join(root, ".build/release/earshot"))
    parser.add_argument("--out", default=os.path.join(root, "Sources/EarshotAudio/Spectral/SpectralVADModel.swift"))
    parser.add_argument("--cache", default="/tmp/earshot-vad-features")
    parser.add_argument("--negatives", nargs="*", default=[],
                        help="sets without speech to train on, weighted NEGATIVE_WEIGHT (make_vad_negatives.py)")
    parser.add_argument("--cv", action="store_true", help="also report time-split cross-validation")
    args = parser.parse_args()
    recordings = load_set(args.dev, args.earshot, os.path.join(args.cache, "dev"))
    for i, directory in enumerate(args.negatives):
        negatives = load_set(directory, args.earshot, os.path.join(args.cache, f"negatives{i}"))
        for r in negatives:
            r["negative"] = True
            r["file"] = f"negatives{i}/" + r["file"]
        recordings += negatives
    if args.cv:
        print_table("2-fold time-split CV:", cross_validate(recordings))
    params, prior = fit(recordings)
    decisions = {r["file"]: decide(log_odds(params, inputs_of(r)), prior) for r in recordings}
    print_table("fitted on all, in-sample:", f1_table(recordings, decisions))
    with open(args.out, "w") as f:
        f.write(swift_model(params, prior))
    print("wrote", args.out)


if __name__ == "__main__":
    sys.exit(main())

"""WAV and manifest I/O shared by the VAD scripts: 16 kHz mono 16-bit sets laid out like vad-dev."""
import csv, os, wave
import numpy as np

RATE = 16000


def read_wav(path):
    with wave.open(path) as w:
        assert w.getsampwidth() == 2 and w.getnchannels() == 1 and w.getframerate() == RATE, path
        return np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16) / 32768.0


def write_wav(path, x):
    with wave.open(path, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(RATE)
        w.writeframes(np.clip(np.round(x * 32768), -32768, 32767).astype(np.int16).tobytes())


def write_manifest(directory, rows):
    """rows: [file, scene, noise, snr_db, labels] each."""
    with open(os.path.join(directory, "manifest.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["file", "scene", "noise", "snr_db", "labels"])
        w.writerows(rows)

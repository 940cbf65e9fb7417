"""Word error rates of the embedded transcriber beside the engine's own, per voice family.

The engine's own figure: pocketsphinx (the Python package, the same release Earshot builds)
decodes each labelled segment of vad-dev's clean scenes, cut at its span +- 300 ms, whole
(`full_utt`: the cepstral mean is the segment's own), with Earshot's model and dictionary and
the engine's own settings (Earshot's decoder narrows two of them for speed, `maxhmmpf` and
`fwdflatsfwin`: Sources/CPocketSphinx/shim.h says why).

Earshot's figure: `earshot replay FILE --stt embedded` on each clean scene, as a person's
microphone would hear it: the endpointer cuts the utterances, the embedded transcriber decodes
them as they stream, and the final transcripts are scored against the labelled texts of the
segments each utterance covers (two sentences merged into one utterance are scored against
both texts, a sentence no utterance covers counts as deleted). Errors are counted per reference
word and so per voice family; an inserted word counts against the segment it falls in.

usage: transcription_reference.py VAD_DEV EARSHOT [--model DIR] [--details]
"""
import argparse
import json
import os
import subprocess
import sys
import time
import wave

from pocketsphinx import Decoder

DEFAULT_MODEL = '/usr/local/lib/earshot/pocketsphinx-5.1.1/share/pocketsphinx/model/en-us'
RATE = 16000
MARGIN = 0.3
FAMILIES = [('flite', 'flite (kal16, slt)'), ('real', 'real (recorded people)'), ('espeak', 'espeak-ng')]


def words(text):
    """Lower-case words without punctuation (apostrophes kept), as `earshot-bench wer` counts them."""
    kept = ''.join(c if c.isalnum() or c == "'" else ' ' for c in text.lower())
    return kept.split()


def align(reference, hypothesis):
    """Errors charged to each reference word (substitution or deletion: 1; each insertion: 1 to
    the reference word before it, or the first one)."""
    n, m = len(reference), len(hypothesis)
    cost = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        cost[i][0] = i
    for j in range(m + 1):
        cost[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost[i][j] = min(cost[i - 1][j] + 1, cost[i][j - 1] + 1,
                             cost[i - 1][j - 1] + (reference[i - 1] != hypothesis[j - 1]))
    charged = [0] * n
    i, j = n, m
    while i > 0 or j > 0:
        if i > 0 and j > 0 and cost[i][j] == cost[i - 1][j - 1] + (reference[i - 1] != hypothesis[j - 1]):
            charged[i - 1] += reference[i - 1] != hypothesis[j - 1]
            i, j = i - 1, j - 1
        elif i > 0 and cost[i][j] == cost[i - 1][j] + 1:
            charged[i - 1] += 1
            i -= 1
        else:
            if n:
                charged[max(0, i - 1)] += 1
            j -= 1
    return charged


def read_samples(path):
    with wave.open(path, 'rb') as clip:
        assert clip.getframerate() == RATE and clip.getnchannels() == 1 and clip.getsampwidth() == 2, path
        return clip.readframes(clip.getnframes())


def scenes(directory):
    for name in sorted(os.listdir(directory)):
        if name.endswith('_clean.wav'):
            scene = name[:-len('_clean.wav')]
            with open(os.path.join(directory, scene + '.json')) as labels:
                segments = [s for s in json.load(labels)['segments'] if s.get('text')]
            yield scene, os.path.join(directory, name), segments


class Tally:
    def __init__(self):
        self.segments = self.words = self.errors = 0
        self.audio_seconds = self.decode_seconds = 0.0

    def add(self, reference_words, errors, audio_seconds=0.0, decode_seconds=0.0):
        self.segments += 1
        self.words += reference_words
        self.errors += errors
        self.audio_seconds += audio_seconds
        self.decode_seconds += decode_seconds

    def rate(self):
        return self.errors / self.words if self.words else 0.0


def segment_audio(pcm, segment):
    """The 16-bit samples of a labelled segment and MARGIN either side, within the scene."""
    first = max(0, int(round((segment['start'] - MARGIN) * RATE)))
    last = min(len(pcm) // 2, int(round((segment['end'] + MARGIN) * RATE)))
    return pcm[2 * first:2 * last]


def engine_decode(decoder, pcm, segment):
    decoder.start_utt()
    decoder.process_raw(segment_audio(pcm, segment), full_utt=True)
    decoder.end_utt()
    return decoder.hyp().hypstr if decoder.hyp() else ''


def earshot_utterances(earshot, path):
    """(audio start, end, final text) of each utterance `earshot replay --stt embedded` heard."""
    run = subprocess.run([earshot, 'replay', path, '--stt', 'embedded'], capture_output=True, text=True, check=True)
    # An eager end's final comes before the utterance's end; if the person went on (`resumed`),
    # the utterance continues as the next turn, whose final is the whole utterance's.
    open_turns, utterances = {}, []
    for line in run.stdout.splitlines():
        event = json.loads(line)
        kind, turn, phase = event.get('event'), event.get('turn'), event.get('phase')
        if kind == 'speech' and phase == 'start':
            open_turns[turn] = {'start': event['audio_start'], 'end': None, 'text': None}
        elif kind == 'speech' and phase == 'resumed' and turn in open_turns:
            open_turns[turn + 1] = dict(open_turns.pop(turn), text=None)
        elif kind == 'speech' and phase == 'end' and turn in open_turns:
            open_turns[turn]['end'] = event['t']
        elif kind == 'transcript' and event.get('final') and turn in open_turns:
            open_turns[turn]['text'] = event['text']
        else:
            continue
        if turn in open_turns and open_turns[turn]['end'] is not None and open_turns[turn]['text'] is not None:
            utterances.append(open_turns.pop(turn))
    return utterances


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('vad_dev')
    parser.add_argument('earshot', help='the earshot program (its replay command)')
    parser.add_argument('--model', default=DEFAULT_MODEL, help='the model directory Earshot loads')
    parser.add_argument('--details', action='store_true', help='print each segment and utterance')
    options = parser.parse_args()
    decoder = Decoder(hmm=os.path.join(options.model, 'en-us'), lm=os.path.join(options.model, 'en-us.lm.bin'),
                      dict=os.path.join(options.model, 'earshot-top-words.dict'), logfn='/dev/null')
    engine = {family: Tally() for family, _ in FAMILIES}
    earshot = {family: Tally() for family, _ in FAMILIES}
    for scene, path, segments in scenes(options.vad_dev):
        pcm = read_samples(path)
        for segment in segments:
            reference = words(segment['text'])
            started = time.process_time()
            hypothesis = engine_decode(decoder, pcm, segment)
            engine[segment['kind']].add(len(reference), sum(align(reference, words(hypothesis))),
                                        segment['end'] - segment['start'] + 2 * MARGIN, time.process_time() - started)
            if options.details:
                print(f'engine  {scene} {segment["start"]:6.2f} {segment["kind"]:6} {segment["text"]!r} -> {hypothesis!r}')
        utterances = earshot_utterances(options.earshot, path)
        covered = {id(s): None for s in segments}
        for index, utterance in enumerate(utterances):
            end = utterance['end'] if utterance['end'] is not None else float('inf')
            for segment in segments:
                middle = (segment['start'] + segment['end']) / 2
                if utterance['start'] <= middle < end and covered[id(segment)] is None:
                    covered[id(segment)] = index
        for index, utterance in enumerate(utterances):
            mine = [s for s in segments if covered[id(s)] == index]
            reference, owners = [], []
            for segment in mine:
                segment_words = words(segment['text'])
                reference += segment_words
                owners += [segment] * len(segment_words)
            charged = align(reference, words(utterance['text']))
            for segment in mine:
                errors = sum(c for c, owner in zip(charged, owners) if owner is segment)
                earshot[segment['kind']].add(len(words(segment['text'])), errors)
            if options.details:
                texts = ' | '.join(s['text'] for s in mine) or '(no labelled speech)'
                print(f'earshot {scene} {utterance["start"]:6.2f}-{utterance["end"]} {texts!r} -> {utterance["text"]!r}')
        for segment in segments:
            if covered[id(segment)] is None:
                earshot[segment['kind']].add(len(words(segment['text'])), len(words(segment['text'])))
                if options.details:
                    print(f'earshot {scene} {segment["start"]:6.2f} missed {segment["text"]!r}')
    print(f'Transcription, clean scenes of {options.vad_dev}: the engine decoding each labelled segment '
          f'+-{int(MARGIN * 1000)} ms whole, and Earshot (`earshot replay --stt embedded`)')
    print('| voices | segments | words | engine WER | Earshot WER | Earshot ÷ engine | engine real-time factor |')
    print('|---|---|---|---|---|---|---|')
    for family, name in FAMILIES:
        ours, theirs = earshot[family], engine[family]
        ratio = f'{ours.rate() / theirs.rate():.2f}' if theirs.rate() else '-'
        print(f'| {name} | {theirs.segments} | {theirs.words} | {theirs.rate():.3f} | {ours.rate():.3f} | {ratio} '
              f'| {theirs.decode_seconds / max(theirs.audio_seconds, 1e-9):.3f} |')


if __name__ == '__main__':
    sys.exit(main())

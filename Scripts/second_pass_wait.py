"""The wait for pocketsphinx's second pass (fwdflat) when an utterance ends, and its words.

The second pass runs in `end_utt`, after the person has stopped, so its time is a wait before the
final transcript. This decodes (a decoder per set; Earshot's model, dictionary and search
bound) turns-dev-2's noisy turns (each turn's span -200 / +300 ms) and vad-dev's clean labelled segments (+-300 ms) as
a stream, once with pocketsphinx's own successor window (`fwdflatsfwin` 25) and once with
Earshot's (5), and prints the time `end_utt` took and the word error rate of each. Each `--try`
adds a row: Earshot's settings with the given second-pass settings changed (`fwdflatbeam=1e-48,
fwdflatwbeam=1e-20`; numbers only).

usage: second_pass_wait.py TURNS_DEV2 VAD_DEV [--model DIR] [--try NAME=VALUE,...]...
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from transcription_reference import DEFAULT_MODEL, RATE, Decoder, Tally, align, read_samples, scenes, segment_audio, words  # noqa: E402

SETTINGS = [('pocketsphinx, 25 frames', {'fwdflatsfwin': 25}), ('Earshot, 5 frames', {'fwdflatsfwin': 5})]


def tried(text):
    """A --try's label and Earshot's settings with its changes."""
    changes = {}
    for pair in text.split(','):
        name, _, value = pair.partition('=')
        if not name.startswith('fwdflat') or not value:
            raise argparse.ArgumentTypeError(f'"{pair}" is not a second-pass setting NAME=VALUE (fwdflat…)')
        changes[name.strip()] = float(value) if any(c in value for c in '.e') else int(value)
    return f'Earshot, {text}', dict(SETTINGS[1][1], **changes)


def noisy_turns(turns_dev2):
    for name in sorted(os.listdir(turns_dev2)):
        if name.endswith('.wav') and ('_babble_' in name or '_pink_' in name):
            pcm = read_samples(os.path.join(turns_dev2, name))
            with open(os.path.join(turns_dev2, name.split('_')[0] + '_' + name.split('_')[1] + '.json')) as labels:
                for turn in json.load(labels)['turns']:
                    first, last = int((turn['start'] - 0.2) * RATE), int((turn['end'] + 0.3) * RATE)
                    yield pcm[2 * first:2 * last], ' '.join(u['text'] for u in turn['utterances'])


def clean_segments(vad_dev):
    for _, path, segments in scenes(vad_dev):
        pcm = read_samples(path)
        for segment in segments:
            yield segment_audio(pcm, segment), segment['text']


def decode(decoder, pcm):
    decoder.start_utt()
    for offset in range(0, len(pcm), 320):
        decoder.process_raw(pcm[offset:offset + 320], False, False)
    started = time.perf_counter()
    decoder.end_utt()
    waited = (time.perf_counter() - started) * 1000
    return waited, decoder.hyp().hypstr if decoder.hyp() else ''


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('turns_dev2')
    parser.add_argument('vad_dev')
    parser.add_argument('--model', default=DEFAULT_MODEL)
    parser.add_argument('--try', dest='tries', action='append', type=tried, default=[],
                        help='another row: Earshot\'s settings with these changed (NAME=VALUE,...)')
    options = parser.parse_args()
    sets = [('turns-dev-2, noisy turns', list(noisy_turns(options.turns_dev2))),
            ('vad-dev, clean segments', list(clean_segments(options.vad_dev)))]
    print('The second pass when an utterance ends (end_utt), median / p90, and the words (WER)')
    print('| second pass | set | utterances | wait median / p90 | WER |')
    print('|---|---|---|---|---|')
    for who, settings in SETTINGS + options.tries:
        for name, utterances in sets:
            # A decoder per set: the cepstral mean one set leaves would start the next.
            decoder = Decoder(hmm=os.path.join(options.model, 'en-us'), lm=os.path.join(options.model, 'en-us.lm.bin'),
                              dict=os.path.join(options.model, 'earshot-top-words.dict'), logfn='/dev/null',
                              maxhmmpf=10000, **settings)
            waits, tally = [], Tally()
            for pcm, text in utterances:
                waited, hypothesis = decode(decoder, pcm)
                reference = words(text)
                waits.append(waited)
                tally.add(len(reference), sum(align(reference, words(hypothesis))))
            print(f'| {who} | {name} | {len(utterances)} | {percentile(waits, 0.5):.0f} / '
                  f'{percentile(waits, 0.9):.0f} ms | {tally.rate():.3f} |')


if __name__ == '__main__':
    sys.exit(main())

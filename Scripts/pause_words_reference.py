"""How right the words are where the end of a turn is judged: at each pause inside a sentence and
at each turn's end in turns-dev-2, the last word heard against the last word said.

The word rule (`TurnWords`) holds a turn whose words so far end on one no sentence ends on ("set an
alarm for"). It can only be as right as the recogniser's last word. This prints, per voice family
and condition, how often that word (and its class: a word no sentence ends on, or not) is right:

- the engine: pocketsphinx 5.1.1 from PyPI with Earshot's model, decoding the turn from its start
  (-300 ms) to the pause or end (+300 ms) whole, as its own best effort;
- Earshot: `earshot replay --stt embedded`'s last transcript before the person went on (at a
  pause) or within 1.5 s (at an end);
- the words said: how many pauses the rule would hold, and ends it would release, if the words
  were right.

usage: pause_words_reference.py TURNS_DEV2 EARSHOT [--model DIR]
"""
import argparse
import json
import os
import re
import subprocess
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from transcription_reference import DEFAULT_MODEL, RATE, Decoder, read_samples, words  # noqa: E402

TURN_WORDS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'Sources', 'EarshotAudio',
                          'Endpointing', 'TurnWords.swift')
MARGIN = 0.3


def unfinished_endings():
    """The English words no sentence ends on, read from `TurnWords.swift`'s "en" entry."""
    with open(TURN_WORDS) as source:
        text = source.read()
    english = text[text.index('"en": TurnWords'):]
    english = english[:english.index(']),')]
    lists = re.findall(r'":\s*\[([^\]]*)\]', english.split('classes:', 1)[1])
    return {word for entries in lists for word in re.findall(r'"([a-z\']+)"', entries)}


def last_word(text):
    found = words(re.sub(r'\(\d+\)', '', text))
    return found[-1] if found else ''


def points(turn):
    """(kind, time the words must reach, text said so far, time by which the words must be heard)."""
    utterances = turn['utterances']
    for index, utterance in enumerate(utterances[:-1]):
        for pause in turn.get('inner_pauses', []):
            if pause['kind'] == 'thinking' and abs(pause['start'] - utterance['end']) < 0.05:
                said = ' '.join(u['text'] for u in utterances[:index + 1])
                yield 'pause', utterance['end'], said, pause['end']
    yield 'end', turn['end'], ' '.join(u['text'] for u in utterances), turn['end'] + 1.5


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('turns_dev2')
    parser.add_argument('earshot')
    parser.add_argument('--model', default=DEFAULT_MODEL)
    args = parser.parse_args()
    unfinished = unfinished_endings()
    decoder = Decoder(hmm=os.path.join(args.model, 'en-us'), lm=os.path.join(args.model, 'en-us.lm.bin'),
                      dict=os.path.join(args.model, 'cmudict-en-us.dict'), logfn='/dev/null')
    tally = Counter()
    for name in sorted(os.listdir(args.turns_dev2)):
        if not name.endswith('.wav'):
            continue
        path = os.path.join(args.turns_dev2, name)
        with open(os.path.join(args.turns_dev2, '_'.join(name.split('_')[:2]) + '.json')) as labels:
            scene = json.load(labels)
        condition = 'noisy' if scene.get('noise') else 'clean'
        pcm = read_samples(path)
        replay = subprocess.run([args.earshot, 'replay', path, '--stt', 'embedded'], capture_output=True, text=True,
                                check=True)
        transcripts = [e for e in map(json.loads, replay.stdout.splitlines()) if e.get('event') == 'transcript']
        for turn in scene['turns']:
            family = 'flite' if turn['voice'] in ('slt', 'kal16') else 'espeak-ng'
            for kind, reached, said, heard_by in points(turn):
                first, last = int((turn['start'] - MARGIN) * RATE), int((reached + MARGIN) * RATE)
                decoder.start_utt()
                decoder.process_raw(pcm[2 * max(0, first):2 * last], full_utt=True)
                decoder.end_utt()
                engine = decoder.hyp().hypstr if decoder.hyp() else ''
                heard = [e['text'] for e in transcripts if turn['start'] <= e['t'] <= heard_by + 0.1]
                earshot = heard[-1] if heard else ''
                truth = last_word(said)
                key = (kind, family, condition)
                tally[key + ('n',)] += 1
                tally[key + ('said unfinished',)] += truth in unfinished
                for who, text in (('engine', engine), ('earshot', earshot)):
                    tally[key + (who, 'word')] += last_word(text) == truth
                    tally[key + (who, 'class')] += (last_word(text) in unfinished) == (truth in unfinished)
    print('Last word heard where the end of a turn is judged (turns-dev-2): right word / right class')
    print('| where | voices | n | engine, segment whole | Earshot, streaming | last word said is one no sentence ends on |')
    print('|---|---|---|---|---|---|')
    for key in sorted({k[:3] for k in tally}):
        n = tally[key + ('n',)]
        cells = ['%d / %d' % (tally[key + (who, 'word')], tally[key + (who, 'class')]) for who in ('engine', 'earshot')]
        print('| %s | %s, %s | %d | %s | %s | %d |' % (key[0], key[1], key[2], n, cells[0], cells[1],
                                                     tally[key + ('said unfinished',)]))


if __name__ == '__main__':
    main()

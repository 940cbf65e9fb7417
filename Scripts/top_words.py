"""Writes the pronunciation dictionary of the language model's most probable words.

pocketsphinx keeps every dictionary word in memory with its search structures; the US English
model's full dictionary (135k entries) costs about 28 MB of the decoder's 95 MB. Words the
language model ranks below its `keep` most probable are rarely recognised anyway, so the
embedded transcriber loads this smaller dictionary.

usage: top_words.py LM.bin FULL.dict KEEP OUT.dict

The language model is pocketsphinx's binary trie ("Trie Language Model"): the header, the
order (1 byte), the n-gram counts (uint32 each), the quantisation table (a dummy int32 and
quant_size(order) float32s), the unigrams ((count + 1) x {float prob, float backoff, uint32
next}), the higher n-grams, then the words (int32 byte count, NUL-separated), little-endian.
"""
import struct
import sys

lm_path, dict_path, keep, out_path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
data = open(lm_path, 'rb').read()
header = b'Trie Language Model'
if not data.startswith(header):
    sys.exit(f'{lm_path} is not a pocketsphinx binary trie language model')
offset = len(header)
order = data[offset]
offset += 1
counts = struct.unpack_from(f'<{order}I', data, offset)
offset += 4 * order
quantised = (order - 2) * ((1 << 16) + (1 << 16)) + (1 << 16)
offset += 4 + 4 * quantised
probabilities = [struct.unpack_from('<f', data, offset + 12 * i)[0] for i in range(counts[0])]
# The words end the file: their block is found by its length prefix, counted back from the end.
words = None
for start in range(len(data) - 5, offset, -1):
    if struct.unpack_from('<i', data, start)[0] == len(data) - start - 4:
        words = data[start + 4:-1].split(b'\0')
        break
if words is None or len(words) != counts[0]:
    sys.exit(f'{lm_path}: could not find its {counts[0]} words')
special = {b'<s>', b'</s>', b'<UNK>', b'<unk>'}
ranked = sorted((p, w) for p, w in zip(probabilities, words) if w not in special)
kept = {w.decode('latin-1') for _, w in ranked[-keep:]}
written = 0
with open(dict_path, encoding='latin-1') as full, open(out_path, 'w', encoding='latin-1') as out:
    for line in full:
        if line.split(' ', 1)[0].split('(')[0] in kept:
            out.write(line)
            written += 1
print(f'{out_path}: {written} pronunciations of the {len(kept)} most probable of {counts[0]} words')

"""Checks the test peer openai_speech_server.py with the official `openai` Python client: the
request and response shapes Earshot's tests rely on are the ones OpenAI's own client sends and
accepts. Prints one line per check and "all checks passed"; exits 1 at the first failure.

usage: check_openai_peer.py BASE_URL API_KEY WAV_FILE EXPECTED_WORD
(the server must require API_KEY and rate-limit exactly its first request, with Retry-After)
"""

import sys

import openai
from openai.types.audio import TranscriptionTextDeltaEvent, TranscriptionTextDoneEvent


def check(name, condition, detail=""):
    if not condition:
        print("FAILED: %s %s" % (name, detail), flush=True)
        sys.exit(1)
    print("ok: %s" % name, flush=True)


def main():
    base_url, key, wav, word = sys.argv[1:5]
    no_retries = openai.OpenAI(base_url=base_url, api_key=key, max_retries=0, timeout=60)

    # The first request is turned away with 429 and Retry-After, as a rate limit does.
    try:
        no_retries.models.list()
        check("429 raises RateLimitError", False, "the request succeeded")
    except openai.RateLimitError as error:
        check("429 raises RateLimitError", error.status_code == 429)
        check("429 carries Retry-After", error.response.headers.get("retry-after") is not None)

    wrong = openai.OpenAI(base_url=base_url, api_key="not-the-key", max_retries=0)
    try:
        wrong.models.list()
        check("a wrong key raises AuthenticationError", False, "the request succeeded")
    except openai.AuthenticationError as error:
        check("a wrong key raises AuthenticationError", error.status_code == 401 and "API key" in str(error))

    models = [model.id for model in no_retries.models.list()]
    check("models list", "whisper-1" in models and "tts-1" in models, str(models))

    with open(wav, "rb") as audio:
        transcription = no_retries.audio.transcriptions.create(model="whisper-1", file=audio, language="en")
    check("transcription (json)", word in transcription.text, repr(transcription.text))

    with open(wav, "rb") as audio:
        events = list(no_retries.audio.transcriptions.create(model="gpt-4o-transcribe", file=audio, stream=True))
    deltas = [event for event in events if isinstance(event, TranscriptionTextDeltaEvent)]
    done = [event for event in events if isinstance(event, TranscriptionTextDoneEvent)]
    check("transcription stream: deltas then done", deltas and len(done) == 1 and events[-1] is done[0],
          repr([type(event).__name__ for event in events]))
    check("transcription stream: deltas add up to the text",
          "".join(event.delta for event in deltas).strip() == done[0].text.strip() and word in done[0].text,
          repr(done[0].text))

    with no_retries.audio.speech.with_streaming_response.create(
        model="tts-1", voice="nova", input="Hello there. This is the second sentence.", response_format="pcm"
    ) as response:
        pieces = [piece for piece in response.iter_bytes(4800)]
    audio_bytes = sum(len(piece) for piece in pieces)
    check("speech (pcm, streamed)", response.headers.get("content-type") == "audio/pcm" and audio_bytes > 24000 * 2,
          "%d bytes" % audio_bytes)
    print("all checks passed", flush=True)


if __name__ == "__main__":
    main()

"""A small OpenAI-compatible speech server for Earshot's tests, on loopback only.

It serves the two audio endpoints of OpenAI's API reference with real engines:

- POST /v1/audio/transcriptions: multipart form (file, model, language, response_format,
  stream), transcribed with pocketsphinx 5 from PyPI. With stream=true the answer is a stream of
  server-sent events, `transcript.text.delta` while decoding and `transcript.text.done` at the
  end, as OpenAI's newer transcription models send; otherwise `{"text": "..."}`.
- POST /v1/audio/speech: JSON (model, voice, input, response_format, speed), spoken by espeak-ng
  sentence by sentence and streamed as it is made (chunked), as raw 24 kHz signed 16-bit
  little-endian samples for response_format=pcm, or as WAV.
- GET /v1/models: the models it offers.

Faults a real deployment shows, switched on by options: an API key that must be presented
(401 otherwise), a rate limit answering the first N requests with 429 and Retry-After, a server
that stalls before answering, one that ignores stream=true (as whisper.cpp's server does).
"""

import argparse
import email.parser
import email.policy
import io
import json
import re
import subprocess
import sys
import threading
import time
import wave
from http.server import ThreadingHTTPServer

from openai_peer_http import OpenAIPeerHandler

from pocketsphinx import Decoder

SPEECH_RATE = 24000
# OpenAI's voice names, spoken by espeak-ng variants; any other name is taken as an espeak-ng voice.
VOICES = {
    "alloy": "en-us", "ash": "en-us+m3", "ballad": "en-us+m5", "coral": "en-us+f3",
    "echo": "en-us+m2", "fable": "en+m4", "nova": "en-us+f2", "onyx": "en-us+m1",
    "sage": "en-us+f4", "shimmer": "en-us+f5", "verse": "en-us+m6",
}
TRANSCRIPTION_MODELS = ["whisper-1", "gpt-4o-transcribe", "gpt-4o-mini-transcribe", "pocketsphinx"]
SPEECH_MODELS = ["tts-1", "tts-1-hd", "gpt-4o-mini-tts", "espeak-ng"]


class Options:
    api_key = None
    rate_limited_requests = 0
    retry_after = 1
    stall_seconds = 0.0
    ignore_stream = False


class State:
    lock = threading.Lock()
    requests = 0
    decoder_lock = threading.Lock()
    decoder = None


def decoder():
    # One decoder, loaded at start: pocketsphinx decoders are not thread-safe, so requests take turns.
    if State.decoder is None:
        State.decoder = Decoder(samprate=16000)
    return State.decoder


class Handler(OpenAIPeerHandler):
    server_version = "earshot-openai-peer/1"

    # Responses

    def start_chunked(self, content_type):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()

    def write_chunk(self, data):
        if data:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()

    def end_chunked(self):
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    # Requests

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def admitted(self):
        """Applies the API key, the rate limit and the stall; False once an error was sent."""
        body = self.read_body()
        self.body = body
        if Options.api_key is not None:
            if self.headers.get("Authorization", "") != "Bearer " + Options.api_key:
                self.send_error_json(401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key")
                return False
        with State.lock:
            State.requests += 1
            limited = State.requests <= Options.rate_limited_requests
        if limited:
            self.send_error_json(
                429, "Rate limit reached for requests. Please try again in %ss." % Options.retry_after,
                "requests", "rate_limit_exceeded", headers=[("Retry-After", str(Options.retry_after))],
            )
            return False
        if Options.stall_seconds:
            time.sleep(Options.stall_seconds)
        return True

    def do_GET(self):
        if self.path.rstrip("/") != "/v1/models":
            self.send_error_json(404, "Unknown path %s" % self.path, "invalid_request_error")
            return
        if not self.admitted():
            return
        models = [{"id": name, "object": "model", "created": 0, "owned_by": "earshot-tests"}
                  for name in TRANSCRIPTION_MODELS + SPEECH_MODELS]
        self.send_json(200, {"object": "list", "data": models})

    def do_POST(self):
        path = self.path.split("?")[0].rstrip("/")
        if path not in ("/v1/audio/transcriptions", "/v1/audio/speech"):
            self.read_body()
            self.send_error_json(404, "Unknown path %s" % self.path, "invalid_request_error")
            return
        if not self.admitted():
            return
        if path == "/v1/audio/transcriptions":
            self.transcribe()
        else:
            self.speak()

    # Transcription

    def form(self):
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            b"Content-Type: " + self.headers.get("Content-Type", "").encode() + b"\r\n\r\n" + self.body
        )
        if not message.is_multipart():
            return None
        fields = {}
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            if name:
                fields[name] = part.get_payload(decode=True)
        return fields

    def transcribe(self):
        fields = self.form()
        if fields is None or "file" not in fields:
            self.send_error_json(400, "Expected a multipart form with a 'file' field.", "invalid_request_error")
            return
        if "model" not in fields:
            self.send_error_json(400, "you must provide a model parameter", "invalid_request_error")
            return
        try:
            with wave.open(io.BytesIO(fields["file"])) as audio:
                if (audio.getframerate(), audio.getnchannels(), audio.getsampwidth()) != (16000, 1, 2):
                    raise ValueError("expected 16 kHz mono 16-bit audio")
                samples = audio.readframes(audio.getnframes())
        except (wave.Error, ValueError, EOFError) as error:
            self.send_error_json(400, "The audio file could not be decoded: %s" % error, "invalid_request_error")
            return
        response_format = fields.get("response_format", b"json").decode()
        stream = fields.get("stream", b"false").decode() == "true" and not Options.ignore_stream
        if stream:
            self.start_chunked("text/event-stream")
        with State.decoder_lock:
            engine = decoder()
            engine.start_utt()
            said = ""
            step = 16000  # half a second of samples, in bytes
            for start in range(0, len(samples), step):
                engine.process_raw(samples[start:start + step], False, False)
                hypothesis = engine.hyp()
                text = hypothesis.hypstr if hypothesis else ""
                # Deltas only add: a hypothesis that revised earlier words waits for the final text.
                if stream and text.startswith(said) and len(text) > len(said):
                    delta = text[len(said):]
                    said = text
                    self.write_chunk(self.event({"type": "transcript.text.delta", "delta": delta}))
            engine.end_utt()
            hypothesis = engine.hyp()
            text = hypothesis.hypstr if hypothesis else ""
        if stream:
            if text.startswith(said) and len(text) > len(said):
                self.write_chunk(self.event({"type": "transcript.text.delta", "delta": text[len(said):]}))
            self.write_chunk(self.event({"type": "transcript.text.done", "text": text}))
            self.end_chunked()
        elif response_format == "text":
            body = text.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:
            self.send_json(200, {"text": text})

    @staticmethod
    def event(value):
        return b"data: " + json.dumps(value).encode() + b"\n\n"

    # Speech

    def speak(self):
        try:
            request = json.loads(self.body)
        except ValueError:
            self.send_error_json(400, "The body is not JSON.", "invalid_request_error")
            return
        text = request.get("input")
        if not isinstance(text, str) or not text.strip():
            self.send_error_json(400, "'input' must be a non-empty string.", "invalid_request_error")
            return
        if "model" not in request or "voice" not in request:
            self.send_error_json(400, "'model' and 'voice' are required.", "invalid_request_error")
            return
        response_format = request.get("response_format", "mp3")
        if response_format not in ("pcm", "wav"):
            self.send_error_json(400, "This server speaks pcm and wav only, not %s." % response_format, "invalid_request_error")
            return
        voice = VOICES.get(request["voice"], request["voice"])
        speed = float(request.get("speed", 1.0))
        self.start_chunked("audio/pcm" if response_format == "pcm" else "audio/wav")
        if response_format == "wav":
            self.write_chunk(wav_header(SPEECH_RATE))
        for sentence in re.split(r"(?<=[.!?])\s+", text.strip()):
            for piece in synthesize(sentence, voice, speed):
                self.write_chunk(piece)
        self.end_chunked()


def wav_header(rate):
    # The length is unknown while streaming: the largest sizes, as streaming servers write them.
    return (b"RIFF" + (0xFFFFFFFF).to_bytes(4, "little") + b"WAVEfmt " + (16).to_bytes(4, "little")
            + (1).to_bytes(2, "little") + (1).to_bytes(2, "little") + rate.to_bytes(4, "little")
            + (rate * 2).to_bytes(4, "little") + (2).to_bytes(2, "little") + (16).to_bytes(2, "little")
            + b"data" + (0xFFFFFFFF).to_bytes(4, "little"))


def synthesize(sentence, voice, speed):
    """Yields the sentence as raw 24 kHz samples while espeak-ng and sox make them."""
    words_per_minute = str(max(80, min(450, int(175 * speed))))
    espeak = subprocess.Popen(["espeak-ng", "-v", voice, "-s", words_per_minute, "--stdout", sentence],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    sox = subprocess.Popen(["sox", "-q", "-t", "wav", "-", "-t", "raw", "-r", str(SPEECH_RATE), "-e", "signed",
                            "-b", "16", "-c", "1", "-L", "-"], stdin=espeak.stdout, stdout=subprocess.PIPE)
    espeak.stdout.close()
    try:
        while True:
            piece = sox.stdout.read(4800)
            if not piece:
                break
            yield piece
    finally:
        sox.stdout.close()
        sox.wait()
        espeak.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--api-key", help="require 'Authorization: Bearer KEY' (401 otherwise)")
    parser.add_argument("--rate-limited-requests", type=int, default=0,
                        help="answer the first N requests with 429 Too Many Requests")
    parser.add_argument("--retry-after", type=int, default=1, help="the Retry-After of those answers, in seconds")
    parser.add_argument("--stall-seconds", type=float, default=0.0, help="wait this long before answering each request")
    parser.add_argument("--ignore-stream", action="store_true", help="answer stream=true with plain JSON")
    arguments = parser.parse_args()
    Options.api_key = arguments.api_key
    Options.rate_limited_requests = arguments.rate_limited_requests
    Options.retry_after = arguments.retry_after
    Options.stall_seconds = arguments.stall_seconds
    Options.ignore_stream = arguments.ignore_stream
    decoder()
    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    server.daemon_threads = True
    print("listening on http://127.0.0.1:%d/v1" % arguments.port, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()

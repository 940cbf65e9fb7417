"""A small OpenAI-compatible chat server for Earshot's tests, on loopback only (stdlib only).

It serves POST /v1/chat/completions as OpenAI's API reference shapes it: with "stream": true, a
stream of server-sent events, `chat.completion.chunk` objects (the first with the role, then one
per token of content, then one with finish_reason "stop") and `data: [DONE]`; otherwise one
`chat.completion` object. GET /v1/models lists its models.

Replies are scripted: each request is answered with the next of the --reply texts (the last one
repeats), where "{question}" stands for the last user message. Tokens are the reply's words
(each with its leading space), sent --tokens-per-second after --first-token-ms.

Faults, switched on by options: an API key that must be presented (401), a model it does not
have (404), the first N requests answered with 429 and Retry-After, every request answered with
a 5xx status, a stream that stalls after N tokens (the connection stays open, nothing comes),
one cut off after N tokens (the connection closes mid-stream), one that sends an error event
after N tokens.

Every request's JSON body is appended, one line each, to --requests-log when given, so tests can
read the history the client sent.
"""

import argparse
import json
import re
import sys
import threading
import time
from http.server import ThreadingHTTPServer

from openai_peer_http import OpenAIPeerHandler

MODELS = ["gpt-4o-mini", "llama3.2", "earshot-test"]


class Options:
    replies = ["You said: {question}"]
    first_token_ms = 0.0
    tokens_per_second = 0.0
    api_key = None
    rate_limited_requests = 0
    retry_after = 1
    status = 0
    stall_after_tokens = -1
    cut_after_tokens = -1
    error_after_tokens = -1
    requests_log = None


class State:
    lock = threading.Lock()
    requests = 0
    replies = 0


def tokens(text):
    """The reply's tokens: each word with the spaces before it."""
    return re.findall(r"\s*\S+", text)


class Handler(OpenAIPeerHandler):
    server_version = "earshot-chat-peer/1"

    def write_chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def event(self, value):
        self.write_chunk(b"data: " + json.dumps(value).encode() + b"\n\n")

    def do_GET(self):
        if self.path.rstrip("/") != "/v1/models":
            self.send_error_json(404, "Unknown path %s" % self.path, "invalid_request_error")
            return
        self.send_json(200, {"object": "list", "data": [
            {"id": name, "object": "model", "created": 0, "owned_by": "earshot"} for name in MODELS
        ]})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if self.path.rstrip("/") != "/v1/chat/completions":
            self.send_error_json(404, "Unknown path %s" % self.path, "invalid_request_error")
            return
        if Options.requests_log:
            with State.lock, open(Options.requests_log, "a") as log:
                log.write(body.decode("utf-8", "replace").replace("\n", " ") + "\n")
        if Options.api_key is not None and self.headers.get("Authorization", "") != "Bearer " + Options.api_key:
            self.send_error_json(401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key")
            return
        with State.lock:
            State.requests += 1
            limited = State.requests <= Options.rate_limited_requests
        if limited:
            self.send_error_json(429, "Rate limit reached for requests.", "requests", "rate_limit_exceeded",
                                 headers=[("Retry-After", str(Options.retry_after))])
            return
        if Options.status:
            self.send_error_json(Options.status, "The server had an error while processing your request.", "server_error",
                                 headers=[("Retry-After", str(Options.retry_after))])
            return
        try:
            request = json.loads(body)
            messages = request["messages"]
            model = request["model"]
        except (ValueError, KeyError, TypeError):
            self.send_error_json(400, "The body is not a chat completion request.", "invalid_request_error")
            return
        if model not in MODELS:
            self.send_error_json(404, "The model `%s` does not exist." % model, "invalid_request_error", "model_not_found")
            return
        question = next((m.get("content", "") for m in reversed(messages) if m.get("role") == "user"), "")
        with State.lock:
            reply = Options.replies[min(State.replies, len(Options.replies) - 1)]
            State.replies += 1
        text = reply.replace("{question}", question)
        if request.get("stream"):
            self.stream(model, text)
        else:
            time.sleep(Options.first_token_ms / 1000)
            self.send_json(200, {
                "id": "chatcmpl-earshot", "object": "chat.completion", "created": int(time.time()), "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 1, "completion_tokens": len(tokens(text)), "total_tokens": 1 + len(tokens(text))},
            })

    def stream(self, model, text):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        created = int(time.time())

        def chunk(delta, finish_reason=None):
            return {"id": "chatcmpl-earshot", "object": "chat.completion.chunk", "created": created, "model": model,
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]}

        self.event(chunk({"role": "assistant", "content": ""}))
        time.sleep(Options.first_token_ms / 1000)
        interval = 1 / Options.tokens_per_second if Options.tokens_per_second > 0 else 0
        # For measurements: when the first word left, on the wall clock the daemon's events use.
        sys.stderr.write("first token at %.6f\n" % time.time())
        for index, token in enumerate(tokens(text)):
            if index == Options.stall_after_tokens:
                time.sleep(3600)
            if index == Options.cut_after_tokens:
                self.wfile.flush()
                self.connection.shutdown(2)
                self.close_connection = True
                return
            if index == Options.error_after_tokens:
                self.event({"error": {"message": "The model crashed.", "type": "server_error", "code": None}})
                self.write_chunk(b"")
                return
            if index > 0 and interval:
                time.sleep(interval)
            self.event(chunk({"content": token}))
        self.event(chunk({}, "stop"))
        self.write_chunk(b"data: [DONE]\n\n")
        self.write_chunk(b"")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--reply", action="append", help="the next reply ({question}: the last user message)")
    parser.add_argument("--first-token-ms", type=float, default=0.0, help="time from the request to the first token")
    parser.add_argument("--tokens-per-second", type=float, default=0.0, help="pace of the tokens after it (0: at once)")
    parser.add_argument("--api-key", help="require 'Authorization: Bearer KEY' (401 otherwise)")
    parser.add_argument("--rate-limited-requests", type=int, default=0, help="answer the first N requests with 429")
    parser.add_argument("--retry-after", type=int, default=1, help="the Retry-After of 429 and 5xx answers, in seconds")
    parser.add_argument("--status", type=int, default=0, help="answer every request with this error status (500, 503)")
    parser.add_argument("--stall-after-tokens", type=int, default=-1, help="stop sending after N tokens, connection open")
    parser.add_argument("--cut-after-tokens", type=int, default=-1, help="close the connection after N tokens")
    parser.add_argument("--error-after-tokens", type=int, default=-1, help="send an error event after N tokens")
    parser.add_argument("--requests-log", help="append each request's JSON body here, one per line")
    arguments = parser.parse_args()
    if arguments.reply:
        Options.replies = arguments.reply
    for name in ["first_token_ms", "tokens_per_second", "api_key", "rate_limited_requests", "retry_after", "status",
                 "stall_after_tokens", "cut_after_tokens", "error_after_tokens", "requests_log"]:
        setattr(Options, name, getattr(arguments, name))
    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    server.daemon_threads = True
    print("listening on http://127.0.0.1:%d/v1" % arguments.port, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()

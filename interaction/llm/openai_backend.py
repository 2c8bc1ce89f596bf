"""Any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp's server) via the openai client.

Each call runs inside a deadline (the turn's budget for its phase, capped by the profile's timeout),
retries only transient errors and only while the deadline leaves room, and adapts to what the server
accepts: a request whose optional features (image content parts, JSON mode, stop sequences) are
refused with an HTTP error is sent again without them, and the endpoint's model is remembered as not
taking them. The openai client's own retries are off: they would not know the budget."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import httpx
import openai

from common.config.interaction_settings import LlmProfile
from interaction.llm.budget import Deadline
from interaction.llm.contracts import LlmCircuitOpen, LlmError, LlmSkipped, LlmTimeout, LlmUnusable
from interaction.llm.endpoints import Endpoint

log = logging.getLogger("nadine.interaction.llm")

# optional request features, in the order they are given up when a server refuses a request
CONTENT_PARTS, JSON_MODE, STOP = "content parts", "JSON mode", "stop sequences"
DEGRADE_ORDER = (CONTENT_PARTS, JSON_MODE, STOP)
# statuses with which servers refuse a request's shape: 400 / 422 mostly; llama.cpp's server answers 500
# when its chat template cannot render list content. A 500 is not taken as refusing JSON mode or stop
# sequences (it is more often transient, and the feature would be given up for good).
CLIENT_REFUSALS = {400, 415, 422, 501}
REFUSALS = {CONTENT_PARTS: CLIENT_REFUSALS | {500}, JSON_MODE: CLIENT_REFUSALS, STOP: CLIENT_REFUSALS}
TRANSIENT = {429, 500, 502, 503, 504}
MIN_ATTEMPT_S = 0.05  # less time than this left: no new attempt
# A timeout counts against the endpoint only when the call had (nearly) the whole allowance; the tail of
# a budget that earlier answers used up says nothing about the endpoint.
FULL_ALLOWANCE = 0.9
CONNECT_S = 10.0
DEFAULT_TIMEOUT_S = 60.0  # a call outside any turn budget, from a profile with no timeout
BACKOFF_S = 0.25
MAX_STOPS = 4  # OpenAI's limit
JSON_INSTRUCTION = "Answer with one JSON object only, no other text."

_shared: httpx.Client | None = None
_shared_lock = threading.Lock()


def _http_client() -> httpx.Client:
    """One pooled HTTP client for every profile (10 keep-alive connections, 300 s keep-alive expiry: a
    turn's calls reuse warm connections); timeouts are set per request from the deadline."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = httpx.Client(limits=httpx.Limits(max_keepalive_connections=10, keepalive_expiry=300.0),
                                   timeout=httpx.Timeout(60.0, connect=CONNECT_S))
        return _shared


def as_text(content: Any) -> str:
    """List content as one string: text parts joined, each image replaced by its caption (if it has one)."""
    if isinstance(content, str):
        return content
    parts = []
    for part in content:
        if part.get("type") == "text":
            parts.append(part.get("text", ""))
        elif part.get("caption"):
            parts.append(f"[image: {part['caption']}]")
    return "\n".join(p for p in parts if p)


def _drops_uncaptioned_image(messages: list[dict[str, Any]]) -> bool:
    return any(isinstance(m.get("content"), list) and any(
        p.get("type") == "image_url" and not p.get("caption") for p in m["content"]) for m in messages)


def _wire_parts(content: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # "caption" is ours (the text stand-in for a text-only server), never part of the wire format
    return [{k: v for k, v in part.items() if k != "caption"} for part in content]


class OpenAIChat:
    def __init__(self, profile_name: str, profile: LlmProfile, model: str, endpoint: Endpoint,
                 base_url: str | None, api_key: str | None) -> None:
        self.profile_name = profile_name
        self.profile = profile
        self.model = model
        self.endpoint = endpoint
        # api.openai.com's current models take max_completion_tokens; local servers know max_tokens
        self._tokens_key = "max_completion_tokens" if base_url is None else "max_tokens"
        # local servers ignore the key, but the client refuses to start without one
        self._client = openai.OpenAI(base_url=base_url, api_key=api_key or "not-needed", max_retries=0,
                                     http_client=_http_client())

    def _name(self) -> str:
        return f"{self.profile_name} ({self.model} at {self.endpoint.url})"

    def complete(self, messages: list[dict[str, Any]], *, json_mode: bool | None = None,
                 stop: list[str] | None = None, deadline: Deadline | None = None) -> str:
        """The model's answer text. Raises LlmSkipped (breaker open, no time left, or a text-only
        server and an image with no caption to stand in for it), LlmTimeout, LlmError (down,
        refused) or LlmUnusable (an empty answer)."""
        deadline = deadline or Deadline(self.profile.timeout or DEFAULT_TIMEOUT_S)
        breaker = self.endpoint.breaker
        if not breaker.allow():
            raise LlmCircuitOpen(f"{self._name()}: circuit open")
        try:
            text = self._send(messages, self.profile.format == "json" if json_mode is None else json_mode,
                              stop or [], deadline)
        except LlmTimeout:
            breaker.failure(timeout=True)
            raise
        except LlmSkipped:
            breaker.release()  # nothing was sent: the breaker learns nothing
            raise
        except LlmUnusable:
            breaker.success()  # it answered
            raise
        except LlmError:
            breaker.failure(timeout=False)
            raise
        breaker.success()
        return text

    def _features(self, messages: list[dict[str, Any]], json_mode: bool, stop: list[str]) -> set[str]:
        used = set()
        if self.profile.vision and any(isinstance(m.get("content"), list) for m in messages):
            used.add(CONTENT_PARTS)
        if json_mode:
            used.add(JSON_MODE)
        if stop:
            used.add(STOP)
        return {f for f in used if not self.endpoint.refuses(self.model, f)}

    def _body(self, messages: list[dict[str, Any]], active: set[str], json_mode: bool,
              stop: list[str]) -> dict[str, Any]:
        if CONTENT_PARTS not in active and _drops_uncaptioned_image(messages):
            raise LlmSkipped(f"{self._name()} takes text only and the image has no caption to send instead")
        sent = [{**m, "content": _wire_parts(m["content"]) if CONTENT_PARTS in active else as_text(m["content"])}
                if isinstance(m.get("content"), list) else m for m in messages]
        body: dict[str, Any] = {"model": self.model, "messages": sent, "temperature": self.profile.temperature,
                                self._tokens_key: self.profile.max_tokens}
        if json_mode and JSON_MODE in active:
            body["response_format"] = {"type": "json_object"}
        elif json_mode and sent and sent[0].get("role") == "system":  # JSON asked for in the prompt instead
            sent[0] = {**sent[0], "content": f"{sent[0]['content']}\n\n{JSON_INSTRUCTION}"}
        if STOP in active:
            body["stop"] = stop[:MAX_STOPS]
        return body

    def _send(self, messages: list[dict[str, Any]], json_mode: bool, stop: list[str], deadline: Deadline) -> str:
        active = self._features(messages, json_mode, stop)
        dropped: set[str] = set()
        attempt, last_error = 0, None
        while True:
            allowance = min(self.profile.timeout or deadline.seconds, deadline.seconds)
            timeout = min(allowance, deadline.remaining())
            if timeout < MIN_ATTEMPT_S:
                raise last_error or LlmSkipped(f"{self._name()}: no time left in this turn's budget")
            try:
                reply = self._client.chat.completions.create(
                    **self._body(messages, active, json_mode, stop),
                    timeout=httpx.Timeout(timeout, connect=min(timeout, CONNECT_S)))
                break
            except openai.APITimeoutError:
                if timeout < FULL_ALLOWANCE * allowance:  # an earlier call used most of the budget
                    raise LlmSkipped(f"{self._name()}: the budget ran out ({timeout:.1f} s were left)") from None
                raise LlmTimeout(f"{self._name()}: no answer within {timeout:.1f} s") from None
            except openai.APIStatusError as exc:
                refused = next((f for f in DEGRADE_ORDER if f in active and exc.status_code in REFUSALS[f]), None)
                if refused:
                    active.discard(refused)
                    dropped.add(refused)
                    continue  # the same request without that feature, at once
                last_error = LlmError(f"{self._name()}: HTTP {exc.status_code}: {exc.message}")
                if exc.status_code not in TRANSIENT:
                    raise last_error from None
            except openai.APIConnectionError as exc:
                last_error = LlmError(f"{self._name()}: {type(exc).__name__}: {exc}")
            except openai.OpenAIError as exc:
                raise LlmError(f"{self._name()}: {type(exc).__name__}: {exc}") from None
            attempt += 1
            pause = BACKOFF_S * 2 ** (attempt - 1)
            if attempt > self.profile.max_retries or pause + MIN_ATTEMPT_S > deadline.remaining():
                raise last_error
            time.sleep(pause)
        if dropped:
            self.endpoint.remember_refused(self.model, dropped)
            log.warning("LLM endpoint %s refused %s for model %s; sending requests without them from now on",
                        self.endpoint.url, " and ".join(sorted(dropped)), self.model)
        if not reply.choices or not (text := reply.choices[0].message.content):
            raise LlmUnusable(f"{self._name()} returned an empty answer")
        return text

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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import openai
from openai.types.chat import ChatCompletion
from pydantic import ValidationError

from common.config.interaction_settings import LlmProfile
from interaction.llm.budget import Deadline
from interaction.llm.contracts import LlmCircuitOpen, LlmError, LlmSkipped, LlmTimeout, LlmUnusable
from interaction.llm.endpoints import Endpoint

log = logging.getLogger("nadine.interaction.llm")

# optional request features, in the order they are given up when a server refuses a request (streaming
# last: a reply spoken sentence by sentence is worth more than the others)
CONTENT_PARTS, JSON_MODE, STOP, STREAM = "content parts", "JSON mode", "stop sequences", "streaming"
DEGRADE_ORDER = (CONTENT_PARTS, JSON_MODE, STOP, STREAM)
# statuses with which servers refuse a request's shape: 400 / 422 mostly; llama.cpp's server answers 500
# when its chat template cannot render list content. A 500 is not taken as refusing JSON mode or stop
# sequences (it is more often transient, and the feature would be given up for good).
CLIENT_REFUSALS = {400, 415, 422, 501}
REFUSALS = {CONTENT_PARTS: CLIENT_REFUSALS | {500}, JSON_MODE: CLIENT_REFUSALS, STOP: CLIENT_REFUSALS,
            STREAM: CLIENT_REFUSALS}
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
        with self._guarded():
            return self._send(messages, self.profile.format == "json" if json_mode is None else json_mode,
                              stop or [], deadline)

    def stream(self, messages: list[dict[str, Any]], *, stop: list[str] | None = None,
               deadline: Deadline | None = None) -> Iterator[str]:
        """The answer's text as it is generated (stream=true), in deltas. A server that refuses streaming,
        or ignores it and answers whole, gives its answer as one delta. Raises as `complete` does, before
        the first delta or while the stream runs (the endpoint broke off, or the deadline passed: at most
        one read of the stream waits past it). Closing the generator closes the request."""
        deadline = deadline or Deadline(self.profile.timeout or DEFAULT_TIMEOUT_S)
        got_any = False
        with self._guarded(answered=lambda: got_any):
            deltas = self._deltas(self._request(messages, False, stop or [], deadline, stream=True), deadline)
            try:
                for delta in deltas:
                    got_any = True
                    yield delta
            finally:
                deltas.close()
            if not got_any:
                raise LlmUnusable(f"{self._name()} returned an empty answer")

    @contextmanager
    def _guarded(self, answered: Callable[[], bool] = lambda: False) -> Iterator[None]:
        """One call under the endpoint's circuit breaker: what the call's outcome says about the endpoint.
        `answered`: the endpoint already sent part of its answer (a stream cut short by the budget)."""
        breaker = self.endpoint.breaker
        if not breaker.allow():
            raise LlmCircuitOpen(f"{self._name()}: circuit open")
        try:
            yield
        except LlmTimeout:
            breaker.failure(timeout=True)
            raise
        except LlmSkipped:
            if answered():
                breaker.success()
            else:
                breaker.release()  # nothing was sent: the breaker learns nothing
            raise
        except LlmUnusable:
            breaker.success()  # it answered
            raise
        except LlmError:
            breaker.failure(timeout=False)
            raise
        except GeneratorExit:  # a stream's reader stopped listening (the rest is not spoken): it answered
            breaker.success()
            raise
        breaker.success()

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
        reply = self._request(messages, json_mode, stop, deadline, stream=False)
        if not reply.choices or not (text := reply.choices[0].message.content):
            raise LlmUnusable(f"{self._name()} returned an empty answer")
        return text

    def _deltas(self, reply: Any, deadline: Deadline) -> Iterator[str]:
        if isinstance(reply, ChatCompletion):  # answered whole
            if reply.choices and reply.choices[0].message.content:
                yield reply.choices[0].message.content
            return
        finished = False
        try:
            for chunk in reply:
                if chunk.choices and (text := chunk.choices[0].delta.content):
                    yield text
                finished = finished or bool(chunk.choices and chunk.choices[0].finish_reason)
                if deadline.remaining() <= 0 and not finished:
                    raise LlmSkipped(f"{self._name()}: the reply's budget ran out while it streamed")
            if not finished:  # a stream closed without its last chunk: the rest of the reply is missing
                raise LlmError(f"{self._name()}: the stream ended before the reply did (no finish_reason)")
        except (httpx.TimeoutException, openai.APITimeoutError):
            raise LlmTimeout(f"{self._name()}: the stream stalled") from None
        except (httpx.HTTPError, openai.OpenAIError) as exc:
            raise LlmError(f"{self._name()}: the stream broke off ({type(exc).__name__}: {exc})") from None
        finally:
            reply.close()

    def _request(self, messages: list[dict[str, Any]], json_mode: bool, stop: list[str], deadline: Deadline,
                 stream: bool) -> Any:
        """One chat completion request within the deadline: retried while transient, sent again without
        each optional feature the server refuses. With `stream`, an open Stream of chunks (or, from a
        server that does not stream, the whole ChatCompletion)."""
        active = self._features(messages, json_mode, stop) | ({STREAM} if stream and not
                                                                self.endpoint.refuses(self.model, STREAM) else set())
        dropped: set[str] = set()
        attempt, last_error = 0, None
        while True:
            allowance = min(self.profile.timeout or deadline.seconds, deadline.seconds)
            timeout = min(allowance, deadline.remaining())
            if timeout < MIN_ATTEMPT_S:
                raise last_error or LlmSkipped(f"{self._name()}: no time left in this turn's budget")
            try:
                reply = self._create(self._body(messages, active, json_mode, stop), STREAM in active,
                                     httpx.Timeout(timeout, connect=min(timeout, CONNECT_S)))
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
        return reply

    def _create(self, body: dict[str, Any], stream: bool, timeout: httpx.Timeout) -> Any:
        if not stream:
            return self._client.chat.completions.create(**body, timeout=timeout)
        raw = self._client.chat.completions.with_raw_response.create(**body, stream=True, timeout=timeout)
        if "text/event-stream" in raw.headers.get("content-type", ""):
            return raw.parse()
        try:  # the server ignored stream=true and answered with one completion
            raw.http_response.read()
            return ChatCompletion.model_validate(raw.http_response.json())
        except (ValueError, ValidationError) as exc:
            raise LlmUnusable(f"{self._name()} answered a streamed request with neither a stream nor a "
                              f"completion: {exc}") from None

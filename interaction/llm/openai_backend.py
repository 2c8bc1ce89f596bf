"""Any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp server) via the openai client."""

from __future__ import annotations

import threading
from typing import Any

import httpx
import openai

from common.config.interaction_settings import LlmProfile
from interaction.llm.base import LlmError

_shared: httpx.Client | None = None
_shared_lock = threading.Lock()


def _http_client() -> httpx.Client:
    """One pooled HTTP client for every profile (reference §4.10: 10 keep-alive connections, 300 s
    keep-alive expiry, 60 s request and 10 s connect timeout)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = httpx.Client(
                limits=httpx.Limits(max_keepalive_connections=10, keepalive_expiry=300.0),
                timeout=httpx.Timeout(60.0, connect=10.0),
            )
        return _shared


class OpenAIChat:
    def __init__(self, profile_name: str, profile: LlmProfile, base_url: str | None, api_key: str | None) -> None:
        self.profile_name = profile_name
        self.profile = profile
        # api.openai.com's current models take max_completion_tokens; local servers know max_tokens
        self._tokens_key = "max_completion_tokens" if base_url is None else "max_tokens"
        # local servers ignore the key, but the client refuses to start without one
        self._client = openai.OpenAI(
            base_url=base_url, api_key=api_key or "not-needed", timeout=profile.timeout or 60.0,
            max_retries=profile.max_retries, http_client=_http_client(),
        )

    def complete(self, messages: list[dict[str, Any]], *, json_mode: bool | None = None) -> str:
        as_json = self.profile.format == "json" if json_mode is None else json_mode
        extra: dict[str, Any] = {self._tokens_key: self.profile.max_tokens}
        if as_json:
            extra["response_format"] = {"type": "json_object"}
        try:
            reply = self._client.chat.completions.create(
                model=self.profile.model, messages=messages,  # type: ignore[arg-type]
                temperature=self.profile.temperature, **extra,
            )
        except openai.OpenAIError as exc:
            raise LlmError(f"{self.profile_name} ({self.profile.model}): {type(exc).__name__}: {exc}") from None
        if not reply.choices or not (text := reply.choices[0].message.content):
            raise LlmError(f"{self.profile_name} ({self.profile.model}) returned an empty answer")
        return text

"""Which model serves which agent (reference §4.10): agent -> profile -> backend, offline by default.

An agent is offline (deterministic rules and templates) when its profile says so, or when no endpoint
is configured at all: interaction.llm.base_url unset, no profile base_url and no API key in the
environment. NADINE_PROFILE_<agent> overrides one agent's profile (applied by common.config).
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Mapping
from typing import Any, Protocol

from common.config.interaction_settings import LlmProfile, LlmSettings

log = logging.getLogger("nadine.interaction.llm")

DEFAULT_PROFILES = {"turn_understanding": "gpt_json", "response_agent": "response_gpt"}
FALLBACK_PROFILE = "gpt_json"


class LlmError(RuntimeError):
    """A model call failed (unreachable, timed out, refused, or answered something unusable)."""


class ChatModel(Protocol):
    profile_name: str
    profile: LlmProfile

    def complete(self, messages: list[dict[str, Any]], *, json_mode: bool | None = None) -> str: ...


_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$", re.IGNORECASE)


def parse_json(text: str) -> dict[str, Any]:
    """A JSON object from a model answer (code fences stripped); LlmError when there is none."""
    body = _FENCE.sub("", text.strip())
    try:
        data = json.loads(body)
    except json.JSONDecodeError:
        start, end = body.find("{"), body.rfind("}")
        try:
            data = json.loads(body[start : end + 1]) if 0 <= start < end else None
        except json.JSONDecodeError:
            data = None
    if not isinstance(data, dict):
        raise LlmError(f"model answer is not a JSON object: {text[:120]!r}")
    return data


class LlmRegistry:
    """Builds one client per profile on first use; `for_agent` returns None for offline agents."""

    def __init__(self, settings: LlmSettings, environ: Mapping[str, str] | None = None) -> None:
        self.settings = settings
        self.environ = os.environ if environ is None else environ
        self._models: dict[str, ChatModel | None] = {}

    @property
    def api_key(self) -> str | None:
        return self.environ.get(self.settings.api_key_env) or None

    def profile_name(self, agent: str) -> str:
        return self.settings.agents.get(agent) or DEFAULT_PROFILES.get(agent, FALLBACK_PROFILE)

    def _endpoint(self, profile: LlmProfile) -> str | None:
        return profile.base_url or self.settings.base_url

    def for_agent(self, agent: str) -> ChatModel | None:
        name = self.profile_name(agent)
        if name not in self._models:
            self._models[name] = self._build(agent, name)
        return self._models[name]

    def _build(self, agent: str, name: str) -> ChatModel | None:
        profile = self.settings.profiles.get(name)
        if profile is None:
            log.error("agent %s names LLM profile %r, which interaction.llm.profiles does not define; "
                      "using offline rules (define the profile or fix NADINE_PROFILE_%s)", agent, name, agent)
            return None
        if profile.backend == "offline":
            return None
        base_url = self._endpoint(profile)
        if base_url is None and self.api_key is None:
            return None
        from interaction.llm.openai_backend import OpenAIChat

        return OpenAIChat(name, profile, base_url, self.api_key)

    def any_online(self) -> bool:
        return any(self.for_agent(agent) is not None for agent in self.settings.agents)

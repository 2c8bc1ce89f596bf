"""Which model serves which agent: agent -> profile -> backend, offline by default.

An agent is offline (deterministic rules and templates) when its profile says so, or when no endpoint
is configured at all: interaction.llm.base_url unset, no profile base_url and no API key in the
environment. NADINE_PROFILE_<agent> overrides one agent's profile (applied by common.config).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

from common.config.interaction_settings import LlmProfile, LlmSettings
from interaction.llm.contracts import ChatModel
from interaction.llm.endpoints import endpoint
from interaction.llm.openai_backend import OpenAIChat

log = logging.getLogger("nadine.interaction.llm")

DEFAULT_PROFILES = {"turn_understanding": "gpt_json", "response_agent": "response_gpt"}
FALLBACK_PROFILE = "gpt_json"


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
        return OpenAIChat(name, profile, self.settings.model_of(profile), endpoint(base_url, self.settings.breaker),
                          base_url, self.api_key)

    def any_online(self) -> bool:
        return any(self.for_agent(agent) is not None for agent in self.settings.agents)

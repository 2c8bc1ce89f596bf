"""What every model backend and caller shares: the ChatModel interface and its errors.

The errors say whose fault a failure was, because callers react differently: an endpoint that is
down or slow (LlmError, LlmTimeout) sends the rest of the turn offline and counts against its
circuit breaker; an answer that is unusable (LlmUnusable) only replaces that one answer; a spent
budget or an open breaker (LlmSkipped) never reached the endpoint at all."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

from common.config.interaction_settings import LlmProfile
from interaction.llm.budget import Deadline


class LlmError(RuntimeError):
    """A model call failed: unreachable, refused or answered with an HTTP error."""


class LlmTimeout(LlmError):
    """The endpoint did not answer within the time left in the budget."""


class LlmUnusable(LlmError):
    """The endpoint answered, but nothing usable (empty, not JSON, failed validation)."""


class LlmSkipped(LlmError):
    """Nothing the endpoint is to blame for: the budget was spent (before or while waiting), or the
    request cannot be sent to it (an image for a text-only model with no caption)."""


class LlmCircuitOpen(LlmSkipped):
    """No call was made: the endpoint's circuit breaker is open."""


class ChatModel(Protocol):
    profile_name: str
    profile: LlmProfile
    model: str

    def complete(
        self, messages: list[dict[str, Any]], *, json_mode: bool | None = None,
        stop: list[str] | None = None, deadline: Deadline | None = None,
    ) -> str: ...

    def stream(
        self, messages: list[dict[str, Any]], *, stop: list[str] | None = None, deadline: Deadline | None = None,
    ) -> Iterator[str]: ...

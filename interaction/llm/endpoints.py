"""What this process has learned about each endpoint: its circuit breaker, and which optional request
features each of its models refused (content parts, JSON mode, stop sequences). Shared by every
registry in the process (the vision agent builds its own), so one endpoint has one breaker."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from common.config.interaction_settings import CircuitBreakerSettings
from interaction.llm.breaker import CircuitBreaker

OPENAI_URL = "https://api.openai.com/v1"


@dataclass
class Endpoint:
    url: str
    breaker: CircuitBreaker
    refused: dict[str, set[str]] = field(default_factory=dict)  # model -> features it refused
    lock: threading.Lock = field(default_factory=threading.Lock)

    def refuses(self, model: str, feature: str) -> bool:
        with self.lock:
            return feature in self.refused.get(model, set())

    def remember_refused(self, model: str, features: set[str]) -> None:
        with self.lock:
            self.refused.setdefault(model, set()).update(features)


_endpoints: dict[str, Endpoint] = {}
_lock = threading.Lock()


def endpoint(base_url: str | None, breaker: CircuitBreakerSettings) -> Endpoint:
    url = (base_url or OPENAI_URL).rstrip("/")
    with _lock:
        if url not in _endpoints:
            _endpoints[url] = Endpoint(url, CircuitBreaker(url, breaker))
        return _endpoints[url]


def open_circuits() -> list[str]:
    """The endpoints whose circuit is open now: their turns are answered offline (TurnResult.extra)."""
    with _lock:
        return sorted(url for url, e in _endpoints.items() if e.breaker.is_open)

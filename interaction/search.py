"""Web search for the search agent: Serper (SERPER_API_KEY) or an honest "unavailable"."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

import httpx

log = logging.getLogger("nadine.interaction.search")

SERPER_URL = "https://google.serper.dev/search"
# said to the person: the reason in the setup's terms (no SERPER_API_KEY) goes to the log, not to them
UNAVAILABLE = "I'm sorry, I can't look that up: I have no web search to ask for current facts."


class WebSearch:
    def __init__(self, environ: Mapping[str, str] | None = None, timeout_s: float = 5.0) -> None:
        env = os.environ if environ is None else environ
        self.key = env.get("SERPER_API_KEY") or None
        self.timeout_s = timeout_s
        if self.key is None:
            log.info("web search is off: no SERPER_API_KEY is set")

    def search(self, query: str) -> str:
        if self.key is None:
            return UNAVAILABLE
        try:
            reply = httpx.post(SERPER_URL, json={"q": query}, headers={"X-API-KEY": self.key}, timeout=self.timeout_s)
            reply.raise_for_status()
            data = reply.json()
        except (httpx.HTTPError, ValueError) as exc:
            log.warning("Serper search failed: %s", exc)
            return "The web search failed just now, so I cannot look that up."
        return condense(data) or "The web search found nothing useful."


def condense(data: dict) -> str:
    """The answer box, else the knowledge-graph description, else the top three snippets."""
    box = data.get("answerBox") or {}
    if box.get("answer") or box.get("snippet"):
        return str(box.get("answer") or box.get("snippet"))
    graph = data.get("knowledgeGraph") or {}
    if graph.get("description"):
        return str(graph["description"])
    snippets = [str(o.get("snippet")) for o in (data.get("organic") or [])[:3] if o.get("snippet")]
    return " ".join(snippets)

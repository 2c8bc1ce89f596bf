"""ChromaDB adapter over a TextEmbedder.

Chroma persists the embedding function's name() and get_config() with each collection. The name is
stable ("nadine_text_embedder") and the config names the embedder, so opening a collection that was
made with another function (chroma's own ONNXMiniLM_L6_V2, or our OpenAI embedder) is detected by
`persisted_embedder()` != `embedder_id` and the caller rebuilds it: vectors of two embedders in one
collection would be compared as if they were alike.
"""

from __future__ import annotations

from typing import Any

from chromadb.api.types import Documents, EmbeddingFunction, Embeddings, Space
from chromadb.utils.embedding_functions import register_embedding_function

from common.embedding.base import TextEmbedder

NAME = "nadine_text_embedder"


@register_embedding_function
class NadineEmbeddingFunction(EmbeddingFunction[Documents]):
    def __init__(self, embedder: TextEmbedder | None = None, embedder_id: str | None = None) -> None:
        # chroma rebuilds functions from stored configs (build_from_config) without our settings; such
        # a rebuilt function only identifies a collection and refuses to embed
        self._embedder = embedder
        self.embedder_id = embedder.name if embedder is not None else (embedder_id or "unknown")

    @staticmethod
    def name() -> str:
        return NAME

    def __call__(self, input: Documents) -> Embeddings:
        if self._embedder is None:
            raise RuntimeError(f"embedder {self.embedder_id} is not loaded in this process")
        return list(self._embedder.embed(list(input)))

    def get_config(self) -> dict[str, Any]:
        return {"embedder": self.embedder_id}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> NadineEmbeddingFunction:
        return NadineEmbeddingFunction(embedder_id=str(config.get("embedder", "unknown")))

    def default_space(self) -> Space:
        return "cosine"

    def supported_spaces(self) -> list[Space]:
        return ["cosine"]


def persisted_embedder(configuration_json: dict[str, Any] | None) -> str | None:
    """`<function name>:<embedder>` recorded in a collection's configuration (None if none)."""
    ef = (configuration_json or {}).get("embedding_function") or {}
    if not ef.get("name"):
        return None
    if ef["name"] != NAME:
        return str(ef["name"])
    return f"{NAME}:{(ef.get('config') or {}).get('embedder', 'unknown')}"


def function_id(function: NadineEmbeddingFunction) -> str:
    return f"{NAME}:{function.embedder_id}"

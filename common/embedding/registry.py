"""Config name -> text embedder. The offline MiniLM model is loaded once per process and shared."""

from __future__ import annotations

import functools

from common.config.interaction_settings import InteractionSettings
from common.embedding.base import TextEmbedder
from common.embedding.minilm import MiniLMOnnxEmbedder
from common.embedding.openai_embedder import OpenAIEmbedder


@functools.cache
def offline_text_embedder() -> MiniLMOnnxEmbedder:
    return MiniLMOnnxEmbedder()


def build_text_embedder(settings: InteractionSettings) -> TextEmbedder:
    """The configured retrieval embedder (visual_memory.text_embedder); raises BackendUnavailable."""
    if settings.visual_memory.text_embedder == "openai":
        return OpenAIEmbedder(
            settings.visual_memory.desc_embed_model, settings.llm.base_url, settings.llm.api_key_env
        )
    return offline_text_embedder()


def profile_key(embedder: TextEmbedder) -> str:
    """The embedder_profiles entry that holds this embedder's thresholds."""
    return "openai" if embedder.name.startswith("openai:") else embedder.name

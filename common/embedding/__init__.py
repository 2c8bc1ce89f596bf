"""Text embedder backends (offline MiniLM ONNX, lab OpenAI) and their ChromaDB adapter."""

from common.embedding.base import EmbeddingFailed, TextEmbedder
from common.embedding.registry import build_text_embedder, offline_text_embedder

__all__ = ["EmbeddingFailed", "TextEmbedder", "build_text_embedder", "offline_text_embedder"]

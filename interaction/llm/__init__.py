"""Language-model backends: any OpenAI-compatible endpoint, resolved per agent from the profiles."""

from interaction.llm.base import ChatModel, LlmError, LlmRegistry, parse_json

__all__ = ["ChatModel", "LlmError", "LlmRegistry", "parse_json"]

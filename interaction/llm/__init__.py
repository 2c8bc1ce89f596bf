"""Language-model backends: any OpenAI-compatible endpoint, resolved per agent from the profiles."""

from interaction.llm.budget import Deadline, TurnBudget
from interaction.llm.contracts import ChatModel, LlmError, LlmSkipped, LlmTimeout, LlmUnusable
from interaction.llm.json_answer import parse_json
from interaction.llm.registry import LlmRegistry

__all__ = ["ChatModel", "Deadline", "LlmError", "LlmRegistry", "LlmSkipped", "LlmTimeout", "LlmUnusable",
           "TurnBudget", "parse_json"]

"""A JSON answer validated against a pydantic model, with one repair request when it does not fit."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from interaction.llm.contracts import LlmUnusable

T = TypeVar("T", bound=BaseModel)
_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$", re.IGNORECASE)
MAX_ERROR_CHARS = 400


def parse_json(text: str) -> dict[str, Any]:
    """A JSON object from a model answer (code fences stripped); LlmUnusable when there is none."""
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
        raise LlmUnusable(f"model answer is not a JSON object: {text[:120]!r}")
    return data


def validated(text: str, schema: type[T], prepare: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> T:
    """The answer as `schema`; LlmUnusable (with the reason, for the repair request) when it does not fit."""
    data = parse_json(text)
    try:
        return schema.model_validate(prepare(data) if prepare else data)
    except ValidationError as exc:
        raise LlmUnusable(f"answer does not fit {schema.__name__}: {exc}") from None


def repair_messages(messages: list[dict[str, Any]], answer: str, error: Exception) -> list[dict[str, Any]]:
    """The conversation plus the bad answer and what was wrong with it, asking for the corrected object."""
    return [*messages, {"role": "assistant", "content": answer},
            {"role": "user", "content": f"That answer cannot be used: {str(error)[:MAX_ERROR_CHARS]}\n"
                                        "Reply with only the corrected JSON object."}]

"""Lab backend: OpenAI embeddings (NADINE_DESC_EMBED_MODEL, default text-embedding-3-large) on any
OpenAI-compatible endpoint. Texts leave the machine, so it is never the default."""

from __future__ import annotations

import os

import numpy as np

from common.embedding.base import EmbeddingFailed, l2_normalise
from common.vision.base import BackendUnavailable

TIMEOUT_S = 10.0


class OpenAIEmbedder:
    def __init__(self, model: str, base_url: str | None, api_key_env: str = "OPENAI_API_KEY") -> None:
        self.name = f"openai:{model}"
        self.model = model
        try:
            import openai
        except ImportError:
            raise BackendUnavailable(self.name, "the openai package is missing", ".venv/bin/pip install openai") from None
        key = os.environ.get(api_key_env)
        if not key and base_url is None:
            raise BackendUnavailable(
                self.name, f"{api_key_env} is not set", f"export {api_key_env} or set NADINE_LLM_BASE_URL"
            )
        # a local OpenAI-compatible server (vLLM, Ollama) accepts any key
        self._client = openai.OpenAI(
            api_key=key or "not-needed", base_url=base_url, timeout=TIMEOUT_S, max_retries=1
        )
        self._error = openai.OpenAIError
        self.dim = 0  # known after the first call (3-large: 3072, 3-small: 1536)

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        try:
            response = self._client.embeddings.create(model=self.model, input=[t or " " for t in texts])
        except self._error as exc:
            raise EmbeddingFailed(f"{self.name}: {type(exc).__name__}: {exc}") from exc
        rows = l2_normalise(np.array([d.embedding for d in response.data], dtype=np.float32))
        self.dim = rows.shape[1]
        return rows

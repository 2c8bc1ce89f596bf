"""Text embedders: the offline MiniLM ONNX model, the lab OpenAI backend's errors, the Chroma adapter."""

from __future__ import annotations

import logging
from datetime import datetime

import numpy as np
import pytest

from common.embedding import EmbeddingFailed, build_text_embedder, offline_text_embedder
from common.embedding.chroma import NAME, NadineEmbeddingFunction, function_id, persisted_embedder
from common.embedding.openai_embedder import OpenAIEmbedder
from common.embedding.registry import profile_key
from common.store.scenes import SceneStore
from common.vision.base import BackendUnavailable
from interaction.memory.scene_index import SceneIndex
from tests.interaction.memory_fixtures import PHD, layout_and_clock, make_settings, write_scene
from tests.support import free_port


def test_minilm_gives_normalised_all_minilm_l6_v2_vectors():
    e = offline_text_embedder()
    v = e.embed(["The robot waved at the child in the kitchen.", "A machine greeted a kid near the stove.",
                 "Quarterly tax filings are due next month."])
    assert v.shape == (3, 384) and v.dtype == np.float32 and e.name == "minilm_onnx"
    assert np.allclose(np.linalg.norm(v, axis=1), 1, atol=1e-5)
    assert v[0] @ v[1] == pytest.approx(0.523, abs=0.01) and v[0] @ v[2] == pytest.approx(-0.045, abs=0.01)
    # batching pads to the longest text only; the vectors do not depend on the batch
    assert np.allclose(e.embed(["A machine greeted a kid near the stove."])[0], v[1], atol=1e-4)
    long = e.embed(["word " * 2000, ""])  # truncated to 256 tokens; an empty text still embeds
    assert long.shape == (2, 384) and np.isfinite(long).all()
    assert e.embed([]).shape == (0, 384)


def test_openai_backend_without_key_or_endpoint_says_how_to_fix(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(BackendUnavailable, match="OPENAI_API_KEY is not set.*Fix"):
        OpenAIEmbedder("text-embedding-3-large", None)


def test_openai_backend_failure_is_a_typed_error():
    embedder = OpenAIEmbedder("text-embedding-3-large", f"http://127.0.0.1:{free_port()}/v1")
    assert embedder.name == "openai:text-embedding-3-large" and profile_key(embedder) == "openai"
    with pytest.raises(EmbeddingFailed, match="openai:text-embedding-3-large"):
        embedder.embed(["hello"])


def test_scene_retrieval_falls_back_to_minilm_when_openai_fails(tmp_path, caplog):
    layout, _ = layout_and_clock(tmp_path)
    settings = make_settings(tmp_path, "interaction.visual_memory.text_embedder=openai",
                             f"interaction.llm.base_url=http://127.0.0.1:{free_port()}/v1")
    active = build_text_embedder(settings.interaction)
    assert isinstance(active, OpenAIEmbedder)
    phd = write_scene(layout, "251008_0001", PHD, when=datetime(2026, 11, 1, 14, 0))
    index = SceneIndex(settings, SceneStore(layout), active, offline_text_embedder())
    with caplog.at_level(logging.WARNING):
        hit = index.retrieve("251008_0001", "Do you remember my PhD defense?", is_recall=True)
    assert hit.scene_id == phd.scene_id and hit.injected
    minilm = settings.interaction.visual_memory.embedder_profiles["minilm_onnx"]
    assert hit.threshold == minilm.recall_threshold  # the thresholds of the embedder that answered
    assert "using minilm_onnx" in caplog.text


def test_chroma_adapter_identifies_its_embedder():
    fn = NadineEmbeddingFunction(offline_text_embedder())
    assert NadineEmbeddingFunction.name() == NAME and fn.get_config() == {"embedder": "minilm_onnx"}
    rebuilt = NadineEmbeddingFunction.build_from_config(fn.get_config())
    assert function_id(rebuilt) == function_id(fn) == f"{NAME}:minilm_onnx"
    with pytest.raises(RuntimeError, match="not loaded"):
        rebuilt(["text"])
    config = {"embedding_function": {"type": "known", "name": NAME, "config": {"embedder": "minilm_onnx"}}}
    assert persisted_embedder(config) == function_id(fn)
    assert persisted_embedder({"embedding_function": {"name": "onnx_mini_lm_l6_v2"}}) == "onnx_mini_lm_l6_v2"
    assert persisted_embedder({}) is None
    assert len(fn(["one", "two"])) == 2


def test_minilm_embeds_a_recent_text_once_and_gives_the_same_vector(monkeypatch):
    from common.embedding.minilm import MiniLMOnnxEmbedder

    e = MiniLMOnnxEmbedder()
    batches: list[list[str]] = []
    run = e._embed_batch
    monkeypatch.setattr(e, "_embed_batch", lambda texts: batches.append(list(texts)) or run(texts))
    first = e.embed(["My brother bought a boat.", "It rained.", "My brother bought a boat."])
    assert batches == [["My brother bought a boat.", "It rained."]]  # a text twice in one call: one row
    assert np.array_equal(first[0], first[2])
    again = e.embed(["It rained.", "The cat slept."])
    assert batches[1:] == [["The cat slept."]]  # only the new text reaches the model
    assert np.array_equal(again[0], first[1])
    assert np.allclose(again[1], run(["The cat slept."])[0], atol=1e-6)
    again[0] += 1  # a caller's array is its own: the remembered vector is unchanged
    assert np.array_equal(e.embed(["It rained."])[0], first[1])


def test_minilm_runs_a_long_utterance_apart_from_its_short_clauses(monkeypatch):
    from common.embedding.minilm import RUN_COST_TOKENS, MiniLMOnnxEmbedder, runs_by_length

    e = MiniLMOnnxEmbedder()
    shapes: list[tuple[int, int]] = []

    class Noted:  # the model session, noting the shape of each run
        def __init__(self, inner) -> None:
            self.inner = inner

        def run(self, outputs, feed):
            shapes.append(feed["input_ids"].shape)
            return self.inner.run(outputs, feed)

    texts = ["Last spring I moved to Porto with my two kids, our old dog Rufus and a van full of books.",
             "I moved to Porto", "our old dog", "my two kids"]
    alone = np.vstack([e.embed([t]) for t in texts])
    monkeypatch.setattr(e, "_session", Noted(e._session))
    together = e._embed_batch(texts)
    # the clauses are not padded to the long sentence: two runs, the same vectors as one by one
    assert len(shapes) == 2 and sorted(n for n, _ in shapes) == [1, 3]
    assert np.array_equal(together, alone)
    # the grouping costs least of every way of cutting the length order into runs
    lengths = [40, 3, 38, 5, 4, 12, 11, 39]
    cost = sum(RUN_COST_TOKENS + len(run) * max(lengths[i] for i in run) for run in runs_by_length(lengths))
    order = sorted(lengths)
    cuts = [[k for k, bit in zip(range(1, len(order)), f"{mask:07b}", strict=True) if bit == "1"]
            for mask in range(2 ** (len(order) - 1))]
    least = min(sum(RUN_COST_TOKENS + (b - a) * order[b - 1] for a, b in zip([0, *c], [*c, len(order)], strict=True))
                for c in cuts)
    assert cost == least
    assert sorted(i for run in runs_by_length(lengths) for i in run) == list(range(len(lengths)))

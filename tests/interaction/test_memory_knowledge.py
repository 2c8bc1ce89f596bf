"""Knowledge RAG over rag_files: shipped seed, header-path chunks, rebuild on file or embedder change."""

from __future__ import annotations

import hashlib
import logging

import numpy as np

from common.config.interaction_settings import ChromaSettings
from common.embedding import offline_text_embedder
from common.embedding.chroma import NadineEmbeddingFunction
from interaction.memory.chroma_store import make_client
from interaction.memory.knowledge import COLLECTION, KnowledgeBase, seed_rag_files, split_markdown


class _HashEmbedder:
    """Another embedder (a bag of hashed words), standing in for a model switch."""

    name, dim = "hashed-words", 64

    def embed(self, texts):
        out = np.zeros((len(texts), self.dim), np.float32)
        for i, text in enumerate(texts):
            for word in text.lower().split():
                out[i, int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dim] += 1
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)


def _kb(tmp_path, embedder=None):
    client = make_client(ChromaSettings(), tmp_path / "chroma")
    function = NadineEmbeddingFunction(embedder or offline_text_embedder())
    return KnowledgeBase(client, function, tmp_path / "rag"), client


def test_shipped_knowledge_is_seeded_only_into_an_empty_folder(tmp_path):
    assert [p.name for p in seed_rag_files(tmp_path / "rag")] == ["nadine.md"]
    (tmp_path / "rag" / "nadine.md").write_text("# Mine\nLab notes.")
    assert seed_rag_files(tmp_path / "rag") == []
    assert (tmp_path / "rag" / "nadine.md").read_text() == "# Mine\nLab notes."


def test_chunks_carry_their_header_path():
    chunks = split_markdown("# Nadine\nIntro.\n## Who created Nadine\nA team.\n### Detail\nMore.", "n.md")
    assert [c[0] for c in chunks] == ["Nadine\nIntro.", "Nadine > Who created Nadine\nA team.\n### Detail\nMore."]
    assert chunks[1][1] == {"source": "n.md", "headers": "Nadine > Who created Nadine"}


def test_who_created_you_returns_the_nadine_chunk_and_k_is_three(tmp_path):
    seed_rag_files(tmp_path / "rag")
    kb, _ = _kb(tmp_path)
    chunks = kb.query("Who created you?")
    assert len(chunks) == 3 and chunks[0].startswith("Nadine > Who created Nadine")


def test_index_is_rebuilt_when_files_change(tmp_path):
    seed_rag_files(tmp_path / "rag")
    kb, _ = _kb(tmp_path)
    assert "Geneva" not in kb.answer("Where is the lab?")
    (tmp_path / "rag" / "lab.md").write_text("# The lab\n## Where the lab is\nThe lab is in Geneva, Switzerland.")
    assert kb.query("Where is the lab?")[0].startswith("The lab > Where the lab is")
    # a new process sees the same files: the persisted index is reused (same hash)
    again, _ = _kb(tmp_path)
    assert again.query("Where is the lab?")[0].startswith("The lab > Where the lab is")


def test_index_is_rebuilt_when_the_embedder_changes(tmp_path, caplog):
    seed_rag_files(tmp_path / "rag")
    other, client = _kb(tmp_path, _HashEmbedder())
    assert other.query("Who created Nadine?")
    kb, client = _kb(tmp_path)
    assert kb.query("Who created you?")[0].startswith("Nadine > Who created Nadine")
    stored = client.get_collection(COLLECTION, embedding_function=None).configuration_json
    assert stored["embedding_function"]["config"]["embedder"] == "minilm_onnx"
    assert "rebuilt" in caplog.text


def test_no_files_no_knowledge(tmp_path):
    kb, _ = _kb(tmp_path)
    assert kb.answer("Who created you?") is None


def test_prepare_builds_the_index_before_the_first_question(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    seed_rag_files(tmp_path / "rag")
    kb, client = _kb(tmp_path)
    kb.prepare()
    assert client.get_collection(COLLECTION, embedding_function=None).count() > 0 and "rebuilt" in caplog.text
    caplog.clear()
    assert kb.query("Who created you?")[0].startswith("Nadine > Who created Nadine")
    assert "rebuilt" not in caplog.text  # the question found it ready
    empty, _ = _kb(tmp_path / "none")
    empty.prepare()  # no knowledge files: nothing to build, no error
    assert empty.answer("Who created you?") is None

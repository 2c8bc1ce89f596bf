"""Knowledge RAG over <data>/knowledge/rag_files (what Nadine knows of herself and her world):
markdown split on # and ##, each chunk prefixed by its header path, k = 3, Chroma collection
"nadine-knowledge" in <data>/knowledge/chroma. The collection records the files' hash and the
embedder; a change of either rebuilds it (the original needed the folder deleted by hand)."""

from __future__ import annotations

import hashlib
import logging
import re
import shutil
import threading
from pathlib import Path

from chromadb.api import ClientAPI
from chromadb.api.models.Collection import Collection
from langchain_text_splitters import MarkdownHeaderTextSplitter

from common.embedding.base import EmbeddingFailed
from common.embedding.chroma import NadineEmbeddingFunction
from interaction.memory.chroma_store import open_collection
from interaction.offline.question_form import YOU, YOUR

log = logging.getLogger("nadine.memory.knowledge")

COLLECTION = "nadine-knowledge"
TOP_K = 3
SUFFIXES = {".md", ".markdown", ".txt"}
SHIPPED = Path(__file__).resolve().parents[1] / "knowledge"
_HEADERS = [("#", "h1"), ("##", "h2")]
CANDIDATES = 20  # chunks fetched per query form before the two are averaged
# "you" as typed in full or in a chat ("r u a robot", "whats ur name")
_SECOND_PERSON = [(re.compile(rf"\b(?:{'|'.join(YOUR)})\b", re.I), "Nadine's"),
                  (re.compile(rf"\b(?:{'|'.join(YOU)})\b", re.I), "Nadine")]


def about_nadine(question: str) -> str:
    """The question as one about Nadine, whom it addresses ("who built you?" -> "who built Nadine?")."""
    for pattern, name in _SECOND_PERSON:
        question = pattern.sub(name, question)
    return question


def seed_rag_files(rag_dir: Path) -> list[Path]:
    """Copy the shipped knowledge (interaction/knowledge/*.md) into a missing or empty rag_files/."""
    rag_dir.mkdir(parents=True, exist_ok=True)
    if any(p.is_file() for p in rag_dir.iterdir()):
        return []
    copied = []
    for src in sorted(SHIPPED.glob("*.md")):
        shutil.copyfile(src, rag_dir / src.name)
        copied.append(rag_dir / src.name)
    log.info("knowledge: seeded %s with %d shipped file(s)", rag_dir, len(copied))
    return copied


def knowledge_files(rag_dir: Path) -> list[Path]:
    if not rag_dir.is_dir():
        return []
    return sorted(p for p in rag_dir.iterdir() if p.is_file() and p.suffix.lower() in SUFFIXES)


def files_hash(files: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def split_markdown(text: str, source: str) -> list[tuple[str, dict[str, str]]]:
    """(chunk text with its header path on the first line, metadata) for one file."""
    splitter = MarkdownHeaderTextSplitter(headers_to_split_on=_HEADERS)
    chunks = []
    for doc in splitter.split_text(text):
        path = " > ".join(doc.metadata[k] for _, k in _HEADERS if doc.metadata.get(k))
        body = doc.page_content.strip()
        if body:
            chunks.append((f"{path}\n{body}" if path else body, {"source": source, "headers": path}))
    return chunks


class KnowledgeBase:
    def __init__(self, client: ClientAPI, function: NadineEmbeddingFunction, rag_dir: Path) -> None:
        self._client = client
        self._function = function
        self._rag_dir = rag_dir
        self._collection: Collection | None = None
        self._signature: tuple | None = None
        self._lock = threading.Lock()

    def _signature_now(self, files: list[Path]) -> tuple:
        return tuple((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in files)

    def _ensure(self) -> Collection | None:
        files = knowledge_files(self._rag_dir)
        signature = self._signature_now(files)
        if self._collection is not None and signature == self._signature:
            return self._collection
        if not files:
            self._collection, self._signature = None, signature
            return None
        digest = files_hash(files)
        meta = {"files_hash": digest}
        collection = open_collection(self._client, COLLECTION, self._function, metadata=meta)
        assert collection is not None
        if (collection.metadata or {}).get("files_hash") != digest or collection.count() == 0:
            collection = self._rebuild(files, meta)
        self._collection, self._signature = collection, signature
        return collection

    def _rebuild(self, files: list[Path], meta: dict[str, str]) -> Collection:
        self._client.delete_collection(COLLECTION)
        collection = open_collection(self._client, COLLECTION, self._function, metadata=meta)
        assert collection is not None
        texts, metas = [], []
        for path in files:
            for text, m in split_markdown(path.read_text(encoding="utf-8", errors="replace"), path.name):
                texts.append(text)
                metas.append(m)
        if texts:
            collection.add(ids=[f"chunk-{i:05d}" for i in range(len(texts))], documents=texts, metadatas=metas)
        log.info("knowledge index rebuilt: %d chunks from %d file(s)", len(texts), len(files))
        return collection

    def prepare(self) -> None:
        """Open the index (building it when the knowledge files changed) before the first question."""
        with self._lock:
            try:
                self._ensure()
            except EmbeddingFailed as exc:
                log.warning("knowledge index not prepared: %s", exc)

    def query(self, text: str, k: int = TOP_K) -> list[str]:
        """The k chunks nearest to the question, best first."""
        return [chunk for chunk, _ in self.scored(text, k)]

    def scored(self, text: str, k: int = TOP_K) -> list[tuple[str, float]]:
        """(chunk, similarity to the question) for the k nearest chunks, best first. The similarity is
        the mean cosine of the question as asked and as a question about Nadine ("how old are you?"
        -> "how old are Nadine?"): the knowledge speaks of Nadine in the third person, people ask her
        in the second (scripts/eval/knowledge_relevance measured the mean to separate questions the
        knowledge answers from the rest best)."""
        if not text.strip():
            return []
        with self._lock:
            try:
                collection = self._ensure()
                if collection is None:
                    return []
                n = min(max(k, CANDIDATES), collection.count())
                res = collection.query(query_texts=[text, about_nadine(text)], n_results=n,
                                       include=["documents", "distances"])
            except EmbeddingFailed as exc:
                log.warning("knowledge retrieval skipped: %s", exc)
                return []
        # the collection's space is cosine: similarity = 1 - distance; a chunk one query did not
        # return counts with that query's lowest similarity
        per_query = [dict(zip(docs, (1.0 - float(d) for d in dists), strict=True))
                     for docs, dists in zip(res["documents"], res["distances"], strict=True)]
        chunks = {c for found in per_query for c in found if c}
        mean = {c: sum(found.get(c, min(found.values())) for found in per_query) / len(per_query) for c in chunks}
        return sorted(mean.items(), key=lambda item: -item[1])[:k]

    def relevant(self, text: str, threshold: float, k: int = TOP_K) -> str | None:
        """The chunks at least `threshold` similar to the question, best first (None: the knowledge
        does not answer it, and Nadine says she does not know rather than read an unrelated chunk)."""
        chunks = [chunk for chunk, similarity in self.scored(text, k) if similarity >= threshold]
        return "\n\n".join(chunks) if chunks else None

    def answer(self, text: str) -> str | None:
        """The chunks flattened to one text for the prompt, or None."""
        chunks = self.query(text)
        return "\n\n".join(chunks) if chunks else None

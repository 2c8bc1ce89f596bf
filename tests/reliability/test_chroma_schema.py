"""Forget writes into Chroma's private SQLite tables (common/store/forget.py: purge_chroma_remnants,
purge_chroma_documents; scripts/memory.py: user_is_known). Those tables are no public API: a chromadb
release may rename or reshape them, and forget would then leave a forgotten person's words on disk
without an error. This test opens a real embedded Chroma with interaction's own client and checks the
tables, columns and meanings forget relies on, and that the installed chromadb is the pinned one."""

from __future__ import annotations

import re
import sqlite3
import tomllib
from contextlib import closing
from importlib.metadata import version

import numpy as np

from common.config.interaction_settings import ChromaSettings
from common.store.forget import purge_chroma_documents, purge_chroma_remnants
from interaction.memory.chroma_store import make_client
from tests.support import PROJECT_ROOT

# table -> {column: declared type} of exactly what forget reads or writes
RELIED_ON = {
    "collections": {"id": "TEXT", "name": "TEXT"},  # user_is_known: a collection by name
    "segments": {"id": "TEXT"},  # purge_chroma_remnants: HNSW folders are named by segment id
    # purge_chroma_documents: a document's record in Chroma's log (its text in metadata) by topic + id
    "embeddings_queue": {"topic": "TEXT", "id": "TEXT", "vector": "BLOB", "metadata": "TEXT"},
}
TEXT = "the spare key is under the blue flower pot"
DOCS = 3  # few: Chroma's log keeps every record until a flush (past some hundreds) purges it


def _reverify(detail: str) -> str:
    return (f"chromadb {version('chromadb')}: {detail}. Forget writes into these private tables "
            "(common/store/forget.py purge_chroma_remnants and purge_chroma_documents, scripts/memory.py "
            "user_is_known). After a chromadb upgrade re-verify that a forgotten person's documents leave no "
            "byte in chroma.sqlite3 or the HNSW folders (tests/reliability/test_forget_*.py), adapt the "
            "purge code, then update RELIED_ON here and the chromadb pin in pyproject.toml.")


def _pinned_chromadb() -> str:
    deps = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    (pin,) = [d for d in deps if re.match(r"chromadb\b", d)]
    return pin


def test_chromadb_is_the_pinned_version():
    pin = _pinned_chromadb()
    assert pin == f"chromadb=={version('chromadb')}", _reverify(f"pyproject.toml says {pin!r}")


def test_the_tables_forget_writes_to_are_as_it_expects(tmp_path):
    client = make_client(ChromaSettings(), tmp_path)
    collection = client.create_collection("260101_0001", embedding_function=None)
    vectors = np.random.default_rng(3).normal(size=(DOCS, 384)).astype(np.float32)
    ids = ["explicit_1", *(f"filler_{i}" for i in range(1, DOCS))]
    texts = [TEXT, *(f"filler document {i}" for i in range(1, DOCS))]
    collection.add(ids=ids, documents=texts, embeddings=vectors.tolist())
    db = tmp_path / "chroma.sqlite3"
    assert db.is_file(), _reverify("an embedded client no longer writes chroma.sqlite3 in its folder")

    with closing(sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)) as con:
        for table, columns in RELIED_ON.items():
            found = {row[1]: row[2].upper() for row in con.execute(f"PRAGMA table_info({table})")}
            missing = {c: kind for c, kind in columns.items() if found.get(c) != kind}
            assert not missing, _reverify(f"table {table} lacks {missing} (it has {found or 'no columns: gone'})")
        assert con.execute("SELECT id FROM collections WHERE name = ?", ("260101_0001",)).fetchone() == \
            (str(collection.id),), _reverify("collections.name no longer holds the collection's name")
        rows = con.execute("SELECT topic, vector, metadata FROM embeddings_queue WHERE id = ?",
                           ("explicit_1",)).fetchall()
        assert rows, _reverify("embeddings_queue.id no longer holds the document id")
        topic, vector, metadata = rows[0]
        assert topic.endswith(str(collection.id)), _reverify(f"embeddings_queue.topic {topic!r} no longer "
                                                             "ends with the collection id")
        assert TEXT in (metadata or ""), _reverify("the document text is no longer in embeddings_queue.metadata")
        assert vector == vectors[0].tobytes(), _reverify("embeddings_queue.vector is no longer the float32 vector")
        segments = {row[0] for row in con.execute("SELECT id FROM segments")}
    folders = {p.name for p in tmp_path.iterdir() if p.is_dir()}
    assert folders and folders <= segments, _reverify(
        f"the HNSW folders {sorted(folders)} are not named by segment ids {sorted(segments)}")

    # and the purges still reach the document: after forget-one no byte of its text is left on disk,
    # after forget-person none of its vector either
    collection.delete(ids=["explicit_1"])
    assert purge_chroma_documents(tmp_path, str(collection.id), ["explicit_1"]) >= 1, \
        _reverify("purge_chroma_documents found no record of the deleted document")
    assert _holding(tmp_path, TEXT.encode()) == [], _reverify("a forgotten document's text stayed on disk")
    client.delete_collection("260101_0001")
    assert purge_chroma_remnants(tmp_path) == len(folders), _reverify("the deleted collection's folders stayed")
    assert _holding(tmp_path, vectors[0].tobytes()) == [], _reverify("a forgotten person's vector stayed on disk")


def _holding(folder, needle: bytes) -> list[str]:
    return [str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and needle in p.read_bytes()]

"""ChromaDB access shared by episodic memory and knowledge RAG: client choice and collections that
rebuild themselves when they were made with another embedding function."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import chromadb
from chromadb.api import ClientAPI
from chromadb.api.models.Collection import Collection
from chromadb.config import Settings
from chromadb.errors import NotFoundError

from common.config import NadineSettings
from common.config.interaction_settings import ChromaSettings
from common.embedding.chroma import NadineEmbeddingFunction, function_id, persisted_embedder
from common.store.freed_memory import overwrite_freed_memory
from common.store.layout import DataLayout

log = logging.getLogger("nadine.memory.chroma")

_CHROMA_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{1,510}[A-Za-z0-9]$")


def _cosine() -> dict[str, Any]:
    """A fresh configuration each time: chroma writes the embedding function into the dict it gets."""
    return {"hnsw": {"space": "cosine"}}


def robot_database(robot_id: str | None) -> str | None:
    """The Chroma database of one robot of a fleet on a shared server (None: the default database)."""
    return f"nadine-{robot_id}" if robot_id else None


def make_client(settings: ChromaSettings, path: Path, database: str | None = None) -> ClientAPI:
    """Embedded (PersistentClient at `path`) or a `chroma run` server (settings.host/port), there in
    `database` (created on first use) when robots share the server."""
    chroma_settings = Settings(anonymized_telemetry=False)
    if settings.mode == "http":
        if database is None:
            return chromadb.HttpClient(host=settings.host, port=settings.port, settings=chroma_settings)
        admin = chromadb.AdminClient(Settings(
            anonymized_telemetry=False, chroma_api_impl="chromadb.api.fastapi.FastAPI",
            chroma_server_host=settings.host, chroma_server_http_port=settings.port))
        try:
            admin.get_database(database)
        except NotFoundError:
            admin.create_database(database)
        return chromadb.HttpClient(host=settings.host, port=settings.port, settings=chroma_settings,
                                   database=database)
    path.mkdir(parents=True, exist_ok=True)
    overwrite_freed_memory()  # before this process's Chroma writes any index file
    return chromadb.PersistentClient(path=str(path), settings=chroma_settings)


def episodic_client(settings: NadineSettings, layout: DataLayout) -> ClientAPI:
    """The episodic store's client: the data root's Chroma folder, or this robot's database on a server."""
    return make_client(settings.interaction.chroma, layout.chroma_dir, robot_database(settings.common.robot_id))


def episodic_persist_dir(settings: ChromaSettings, local: Path) -> Path | None:
    """Where the episodic documents lie on disk, for the purge after a forget: the local folder, the
    server's folder when configured, else None (a remote server keeps deleted rows until it vacuums)."""
    if settings.mode == "embedded":
        return local
    if settings.server_persist_dir is None:
        log.warning("chroma server at %s:%d: set interaction.chroma.server_persist_dir so a forget also "
                    "vacuums its files; until then deleted rows linger in its free pages", settings.host, settings.port)
    return settings.server_persist_dir


def collection_name(user_id: str) -> str:
    """The reference names a user's collection by the user id; ids chroma refuses (too short, or
    starting with _ / -) get a prefix and suffix that valid chroma names from ids never carry."""
    return user_id if _CHROMA_NAME.match(user_id) else f"nadine-user-{user_id}-x"


def open_collection(
    client: ClientAPI, name: str, function: NadineEmbeddingFunction, *, create: bool = True,
    metadata: dict[str, Any] | None = None,
) -> Collection | None:
    """The collection embedded by `function`; a collection made by another function is re-embedded
    with this one (documents and metadata kept). None when it does not exist and create is False."""
    try:
        collection = client.get_collection(name, embedding_function=function)
    except NotFoundError:
        if not create:
            return None
        return client.create_collection(name, embedding_function=function, configuration=_cosine(), metadata=metadata)
    except ValueError:  # chroma's "embedding function conflict"
        collection = None
    if collection is not None and persisted_embedder(collection.configuration_json) == function_id(function):
        return collection
    return _rebuild(client, name, function, metadata)


def _rebuild(
    client: ClientAPI, name: str, function: NadineEmbeddingFunction, metadata: dict[str, Any] | None
) -> Collection:
    old = client.get_collection(name, embedding_function=None)
    before = persisted_embedder(old.configuration_json)
    docs = old.get(include=["documents", "metadatas"])
    client.delete_collection(name)
    fresh = client.create_collection(
        name, embedding_function=function, configuration=_cosine(), metadata=metadata or old.metadata
    )
    ids, texts, metas = docs["ids"], docs["documents"] or [], docs["metadatas"] or []
    if ids:
        # chroma refuses empty metadata dicts
        metas = [m or {"rebuilt_from": str(before)} for m in metas] or [{"rebuilt_from": str(before)}] * len(ids)
        fresh.add(ids=ids, documents=[t or "" for t in texts], metadatas=metas)
    log.warning(
        "collection %s was made with %s; rebuilt with %s (%d documents re-embedded)",
        name, before, function_id(function), len(ids),
    )
    return fresh

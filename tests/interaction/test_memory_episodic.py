"""Episodic + conversation memory in a real ChromaDB: embedded, and through a `chroma run` server."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import urllib.request
from datetime import datetime, timedelta
from pathlib import Path

import chromadb
import numpy as np
import pytest
from chromadb.config import Settings
from chromadb.utils.embedding_functions import ONNXMiniLM_L6_V2

from common.clock import Clock
from common.config.interaction_settings import ChromaSettings
from common.embedding import offline_text_embedder
from common.embedding.chroma import NadineEmbeddingFunction, function_id, persisted_embedder
from interaction.memory.chroma_store import collection_name, make_client
from interaction.memory.contracts import EpisodicSave, TranscriptTurn
from interaction.memory.episodic import EpisodicMemory
from tests.support import free_port

MAYA, TOM = "251008_0001", "251008_0002"
NOW = datetime(2026, 11, 1, 14, 0)

PHD_SESSION = (
    [TranscriptTurn("user", "Hello! My name is Maya.", NOW),
     TranscriptTurn("nadine", "Nice to meet you, Maya!", NOW),
     TranscriptTurn("user", "I just defended my PhD thesis today, I'm so happy!", NOW),
     TranscriptTurn("nadine", "Congratulations, doctor!", NOW)],
    EpisodicSave(observation="Maya defended her PhD thesis in biology today.", thought="She is proud and happy.",
                 action="Nadine congratulated her.", result="Maya is now Dr. Maya; she celebrates tonight."),
)
GARDEN_SESSION = (
    [TranscriptTurn("user", "I planted tomatoes in my garden this weekend.", NOW)],
    EpisodicSave(observation="Maya planted tomatoes and basil in her garden.", thought="She enjoys gardening.",
                 action="Nadine asked about the plants.", result="Maya will bring a tomato next time."),
)


def _memory(client, root: Path) -> tuple[EpisodicMemory, Clock]:
    clock = Clock(root / "runtime")
    return EpisodicMemory(client, NadineEmbeddingFunction(offline_text_embedder()), clock), clock


def _round_trip(memory: EpisodicMemory, clock: Clock) -> None:
    assert memory.save(MAYA, "Maya", *PHD_SESSION)
    clock.advance(48)
    assert memory.save(MAYA, "Maya", *GARDEN_SESSION)
    episode, conversation = memory.best(MAYA, "How did your thesis defense go?")
    assert "PhD thesis" in episode.text and episode.memory_type == "episode"
    assert "defended my PhD" in conversation.text and conversation.memory_type == "conversation"
    garden, _ = memory.best(MAYA, "How are your tomatoes doing?")
    assert "tomatoes" in garden.text
    # timestamps come from the shared clock, which the script moved 48 h forward between sessions
    assert datetime.fromisoformat(garden.timestamp) - datetime.fromisoformat(episode.timestamp) >= timedelta(hours=47.9)
    assert memory.best(TOM, "How did your thesis defense go?") == (None, None)


def test_save_and_query_embedded(tmp_path):
    memory, clock = _memory(make_client(ChromaSettings(), tmp_path / "chroma"), tmp_path)
    _round_trip(memory, clock)
    assert memory.forget(MAYA) == 4
    assert memory.best(MAYA, "thesis") == (None, None)


@pytest.mark.parametrize("user_id,user_name", [
    (MAYA, "Unknown"), (MAYA, ""), (MAYA, "  unknown "), ("../etc", "Maya"), ("", "Maya"), (None, "Maya"),
])
def test_unknown_users_are_never_saved(tmp_path, user_id, user_name):
    client = make_client(ChromaSettings(), tmp_path / "chroma")
    memory, _ = _memory(client, tmp_path)
    assert not memory.save(user_id, user_name, *PHD_SESSION)
    assert client.list_collections() == []


def test_a_collection_made_with_another_embedding_function_is_rebuilt(tmp_path, caplog):
    client = make_client(ChromaSettings(), tmp_path / "chroma")
    # as the original left it: chroma's own ONNX MiniLM function (here with vectors given directly,
    # since that function would download its model)
    old = client.create_collection(collection_name(MAYA), embedding_function=ONNXMiniLM_L6_V2())
    old.add(ids=["legacy-episode"], documents=["Maya told Nadine about her trip to Japan."],
            embeddings=[np.random.default_rng(0).random(384).tolist()],
            metadatas=[{"user_id": MAYA, "timestamp": "2026-01-01T10:00:00", "memory_type": "episode"}])
    memory, _ = _memory(client, tmp_path)
    episode, _ = memory.best(MAYA, "Do you remember my trip to Japan?")
    assert episode is not None and "Japan" in episode.text and episode.similarity > 0.3
    fresh = client.get_collection(collection_name(MAYA), embedding_function=None)
    assert persisted_embedder(fresh.configuration_json) == function_id(memory._function)
    assert "rebuilt" in caplog.text and "1 documents re-embedded" in caplog.text
    assert memory.save(MAYA, "Maya", *PHD_SESSION)


def test_chroma_ids_that_chroma_refuses_still_get_a_collection(tmp_path):
    memory, _ = _memory(make_client(ChromaSettings(), tmp_path / "chroma"), tmp_path)
    assert memory.save("a", "Ann", *GARDEN_SESSION) and memory.save("_x", "Xu", *PHD_SESSION)
    assert "tomatoes" in memory.best("a", "tomatoes")[0].text
    assert memory.best("_x", "tomatoes")[0].text.startswith("Observation: Maya defended")


@pytest.fixture
def chroma_server(tmp_path):
    binary = Path(sys.executable).parent / "chroma"
    if not binary.exists():
        binary = Path(shutil.which("chroma") or binary)
    port = free_port()
    log = open(tmp_path / "chroma-server.log", "wb")
    proc = subprocess.Popen(
        [str(binary), "run", "--host", "127.0.0.1", "--port", str(port), "--path", str(tmp_path / "server")],
        stdout=log, stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=0.5)
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"chroma run did not come up: {(tmp_path / 'chroma-server.log').read_text()[-500:]}")
            time.sleep(0.1)
    yield port
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def test_save_and_query_through_a_chroma_server(tmp_path, chroma_server):
    settings = ChromaSettings(mode="http", host="127.0.0.1", port=chroma_server)
    memory, clock = _memory(make_client(settings, tmp_path / "unused"), tmp_path)
    _round_trip(memory, clock)
    # the documents live in the server: a second client sees them
    other = chromadb.HttpClient(host="127.0.0.1", port=chroma_server, settings=Settings(anonymized_telemetry=False))
    assert other.get_collection(collection_name(MAYA), embedding_function=None).count() == 4
    assert not (tmp_path / "unused").exists()

from __future__ import annotations

import gc
import logging
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from scripts.shared_data import shared_data_dir
from tests.support import Broker, NadineProcess, make_bus, unique_root


@pytest.fixture(scope="session")
def broker() -> Iterator[Broker]:
    """One real Mosquitto for the session; tests isolate themselves with a unique topic root."""
    b = Broker().start()
    yield b
    b.stop()


@pytest.fixture(autouse=True, scope="module")
def _release_chroma_systems() -> Iterator[None]:
    """Chroma keeps one system (SQLite connections, HNSW files, worker threads) per data root in a
    class-level cache for the life of the process. A process has one data root; this test session
    makes hundreds, and past 1,024 open descriptors paho's select() can no longer watch a new MQTT
    socket, so every later broker test fails. Stop the systems each test module opened."""
    yield
    from chromadb.api.shared_system_client import SharedSystemClient

    for system in list(SharedSystemClient._identifier_to_system.values()):
        try:
            system.stop()
        except Exception:  # a system a test already stopped, or half-started: nothing left to release
            pass
    SharedSystemClient.clear_system_cache()
    gc.collect()


@pytest.fixture(autouse=True, scope="module")
def _stop_leftover_processes() -> Iterator[None]:
    """A process a test module started and did not stop (its test failed before the cleanup) is stopped
    when the module ends: left running it holds ~600 MB and slows every later test."""
    yield
    NadineProcess.stop_all()


@pytest.fixture(autouse=True)
def _fresh_llm_endpoints(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a process learned about an LLM endpoint (its circuit breaker, refused features) is kept per
    URL for the life of the process. A test's stand-in server takes a free port that a later test's
    server may be given again; each test starts knowing no endpoint, so it never meets the breaker,
    cool-down or open circuit of an earlier test's server."""
    from interaction.llm import endpoints

    monkeypatch.setattr(endpoints, "_endpoints", {})


class _Failures(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def _no_turn_fails_unseen(request: pytest.FixtureRequest) -> Iterator[None]:
    """The product answers a turn whose graph raised with a safe reply: a test that reads only the
    reply would pass over the bug. A test fails on one unless it is marked graph_fails."""
    handler = _Failures()
    dm_log = logging.getLogger("nadine.interaction.dm")
    dm_log.addHandler(handler)
    yield
    dm_log.removeHandler(handler)
    failed = [r for r in handler.records if r.getMessage().startswith("turn graph failed")]
    if failed and request.node.get_closest_marker("graph_fails") is None:
        pytest.fail(f"a turn's graph raised: {failed[0].exc_info[1]!r}" if failed[0].exc_info else "a turn's graph raised")


@pytest.fixture
def root() -> str:
    return unique_root()


@pytest.fixture
def bus_factory(broker: Broker, root: str):
    made = []

    def make(name: str = "tester"):
        bus = make_bus(name, broker, root)
        made.append(bus)
        return bus

    yield make
    for bus in made:
        bus.stop()


def _shared_data_present() -> bool:
    return (shared_data_dir() / "faces" / "MANIFEST.csv").exists()


def pytest_collection_modifyitems(config, items) -> None:
    """Tests that need ../shared/data are skipped with a reason on a user's machine; in CI they run
    and fail (the fixture below) when the data is missing."""
    if _shared_data_present() or os.environ.get("CI"):
        return
    missing = pytest.mark.skip(reason=f"shared test data not found at {shared_data_dir()} (set NADINE_SHARED_DATA)")
    for item in items:
        if "shared_data" in getattr(item, "fixturenames", ()):
            item.add_marker(missing)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not _shared_data_present():
        pytest.fail(f"shared test data missing at {shared_data_dir()} (required in CI)")
    return shared_data_dir()

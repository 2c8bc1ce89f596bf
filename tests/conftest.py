from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import SHARED_DATA, Broker, make_bus, unique_root


@pytest.fixture(scope="session")
def broker() -> Iterator[Broker]:
    """One real Mosquitto for the session; tests isolate themselves with a unique topic root."""
    b = Broker().start()
    yield b
    b.stop()


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


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """../shared/data: skipped with a reason on a user's machine, required in CI."""
    if not (SHARED_DATA / "faces" / "MANIFEST.csv").exists():
        if os.environ.get("CI"):
            pytest.fail(f"shared test data missing at {SHARED_DATA} (required in CI)")
        pytest.skip(f"shared test data not found at {SHARED_DATA} (set NADINE_SHARED_DATA)")
    return SHARED_DATA

from __future__ import annotations

import pytest

from common.bus import Bus


@pytest.fixture
def buses():
    """Buses a test connects (to a secured broker); stopped afterwards."""
    made: list[Bus] = []
    yield made
    for bus in made:
        bus.stop()

"""A robot id namespaces the user ids a robot mints; without one (a single robot) nothing changes."""

from __future__ import annotations

from datetime import datetime

import pytest

from common.config import ConfigError, load_settings
from common.store import DataLayout, ProfileStore

NOW = datetime(2026, 3, 1, 10, 0)


def test_robots_mint_ids_in_their_own_namespace(tmp_path):
    r1 = ProfileStore(DataLayout(tmp_path / "r1", "r1"))
    r2 = ProfileStore(DataLayout(tmp_path / "r2", "r2"))
    assert [r1.mint_user_id("Maya", NOW), r1.mint_user_id("Bob", NOW)] == ["r1-260301_0001", "r1-260301_0002"]
    assert r2.mint_user_id("Ana", NOW) == "r2-260301_0001"  # the same day and number, another robot's person


def test_a_single_robot_data_root_loads_and_mints_as_before(tmp_path):
    legacy = ProfileStore(DataLayout(tmp_path))
    old = legacy.mint_user_id("Maya", NOW)
    legacy.update(old, {"user_name": "Maya", "location": "Geneva"}, NOW)
    assert old == "260301_0001" and legacy.mint_user_id("Bob", NOW) == "260301_0002"
    # the same root, now one robot of a fleet: its people are still there, new ones get the robot's ids
    fleet = ProfileStore(DataLayout(tmp_path, "r7"))
    assert fleet.load(old).location == "Geneva" and fleet.user_ids()[old] == "Maya"
    assert fleet.mint_user_id("Ana", NOW) == "r7-260301_0001"


@pytest.mark.parametrize("bad", ["R7", "robot 7", "-r7", "r7/x", "r" * 33, "r_7"])
def test_a_bad_robot_id_stops_start_up(bad):
    with pytest.raises(ConfigError, match="robot_id"):
        load_settings(environ={"NADINE_ROBOT_ID": bad})

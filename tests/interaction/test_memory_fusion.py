"""The paper's Algorithm 1 on fixed scores."""

from __future__ import annotations

import numpy as np
import pytest

from interaction.memory.fusion import fuse, zscore


def test_zscore_normalises_within_a_pool():
    z = zscore(np.array([1.0, 2.0, 3.0]), 1e-6)
    assert z.mean() == pytest.approx(0) and z.std() == pytest.approx(1, abs=1e-5)


def test_episode_wins_and_picks_the_scene_nearest_in_time():
    # episode 1 stands out of its pool (z ~ 1.41); the scenes are close together (best z ~ 1.22)
    pick = fuse(np.array([0.1, 0.9, 0.1]), np.array([100.0, 200.0, 300.0]),
                np.array([0.50, 0.55, 0.52]), np.array([90.0, 310.0, 205.0]))
    assert pick.primary == "episode" and pick.episode == 1 and pick.scene == 2
    assert pick.z_episode > pick.z_scene


def test_scene_wins_and_picks_the_episode_nearest_in_time():
    pick = fuse(np.array([0.4, 0.5, 0.45, 0.5]), np.array([0.0, 1000.0, 2000.0, 3000.0]),
                np.array([0.1, 0.1, 0.1, 0.9]), np.array([0.0, 500.0, 900.0, 2100.0]))
    assert pick.primary == "scene" and pick.scene == 3 and pick.episode == 2


def test_ties_go_to_the_scene_and_empty_pools_leave_their_side_empty():
    tie = fuse(np.array([0.3]), np.array([10.0]), np.array([0.7]), np.array([50.0]))
    assert tie.primary == "scene" and tie.scene == 0 and tie.episode == 0  # one-item pools both z = 0
    only_episodes = fuse(np.array([0.2, 0.6]), np.array([1.0, 2.0]), np.zeros(0), np.zeros(0))
    assert only_episodes.primary == "episode" and only_episodes.episode == 1 and only_episodes.scene is None
    only_scenes = fuse(np.zeros(0), np.zeros(0), np.array([0.2, 0.6]), np.array([1.0, 2.0]))
    assert only_scenes.primary == "scene" and only_scenes.scene == 1 and only_scenes.episode is None
    nothing = fuse(np.zeros(0), np.zeros(0), np.zeros(0), np.zeros(0))
    assert nothing.primary is None and nothing.episode is None and nothing.scene is None

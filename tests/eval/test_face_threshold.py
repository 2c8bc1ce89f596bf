"""The face threshold tool chooses on one part of the identities and reports on the other."""

from __future__ import annotations

import numpy as np

from scripts.eval.face_threshold import Photo, evaluate, split_identities


def _unit(*xs: float) -> np.ndarray:
    v = np.asarray(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_identities_split_without_overlap():
    one, two = split_identities({"a", "b", "c", "d", "e"})
    assert one == {"a", "c", "e"} and two == {"b", "d"} and not one & two


def test_held_out_part_reports_what_the_chosen_part_could_not_see():
    # part 1 (a, c) is well separated; in part 2 (b, d) two different people look alike
    photos = [
        Photo("a1", "a", _unit(1, 0, 0)), Photo("a2", "a", _unit(1, 0.05, 0)),
        Photo("c1", "c", _unit(0, 1, 0)), Photo("c2", "c", _unit(0.05, 1, 0)),
        Photo("b1", "b", _unit(0, 0, 1)), Photo("b2", "b", _unit(0, 0.02, 1)),
        Photo("d1", "d", _unit(0, 0.01, 1)),
    ]
    result = evaluate(photos, configured=0.9, max_far=0.0)
    first, second = result["folds"]
    assert (first["chosen_on"], first["reported_on"]) == ("part 1", "part 2")
    assert first["chosen_part"]["false_accept_rate"] == 0.0
    assert first["held_out_part"]["false_accept_rate"] > 0  # the look-alikes pass the part-1 threshold
    assert second["chosen_part"]["false_accept_rate"] == 0.0  # choosing on part 2 avoids them
    assert result["configured_on_parts"][1]["false_accept_rate"] > 0

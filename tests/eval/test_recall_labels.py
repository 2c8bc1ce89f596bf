"""The labelled recall questions: every `told` names a moment of that person, and no person or moment
of the fitted split (dev) is in a reported one (test, near-miss)."""

from __future__ import annotations

from scripts.eval.calibrate_recall import LABELS, load_people


def test_labels_are_consistent_and_the_reported_sets_share_nothing_with_dev():
    sets = {name: load_people(LABELS / f"{name}.jsonl") for name in ("dev", "test", "near_miss")}
    for people in sets.values():
        for person in people:
            ids = {m["id"] for m in person["moments"]}
            assert all(q["told"] is None or q["told"] in ids for q in person["questions"]), person["person"]
            assert any(q["told"] is None for q in person["questions"]) and any(q["told"] for q in person["questions"])
    dev_people = {p["person"] for p in sets["dev"]}
    dev_moments = {m["text"] for p in sets["dev"] for m in p["moments"]}
    for name in ("test", "near_miss"):
        assert not dev_people & {p["person"] for p in sets[name]}, name
        assert not dev_moments & {m["text"] for p in sets[name] for m in p["moments"]}, name

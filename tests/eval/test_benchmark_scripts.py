"""Every benchmark script parses against the runner's schema (new memory keys included) and the
dev / test manifest covers each file with the split its seeded hash gives."""

from pathlib import Path

import pytest
import yaml

from scripts.eval.splits import (
    CATEGORIES,
    HELD_OUT_CATEGORIES,
    MANIFEST,
    SCRIPTS,
    category_of,
    load_manifest,
    render,
    split_of,
)
from scripts.runner.script import load_script

FILES = sorted(SCRIPTS.glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_script_parses_and_starts_with_what_it_probes(shared_data, path: Path):
    script, cameras = load_script(path)
    assert script.name == path.stem
    # A chat without a camera is written out as `camera: []`, so a forgotten camera line still fails.
    sessions = yaml.safe_load(path.read_text(encoding="utf-8"))["sessions"]
    assert all(images or "camera" in raw for images, raw in zip(cameras, sessions, strict=True)), \
        "every benchmark session shows someone, or says it is a chat without a camera (camera: [])"
    assert path.read_text(encoding="utf-8").startswith("# "), "a header comment says what the script probes"


def test_manifest_lists_every_script_with_its_hashed_split():
    manifest = load_manifest()
    assert set(manifest.scripts) == {p.name for p in FILES}
    for name, entry in manifest.scripts.items():
        assert entry.split == split_of(name, manifest.seed), name
        assert entry.category in CATEGORIES, name
        if entry.category != "legacy":
            assert category_of(name) == entry.category, name


def test_manifest_is_what_the_rule_prints():
    assert render(load_manifest()) == MANIFEST.read_text(encoding="utf-8")


def test_both_splits_hold_about_half_and_every_held_out_category():
    entries = load_manifest().scripts.values()
    dev = sum(e.split == "dev" for e in entries)
    assert 0.35 < dev / len(entries) < 0.65
    for category in HELD_OUT_CATEGORIES:
        assert {e.split for e in entries if e.category == category} == {"dev", "test"}, category


def test_split_is_a_pure_function_of_seed_and_name():
    assert split_of("a.yaml", "s") == split_of("a.yaml", "s")
    assert {split_of(f"{i}.yaml", "s") for i in range(20)} == {"dev", "test"}

"""Issue 16 item 6: unknown ids exit non-zero and touch nothing, ids are never reused after a forget,
misspelt NADINE_* variables are warned about, `common.config.check` sums up a valid config."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import numpy as np

from common.config.env import unknown_env_vars
from common.store import DataLayout, ProfileStore
from common.store.forget import forget_user_files
from tests.reliability.populate import plant_user
from tests.support import PROJECT_ROOT


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=PROJECT_ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


def snapshot(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_show_and_forget_of_an_unknown_id_exit_non_zero_and_touch_nothing(tmp_path):
    layout = DataLayout(tmp_path / "data")
    maya = plant_user(layout, "260101_0001", "Maya", np.random.default_rng(3))
    before = snapshot(layout.root)
    for command in (["show", "260101_0099"], ["forget", "260101_0099", "--yes", "--no-bus"]):
        out = run("-m", "scripts.memory", "--data-dir", str(layout.root), *command)
        assert out.returncode == 3, out
        assert "no user 260101_0099" in out.stderr and "nothing changed" in out.stderr
        assert out.stdout == ""
    assert snapshot(layout.root) == before
    shown = run("-m", "scripts.memory", "--data-dir", str(layout.root), "show", maya.user_id)
    assert shown.returncode == 0 and shown.stdout.startswith(f"Maya ({maya.user_id})")  # text for people


def test_user_ids_are_never_reused_after_a_forget(tmp_path):
    layout = DataLayout(tmp_path / "data")
    profiles = ProfileStore(layout)
    day = datetime(2026, 3, 4, 10)
    first = profiles.mint_user_id("Ana", day)
    second = profiles.mint_user_id("Ben", day)
    assert (first, second) == ("260304_0001", "260304_0002")
    for uid in (first, second):
        forget_user_files(layout, uid, {"Ana", "Ben"}, "forgotten-x")
    assert profiles.user_ids() == {}
    assert profiles.mint_user_id("Cleo", day) == "260304_0003"
    # the counter holds no whole id (a forget's byte scan must not find the forgotten id there)
    assert first.encode() not in layout.user_id_counter_file.read_bytes()
    # a new day starts at 0001 again: ids of different days cannot collide
    assert profiles.mint_user_id("Dan", datetime(2026, 3, 5, 9)) == "260305_0001"


def test_a_misspelt_variable_is_reported_with_the_closest_known_name():
    env = {"NADINE_CAMREA": "0", "NADINE_DATADIR": "x", "NADINE_CAMERA": "1", "NADINE_PROFILE_understand": "a",
           "NADINE_MQTT_PASSWORD_CONTROL": "p", "NADINE_SHARED_DATA": "/d", "NADINE_ZZZQQQ": "1", "HOME": "/h"}
    assert unknown_env_vars(env) == [
        ("NADINE_CAMREA", "NADINE_CAMERA"), ("NADINE_DATADIR", "NADINE_DATA_DIR"), ("NADINE_ZZZQQQ", None)]


def test_config_check_prints_a_summary_and_warns_about_typos(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NADINE_")}
    env.update(NADINE_DATA_DIR=str(tmp_path), NADINE_ENABLE_VISUALMEMORY="0")
    out = run("-m", "common.config.check", env=env)
    assert out.returncode == 0, out.stderr
    (line,) = out.stdout.splitlines()
    assert line.startswith("config ok:") and str(tmp_path) in line and "visual memory on" in line
    assert "NADINE_ENABLE_VISUALMEMORY" in out.stderr and "did you mean NADINE_ENABLE_VISUAL_MEMORY?" in out.stderr
    env.update(NADINE_MQTT_PORT="not-a-port")
    bad = run("-m", "common.config.check", env=env)
    assert bad.returncode == 2 and "common.mqtt.port" in bad.stderr and bad.stdout == ""


def test_every_nadine_variable_the_code_reads_is_known():
    """A variable the project reads but the checker does not know would be warned about as a typo."""
    import re

    from common.config.env import _known

    code = [p for pattern in ("*.py", "*.sh") for p in PROJECT_ROOT.rglob(pattern)
            if not {"tests", ".venv", "node_modules"} & set(p.relative_to(PROJECT_ROOT).parts)]
    read = set()
    for path in code:
        text = path.read_text(encoding="utf-8", errors="replace")
        read |= set(re.findall(r"(?:environ(?:\.get)?\(?\[?|\$\{?|getenv\()[\"']?(NADINE_[A-Z0-9_]*[A-Z0-9])\b", text))
    assert len(read) >= 10
    assert sorted(v for v in read if not _known(v)) == []


def test_the_memory_command_run_by_hand_overwrites_freed_memory_without_a_warning(tmp_path):
    """Run without a launcher, it starts itself again with the launchers' allocator settings: no
    warning that freed chunks may reach an index file, on every command."""
    layout = DataLayout(tmp_path / "data")
    maya = plant_user(layout, "260101_0001", "Maya", np.random.default_rng(4))
    env = {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"}
    shown = run("-m", "scripts.memory", "--data-dir", str(layout.root), "show", maya.user_id, env=env)
    assert shown.returncode == 0 and "freed_memory" not in shown.stderr, shown.stderr

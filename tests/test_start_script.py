"""start_nadine.sh starts a broker and the three processes; --stop leaves nothing running."""

from __future__ import annotations

import os
import socket
import subprocess
import time

import pytest

from common import topics as t
from common.bus import Bus
from common.config.common_settings import MqttSettings
from common.topics import Topics
from tests.support import PROJECT_ROOT, Recorder, free_port, unique_root

pytestmark = pytest.mark.slow


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie still answers kill(0); read its state
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def _env(tmp_path, port: int, root: str, camera: str) -> dict[str, str]:
    return dict(os.environ, NADINE_MQTT_PORT=str(port), NADINE_MQTT_FALLBACK_HOST="", NADINE_TOPIC_ROOT=root,
                NADINE_RUN_DIR=str(tmp_path / "run"), NADINE_LOG_DIR=str(tmp_path / "logs"),
                NADINE_DATA_DIR=str(tmp_path / "data"), NADINE_CAMERA=camera)


def test_start_detach_then_stop(tmp_path):
    port = free_port()
    root = unique_root()
    (tmp_path / "camera").mkdir()  # a camera that opens and sees nobody: a missing one is a degraded start
    env = _env(tmp_path, port, root, f"watch:{tmp_path / 'camera'}")
    script = PROJECT_ROOT / "start_nadine.sh"
    out = subprocess.run([str(script), "--detach"], env=env, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr
    pids = {p.stem: int(p.read_text()) for p in (tmp_path / "run").glob("*.pid")}
    assert set(pids) == {"broker", "perception", "interaction", "control"}
    watcher = Bus("watcher", MqttSettings(primary_host="127.0.0.1", fallback_host=None, port=port), Topics(root))
    try:
        recs = {name: Recorder(watcher, t.status_spec(name)) for name in ("perception", "interaction", "control")}
        assert watcher.start(10)
        for name, rec in recs.items():
            assert rec.wait_for(lambda m: m.value == "online", timeout=60).value == "online", name
    finally:
        watcher.stop()
    stop = subprocess.run([str(script), "--stop"], env=env, capture_output=True, text=True, timeout=60)
    assert stop.returncode == 0, stop.stderr
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in pids.values()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [n for n, p in pids.items() if _alive(p)]
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=0.5)
    assert not list((tmp_path / "run").glob("*.pid"))


def test_invalid_config_stops_before_anything_starts(tmp_path):
    env = dict(os.environ, NADINE_STORAGE_TRIGGER="hourly", NADINE_RUN_DIR=str(tmp_path / "run"),
               NADINE_LOG_DIR=str(tmp_path / "logs"), NADINE_MQTT_PORT=str(free_port()))
    out = subprocess.run([str(PROJECT_ROOT / "start_nadine.sh"), "--detach"], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 2
    assert "perception.selective_memory.trigger = 'hourly'" in out.stderr
    assert not list((tmp_path / "run").glob("*.pid"))


def test_detach_with_a_camera_that_cannot_be_opened_says_so_and_exits_non_zero(tmp_path):
    port = free_port()
    env = _env(tmp_path, port, unique_root(), "missing.mp4")
    script = PROJECT_ROOT / "start_nadine.sh"
    try:
        out = subprocess.run([str(script), "--detach"], env=env, capture_output=True, text=True, timeout=180)
        assert out.returncode == 1, out.stderr
        assert "all processes online" not in out.stderr
        (line,) = [x for x in out.stderr.splitlines() if x.startswith("degraded:")]
        assert "perception has no camera: " in line and "missing.mp4" in line and "does not exist" in line
    finally:
        subprocess.run([str(script), "--stop"], env=env, capture_output=True, text=True, timeout=120)
    assert not list((tmp_path / "run").glob("*.pid"))


def test_a_second_suite_on_a_broker_where_one_is_online_refuses_to_start(tmp_path, broker, root, bus_factory):
    """Two suites under one topic root would answer each other's turns and keep each other's
    memories: the second says which is online and how to give it its own, and starts nothing."""
    bus_factory("interaction")  # a running suite's interaction: its retained status says online
    env = _env(tmp_path, broker.port, root, "0")
    out = subprocess.run([str(PROJECT_ROOT / "start_nadine.sh"), "--detach"], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 1, out.stderr
    (line,) = [x for x in out.stderr.splitlines() if "another Nadine" in x]
    assert f"{root}/status/interaction online" in line and "NADINE_TOPIC_ROOT" in line
    assert not list((tmp_path / "run").glob("*.pid"))

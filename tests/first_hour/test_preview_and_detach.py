"""Issue 16 item 5: start_nadine.sh --preview refuses before starting anything, with one line naming
the fix, when OpenCV has no window support (or there is no display); --detach waits until every process reports online, or says which
did not (scripts.wait_online, against a real broker)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading

import cv2
import pytest

from common import topics as t
from common.messages import ProcessStatus
from common.supervisor.online import wait_online
from perception.preview import GUI_FIX, preview_unavailable
from tests.support import PROJECT_ROOT

HEADLESS = re.search(r"^\s*GUI:\s*NONE", cv2.getBuildInformation(), re.M) is not None


def test_preview_check_names_the_fix():
    reason = preview_unavailable({})
    assert reason is not None  # headless build, or no display in this environment
    assert (GUI_FIX in reason) if HEADLESS else ("DISPLAY" in reason)


def test_the_launchers_preview_check_refuses_with_one_line():
    """start_nadine.sh runs this before starting anything when --preview is given."""
    env = {k: v for k, v in os.environ.items() if k not in {"DISPLAY", "WAYLAND_DISPLAY"}}
    out = subprocess.run([sys.executable, "-m", "perception.preview"], cwd=PROJECT_ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stdout == ""
    (line,) = out.stderr.splitlines()
    assert line.startswith("perception: --preview needs")
    launcher = (PROJECT_ROOT / "start_nadine.sh").read_text()
    assert launcher.index("-m perception.preview || exit 2") < launcher.index('"$PY" -m "$name"')


def test_wait_online_returns_when_all_are_online_or_names_the_missing(bus_factory):
    watcher = bus_factory("watcher-under-test")
    perception = bus_factory("perception")  # its retained status says online
    # interaction reports a little later, as a process finishing its model load would
    timer = threading.Timer(1.0, lambda: perception.publish(t.status_spec("interaction"), ProcessStatus(value="online")))
    timer.start()
    assert wait_online(watcher, ["perception", "interaction"], timeout=30) == []
    assert wait_online(watcher, ["perception", "control"], timeout=1.5) == ["control"]
    # a process that has exited is not waited for
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    assert wait_online(watcher, ["control"], timeout=60, pids={"control": dead.pid}) == ["control"]


@pytest.mark.parametrize("argv", [["--pids", "control=notanumber", "control", "--timeout", "0.5"]])
def test_wait_online_cli_exits_1_naming_the_process(broker, root, argv):
    env = dict(os.environ, NADINE_MQTT_HOST=broker.host, NADINE_MQTT_PORT=str(broker.port),
               NADINE_MQTT_FALLBACK_HOST="", NADINE_TOPIC_ROOT=root)
    out = subprocess.run([sys.executable, "-m", "scripts.wait_online", *argv], cwd=PROJECT_ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "not online after 0 s: control" in out.stderr

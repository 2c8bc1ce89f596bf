"""Two robots on one Mosquitto and one `chroma run` server (the deployment past one machine): each
robot's three processes run with their own NADINE_ROBOT_ID and data root. They meet different people
whose ids would collide without the robot id (both the first person of the day); neither robot sees
the other's people, and a forget on one robot removes only its own person, from the server too (the
byte scan of the forget tests over the server's persist directory)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import chromadb
import pytest
from chromadb.config import Settings

from common import topics as t
from common.store import ProfileStore
from tests.reliability.live import LiveSuite
from tests.reliability.test_forget_e2e import meet, user_needles
from tests.reliability.traces import find_traces
from tests.support import PROJECT_ROOT, unique_root

pytestmark = [pytest.mark.shared_data, pytest.mark.slow]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ChromaServer:
    """`chroma run` from the venv (chromadb ships the CLI) on a free loopback port."""

    def __init__(self, path: Path) -> None:
        self.path, self.port = path, _free_port()
        self.proc = subprocess.Popen(
            [str(Path(sys.executable).parent / "chroma"), "run", "--path", str(path), "--host", "127.0.0.1",
             "--port", str(self.port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while True:
            try:
                self.client().heartbeat()
                return
            except Exception:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    self.stop()
                    raise RuntimeError("chroma run did not come up") from None
                time.sleep(0.3)

    def client(self, database: str | None = None):
        kwargs = {"database": database} if database else {}
        return chromadb.HttpClient(host="127.0.0.1", port=self.port,
                                   settings=Settings(anonymized_telemetry=False), **kwargs)

    def env(self) -> dict[str, str]:
        return {"NADINE_CHROMA_MODE": "http", "NADINE_CHROMA_HOST": "127.0.0.1",
                "NADINE_CHROMA_PORT": str(self.port), "NADINE_CHROMA_SERVER_PATH": str(self.path)}

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture(scope="module")
def fleet(broker, tmp_path_factory) -> Iterator[tuple[ChromaServer, dict[str, LiveSuite]]]:
    tmp = tmp_path_factory.mktemp("fleet")
    server = ChromaServer(tmp / "chroma-server")
    base = unique_root()  # the shared broker's root; each robot lives under <base>/<robot_id>
    robots: dict[str, LiveSuite] = {}
    try:
        for robot in ("r1", "r2"):
            robots[robot] = LiveSuite(broker, tmp / robot, env={"NADINE_ROBOT_ID": robot, **server.env()},
                                      root=f"{base}/{robot}")
        yield server, robots
    finally:
        for suite in robots.values():
            suite.stop()
        server.stop()


def test_two_robots_share_a_broker_and_a_chroma_server_but_not_their_people(fleet, shared_data):
    server, robots = fleet
    faces = shared_data / "faces"
    maya = meet(robots["r1"], faces / "df_a_01.jpg", "Maya", "I just defended my PhD thesis today, I'm so happy!")
    bob = meet(robots["r2"], faces / "df_b_01.jpg", "Bob", "My daughter was born this morning, I'm over the moon!")
    # the first person each robot met today: the same id but for the robot's namespace
    assert maya.startswith("r1-") and bob.startswith("r2-") and maya[3:] == bob[3:]
    for live in robots.values():
        live.camera.show([])
        live.rec[t.USER_DETECTED].wait_for(lambda m: m.user_id is None and m.user_name is None, timeout=30)

    # one server, one database per robot: each robot's episodes only in its own
    assert [c.name for c in server.client("nadine-r1").list_collections()] == [maya]
    assert [c.name for c in server.client("nadine-r2").list_collections()] == [bob]
    assert server.client().list_collections() == []  # nothing in the default database
    # robot 2 never heard of Maya: her face is a stranger's there, and her moment is not recalled
    r2 = robots["r2"]
    r2.rec[t.USER_DETECTED].clear()
    r2.camera.show([faces / "df_a_02.jpg"])
    r2.rec[t.USER_DETECTED].wait_for(lambda m: m.user_name == "Unknown", timeout=30)
    asked = r2.say("Hello! Do you remember what I told you last time?")
    assert asked.user_id != maya and "PhD" not in asked.reply
    assert maya not in ProfileStore(r2.layout).user_ids()
    # robot 1's topics never reach robot 2's recorders (different roots on the same broker)
    assert all(m.user_id in (None, bob) or m.user_id.startswith("r2-")
               for m in r2.rec[t.TURN_RESULT].messages + r2.rec[t.FACE_STORED].messages)

    r1 = robots["r1"]
    maya_needles = user_needles(r1, maya, "Maya", server.path)
    bob_needles = user_needles(r2, bob, "Bob", server.path)
    assert {label for _, label in find_traces(server.path, maya_needles)} >= {"name:Maya", f"id:{maya}", "vector"}
    env = dict(os.environ, NADINE_MQTT_HOST=r1.broker.host, NADINE_MQTT_PORT=str(r1.broker.port),
               NADINE_MQTT_FALLBACK_HOST="", NADINE_TOPIC_ROOT=r1.root, NADINE_DATA_DIR=str(r1.data),
               NADINE_ROBOT_ID="r1", **server.env())
    out = subprocess.run([sys.executable, "-m", "scripts.memory", "forget", maya, "--yes"], cwd=PROJECT_ROOT,
                         env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert set(json.loads(out.stdout)["processes"]) == {"perception", "interaction", "control"}

    # Maya is gone from robot 1's data root and from the server's files; Bob is whole on both
    assert find_traces(r1.layout.root, maya_needles) == []
    assert find_traces(server.path, maya_needles) == []
    assert server.client("nadine-r1").list_collections() == []
    assert server.client("nadine-r2").get_collection(bob).count() >= 2
    assert {label for _, label in find_traces(server.path, bob_needles)} >= {"name:Bob", f"id:{bob}"}
    assert ProfileStore(r2.layout).user_ids()[bob] == "Bob" and (r2.layout.user_dir(bob) / "faces").is_dir()
    r2.rec[t.USER_DETECTED].clear()
    r2.camera.show([faces / "df_b_02.jpg"])
    r2.rec[t.USER_DETECTED].wait_for(lambda m: m.user_id == bob, timeout=30)
    back = r2.say("Do you remember what I told you last time?")
    assert back.user_id == bob and "daughter" in back.reply

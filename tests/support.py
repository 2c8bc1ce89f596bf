"""Test support: a real Mosquitto on a free loopback port, message recorders, process launchers.

Tests talk to the system only through MQTT and the data folder, as a lab tool would.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from common.bus import Bus
from common.supervisor.broker import Broker, free_port  # noqa: F401  (re-exported for tests)
from common.topics import Topics, TopicSpec
from scripts.runner.observer import Observer

PROJECT_ROOT = Path(__file__).resolve().parents[1]


def unique_root() -> str:
    return f"test{uuid.uuid4().hex[:10]}/nadine"


class Recorder:
    """One topic of the shared message observer (scripts/runner/observer.py), with test-style waits:
    a wait that times out fails the test and shows the last messages."""

    def __init__(self, bus: Bus, spec: TopicSpec) -> None:
        self.spec = spec
        self._observer = Observer(bus, (spec,))
        self._start = 0

    @property
    def messages(self) -> list[Any]:
        return self._observer.since(self.spec, self._start)

    @property
    def arrivals(self) -> list[float]:
        return self._observer.arrivals(self.spec, self._start)

    def wait_for(self, predicate: Callable[[Any], bool] = lambda m: True, timeout: float = 10.0) -> Any:
        found = self._observer.wait_for(self.spec, predicate, self._start, timeout)
        if found is None:
            raise AssertionError(f"no matching message within {timeout} s; got {self.messages[-5:]}")
        return found

    def clear(self) -> None:
        self._start = self._observer.mark()


def make_bus(name: str, broker: Broker, root: str) -> Bus:
    bus = Bus(name, broker.mqtt_settings(), Topics(root))
    assert bus.start(wait_s=5), "test bus could not connect"
    return bus


def process_env(broker: Broker, root: str, data_dir: Path, log_dir: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        NADINE_MQTT_HOST=broker.host, NADINE_MQTT_PORT=str(broker.port), NADINE_MQTT_FALLBACK_HOST="",
        NADINE_TOPIC_ROOT=root, NADINE_DATA_DIR=str(data_dir), NADINE_LOG_DIR=str(log_dir),
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def _die_with_the_test_run() -> None:
    """Runs in the child before exec: SIGTERM when the process that started it dies, so a test run that
    is killed (a timeout, Ctrl-C, CI cancelling) leaves no process holding memory and the broker."""
    import ctypes
    import signal

    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class NadineProcess:
    """One of perception / interaction / control started as `python -m <name>`."""

    # every process a test started and has not stopped: the conftest stops the rest after each module,
    # so a test that fails before its own cleanup (a process that never came online) leaks none
    started: list[NadineProcess] = []

    def __init__(self, name: str, env: dict[str, str], args: list[str] | None = None) -> None:
        self.name = name
        log_dir = Path(env["NADINE_LOG_DIR"])
        log_dir.mkdir(parents=True, exist_ok=True)
        self.stderr_path = log_dir / f"{name}.stderr"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", name, *(args or [])], cwd=PROJECT_ROOT, env=env,
            stdout=subprocess.DEVNULL, stderr=open(self.stderr_path, "ab"), preexec_fn=_die_with_the_test_run,
        )
        NadineProcess.started.append(self)

    @classmethod
    def stop_all(cls) -> None:
        while cls.started:
            cls.started.pop().stop()

    def stop(self, timeout: float = 10.0) -> int:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        return self.proc.returncode

    def kill9(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)

    def log_text(self) -> str:
        return self.stderr_path.read_text(errors="replace") if self.stderr_path.exists() else ""


def stop_chroma() -> None:
    """Close every Chroma system this process opened (as when interaction stops)."""
    from chromadb.api.shared_system_client import SharedSystemClient

    for system in list(SharedSystemClient._identifier_to_system.values()):
        system.stop()
    SharedSystemClient.clear_system_cache()

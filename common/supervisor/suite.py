"""Start the whole suite for a script, a benchmark or a test: a Mosquitto and the three processes.

`Suite(data_dir, log_dir, overrides, ...)` starts its own Mosquitto on a free loopback port (or uses
the broker it is given), then every process that is not already online under the topic root (the
retained status topics tell), each as `python -m <process>` with the given data root, config
overrides and environment, logging to <log_dir>/<process>.log. `stop()` ends only what it started.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from common import topics as t
from common.bus import Bus
from common.config.common_settings import MqttSettings
from common.config.loader import PROJECT_ROOT
from common.messages import ProcessStatus
from common.supervisor.broker import Broker
from common.topics import PROCESSES, Topics

log = logging.getLogger("nadine.suite")

RETAINED_WAIT_S = 0.5
LOG_TAIL_CHARS = 1500


class SuiteError(RuntimeError):
    """The suite could not start or a process died; the message names the process and its last log lines."""


class _StatusBoard:
    """Latest retained/live status per process."""

    def __init__(self, bus: Bus, names: Sequence[str]) -> None:
        self._status: dict[str, str] = {}
        self._cond = threading.Condition()
        for name in names:
            bus.subscribe(t.status_spec(name), lambda msg, n=name: self._set(n, msg))

    def _set(self, name: str, msg: ProcessStatus) -> None:
        with self._cond:
            self._status[name] = msg.value
            self._cond.notify_all()

    def online(self, name: str) -> bool:
        with self._cond:
            return self._status.get(name) == "online"

    def wait_online(self, name: str, timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: self._status.get(name) == "online", timeout)


class Suite:
    def __init__(
        self,
        data_dir: Path,
        log_dir: Path,
        overrides: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        topic_root: str = t.DEFAULT_ROOT,
        processes: Sequence[str] = PROCESSES,
        broker: tuple[str, int] | None = None,
    ) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.log_dir = Path(log_dir).resolve()
        self.overrides = list(overrides)
        self.extra_env = dict(env or {})
        self.topics = Topics(topic_root)
        self.process_names = list(processes)
        self._given_broker = broker
        self.broker: Broker | None = None
        self.host, self.port = broker or ("127.0.0.1", 0)
        self.procs: dict[str, subprocess.Popen] = {}
        self.reused: list[str] = []
        self._bus: Bus | None = None

    @property
    def mqtt_settings(self) -> MqttSettings:
        return MqttSettings(primary_host=self.host, fallback_host=None, port=self.port, connect_wait_s=10)

    def child_env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(
            NADINE_MQTT_HOST=self.host, NADINE_MQTT_PORT=str(self.port), NADINE_MQTT_FALLBACK_HOST="",
            NADINE_TOPIC_ROOT=self.topics.root, NADINE_DATA_DIR=str(self.data_dir),
            NADINE_LOG_DIR=str(self.log_dir), NADINE_LOG_TO_FILE="0", PYTHONUNBUFFERED="1",
        )
        env.update(self.extra_env)
        return env

    # --- lifecycle -----------------------------------------------------------------------------

    def start(self, online_timeout_s: float = 90.0) -> Suite:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if self._given_broker is None:
            try:
                self.broker = Broker().start()
            except RuntimeError as exc:
                raise SuiteError(f"could not start Mosquitto: {exc}") from None
            self.host, self.port = self.broker.host, self.broker.port
            log.info("started Mosquitto on %s:%d", self.host, self.port)
        self._bus = Bus("suite", self.mqtt_settings, self.topics)
        board = _StatusBoard(self._bus, self.process_names)
        if not self._bus.start(wait_s=10):
            raise SuiteError(f"no MQTT broker answers on {self.host}:{self.port}")
        time.sleep(RETAINED_WAIT_S)  # retained status of processes that are already running
        env = self.child_env()
        args = [a for pair in self.overrides for a in ("--config-override", pair)]
        for name in self.process_names:
            if board.online(name):
                self.reused.append(name)
                log.info("%s is already online under %s: using it", name, self.topics.root)
                continue
            stderr = open(self.log_dir / f"{name}.log", "ab")  # noqa: SIM115 - owned by the child
            self.procs[name] = subprocess.Popen(
                [sys.executable, "-m", name, *args], cwd=PROJECT_ROOT, env=env,
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr,
            )
            stderr.close()
            log.info("started %s (pid %d), log %s", name, self.procs[name].pid, self.log_dir / f"{name}.log")
        deadline = time.monotonic() + online_timeout_s
        for name in self.procs:
            while not board.wait_online(name, 0.2):
                self.check_alive()
                if time.monotonic() > deadline:
                    raise SuiteError(f"{name} did not come online within {online_timeout_s:.0f} s\n{self.log_tail(name)}")
        return self

    def check_alive(self) -> None:
        for name, proc in self.procs.items():
            code = proc.poll()
            if code is not None:
                raise SuiteError(f"{name} exited with code {code}\n{self.log_tail(name)}")

    def log_tail(self, name: str) -> str:
        path = self.log_dir / f"{name}.log"
        text = path.read_text(errors="replace") if path.exists() else ""
        return f"--- last lines of {path} ---\n{text[-LOG_TAIL_CHARS:]}"

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.terminate()
        for name, proc in self.procs.items():
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                log.warning("%s did not stop in 10 s; killing it", name)
                proc.kill()
                proc.wait(5)
        self.procs.clear()
        if self._bus is not None:
            self._bus.stop()
            self._bus = None
        if self.broker is not None:
            self.broker.stop()
            self.broker = None

    def __enter__(self) -> Suite:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc: object) -> None:
        self.stop()

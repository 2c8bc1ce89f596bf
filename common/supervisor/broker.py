"""A Mosquitto broker on a free (or given) loopback port, for the script runner, benchmarks and tests."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from common.config.common_settings import MqttSettings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def mosquitto_binary() -> str:
    found = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    if not Path(found).exists():
        raise RuntimeError("mosquitto is not installed: run ./scripts/bootstrap.sh (apt-get install mosquitto)")
    return found


class Broker:
    """A Mosquitto process on 127.0.0.1:<port>, restartable on the same port."""

    def __init__(self, port: int | None = None, extra_conf: str = "") -> None:
        self.host = "127.0.0.1"
        self.port = port or free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="nadine-broker-"))
        self.conf = self.dir / "mosquitto.conf"
        body = extra_conf or "allow_anonymous true\n"
        self.conf.write_text(f"listener {self.port} 127.0.0.1\npersistence false\n{body}")
        self.proc: subprocess.Popen | None = None

    def start(self) -> Broker:
        self.proc = subprocess.Popen(
            [mosquitto_binary(), "-c", str(self.conf)],
            stdout=subprocess.DEVNULL, stderr=open(self.dir / "broker.log", "ab"),
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((self.host, self.port), timeout=0.2):
                    return self
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"mosquitto exited: {(self.dir / 'broker.log').read_text()}") from None
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not open its port in 10 s")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(5)
        self.proc = None

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None

    def mqtt_settings(self, **extra: Any) -> MqttSettings:
        return MqttSettings(primary_host=self.host, fallback_host=None, port=self.port, connect_wait_s=5, **extra)

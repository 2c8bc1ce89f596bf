"""A Mosquitto started from config/mosquitto-secure.conf.example, with credentials made by
scripts/broker_credentials.sh and a throwaway CA + server certificate made by openssl."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from common.config.common_settings import MqttSettings, TlsSettings
from common.supervisor.broker import Broker, free_port
from tests.support import PROJECT_ROOT

USERS = ("perception", "interaction", "control", "operator")
EXAMPLE = PROJECT_ROOT / "config" / "mosquitto-secure.conf.example"
EXAMPLE_DIR = "/etc/mosquitto/nadine"


def passwords(robots: tuple[str, ...] = ()) -> dict[str, str]:
    """MQTT user -> password; with robots, one user per process and robot (perception-r1, ...)."""
    users = [f"{u}-{r}" for r in robots for u in USERS] if robots else USERS
    return {u: f"pw-{u}-{os.getpid()}" for u in users}


def make_credentials(out: Path, root: str, pw: dict[str, str], robots: tuple[str, ...] = ()) -> None:
    env = dict(os.environ, NADINE_TOPIC_ROOT=root, NADINE_ROBOT_IDS=" ".join(robots))
    env.update({f"NADINE_MQTT_PASSWORD_{u.upper().replace('-', '_')}": p for u, p in pw.items()})
    subprocess.run([str(PROJECT_ROOT / "scripts" / "broker_credentials.sh"), str(out)], env=env, check=True,
                   capture_output=True)


def make_ca(out: Path, name: str = "ca") -> Path:
    """A CA and a server certificate for 127.0.0.1 signed by it; returns the CA file."""
    def ssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=out, check=True, capture_output=True)

    ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", f"/CN=nadine-test-{name}",
        "-keyout", f"{name}.key", "-out", f"{name}.crt")
    ssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", "server.key",
        "-out", "server.csr")
    (out / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    ssl("x509", "-req", "-in", "server.csr", "-CA", f"{name}.crt", "-CAkey", f"{name}.key", "-CAcreateserial",
        "-days", "1", "-extfile", "san.ext", "-out", "server.crt")
    return out / f"{name}.crt"


class SecureBroker:
    """The example config with its paths pointed at `folder` and its ports at free loopback ports."""

    def __init__(self, folder: Path, root: str, robots: tuple[str, ...] = ()) -> None:
        self.folder = folder
        self.pw = passwords(robots)
        make_credentials(folder, root, self.pw, robots)
        self.ca = make_ca(folder)
        self.tls_port = free_port()
        body = EXAMPLE.read_text().replace(EXAMPLE_DIR, str(folder))
        body = body.replace("listener 1883 127.0.0.1\n", "")  # Broker opens the plain listener itself
        body = body.replace("listener 8883\n", f"listener {self.tls_port} 127.0.0.1\n")
        if os.geteuid() == 0:  # pytest's tmp folders are private to root: keep mosquitto from dropping to its user
            body = "user root\n" + body
        self.broker = Broker(extra_conf=body)

    def start(self) -> SecureBroker:
        self.broker.start()
        return self

    def stop(self) -> None:
        self.broker.stop()

    def settings(self, user: str | None, password: str | None = None, tls: bool = False,
                 ca: Path | None = None) -> MqttSettings:
        if user is not None and password is None:
            password = self.pw[user]
        return MqttSettings(
            primary_host=self.broker.host, fallback_host=None, port=self.tls_port if tls else self.broker.port,
            username=user, password=password, connect_wait_s=5, reconnect_max_delay_s=1,
            tls=TlsSettings(enabled=tls, ca_certs=str(ca or self.ca) if tls else None),
        )

"""Settings every process shares: broker, topic root, data root, logging, visual-memory switch."""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import Field, SecretStr, field_validator, model_validator

from common.config.base import Section

# lower case: it also names a Chroma database and a part of every user id and topic
ROBOT_ID_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")


class TlsSettings(Section):
    enabled: bool = Field(False, description="connect with TLS (broker listener with certificates)")
    ca_certs: str | None = Field(None, description="CA bundle that signed the broker certificate")
    certfile: str | None = Field(None, description="client certificate, when the broker requires one")
    keyfile: str | None = Field(None, description="client key for certfile")


class MqttSettings(Section):
    primary_host: str = Field("127.0.0.1", description="broker tried first")
    fallback_host: str | None = Field(None, description="broker tried when the primary does not answer (none unless set)")
    port: int = Field(1883, ge=1, le=65535)
    keepalive: int = Field(30, ge=5, le=3600, description="seconds")
    username: str | None = Field(None, description="from NADINE_MQTT_USERNAME; never in a committed file")
    # SecretStr: printed, logged or dumped as ********** (repr, str and model_dump alike)
    password: SecretStr | None = Field(None, description="from NADINE_MQTT_PASSWORD; never in a committed file")
    tls: TlsSettings = TlsSettings()
    connect_wait_s: float = Field(5.0, ge=0, description="how long start-up waits for the first connection")
    reconnect_max_delay_s: int = Field(5, ge=1, le=120)
    inbox_limit: int = Field(10_000, ge=10, description="received messages waiting for handlers before drops")


class CommonSettings(Section):
    mqtt: MqttSettings = MqttSettings()
    topic_root: str = Field("nadine", description="NADINE_TOPIC_ROOT; e.g. nadine/robot7 for a shared broker")
    robot_id: str | None = Field(
        None, description="NADINE_ROBOT_ID; robots sharing a broker and a Chroma server: namespaces the topic "
        "root (<root>/<robot_id>), new user ids (<robot_id>-YYMMDD_NNNN) and the Chroma database")
    data_dir: Path = Field(Path("interaction/db"), description="NADINE_DATA_DIR; relative to the project root")
    log_dir: Path = Field(Path("logs"), description="NADINE_LOG_DIR; one <process>.log each")
    log_level: str = Field("INFO", description="NADINE_LOG_LEVEL")
    enable_visual_memory: bool = Field(True, description="NADINE_ENABLE_VISUAL_MEMORY; 0 = study condition B")

    @field_validator("log_level")
    @classmethod
    def _level(cls, v: str) -> str:
        v = v.upper()
        if v not in {"DEBUG", "INFO", "WARNING", "ERROR"}:
            raise ValueError("must be one of DEBUG, INFO, WARNING, ERROR")
        return v

    @field_validator("topic_root")
    @classmethod
    def _root(cls, v: str) -> str:
        v = v.strip("/")
        if not v or any(c in v for c in "#+ ") or "//" in v:
            raise ValueError("must be topic segments such as 'nadine' or 'nadine/robot7' (no wildcards, spaces)")
        return v

    @field_validator("robot_id")
    @classmethod
    def _robot(cls, v: str | None) -> str | None:
        if v is not None and not ROBOT_ID_RE.fullmatch(v):
            raise ValueError("must be 1-32 of a-z, 0-9 and '-', starting with a letter or digit (e.g. robot7)")
        return v

    @model_validator(mode="after")
    def _robot_topic_root(self) -> CommonSettings:
        """A robot's topics live under <topic_root>/<robot_id>, so robots on one broker never meet."""
        if self.robot_id and self.topic_root.rsplit("/", 1)[-1] != self.robot_id:
            # object.__setattr__: plain assignment would run this validator again (validate_assignment)
            object.__setattr__(self, "topic_root", f"{self.topic_root}/{self.robot_id}")
        return self

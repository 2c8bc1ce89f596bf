"""The MQTT bus every process uses: typed publish/subscribe over paho-mqtt 2.x.

- connects to the primary host, then the fallback host, and keeps retrying in the background when
  neither answers (the process starts even while the broker is down);
- reconnects automatically and re-subscribes everything on every (re)connect;
- publishes a retained `online` on <root>/status/<process> and leaves `offline` as its last will;
- decodes payloads into their pydantic models and hands them to handlers on one dispatcher thread,
  never on paho's network thread, so a slow handler cannot stall keep-alives;
- a payload that does not decode (not JSON, wrong types, missing fields, too large) is logged with
  topic and reason, counted and dropped: the handler never sees it and nothing crashes.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from common import topics as t
from common.config.common_settings import MqttSettings
from common.messages import Message, PayloadError, ProcessStatus

log = logging.getLogger("nadine.bus")

M = TypeVar("M", bound=Message)
Handler = Callable[[Any], None]
WildcardHandler = Callable[[t.TopicSpec, Any], None]


@dataclass
class _Subscription:
    topic: str
    qos: int
    spec: t.TopicSpec | None  # None for a wildcard: the spec is looked up per message
    handler: Callable[..., None]


class Bus:
    """One MQTT connection for one process (perception, interaction, control, or a tool)."""

    def __init__(self, process: str, mqtt_settings: MqttSettings, topics: t.Topics) -> None:
        self.process = process
        self.settings = mqtt_settings
        self.topics = topics
        self.dropped: Counter[str] = Counter()  # topic -> malformed payloads dropped
        self.handler_errors: Counter[str] = Counter()  # topic -> handler exceptions (tests, monitoring)
        self._subs: list[_Subscription] = []
        self._subs_lock = threading.Lock()
        self._connected = threading.Event()
        self._closing = False
        self._inbox: queue.Queue[tuple[_Subscription, str, bytes] | None] = queue.Queue(
            maxsize=mqtt_settings.inbox_limit
        )
        self._status_spec = t.status_spec(process)
        self._client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=f"nadine-{process}-{uuid.uuid4().hex[:10]}",
            clean_session=True,
        )
        self._client.reconnect_delay_set(min_delay=1, max_delay=mqtt_settings.reconnect_max_delay_s)
        if mqtt_settings.username:
            password = mqtt_settings.password.get_secret_value() if mqtt_settings.password else None
            self._client.username_pw_set(mqtt_settings.username, password)
        if mqtt_settings.tls.enabled:
            self._client.tls_set(
                ca_certs=mqtt_settings.tls.ca_certs,
                certfile=mqtt_settings.tls.certfile,
                keyfile=mqtt_settings.tls.keyfile,
            )
        self._client.will_set(
            topics(self._status_spec), ProcessStatus(value="offline").encode(), qos=t.QOS_STATE, retain=True
        )
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message
        self._dispatcher = threading.Thread(target=self._dispatch_loop, name=f"bus-{process}", daemon=True)
        self.host: str | None = None

    # --- lifecycle ---------------------------------------------------------------------------

    def start(self, wait_s: float | None = None) -> bool:
        """Connect (primary, then fallback) and start the network loop. Returns True once connected.

        If no broker answers, keeps retrying the primary host in the background and returns False
        after `wait_s` (default: the configured connect wait).
        """
        self._dispatcher.start()
        hosts = [self.settings.primary_host]
        if self.settings.fallback_host and self.settings.fallback_host != self.settings.primary_host:
            hosts.append(self.settings.fallback_host)
        for host in hosts:
            try:
                self._client.connect(host, self.settings.port, keepalive=self.settings.keepalive)
                self.host = host
                break
            except OSError as exc:
                log.warning("broker %s:%s not reachable (%s)", host, self.settings.port, exc)
        if self.host is None:
            self.host = hosts[0]
            log.error(
                "no MQTT broker answers on %s port %s; retrying %s in the background",
                " or ".join(hosts), self.settings.port, self.host,
            )
            self._client.connect_async(self.host, self.settings.port, keepalive=self.settings.keepalive)
        self._client.loop_start()
        return self._connected.wait(self.settings.connect_wait_s if wait_s is None else wait_s)

    def stop(self) -> None:
        """Publish `offline`, disconnect and stop the threads (pending handler calls finish first)."""
        if self._closing:
            return
        self._closing = True
        if self._connected.is_set():
            info = self._client.publish(
                self.topics(self._status_spec), ProcessStatus(value="offline").encode(),
                qos=t.QOS_STATE, retain=True,
            )
            try:
                info.wait_for_publish(timeout=2.0)
            except (RuntimeError, ValueError):
                pass
        self._client.disconnect()
        self._client.loop_stop()
        try:  # a full inbox behind a stuck handler must not hang shutdown: the join below times out
            self._inbox.put(None, timeout=1.0)
        except queue.Full:
            log.warning("%s: handlers still busy at shutdown; not waiting for them", self.process)
        if self._dispatcher.is_alive() and threading.current_thread() is not self._dispatcher:
            self._dispatcher.join(timeout=5.0)

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def wait_connected(self, timeout: float) -> bool:
        return self._connected.wait(timeout)

    # --- publish / subscribe -----------------------------------------------------------------

    def publish(self, spec: t.TopicSpec, message: Message, *, qos: int | None = None) -> mqtt.MQTTMessageInfo:
        """Publish a typed message. QoS 1 messages published while disconnected are queued by paho
        and sent after the reconnect; QoS 0 ones are dropped (they are high-rate streams)."""
        if not isinstance(message, spec.model):
            raise TypeError(f"{spec.suffix} carries {spec.model.__name__}, not {type(message).__name__}")
        return self._client.publish(
            self.topics(spec), message.encode(), qos=spec.qos if qos is None else qos, retain=spec.retain
        )

    def subscribe(self, spec: t.TopicSpec, handler: Callable[[M], None]) -> None:
        """Call handler(message) for every well-formed message on this topic (dispatcher thread)."""
        self._add(_Subscription(self.topics(spec), spec.qos, spec, handler))

    def subscribe_tree(self, pattern: str, handler: WildcardHandler) -> None:
        """Subscribe a wildcard below the root (e.g. "agent/control/#"); handler(spec, message).

        Topics under the pattern with no payload model are logged and dropped.
        """
        self._add(_Subscription(self.topics(pattern), t.QOS_STATE, None, handler))

    def _add(self, sub: _Subscription) -> None:
        # under the lock _on_connect holds while it marks the bus connected and copies the list, so a
        # subscription added during the handshake is sent by exactly one of the two
        with self._subs_lock:
            self._subs.append(sub)
            connected = self._connected.is_set()
        if connected:
            self._client.subscribe(sub.topic, sub.qos)

    # --- paho callbacks (network thread: keep them short) -------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            log.error("broker %s refused the connection: %s", self.host, reason)
            return
        with self._subs_lock:
            self._connected.set()
            subs = list(self._subs)
        for sub in subs:
            client.subscribe(sub.topic, sub.qos)
        client.publish(
            self.topics(self._status_spec), ProcessStatus(value="online").encode(), qos=t.QOS_STATE, retain=True
        )
        log.info("connected to %s:%s as %s (%d subscriptions)", self.host, self.settings.port, self.process, len(subs))

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        self._connected.clear()
        if not self._closing:
            log.warning("lost the broker (%s); reconnecting", reason)

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        with self._subs_lock:
            matches = [s for s in self._subs if mqtt.topic_matches_sub(s.topic, msg.topic)]
        for sub in matches:
            try:
                self._inbox.put_nowait((sub, msg.topic, msg.payload))
            except queue.Full:
                self._drop(msg.topic, "inbox full: handlers are not keeping up")

    # --- dispatcher thread ---------------------------------------------------------------------

    def _dispatch_loop(self) -> None:
        while True:
            item = self._inbox.get()
            if item is None:
                self._inbox.task_done()
                return
            try:
                self._handle(*item)
            finally:
                self._inbox.task_done()

    def _handle(self, sub: _Subscription, topic: str, payload: bytes) -> None:
        spec = sub.spec or self.topics.spec_for(topic)
        if spec is None:
            self._drop(topic, "no payload model for this topic")
            return
        try:
            message = spec.model.decode(payload)
        except PayloadError as exc:
            self._drop(topic, str(exc))
            return
        try:
            if sub.spec is None:
                sub.handler(spec, message)
            else:
                sub.handler(message)
        except Exception:  # a handler bug must not kill the dispatcher
            self.handler_errors[topic] += 1
            log.exception("handler for %s failed", topic)

    def _drop(self, topic: str, reason: str) -> None:
        self.dropped[topic] += 1
        log.warning("dropped message on %s: %s (dropped on this topic: %d)", topic, reason, self.dropped[topic])

    def drain(self, timeout: float = 5.0) -> bool:
        """Wait until every received message has been handled (tests and orderly shutdown)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._inbox.unfinished_tasks == 0:
                return True
            time.sleep(0.01)
        return False

"""The MQTT bus every process uses: typed publish/subscribe over paho-mqtt 2.x.

- connects to the primary host, then the fallback host, and keeps retrying in the background when
  neither answers (the process starts even while the broker is down);
- reconnects automatically and re-subscribes everything on every (re)connect;
- once the broker has acknowledged its subscriptions, publishes a retained `online` on
  <root>/status/<process> (and wait_connected() returns), leaving `offline` as its last will;
- decodes payloads into their pydantic models and hands them to handlers one at a time, in arrival
  order. A handler whose calls have all been quick (under INLINE_BUDGET_S) runs on paho's network
  thread when nothing is waiting for the dispatcher thread, which saves the thread hop (the bulk of the
  bus's latency over raw paho, scripts/bench/mqtt_latency); its first call, and every call once it has
  been slow even once, go to the dispatcher thread, so a slow handler cannot stall keep-alives;
- a payload that does not decode (not JSON, wrong types, missing fields, too large) is logged with
  topic and reason, counted and dropped: the handler never sees it and nothing crashes;
- a state message (QoS 1) published with a wait while the bus is reconnecting waits for the
  reconnection, within that bound, and raises BusNotConnected naming the broker when it does not
  come back; without a wait paho queues it and sends it after the reconnect;
- sync() waits until every message the broker held for the bus's subscriptions (retained ones
  included) has been handled: a tool learns who is online from retained statuses without a sleep.
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

ROUTE_CACHE_LIMIT = 1024
# A handler call longer than this never runs on the network thread again, so keep-alives wait for at
# most one long call per subscription. Handlers run one at a time on either path, so a call under the
# budget delays no other handler by running inline; the budget is wide so that one stall of a loaded
# machine does not send a quick handler back to the hop for good.
INLINE_BUDGET_S = 0.2

M = TypeVar("M", bound=Message)
Handler = Callable[[Any], None]
WildcardHandler = Callable[[t.TopicSpec, Any], None]


class BusNotConnected(RuntimeError):
    """A state message was not sent: the broker did not answer within the wait."""


@dataclass
class _Subscription:
    topic: str
    qos: int
    spec: t.TopicSpec | None  # None for a wildcard: the spec is looked up per message
    handler: Callable[..., None]
    quick: bool | None = None  # None until its first call is timed; False for good after one slow call


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
        # concrete topic -> its subscriptions; rebuilt lazily after every subscribe, so the network
        # thread matches a message with one dict lookup instead of a wildcard match per subscription
        self._routes: dict[str, list[_Subscription]] = {}
        # _session: the broker accepted the connection (subscribe() now sends at once); _connected: and
        # it acknowledged every subscription, so a message published after wait_connected() (or after
        # our retained `online`) reaches our handlers
        self._session = False
        self._resubscribed_mid: int | None = None
        self._connected = threading.Event()
        # subscribe() once the session is open waits for the broker's acknowledgement of its SUBSCRIBE
        # (or for a reconnection, whose one SUBSCRIBE carries it too): the mids acknowledged, and how
        # many times the session became ready
        self._acked_mids: set[int] = set()
        self._readies = 0
        self._acks = threading.Condition()
        self._closing = False
        self._network_thread: int | None = None  # paho's loop thread: it reconnects, so it never waits
        # sync(): a private topic this bus alone subscribes to once sync() is first called (the process
        # ACLs grant no such topic, so processes never subscribe to it); the broker sends our echo on it
        # after everything it queued for us before it
        self._sync_topic = topics(f"bus/sync/{uuid.uuid4().hex}")
        self._sync_subscribed = False
        self._sync_sent = 0
        self._sync_echoed = 0
        self._sync_cond = threading.Condition()
        # SimpleQueue (C, no Python-level Condition) keeps the one thread hop of every message cheap;
        # the bound and the drain count are kept by hand in _pending
        self._inbox: queue.SimpleQueue[tuple[_Subscription, str, bytes] | None] = queue.SimpleQueue()
        self._pending = 0
        self._pending_lock = threading.Lock()
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
        self._client.on_subscribe = self._on_subscribe
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
        if self._pending:
            log.warning("%s: %d message(s) still waiting for handlers at shutdown", self.process, self._pending)
        self._inbox.put(None)  # the join below times out behind a stuck handler: shutdown never hangs
        if self._dispatcher.is_alive() and threading.current_thread() is not self._dispatcher:
            self._dispatcher.join(timeout=5.0)

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def wait_connected(self, timeout: float) -> bool:
        return self._connected.wait(timeout)

    def sync(self, timeout: float) -> bool:
        """Wait until every message the broker held for this bus's subscriptions when sync() was
        called (the retained ones a fresh subscription gets included) has been handled. The broker
        delivers a client's messages in order, so our own echo on the sync topic comes after them.
        False when the broker did not answer within `timeout`."""
        deadline = time.monotonic() + timeout
        with self._subs_lock:
            subscribe = not self._sync_subscribed
            self._sync_subscribed = True
        if not self._connected.wait(timeout):
            return False
        if subscribe:  # before the echo below (the broker handles a client's packets in order anyway)
            self._subscribe_acknowledged(self._sync_topic, t.QOS_STATE)
        with self._sync_cond:
            self._sync_sent += 1
            token = self._sync_sent
        self._client.publish(self._sync_topic, str(token).encode(), qos=t.QOS_STATE)
        with self._sync_cond:
            echoed = self._sync_cond.wait_for(lambda: self._sync_echoed >= token, deadline - time.monotonic())
        return echoed and self.drain(max(0.0, deadline - time.monotonic()))

    # --- publish / subscribe -----------------------------------------------------------------

    def publish(self, spec: t.TopicSpec, message: Message, *, qos: int | None = None,
                wait_s: float | None = None) -> mqtt.MQTTMessageInfo:
        """Publish a typed message. A state message (QoS 1) published while the bus is reconnecting:
        - with `wait_s` (a tool that waits for answers), waits up to that long for the reconnection, so
          the returned info can be waited on, and raises BusNotConnected when it does not come back;
        - without (the processes' fire-and-forget publishes, and any publish from paho's network
          thread, which does the reconnecting and so must never wait), paho queues it and sends it
          after the reconnect.
        Streams (QoS 0) never wait: published while disconnected they are dropped."""
        if not isinstance(message, spec.model):
            raise TypeError(f"{spec.suffix} carries {spec.model.__name__}, not {type(message).__name__}")
        qos = spec.qos if qos is None else qos
        topic = self.topics(spec)
        if wait_s is not None and qos > 0 and threading.get_ident() != self._network_thread \
                and not self._connected.wait(wait_s):
            raise BusNotConnected(f"{self.process}: no connection to the MQTT broker {self.host}:"
                                  f"{self.settings.port} within {wait_s:.1f} s; {topic} was not sent")
        return self._client.publish(topic, message.encode(), qos=qos, retain=spec.retain)

    def subscribe(self, spec: t.TopicSpec, handler: Callable[[M], None]) -> None:
        """Call handler(message) for every well-formed message on this topic (dispatcher thread).
        Called while connected, returns once the broker has acknowledged the subscription, so a
        message published after it returns reaches the handler."""
        self._add(_Subscription(self.topics(spec), spec.qos, spec, handler))

    def subscribe_tree(self, pattern: str, handler: WildcardHandler) -> None:
        """Subscribe a wildcard below the root (e.g. "agent/control/#"); handler(spec, message).

        Topics under the pattern with no payload model are logged and dropped. Called while
        connected, returns once the broker has acknowledged the subscription (as subscribe()).
        """
        self._add(_Subscription(self.topics(pattern), t.QOS_STATE, None, handler))

    def _add(self, sub: _Subscription) -> None:
        # under the lock _on_connect holds while it opens the session and copies the list, so a
        # subscription added during the handshake is sent by exactly one of the two
        with self._subs_lock:
            self._subs.append(sub)
            self._routes = {}
            session = self._session
        if session:
            self._subscribe_acknowledged(sub.topic, sub.qos)

    def _subscribe_acknowledged(self, topic: str, qos: int) -> None:
        """Send the SUBSCRIBE and wait (at most the connect wait) for the broker's acknowledgement,
        except on paho's network thread, which is the one that reads it."""
        with self._acks:
            readies = self._readies
        result, mid = self._client.subscribe(topic, qos)
        if result != mqtt.MQTT_ERR_SUCCESS or threading.get_ident() == self._network_thread:
            return  # not connected any more: the reconnection subscribes to everything again
        with self._acks:
            acked = self._acks.wait_for(lambda: mid in self._acked_mids or self._readies != readies,
                                        self.settings.connect_wait_s)
            self._acked_mids.discard(mid)
        if not acked:
            log.warning("%s: the broker did not acknowledge the subscription to %s within %.1f s",
                        self.process, topic, self.settings.connect_wait_s)

    # --- paho callbacks (network thread: keep them short) -------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        self._network_thread = threading.get_ident()
        if reason.is_failure:
            log.error("broker %s refused the connection: %s", self.host, reason)
            return
        with self._subs_lock:
            self._session = True
            subs = list(self._subs)
            sync = self._sync_subscribed
        log.info("connected to %s:%s as %s (%d subscriptions)", self.host, self.settings.port, self.process, len(subs))
        if not subs and not sync:
            self._ready(client)
            return
        topics: dict[str, int] = {self._sync_topic: t.QOS_STATE} if sync else {}
        for sub in subs:  # one SUBSCRIBE packet, one acknowledgement to wait for
            topics[sub.topic] = max(sub.qos, topics.get(sub.topic, 0))
        _, self._resubscribed_mid = client.subscribe(list(topics.items()))

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, reasons: Any, props: Any) -> None:
        refused = [r for r in reasons if getattr(r, "is_failure", False)]
        if refused:
            log.error("broker refused %d subscription(s) of %s: %s", len(refused), self.process, refused)
        if mid == self._resubscribed_mid:
            self._ready(client)
            return
        with self._acks:
            self._acked_mids.add(mid)
            self._acks.notify_all()

    def _ready(self, client: mqtt.Client) -> None:
        with self._acks:
            self._readies += 1
            self._acks.notify_all()
        self._connected.set()
        client.publish(
            self.topics(self._status_spec), ProcessStatus(value="online").encode(), qos=t.QOS_STATE, retain=True
        )

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        with self._subs_lock:
            self._session = False
            self._connected.clear()
        if not self._closing:
            log.warning("lost the broker (%s); reconnecting", reason)

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        topic = msg.topic
        if topic == self._sync_topic:
            self._on_sync_echo(msg.payload)
            return
        matches = self._routes.get(topic)
        if matches is None:
            with self._subs_lock:
                matches = [s for s in self._subs if mqtt.topic_matches_sub(s.topic, topic)]
                if len(self._routes) >= ROUTE_CACHE_LIMIT:  # many distinct topics under a wildcard
                    self._routes = {}
                self._routes[topic] = matches
        for sub in matches:
            if sub.quick and self._pending == 0:
                # dispatcher idle and nothing queued: running here keeps handlers serial and in order
                self._run(sub, topic, msg.payload)
                continue
            with self._pending_lock:
                full = self._pending >= self.settings.inbox_limit
                if not full:
                    self._pending += 1
            if full:
                self._drop(topic, "inbox full: handlers are not keeping up")
            else:
                self._inbox.put((sub, topic, msg.payload))

    def _on_sync_echo(self, payload: bytes) -> None:
        try:
            token = int(payload)
        except ValueError:
            self._drop(self._sync_topic, "not a sync token")
            return
        with self._sync_cond:
            self._sync_echoed = max(self._sync_echoed, token)
            self._sync_cond.notify_all()

    # --- dispatcher thread ---------------------------------------------------------------------

    def _dispatch_loop(self) -> None:
        get = self._inbox.get
        while True:
            item = get()
            if item is None:
                return
            try:
                self._run(*item)
            finally:
                with self._pending_lock:
                    self._pending -= 1

    def _run(self, sub: _Subscription, topic: str, payload: bytes) -> None:
        start = time.perf_counter()
        self._handle(sub, topic, payload)
        if time.perf_counter() - start > INLINE_BUDGET_S:
            sub.quick = False
        elif sub.quick is None:
            sub.quick = True

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
            if self._pending == 0:
                return True
            time.sleep(0.01)
        return False

"""The memory inspector web app (Starlette + Jinja templates, no JavaScript build step).

Pages: the people list (/) with a face thumbnail each; per person (/people/<id>) the profile facts
with their history, moments with image, caption and utterance, explicit memories and episodes, each
with when and why it was stored. Forgetting (one memory, or the whole person) asks for confirmation on
a page of its own, then goes through interaction/forget_everywhere.py, the same as the CLI: published on the
forget topics so every running process confirms; with no broker the page says so and offers the
disk-only path. New moments arrive live: MQTT scene_stored -> server-sent events (/events).

Every id from a request is validated (common.store: user and memory ids) and images are served only
from the person's own scene and face folders. Every request must name this server as its Host, and a
change (a POST) must come from one of its own pages with its form's token (scripts/inspector/guard.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from common import topics as t
from common.bus import Bus
from common.config import NadineSettings
from common.messages import CameraStatus, ForgetMemory, SceneStored
from common.store import DataLayout, InvalidUserId, ProfileStore, validate_user_id
from common.store.faces import FaceStore
from common.store.memory_ids import InvalidMemoryId, validate_memory_id
from common.store.scenes import SCENE_ID_RE
from interaction import forget_everywhere
from interaction.memory import inventory
from scripts.inspector.guard import TOKEN_FIELD, FormTokens, SameOriginGuard, form_action, served_hosts

log = logging.getLogger("nadine.inspector")

TEMPLATES = Jinja2Templates(directory=str(Path(__file__).with_name("templates")))
TEMPLATES.env.filters["when"] = inventory.when
TOKEN_COOKIE = "nadine_inspector"
KINDS = {"moment": "moment", "explicit_memory": "explicit memory", "episode": "episode", "fact": "fact"}
KEEPALIVE_S = 15.0


class LiveMoments:
    """MQTT scene_stored -> every open /events stream (one asyncio queue per browser tab)."""

    def __init__(self) -> None:
        self._queues: set[tuple[asyncio.AbstractEventLoop, asyncio.Queue[str]]] = set()
        self._lock = threading.Lock()

    def publish(self, msg: SceneStored) -> None:
        data = json.dumps({"user_id": msg.user_id, "scene_id": msg.scene_id, "caption": msg.description,
                           "utterance": msg.user_message, "scene_type": msg.scene_type,
                           "memorability": msg.memorability, "emotion": msg.emotion_label})
        with self._lock:
            for loop, queue in list(self._queues):
                loop.call_soon_threadsafe(queue.put_nowait, data)

    async def stream(self) -> AsyncIterator[str]:
        entry = (asyncio.get_running_loop(), asyncio.Queue[str]())
        with self._lock:
            self._queues.add(entry)
        try:
            yield ": connected\n\n"
            while True:
                try:
                    data = await asyncio.wait_for(entry[1].get(), KEEPALIVE_S)
                    yield f"event: scene_stored\ndata: {data}\n\n"
                except TimeoutError:
                    yield ": keep-alive\n\n"
        finally:
            with self._lock:
                self._queues.discard(entry)


class TokenGate(BaseHTTPMiddleware):
    """With a token configured, every request carries it (?token= once, then a cookie)."""

    def __init__(self, app: Any, token: str | None) -> None:
        super().__init__(app)
        self.token = token

    async def dispatch(self, request: Request, call_next: Any) -> Response:
        if not self.token:
            return await call_next(request)
        given = request.query_params.get("token") or request.cookies.get(TOKEN_COOKIE) or ""
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            return Response("a valid token is required (open the page once with ?token=...)", status_code=401)
        response = await call_next(request)
        if request.query_params.get("token"):
            response.set_cookie(TOKEN_COOKIE, self.token, httponly=True, samesite="strict")
        return response


class Inspector:
    def __init__(self, settings: NadineSettings, forget_timeout_s: float = 15.0) -> None:
        self.settings = settings
        self.layout = DataLayout(settings.common.data_dir)
        self.forget_timeout_s = forget_timeout_s
        self.tokens = FormTokens()
        self.live = LiveMoments()
        self.bus: Bus | None = None
        self.camera: CameraStatus | None = None  # perception's, from the bus (retained)
        self.perception_online = False

    # --- the bus, for live moments ---------------------------------------------------------------

    def start_bus(self) -> None:
        self.bus = Bus("inspector", self.settings.common.mqtt, t.Topics(self.settings.common.topic_root))
        self.bus.subscribe(t.SCENE_STORED, self.live.publish)
        self.bus.subscribe(t.status_spec("perception"), self._on_perception)
        self.bus.subscribe(t.CAMERA_STATUS, self._on_camera)
        if not self.bus.start(wait_s=3.0):
            log.warning("no broker answers: live moments start when it does (the bus keeps retrying)")

    def _on_perception(self, msg: Any) -> None:
        self.perception_online = msg.value == "online"

    def _on_camera(self, msg: CameraStatus) -> None:
        self.camera = msg

    def camera_line(self) -> str:
        """Who can see what, as perception reports it on the bus."""
        if self.bus is None:
            return "camera: not known (the inspector runs without the bus)"
        if not self.perception_online or self.camera is None:
            return "camera: not known (perception is not running)"
        if self.camera.ok:
            return f"camera: on ({self.camera.source})"
        return f"camera: off ({self.camera.source}: {self.camera.error or 'not delivering'}); identity is by name only"

    def stop_bus(self) -> None:
        if self.bus is not None:
            self.bus.stop()

    # --- request helpers ---------------------------------------------------------------------------

    def _user_id(self, request: Request) -> str:
        try:
            return validate_user_id(request.path_params["user_id"])
        except InvalidUserId as exc:
            raise HTTPException(404, str(exc)) from exc

    def _known(self, user_id: str) -> str:
        if user_id not in ProfileStore(self.layout).user_ids() and not self.layout.user_dir(user_id).is_dir():
            raise HTTPException(404, f"nobody with id {user_id} is stored")
        return user_id

    def _memory(self, request: Request) -> tuple[str, str]:
        kind, memory_id = request.path_params["kind"], request.path_params["memory_id"]
        try:
            return kind, validate_memory_id(kind, memory_id)
        except InvalidMemoryId as exc:
            raise HTTPException(404, str(exc)) from exc

    def _form(self, action_path: str, query: str = "") -> dict[str, str]:
        """A form's action (URL-quoted) and the token the guard expects with it."""
        return {"action": form_action(quote(action_path), query),
                "token": self.tokens.token(form_action(action_path, query)), "field": TOKEN_FIELD}

    @staticmethod
    def _inside(path: Path, folder: Path) -> Path:
        resolved = path.resolve()
        if folder.resolve() not in resolved.parents or not resolved.is_file():
            raise HTTPException(404, "no such image")
        return resolved

    # --- pages ---------------------------------------------------------------------------------------

    async def people(self, request: Request) -> Response:
        return TEMPLATES.TemplateResponse(request, "people.html", {"people": inventory.people(self.layout),
                                                                   "camera": self.camera_line()})

    async def person(self, request: Request) -> Response:
        user_id = self._known(self._user_id(request))
        record = await asyncio.to_thread(inventory.person, self.settings, self.layout, user_id)
        return TEMPLATES.TemplateResponse(request, "person.html", {"p": record, "kinds": KINDS})

    async def face(self, request: Request) -> Response:
        user_id = self._user_id(request)
        images = FaceStore(self.layout).images(user_id)
        if not images:
            raise HTTPException(404, "no face image")
        return FileResponse(self._inside(images[0], self.layout.faces_dir(user_id)))

    async def moment_image(self, request: Request) -> Response:
        user_id = self._user_id(request)
        scene_id = request.path_params["scene_id"]
        if not SCENE_ID_RE.match(scene_id):
            raise HTTPException(404, "invalid scene id")
        folder = self.layout.scenes_dir(user_id) / "images"
        return FileResponse(self._inside(folder / f"{scene_id}.jpg", folder))

    async def confirm(self, request: Request) -> Response:
        user_id = self._known(self._user_id(request))
        kind, memory_id = self._memory(request) if "kind" in request.path_params else (None, None)
        name = ProfileStore(self.layout).user_ids().get(user_id)
        return TEMPLATES.TemplateResponse(request, "confirm.html", {
            "user_id": user_id, "name": name, "kind": kind, "kind_label": KINDS.get(kind or ""),
            "memory_id": memory_id, "form": self._form(request.scope["path"])})

    async def forget(self, request: Request) -> Response:
        user_id = self._user_id(request)
        kind, memory_id = self._memory(request) if "kind" in request.path_params else (None, None)
        use_bus = request.query_params.get("disk_only") != "1"
        if kind is None:
            report, complete = await asyncio.to_thread(
                forget_everywhere.forget_person, self.settings, self.layout, user_id, use_bus,
                self.forget_timeout_s)
        else:
            request_msg = ForgetMemory(user_id=user_id, kind=kind, memory_id=memory_id)
            report, complete = await asyncio.to_thread(
                forget_everywhere.forget_memory, self.settings, self.layout, request_msg, use_bus,
                self.forget_timeout_s)
        no_broker = use_bus and not report["broker"]
        cli = f"python -m scripts.memory forget {user_id} --no-bus" if kind is None else \
            f"python -m scripts.memory forget-memory {user_id} {kind} '{memory_id}' --no-bus"
        return TEMPLATES.TemplateResponse(request, "forgotten.html", {
            "user_id": user_id, "kind_label": KINDS.get(kind or ""), "report": report, "complete": complete,
            "no_broker": no_broker, "cli": cli, "whole": kind is None,
            "disk_only_form": self._form(request.scope["path"], "disk_only=1"),
            "report_json": json.dumps(report, indent=2)}, status_code=200 if complete else 503)

    async def events(self, request: Request) -> Response:
        return StreamingResponse(self.live.stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})


def create_app(settings: NadineSettings, token: str | None = None, with_bus: bool = True,
               forget_timeout_s: float = 15.0, hosts: frozenset[str] = served_hosts("127.0.0.1", 8765)) -> Starlette:
    """`hosts`: the Host values this server answers to (guard.served_hosts of its binding)."""
    inspector = Inspector(settings, forget_timeout_s)
    memory = "/people/{user_id}/memories/{kind}/{memory_id:path}"
    routes = [
        Route("/", inspector.people),
        Route("/people/{user_id}", inspector.person),
        Route("/people/{user_id}/face", inspector.face),
        Route("/people/{user_id}/moments/{scene_id}/image", inspector.moment_image),
        Route("/people/{user_id}/forget", inspector.confirm, methods=["GET"]),
        Route("/people/{user_id}/forget", inspector.forget, methods=["POST"]),
        Route(memory + "/forget", inspector.confirm, methods=["GET"]),
        Route(memory + "/forget", inspector.forget, methods=["POST"]),
        Route("/events", inspector.events),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if with_bus:
            await asyncio.to_thread(inspector.start_bus)
        try:
            yield
        finally:
            await asyncio.to_thread(inspector.stop_bus)

    app = Starlette(routes=routes, lifespan=lifespan, middleware=[
        Middleware(SameOriginGuard, hosts=hosts, tokens=inspector.tokens), Middleware(TokenGate, token=token)])
    app.state.inspector = inspector
    return app

"""What keeps another web page from using the inspector through the operator's browser.

- Host: every request must name this server as the browser reached it (the binding, or a name given
  with --allow-host). A page on an attacker's domain that resolves to 127.0.0.1 (DNS rebinding) names
  its own domain, so it can neither read the people's pages nor post to them.
- Origin: a state-changing request (anything but GET / HEAD / OPTIONS) must come from one of this
  server's own pages: its Origin header, or its Referer when a browser sends no Origin, names an
  allowed host. A form on any other page (another port counts) is refused.
- Form token: a state-changing request carries the token its form was rendered with, an HMAC of the
  method and action under a secret made when the server starts (so a token is good for that one
  form, and none survives a restart).

Refusals are 403 with one line saying what was missing; nothing behind them runs.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from collections.abc import Iterable
from urllib.parse import parse_qs, urlsplit

from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

TOKEN_FIELD = "form_token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
MAX_FORM_BYTES = 16_384  # the forms hold one token; anything larger is not one of ours


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def _host_port(host: str, port: int) -> str:
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 address, as a Host header writes it
    return host if port == 80 else f"{host}:{port}"


def served_hosts(host: str, port: int, allow: Iterable[str] = ()) -> frozenset[str]:
    """The Host values a browser sends for this binding: the bound address (and `localhost` for a
    loopback one), plus the names in `allow` (a bare name gets the port). A wildcard binding (0.0.0.0)
    has no name of its own: only `allow` counts there."""
    names = set() if is_wildcard(host) else {host}
    if is_loopback(host):
        names.add("localhost")
    hosts = {_host_port(n, port) for n in names}
    for name in allow:
        hosts.add(name if urlsplit(f"//{name}").port is not None else _host_port(name, port))
    return frozenset(h.lower() for h in hosts)


class FormTokens:
    """One secret per server start; a token per (method, action)."""

    def __init__(self) -> None:
        self._secret = secrets.token_bytes(32)

    def token(self, action: str, method: str = "POST") -> str:
        return hmac.new(self._secret, f"{method} {action}".encode(), hashlib.sha256).hexdigest()

    def valid(self, action: str, method: str, given: str) -> bool:
        return hmac.compare_digest(self.token(action, method).encode(), given.encode())


def form_action(path: str, query: str = "") -> str:
    """What a form token is made for: the path a form posts to and its query string."""
    return path + (f"?{query}" if query else "")


def request_action(scope: Scope) -> str:
    return form_action(scope["path"], scope.get("query_string", b"").decode("latin-1"))


class SameOriginGuard:
    """ASGI middleware: the Host check on every request; Origin (or Referer) and the form token on
    every state-changing one. The form body is read here and handed on unchanged."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str], tokens: FormTokens) -> None:
        self.app = app
        self.hosts = hosts
        self.tokens = tokens

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        refusal = self._host_refusal(request)
        if refusal is None and request.method not in SAFE_METHODS:
            refusal = self._origin_refusal(request)
            if refusal is None:
                body = await self._body(request)
                refusal = self._token_refusal(scope, request.method, body)
                receive = _replay(body, receive)
        if refusal is not None:
            await PlainTextResponse(refusal, status_code=403)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _allowed(self) -> str:
        return ", ".join(sorted(self.hosts)) or "(none: start it with --allow-host)"

    def _host_refusal(self, request: Request) -> str | None:
        host = request.headers.get("host", "").lower()
        if host in self.hosts:
            return None
        return f"refused: this inspector answers as {self._allowed()}, not {host or 'a request without Host'}"

    def _origin_refusal(self, request: Request) -> str | None:
        origin = request.headers.get("origin")
        source = origin if origin is not None else request.headers.get("referer")
        if source is None:
            return "refused: a change must come from one of the inspector's pages (no Origin or Referer header)"
        parts = urlsplit(source)
        if parts.scheme in ("http", "https") and parts.netloc.lower() in self.hosts:
            return None
        return f"refused: a change must come from one of the inspector's pages, not from {source}"

    async def _body(self, request: Request) -> bytes:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_FORM_BYTES:
                break
        return body

    def _token_refusal(self, scope: Scope, method: str, body: bytes) -> str | None:
        stale = "refused: the form's token is missing or out of date; open the page again and resubmit"
        if len(body) > MAX_FORM_BYTES:
            return stale
        given = parse_qs(body.decode("latin-1")).get(TOKEN_FIELD, [""])
        return None if len(given) == 1 and self.tokens.valid(request_action(scope), method, given[0]) else stale


def _replay(body: bytes, receive: Receive) -> Receive:
    """The app reads the body the guard already consumed; later receives (a disconnect) pass through."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay

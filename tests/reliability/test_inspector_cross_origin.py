"""A web page on another origin (another port of this machine) auto-submits a forget form to the running
inspector, in Debian's headless Chromium, with a valid form token even (as if one leaked): the browser
lands on the inspector's refusal and the person is whole, byte for byte. The inspector's own
confirmation page, in the same browser, then forgets them."""

from __future__ import annotations

import re
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.reliability.populate import plant_pair
from tests.reliability.test_inspector_browser import WAIT_S, _free_port, _wait_http, browser  # noqa: F401
from tests.reliability.test_inspector_guard import _held
from tests.reliability.traces import find_traces
from tests.support import NadineProcess, process_env, unique_root

pytestmark = pytest.mark.slow


def _serve(page: str) -> ThreadingHTTPServer:
    """The attacker's site: one page, on its own port."""
    body = page.encode()

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def test_a_form_on_another_origin_is_refused_in_a_browser(broker, browser, tmp_path):  # noqa: F811
    from selenium.webdriver.support.ui import WebDriverWait

    layout, maya, _, _ = plant_pair(tmp_path, 9)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    inspector = NadineProcess("scripts.inspector", process_env(broker, unique_root(), layout.root, tmp_path / "logs"),
                              ["--port", str(port)])
    attacker = None
    try:
        _wait_http(base + "/")
        with urllib.request.urlopen(f"{base}/people/{maya.user_id}/forget", timeout=10) as page:
            leaked = re.search(r'name="form_token" value="([0-9a-f]+)"', page.read().decode()).group(1)
        attacker = _serve(f"""<!doctype html><title>win a prize</title>
<form id="f" method="post" action="{base}/people/{maya.user_id}/forget">
<input type="hidden" name="form_token" value="{leaked}"></form>
<script>document.getElementById("f").submit()</script>""")
        before = _held(layout, maya.user_id)

        wait = WebDriverWait(browser, WAIT_S)
        browser.get(f"http://127.0.0.1:{attacker.server_port}/")
        wait.until(lambda d: d.current_url.startswith(base))
        refusal = browser.find_element("tag name", "body").text
        assert refusal.startswith("refused: a change must come from one of the inspector's pages"), refusal
        assert f"127.0.0.1:{attacker.server_port}" in refusal
        assert _held(layout, maya.user_id) == before

        # the inspector's own page, in the same browser, still forgets
        browser.get(f"{base}/people/{maya.user_id}/forget")
        browser.find_element("id", "confirm-forget").click()
        wait.until(lambda d: d.find_elements("id", "forgotten") or d.find_elements("id", "missing")
                   or d.find_elements("id", "no-broker"))
        assert browser.find_elements("id", "forgotten"), browser.find_element("tag name", "body").text
        assert find_traces(layout.root, maya.needles()) == []
    finally:
        if attacker is not None:
            attacker.shutdown()
        inspector.stop()

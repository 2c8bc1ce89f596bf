"""The inspector refuses a change that does not come from its own form: no token, a wrong or stale one,
another form's, a foreign Origin or Referer (another port counts), none at all, or a foreign Host (DNS
rebinding); the person stays whole, byte for byte. The right form, from the page, forgets them, and
the forget waits for the processes online (a real broker, none of them running)."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from common.config import load_settings
from common.store import ProfileStore
from scripts.inspector.app import create_app
from scripts.inspector.guard import served_hosts
from tests.reliability.populate import plant_pair
from tests.reliability.test_inspector import BASE, post_form
from tests.reliability.test_memory_cli import save_episodes
from tests.reliability.traces import find_traces


@pytest.fixture(scope="module")
def planted(tmp_path_factory, broker):
    from tests.support import unique_root

    layout, maya, bob, _ = plant_pair(tmp_path_factory.mktemp("guard"), 5)
    save_episodes(layout, [maya, bob])
    settings = load_settings(overrides=[
        f"common.data_dir={layout.root}", f"common.mqtt.primary_host={broker.host}",
        f"common.mqtt.port={broker.port}", "common.mqtt.fallback_host=null", f"common.topic_root={unique_root()}"])
    app = create_app(settings, with_bus=False, forget_timeout_s=5.0)
    with TestClient(app, base_url=BASE) as client:
        yield layout, maya, bob, settings, client


def _held(layout, user_id: str) -> dict[str, bytes]:
    """Every byte of the person's folder, and their entry in user_ids.json."""
    folder = layout.user_dir(user_id)
    held = {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
    held["user_ids.json entry"] = ProfileStore(layout).user_ids().get(user_id, "").encode()
    return held


def _token(page) -> str:
    return re.search(r'name="form_token" value="([0-9a-f]+)"', page.text).group(1)


FOREIGN = "http://127.0.0.1:9999"  # the same machine on another port is another origin


def _attempts(client: TestClient, maya_id: str, bob_id: str, settings) -> dict[str, dict]:
    """Posts to Maya's forget, each missing one thing the right form has."""
    token = _token(client.get(f"/people/{maya_id}/forget"))
    with TestClient(create_app(settings, with_bus=False), base_url=BASE) as restarted:
        stale = _token(restarted.get(f"/people/{maya_id}/forget"))
    return {
        "no token": {"headers": {"Origin": BASE}},
        "a wrong token": {"data": {"form_token": "0" * 64}, "headers": {"Origin": BASE}},
        "two tokens": {"data": {"form_token": [token, "0" * 64]}, "headers": {"Origin": BASE}},
        "another form's token": {"data": {"form_token": _token(client.get(f"/people/{bob_id}/forget"))},
                                 "headers": {"Origin": BASE}},
        "a token from another server start": {"data": {"form_token": stale}, "headers": {"Origin": BASE}},
        "a foreign Origin": {"data": {"form_token": token}, "headers": {"Origin": FOREIGN}},
        "Origin null": {"data": {"form_token": token}, "headers": {"Origin": "null"}},
        "a foreign Referer": {"data": {"form_token": token}, "headers": {"Referer": FOREIGN + "/attack.html"}},
        "no Origin or Referer": {"data": {"form_token": token}},
        "a foreign Host": {"data": {"form_token": token},
                           "headers": {"Host": "rebound.example:8765", "Origin": "http://rebound.example:8765"}},
    }


def test_a_change_without_the_pages_form_is_refused_and_the_person_stays(planted):
    layout, maya, bob, settings, client = planted
    before = _held(layout, maya.user_id)
    assert len(before) > 5 and before["user_ids.json entry"] == b"Maya"
    for what, request in _attempts(client, maya.user_id, bob.user_id, settings).items():
        refused = client.post(f"/people/{maya.user_id}/forget", **request)
        assert refused.status_code == 403, what
        assert refused.text.startswith("refused: "), (what, refused.text)
        assert _held(layout, maya.user_id) == before, what
    # and outside her folder: her episode in Chroma, her study-log records
    assert {label for _, label in find_traces(layout.root, maya.needles())} >= {"name:Maya", "image", "vector"}


def test_refusals_say_what_is_missing(planted):
    _, maya, _, _, client = planted
    token = _token(client.get(f"/people/{maya.user_id}/forget"))
    no_token = client.post(f"/people/{maya.user_id}/forget", headers={"Origin": BASE}).text
    assert "token is missing or out of date" in no_token and "open the page again" in no_token
    foreign = client.post(f"/people/{maya.user_id}/forget", data={"form_token": token}, headers={"Origin": FOREIGN})
    assert f"not from {FOREIGN}" in foreign.text
    rebound = client.get("/", headers={"Host": "rebound.example:8765"})
    assert rebound.status_code == 403 and "answers as 127.0.0.1:8765, localhost:8765" in rebound.text
    assert "Maya" not in client.get(f"/people/{maya.user_id}", headers={"Host": "rebound.example"}).text


def test_the_hosts_a_binding_answers_as():
    assert served_hosts("127.0.0.1", 8765) == {"127.0.0.1:8765", "localhost:8765"}
    assert served_hosts("::1", 80) == {"[::1]", "localhost"}
    assert served_hosts("192.168.1.20", 8765) == {"192.168.1.20:8765"}
    assert served_hosts("0.0.0.0", 8765) == set()  # no name of its own: --allow-host is required
    assert served_hosts("0.0.0.0", 8765, ["Robot.local", "10.0.0.5:80"]) == {"robot.local:8765", "10.0.0.5:80"}


def test_the_pages_form_forgets_and_waits_for_the_processes(planted):
    layout, maya, bob, _, client = planted
    done = post_form(client, client.get(f"/people/{bob.user_id}/forget"))
    assert done.status_code == 200 and 'id="forgotten"' in done.text, done.text
    assert find_traces(layout.root, bob.needles()) == []
    assert _held(layout, maya.user_id)["user_ids.json entry"] == b"Maya"

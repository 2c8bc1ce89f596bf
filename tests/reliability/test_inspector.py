"""The memory inspector's pages and the person inventory, in-process on a data root filled by the real
stores and the real episodic memory (Chroma + MiniLM): what is shown, what is refused (ids, paths,
missing token), and forgetting one memory with no broker answering (disk path, said on the page)."""

from __future__ import annotations

import html
import json
import re
import socket
from datetime import datetime

import numpy as np
import pytest
from starlette.testclient import TestClient

from common.config import load_settings
from common.store import ProfileStore, SceneStore
from common.store.facts import FactChange
from scripts import memory as memory_cli
from scripts.inspector.__main__ import main as inspector_main
from scripts.inspector.app import create_app
from tests.reliability.populate import plant_pair
from tests.reliability.test_memory_cli import save_episodes

EXPLICIT = "the spare key is under the blue flower pot"
BASE = "http://127.0.0.1:8765"  # the default binding: the only Host and Origin the app accepts


def post_form(client: TestClient, page, **headers: str):
    """What a browser does on a page with one form: post it, with its token, from the page's origin."""
    action = re.search(r'<form method="post" action="([^"]+)">', page.text).group(1)
    token = re.search(r'name="form_token" value="([0-9a-f]+)"', page.text).group(1)
    return client.post(html.unescape(action), data={"form_token": token}, headers={"Origin": BASE, **headers})


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    from common.config.interaction_settings import ChromaSettings
    from interaction.memory.chroma_store import make_client

    tmp = tmp_path_factory.mktemp("inspector")
    layout, maya, bob, _ = plant_pair(tmp, 7)
    save_episodes(layout, [maya, bob])
    collection = make_client(ChromaSettings(), layout.chroma_dir).get_collection(maya.user_id, embedding_function=None)
    collection.add(ids=["explicit_1"], documents=[EXPLICIT], embeddings=[np.full(384, 0.05).tolist()], metadatas=[{
        "kind": "explicit_memory", "user_id": maya.user_id, "occurred_at": "2026-01-02T10:00:00",
        "occurred_ts": 1767348000.0, "source_turn": "t9"}])
    store = ProfileStore(layout)
    store.apply(maya.user_id, [FactChange(field="location", op="set", value="Paris")], datetime(2026, 1, 1, 12))
    store.apply(maya.user_id, [FactChange(field="location", op="supersede", value="Lyon", confidence=0.9)],
                datetime(2026, 1, 5, 12))
    settings = load_settings(overrides=[f"common.data_dir={layout.root}", "common.mqtt.primary_host=127.0.0.1",
                                        f"common.mqtt.port={_closed_port()}", "common.mqtt.fallback_host=null"])
    return layout, maya, bob, settings


def test_show_prints_everything_held_about_a_person(planted, capsys):
    layout, maya, _, _ = planted
    assert memory_cli.main(["--data-dir", str(layout.root), "show", maya.user_id, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    location = next(f for f in shown["facts"] if f["field"] == "location")
    assert location["current"] == "Lyon"
    assert [(r["value"], r["ended"]) for r in location["history"]] == [("Lyon", None), ("Paris", "superseded")]
    assert [e["text"] for e in shown["explicit_memories"]] == [EXPLICIT]
    assert shown["explicit_memories"][0]["source_turn"] == "t9"
    assert len(shown["moments"]) == 2 and all(m["image_path"] and m["utterance"] and m["why"] for m in shown["moments"])
    assert len(shown["episodes"]) == 1 and "Maya" in shown["episodes"][0]["summary"]
    assert shown["face_images"] == 1 and shown["user_name"] == "Maya"


def test_pages_show_people_and_refuse_bad_ids_and_paths(planted):
    layout, maya, bob, settings = planted
    with TestClient(create_app(settings, with_bus=False), base_url=BASE) as client:
        people = client.get("/").text
        assert "Maya" in people and "Bob" in people and f"/people/{maya.user_id}/face" in people
        page = client.get(f"/people/{maya.user_id}").text
        assert "Lyon" in page and "Paris" in page and "replaced" in page and EXPLICIT in page
        scene = SceneStore(layout).list(maya.user_id)[0]
        assert f"/people/{maya.user_id}/moments/{scene.scene_id}/image" in page and scene.user_message in page
        assert client.get(f"/people/{maya.user_id}/moments/{scene.scene_id}/image").content[:2] == b"\xff\xd8"
        assert client.get(f"/people/{maya.user_id}/face").status_code == 200
        for bad in ("/people/..%2F..%2Fetc", "/people/260101_0001/moments/..%2F..%2Fuser_info/image",
                    f"/people/{bob.user_id}/moments/{scene.scene_id}/image",  # Maya's scene under Bob's id
                    "/people/999999_9999", "/people/260101_0001/memories/passwords/x/forget"):
            assert client.get(bad).status_code == 404, bad


def test_a_token_is_required_off_loopback(planted, capsys):
    _, maya, _, settings = planted
    assert inspector_main(["--host", "0.0.0.0", "--port", "1"]) == 2
    assert "token is required" in capsys.readouterr().err
    with TestClient(create_app(settings, token="s3cret", with_bus=False), base_url=BASE) as client:
        assert client.get("/").status_code == 401
        assert client.get("/?token=wrong").status_code == 401
        assert client.get("/?token=s3cret").status_code == 200
        assert client.get(f"/people/{maya.user_id}").status_code == 200  # the cookie carries it on


def test_forget_one_memory_with_no_broker_says_so_and_erases_on_disk(planted):
    layout, maya, _, settings = planted
    scene = SceneStore(layout).list(maya.user_id)[-1]
    with TestClient(create_app(settings, with_bus=False, forget_timeout_s=2.0), base_url=BASE) as client:
        confirm = client.get(f"/people/{maya.user_id}/memories/moment/{scene.scene_id}/forget")
        assert "Yes, forget" in confirm.text and not list(layout.root.rglob(f"{scene.scene_id}*")) == []
        done = post_form(client, confirm)
        assert done.status_code == 200 and "No broker answered" in done.text
        assert "forget-memory" in done.text and list(layout.root.rglob(f"{scene.scene_id}*")) == []
        disk_only = post_form(client, done)  # the page's "Erase on disk only now" form carries its own token
        assert disk_only.status_code == 200 and "No broker answered" not in disk_only.text
        for memory in ("explicit_memory/explicit_1", "fact/location:Paris"):
            assert post_form(client, client.get(f"/people/{maya.user_id}/memories/{memory}/forget")).status_code == 200
        page = client.get(f"/people/{maya.user_id}").text
    assert EXPLICIT not in page and "Paris" not in page and "Lyon" in page
    assert not any(EXPLICIT.encode() in p.read_bytes() for p in layout.chroma_dir.rglob("*") if p.is_file())


def test_forget_memory_cli_refuses_bad_ids_and_erases_a_fact(planted, capsys):
    layout, maya, bob, _ = planted
    root = ["--data-dir", str(layout.root)]
    assert memory_cli.main([*root, "forget-memory", "../x", "moment", "scene_20260101_120000"]) == 2
    assert memory_cli.main([*root, "forget-memory", maya.user_id, "moment", "../../user_info"]) == 2
    before = ProfileStore(layout).load(bob.user_id).model_dump()
    assert memory_cli.main([*root, "forget-memory", bob.user_id, "fact", "hobbies:chess", "--no-bus"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["local"] == {"facts": 1}
    after = ProfileStore(layout).load(bob.user_id)
    assert before["hobbies"] == ["chess"] and after.hobbies == [] and after.history("hobbies") == []

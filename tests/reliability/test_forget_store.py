"""common.store.forget on a data root filled by the real stores and a real ChromaDB."""

from __future__ import annotations

import json

import numpy as np
import pytest

from common.store import DataLayout, InvalidUserId, ProfileStore, SceneStore
from common.store.forget import PSEUDONYM_PREFIX, forget_user_files, purge_chroma_remnants
from tests.reliability.populate import plant_chroma, plant_pair, plant_study_logs, plant_user
from tests.reliability.traces import find_traces


@pytest.fixture
def planted(tmp_path):
    layout, maya, bob, rng = plant_pair(tmp_path, 7)
    (layout.captures_dir / "samples").mkdir(parents=True)
    (layout.captures_dir / "capture_1.jpg").write_bytes(maya.images[0])
    return layout, maya, bob, rng


def test_forget_leaves_no_byte_of_the_user_and_keeps_the_other(planted):
    layout, maya, bob, rng = planted
    client = plant_chroma(layout.chroma_dir, [maya, bob], rng)
    assert find_traces(layout.root, maya.needles())  # the oracle sees the user before

    counts = forget_user_files(layout, maya.user_id)
    client.delete_collection(f"user_{maya.user_id}")
    assert purge_chroma_remnants(layout.chroma_dir) == 1  # the deleted collection's HNSW folder

    assert counts["scenes"] == 2 and counts["faces"] == 1 and counts["profile"] == 1
    assert counts["user_ids"] == 1 and counts["captures"] == 1 and counts["study_log_files"] == 3
    assert find_traces(layout.root, maya.needles()) == []
    # the other user is whole: profile, scenes, Chroma documents, study-log records
    assert ProfileStore(layout).user_ids() == {bob.user_id: "Bob"}
    assert len(SceneStore(layout).list(bob.user_id)) == 2
    assert client.get_collection(f"user_{bob.user_id}").count() == 1200
    records = [json.loads(line) for line in
               (layout.study_logs_dir / "A_anon_20260101_120000.jsonl").read_text().splitlines()]
    assert records[1]["user_id"] == bob.user_id and "Bob" in records[1]["robot_text"]
    # the forgotten user's records stay for the study, under one pseudonym
    assert records[0]["user_id"].startswith(PSEUDONYM_PREFIX)
    assert records[0]["robot_text"] == f"Nice to meet you, {records[0]['user_id']}!"
    assert (layout.study_logs_dir / "by_user" / f"{records[0]['user_id']}.jsonl").exists()


def test_forget_is_idempotent(planted):
    layout, maya, _, _ = planted
    forget_user_files(layout, maya.user_id)
    again = forget_user_files(layout, maya.user_id)
    assert again == {"scenes": 0, "faces": 0, "profile": 0, "user_ids": 0, "captures": 0, "study_log_files": 0}


def test_names_from_another_process_are_scrubbed_after_the_files_are_gone(planted):
    layout, maya, _, _ = planted
    ProfileStore(layout).remove_id(maya.user_id)  # another process got there first
    (layout.user_dir(maya.user_id) / "user_info.json").unlink()
    forget_user_files(layout, maya.user_id, names=["Maya"])
    assert find_traces(layout.study_logs_dir, maya.needles()) == []


@pytest.mark.parametrize("bad", ["../260101_0001", "a/b", "", "..", "x" * 65, "260101_0001\n", "/etc"])
def test_path_tricks_touch_nothing(planted, bad):
    layout, maya, bob, _ = planted
    before = sorted(str(p) for p in layout.root.rglob("*"))
    with pytest.raises(InvalidUserId):
        forget_user_files(layout, bad)
    assert sorted(str(p) for p in layout.root.rglob("*")) == before


def test_short_names_do_not_eat_other_words(tmp_path):
    layout = DataLayout(tmp_path)
    rng = np.random.default_rng(1)
    ann = plant_user(layout, "260101_0003", "Ann", rng)
    plant_study_logs(layout, [ann])
    log = layout.study_logs_dir / "notes.log"
    log.write_text("Annual review with Ann and ANN; Joanna stays.\n")
    forget_user_files(layout, ann.user_id)
    text = log.read_text()
    assert "Annual" in text and "Joanna" in text and "Ann " not in text and "ANN;" not in text


def test_processes_forgetting_at_once_do_not_trip_over_each_other(tmp_path):
    """perception and interaction both pseudonymise when the same forget_user arrives."""
    import threading

    layout = DataLayout(tmp_path)
    rng = np.random.default_rng(5)
    users = [plant_user(layout, f"260101_{i:04d}", f"Person{i}", rng) for i in range(1, 4)]
    for _ in range(30):
        plant_study_logs(layout, users)
    errors: list[BaseException] = []

    def forget() -> None:
        try:
            forget_user_files(layout, users[0].user_id, names=["Person1"])
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=forget) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    assert find_traces(layout.root, users[0].needles()) == []
    assert find_traces(layout.root, users[1].needles())

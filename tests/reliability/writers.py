"""Writer processes for the crash and concurrency tests (run as `python -m tests.reliability.writers`).

  profiles DATA_DIR TAG N GO_FILE   N interleaved user_ids.json / user_info.json updates, minted ids on stdout
  scenes DATA_DIR USER_ID           stores scenes in a loop until killed (one dot on stdout per scene)
  episodes DATA_DIR USER_ID         saves episodes with interaction's episodic memory until killed (a dot each)
"""

from __future__ import annotations

import json
import sys
import time
from datetime import datetime
from pathlib import Path

import numpy as np

from common.store import DataLayout, ProfileStore, SceneMetadata, SceneStore, new_scene_id

SHARED_USER = "260101_0001"


def profiles(data_dir: str, tag: str, n: int, go_file: str) -> None:
    store = ProfileStore(DataLayout(Path(data_dir)))
    Path(f"{go_file}.{tag}.ready").touch()  # imported and waiting at the start line
    while not Path(go_file).exists():  # start together, so the writers really interleave
        time.sleep(0.001)
    now = datetime(2026, 1, 1, 12, 0, 0)
    minted = []
    for i in range(n):
        store.set_name(f"{tag}{i:04d}", f"name {tag} {i}")
        store.update(SHARED_USER, {"hobbies": [f"{tag}-{i}"]}, now)
        if i % 10 == 0:
            minted.append(store.mint_user_id(f"minted {tag} {i}", now))
    print(json.dumps(minted))


def scenes(data_dir: str, user_id: str) -> None:
    store = SceneStore(DataLayout(Path(data_dir)))
    rng = np.random.default_rng()
    jpeg = b"\xff\xd8" + rng.bytes(400_000) + b"\xff\xd9"  # large, so a kill often lands mid-write
    while True:
        now = datetime.now()
        meta = SceneMetadata(scene_id=new_scene_id(now), timestamp=now.isoformat(), image_path="",
                             memorability=0.9, user_message="crash test")
        store.write(user_id, meta, jpeg, rng.normal(size=512))
        sys.stdout.write(".")
        sys.stdout.flush()


def episodic_memory(data_dir: str):
    from common.clock import Clock
    from common.config.interaction_settings import ChromaSettings
    from common.embedding.chroma import NadineEmbeddingFunction
    from common.embedding.registry import offline_text_embedder
    from interaction.memory.chroma_store import make_client
    from interaction.memory.episodic import EpisodicMemory

    layout = DataLayout(Path(data_dir))
    client = make_client(ChromaSettings(), layout.chroma_dir)
    return EpisodicMemory(client, NadineEmbeddingFunction(offline_text_embedder()), Clock(None))


def episodes(data_dir: str, user_id: str) -> None:
    from interaction.memory.contracts import EpisodicSave, TranscriptTurn

    memory = episodic_memory(data_dir)
    n = 0
    while True:
        n += 1
        turns = [TranscriptTurn("user", f"Sentence {n} about sailing " * 20, datetime.now())]
        memory.save(user_id, "Maya", turns, EpisodicSave(observation=f"visit {n}", thought="t", action="a",
                                                          result="r"))
        sys.stdout.write(".")
        sys.stdout.flush()


if __name__ == "__main__":
    kind, *rest = sys.argv[1:]
    if kind == "profiles":
        profiles(rest[0], rest[1], int(rest[2]), rest[3])
    elif kind == "episodes":
        episodes(rest[0], rest[1])
    else:
        scenes(rest[0], rest[1])

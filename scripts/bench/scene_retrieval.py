"""Scene retrieval time for one user with 100 / 1,000 / 10,000 scenes: the in-memory index
(interaction/memory/scene_index.py) against re-reading the scene files from disk on every turn.

    .venv/bin/python -m scripts.bench.scene_retrieval [--sizes 100 1000 10000] [--queries 30]

Scenes are metadata files as perception writes them (utterance, caption, timestamp), made from
templates. Per size it prints one JSON line: the index's median / p95 time per retrieval (query
embedding + matrix product + selection, folder check included), the time of a turn that re-reads
every metadata file (`disk_read_ms`), and of one that also re-embeds every retrieval text as an
index-less implementation must (`disk_read_embed_ms`: that is what building the index does once, so
the build is timed), with the ratios. Target: index < 20 ms at
10,000 scenes. The last line is a summary; exit code 0 when the target holds.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

from common.config import load_settings
from common.embedding import offline_text_embedder
from common.store import DataLayout
from common.store.scenes import SceneMetadata, SceneStore, new_scene_id
from interaction.memory.scene_index import RECENT_MTIME_S, SceneIndex, select
from scripts.eval.stats import percentile

USER = "251008_0001"
TARGET_MS = 20.0
EVENTS = ["defended my PhD thesis", "ran my first marathon", "got engaged", "adopted a puppy", "lost my job",
          "moved into a new flat", "passed my driving test", "broke my arm", "won a chess tournament",
          "finished my first novel", "started learning the piano", "visited my grandmother"]
PLACES = ["in Geneva", "in Lisbon", "at the lab", "at home", "in Singapore", "at the beach", "in Tokyo",
          "at school", "in the mountains", "at my parents' house"]
FEELINGS = ["I'm so happy!", "I can't believe it!", "I'm so sad.", "I'm really nervous.", "it was amazing!"]
QUERIES = ["Do you remember my marathon?", "I'm having a great day today!", "Remember when I got engaged?",
           "Do you remember what I told you last time?", "How is the puppy doing?", "What's the weather like?"]


def write_scenes(layout: DataLayout, n: int) -> None:
    """Metadata files only (the commit marker the index reads); plain writes keep setup fast."""
    folder = layout.scenes_dir(USER) / "metadata"
    folder.mkdir(parents=True, exist_ok=True)
    texts = itertools.cycle(itertools.product(EVENTS, PLACES, FEELINGS))
    start = datetime(2026, 1, 1, 9, 0)
    for i in range(n):
        when = start + timedelta(minutes=7 * i)
        event, place, feeling = next(texts)
        scene_id = new_scene_id(when)
        meta = SceneMetadata(
            scene_id=scene_id, timestamp=when.isoformat(), memorability=0.5 + (i % 50) / 100,
            image_path=str(layout.scenes_dir(USER) / "images" / f"{scene_id}.jpg"),
            description="A photo with a person (looking happy).",
            user_message=f"I {event} {place}, {feeling}", reason="bench",
        )
        (folder / f"{scene_id}_metadata.json").write_text(meta.model_dump_json(exclude_none=True))


def disk_read_ms(store: SceneStore) -> float:
    """The file part of a turn without an index: read and validate every metadata file."""
    start = time.perf_counter()
    [m for m in store.list(USER) if m.description and m.retrieval_text]
    return (time.perf_counter() - start) * 1000


def bench(size: int, queries: int, root: Path) -> dict:
    layout = DataLayout(root / f"n{size}")
    write_scenes(layout, size)
    settings = load_settings(environ={}, overrides=[f"common.data_dir={layout.root}"])
    store = SceneStore(layout)
    embedder = offline_text_embedder()
    index = SceneIndex(settings, store, embedder, embedder)
    t0 = time.perf_counter()
    index.retrieve(USER, QUERIES[0], is_recall=True)  # reads every file and embeds every text, once
    build_s = time.perf_counter() - t0
    time.sleep(max(0.0, RECENT_MTIME_S + 0.1 - build_s))  # past the folder's "recently changed" window
    times = []
    for i in range(queries):
        q = QUERIES[i % len(QUERIES)]
        start = time.perf_counter()
        scored = index.scores(USER, q, is_recall=i % 2 == 0)
        select(scored, q, is_recall=i % 2 == 0)
        times.append((time.perf_counter() - start) * 1000)
    read = statistics.median(disk_read_ms(store) for _ in range(3))
    read_embed = build_s * 1000
    p50 = percentile(times, 50)
    return {
        "scenes": size, "index_ms": round(p50, 2),
        "index_p95_ms": round(percentile(times, 95), 2), "disk_read_ms": round(read, 1),
        "disk_read_embed_ms": round(read_embed, 1), "ratio_read": round(read / p50, 1),
        "ratio_read_embed": round(read_embed / p50, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.bench.scene_retrieval")
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10000])
    parser.add_argument("--queries", type=int, default=30)
    args = parser.parse_args(argv)
    offline_text_embedder().embed(["warm up"])
    rows = []
    with tempfile.TemporaryDirectory(prefix="nadine-bench-scenes-") as tmp:
        for size in args.sizes:
            rows.append(bench(size, args.queries, Path(tmp)))
            print(json.dumps(rows[-1]), flush=True)
    largest = rows[-1]
    ok = largest["index_ms"] < TARGET_MS
    print(json.dumps({"largest": largest["scenes"], "index_ms": largest["index_ms"], "target_ms": TARGET_MS,
                      "met": ok}))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

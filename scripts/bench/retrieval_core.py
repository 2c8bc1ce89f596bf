"""Speed of the retrieval core (interaction/memory/retrieval), every ratio measured in this one run.

    .venv/bin/python -m scripts.bench.retrieval_core [--scenes 10000 100000] [--queries 40] [--sessions 30]

1. Scene retrieval of an ordinary turn for one user with N scenes (query embedding + matrix product
   + selection; the index is updated by on_scene_stored and the background check, so a turn lists no
   folder): median and p95, against the target (10,000: 8 ms, 100,000: 30 ms), and the time a turn
   would spend listing the metadata folder as the index did before (`listing_ms`).
2. A recall turn through LocalMemoryServices (text turns + summaries + 1,000 scenes, dense + BM25,
   the cross-encoder on the shortlist, the calibrated decision): p95 against 80 ms, with and without
   the verifier.
Scene texts come from templates; building the index embeds each distinct text once (a cache in
this script: only the build is sped up, every query is embedded for real). Exit 0 when every
target holds.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np

from common.clock import Clock
from common.config import load_settings
from common.embedding import offline_text_embedder
from common.store import DataLayout
from common.store.scenes import SceneStore
from interaction.memory.contracts import EpisodicSave, TranscriptTurn
from interaction.memory.local_services import LocalMemoryServices
from interaction.memory.scene_index import SceneIndex, select
from scripts.bench.scene_retrieval import EVENTS, FEELINGS, PLACES, USER, write_scenes
from scripts.eval.stats import percentile

SCENE_TARGETS_MS = {10_000: 8.0, 100_000: 30.0}
RECALL_TARGET_P95_MS = 80.0
ORDINARY = ["I'm having a great day today!", "The weather is lovely in Geneva.", "I'm going hiking this weekend.",
            "My puppy chewed my shoes again.", "I cooked a curry tonight.", "Work was busy today."]
RECALL = ["Do you remember my marathon?", "Remember when I got engaged?", "What did I tell you about Tokyo?",
          "Do you remember my first boat?", "What did I tell you yesterday?", "What did we talk about last time?",
          "What happened with my job?", "Do you remember my piano lessons?"]


class BuildCache:
    """The offline embedder, with a cache used only while `building` (template texts repeat)."""

    def __init__(self) -> None:
        self._inner = offline_text_embedder()
        self.name, self.dim = self._inner.name, self._inner.dim
        self.building = True
        self._cache: dict[str, np.ndarray] = {}

    def embed(self, texts: list[str]) -> np.ndarray:
        if not self.building:
            return self._inner.embed(texts)
        new = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if new:
            self._cache.update(zip(new, self._inner.embed(new), strict=True))
        return np.vstack([self._cache[t] for t in texts]) if texts else np.zeros((0, self.dim), np.float32)


def _ms(fn) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def scene_bench(size: int, queries: int, root: Path) -> dict:
    layout = DataLayout(root / f"scenes{size}")
    write_scenes(layout, size, datetime(2020, 1, 1, 9, 0))
    settings = load_settings(environ={}, overrides=[f"common.data_dir={layout.root}"])
    store = SceneStore(layout)
    embedder = BuildCache()
    index = SceneIndex(settings, store, embedder, embedder)  # type: ignore[arg-type]
    build = _ms(lambda: index.retrieve(USER, ORDINARY[0], is_recall=False))
    embedder.building = False
    times = []
    for i in range(queries):
        q = f"{ORDINARY[i % len(ORDINARY)]} ({i})"  # never the same query twice
        times.append(_ms(lambda q=q: select(index.scores(USER, q, is_recall=False), q, False)))
    listing = float(np.median([_ms(lambda: store.metadata_files(USER)) for _ in range(3)]))
    index.close()
    p50 = percentile(times, 50)
    target = SCENE_TARGETS_MS.get(size)
    return {"bench": "scene_ordinary_turn", "scenes": size, "median_ms": round(p50, 2),
            "p95_ms": round(percentile(times, 95), 2), "build_s": round(build / 1000, 1),
            "listing_ms": round(listing, 1), "ratio_listing_to_turn": round(listing / p50, 1),
            "target_ms": target, "ratio_to_target": round(p50 / target, 2) if target else None,
            "met": p50 < target if target else None}


def recall_bench(sessions: int, queries: int, root: Path) -> list[dict]:
    layout = DataLayout(root / "recall")
    layout.root.mkdir(parents=True, exist_ok=True)
    clock = Clock(layout.runtime_dir)
    out = []
    for verifier in ("cross_encoder_onnx", "none"):
        settings = load_settings(environ={}, overrides=[
            f"common.data_dir={layout.root}", f"interaction.retrieval.recall.verifier={verifier}"])
        services = LocalMemoryServices(settings, layout, clock, bus=None)
        if verifier != "none":  # the store is written once and read by both runs
            write_scenes(layout, 1000, clock.now() - timedelta(days=2 * sessions))
            texts = itertools.cycle(itertools.product(EVENTS, PLACES, FEELINGS))
            summary = EpisodicSave(observation="A chat.", thought="-", action="-", result="-")
            for s in range(sessions):
                at = clock.now() - timedelta(days=sessions - s)
                turns = [TranscriptTurn("user" if t % 2 == 0 else "nadine",
                                        "I {} {}, {}".format(*next(texts)) if t % 2 == 0 else "Tell me more!",
                                        at + timedelta(seconds=t)) for t in range(20)]
                services.save_episode(USER, "Maya", turns, summary)
        services.retrieve(USER, RECALL[0], is_recall=True)  # builds the pools once
        times = [_ms(lambda q=q, s=services: s.retrieve(USER, q, is_recall=True))
                 for q in (RECALL[i % len(RECALL)] + f" ({i})" for i in range(queries))]
        services.scene_index.close()
        p95 = percentile(times, 95)
        out.append({"bench": "recall_turn", "verifier": verifier, "text_documents": len(services.text_pools.pool(USER)),
                    "scenes": 1000, "median_ms": round(percentile(times, 50), 1), "p95_ms": round(p95, 1),
                    "target_p95_ms": RECALL_TARGET_P95_MS, "ratio_to_target": round(p95 / RECALL_TARGET_P95_MS, 2),
                    "met": p95 < RECALL_TARGET_P95_MS})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.bench.retrieval_core")
    parser.add_argument("--scenes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--sessions", type=int, default=30)
    args = parser.parse_args(argv)
    print(json.dumps({"cpus": os.cpu_count(), "load_1min": round(os.getloadavg()[0], 1)}))
    rows = []
    with tempfile.TemporaryDirectory(prefix="nadine-bench-core-") as tmp:
        for row in recall_bench(args.sessions, args.queries, Path(tmp)):
            rows.append(row)
            print(json.dumps(row), flush=True)
        for size in args.scenes:
            rows.append(scene_bench(size, args.queries, Path(tmp)))
            print(json.dumps(rows[-1]), flush=True)
    met = all(r["met"] is not False for r in rows)
    print(json.dumps({"all_targets_met": met}))
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())

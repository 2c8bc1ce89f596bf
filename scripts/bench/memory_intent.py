"""What the memory-intent classifier costs per turn, measured in one run on this machine.

    .venv/bin/python -m scripts.bench.memory_intent [--turns 60]

Times (median / p95 over the held-out test utterances, warm model): the classifier's decision
(`classify`: one MiniLM embedding + n-gram features + one matrix product), the MiniLM embedding of
the same text alone, the whole offline understanding step it is part of (`understand_rules.understand`),
a whole offline turn of the dialogue manager with its real memory services (Chroma, scene index) for a
known user, and the wording step that only remember / forget requests pay (`request_content`). Prints
one JSON line with the ratios classifier / embedding and classifier / turn. Target: the classifier
costs at most 1.5 embeddings of the utterance (its only model call is that embedding).
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from common.clock import Clock
from common.config import load_settings
from common.embedding import offline_text_embedder
from common.messages import UserDetected, UserInput
from common.store import DataLayout, ProfileStore
from interaction.dialogue import DialogueManager
from interaction.memory.local_services import LocalMemoryServices
from interaction.memory_intent.classifier import UTTERANCES, default_classifier
from interaction.memory_intent.phrasing import request_content
from interaction.offline.self_description import load_parser
from interaction.offline.understand_rules import understand

TARGET_OVER_EMBED = 1.5


class _Discard:
    def publish(self, spec, message) -> None:
        pass


def _times(fn: Callable[[str], object], texts: list[str], fresh: Callable[[], None] = lambda: None
           ) -> tuple[float, float]:
    fn(texts[0])  # warm
    samples = []
    for text in texts:
        fresh()
        start = time.perf_counter()
        fn(text)
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(0.95 * (len(samples) - 1))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=60)
    args = parser.parse_args(argv)
    with UTTERANCES.open(encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["split"] == "test"][: args.turns]
    texts = [r["text"] for r in rows]
    requests = [r["text"] for r in rows if r["intent"] in ("remember", "forget_one")] or texts[:5]
    classifier = default_classifier()
    assert classifier is not None, "the memory-intent classifier did not load"
    embedder = offline_text_embedder()
    with tempfile.TemporaryDirectory() as tmp:
        settings = load_settings(environ={"NADINE_DATA_DIR": tmp})
        layout = DataLayout(Path(tmp))
        clock = Clock(layout.runtime_dir)
        services = LocalMemoryServices(settings, layout, clock, bus=None)
        dm = DialogueManager(settings, layout, clock, _Discard(), services=services, environ={})
        profiles = ProfileStore(layout)
        uid = profiles.mint_user_id("Maya", clock.now())
        profiles.update(uid, {"user_name": "Maya"}, clock.now())
        dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
        turn = _times(lambda x: dm.process_input(UserInput(text=x)), texts)
    def fresh() -> None:
        # the classifier, the embedder and the parser keep their recent results (a turn's readers share
        # them); a text timed here must be computed, not found
        for recent in (classifier._recent, embedder._recent, load_parser()._docs):
            recent.clear()

    result = {
        "turns": len(texts),
        "classify_ms": _times(classifier.classify, texts, fresh),
        "embed_ms": _times(lambda x: embedder.embed([x]), texts, fresh),
        "understand_offline_ms": _times(understand, texts, fresh),
        "turn_offline_ms": turn,
        "request_content_ms": _times(request_content, requests),
    }
    result["classify_over_embed"] = round(result["classify_ms"][0] / result["embed_ms"][0], 2)
    result["classify_share_of_turn"] = round(result["classify_ms"][0] / result["turn_offline_ms"][0], 3)
    result = {k: [round(v, 2) for v in val] if isinstance(val, tuple) else val for k, val in result.items()}
    print(json.dumps(result))
    return 0 if result["classify_over_embed"] <= TARGET_OVER_EMBED else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""Per-node time split of a dialogue turn with the offline backends (no language model).

    .venv/bin/python -m scripts.bench.turn_latency [--users 12] [--no-memory]

Runs the real DialogueManager in this process on a fresh temporary data root, with the real memory
services (MiniLM ONNX embedder, embedded ChromaDB, scene index, knowledge RAG) unless --no-memory;
publishing goes to a no-op outbox, so MQTT is not measured (scripts.bench.mqtt_latency does that).
Each simulated user has one session: introduction, facts, an emotional moment (stored as a scene, as
perception would), chit-chat, a question about Nadine, a recall, a farewell. Printed: p50 / p95 per
graph node (ms, over the turns that ran it), the reply latency (utterance received -> reply text
ready, what latency_s reports) and the whole turn including the farewell's episodic save; the reply of
ordinary turns (no memory request) and of recall turns apart; and each p95 as a ratio of its target
(every turn 150 ms, ordinary 30 ms, recall with the verifier 80 ms).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from common.clock import Clock
from common.config import load_settings
from common.messages import UserInput
from common.store import DataLayout, SceneMetadata, SceneStore, new_scene_id
from interaction.dialogue import DialogueManager
from scripts.eval.stats import percentile

TARGET_P95_S = {"reply (latency_s)": 0.150, "reply, ordinary turns": 0.030, "reply, recall turns": 0.080}
NAMES = ["Alice", "Bruno", "Chen", "Dmitri", "Esther", "Farid", "Gwen", "Hiro", "Ivan", "Yusuf", "Kwame", "Lars",
         "Mei", "Olek", "Priya", "Quentin", "Rosa", "Sven", "Tariq", "Ulla"]
# Every user says different things: the text embedder and the parser remember recent texts, and a
# bench that repeated one session would measure those memories instead of the models. Lists whose
# lengths are prime to each other make every sentence of the first 20 users unique (20 names).
MOMENTS = [  # (what is told, what the recall asks about)
    ("I just defended my PhD thesis today, I'm so happy!", "thesis"),
    ("My daughter was born last night, I can't stop smiling!", "daughter"),
    ("I finally got my driving licence after four attempts!", "licence"),
    ("Our old dog Max died on Sunday, I miss him terribly.", "dog"),
    ("I was promoted to head of my team today, what a surprise!", "promotion"),
    ("My grandmother turned one hundred yesterday, we threw a big party!", "grandmother"),
]
OPENERS = ["", "Guess what! ", "Oh Nadine, ", "Listen, ", "You know what? "]
COMPANIES = ["Logitech", "Nestle", "the hospital", "a bakery", "Google", "a school", "the post office"]
CITIES = ["Lausanne", "Vevey", "Bern", "Basel", "Zurich", "Geneva", "Lugano"]
HOBBIES = ["hiking and jazz", "chess and cooking", "cycling and opera", "painting and tennis", "skiing and poetry",
           "gardening and salsa"]
CHATS = ["The weather was lovely this morning, we walked by the lake.", "It rained all afternoon so I read.",
         "The train was late again this morning.", "We had a picnic in the park with my cousins.",
         "The market was busy, I bought cherries and bread.", "I fixed my bicycle chain on my own."]
RECALLS = ["Do you remember what I told you about my {}?", "What did I say about my {}?",
           "Can you remind me what I told you about my {}?", "Do you recall the news about my {}?",
           "What do you remember about my {}?"]
ABOUT_NADINE = ["Who created you?", "Where were you built?", "Who made you?", "Which lab built you?",
                "Who designed you?", "Where do you come from?", "Who programmed you?"]
FAREWELLS = ["Thanks, bye! See you soon.", "Goodbye, Nadine.", "Bye for now!", "See you later, bye.",
             "I have to go now, goodbye!", "Bye bye!", "Good night, Nadine."]


def moment(n: int) -> str:
    return OPENERS[n % 5] + MOMENTS[n % 6][0]


def session(name: str, n: int = 0) -> list[str]:
    return [
        f"Hello! My name is {name}.",
        f"I work at {COMPANIES[n % 7]} and I live in {CITIES[(n * 3) % 7]}. I like {HOBBIES[n % 6]}.",
        moment(n),
        f"{CHATS[n % 6]} It was {n + 2} degrees.",
        ("", "Tell me, ", "By the way, ", "Hmm, ", "So ")[n % 5] + ABOUT_NADINE[n % 7],
        RECALLS[n % 5].format(MOMENTS[n % 6][1]),
        ("", "Okay. ", "Right, ", "Well, ", "Oh, ")[n % 5] + FAREWELLS[n % 7],
    ]


class NullOutbox:
    def publish(self, spec, message) -> None:
        pass


def _store_moment(layout: DataLayout, clock: Clock, user_id: str, dm: DialogueManager, told: str) -> None:
    import cv2
    import numpy as np

    now = clock.now()
    jpeg = cv2.imencode(".jpg", np.full((64, 64, 3), 120, np.uint8))[1].tobytes()
    meta = SceneMetadata(scene_id=new_scene_id(now), timestamp=now.isoformat(timespec="seconds"), image_path="",
                         memorability=0.9, emotion_label="happy", intensity=0.9,
                         description="photo tags: person, smile", user_message=told)
    SceneStore(layout).write(user_id, meta, jpeg)
    if dm.deps.services is not None:
        dm.deps.services.on_scene_stored(user_id)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=12)
    parser.add_argument("--no-memory", action="store_true", help="no memory services (graph and rules only)")
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="nadine-bench-"))
    settings = load_settings(environ={"NADINE_DATA_DIR": str(root)})
    layout = DataLayout(root)
    clock = Clock(layout.runtime_dir)
    services = None
    if not args.no_memory:
        from interaction.memory.local_services import LocalMemoryServices

        services = LocalMemoryServices(settings, layout, clock, None)
        services.warm_up()  # what the interaction process does in the background at start
    dm = DialogueManager(settings, layout, clock, NullOutbox(), services, environ={})
    nodes: dict[str, list[float]] = defaultdict(list)
    reply_s: list[float] = []
    ordinary_s: list[float] = []
    recall_s: list[float] = []
    whole_s: list[float] = []
    dm.process_input(UserInput(text="Hello!"))  # warm-up: first graph compile paths, first ONNX run
    dm.close_session("warm-up")
    for n, name in enumerate((NAMES * (args.users // len(NAMES) + 1))[: args.users]):
        for i, text in enumerate(session(name, n)):
            start = time.monotonic()
            turn = dm.process_input(UserInput(text=text), start)
            whole_s.append(time.monotonic() - start)
            reply_s.append(turn.latency_s)
            if turn.is_recall:
                recall_s.append(turn.latency_s)
            elif turn.memory_intent in (None, "statement"):
                ordinary_s.append(turn.latency_s)
            for node, seconds in dm.deps.timings.items():
                nodes[node].append(seconds)
            if i == 2 and turn.user_id:
                _store_moment(layout, clock, turn.user_id, dm, moment(n))
        dm.close_session("bench")
    print(f"turn latency, offline backends, {len(reply_s)} turns, memory services {'off' if args.no_memory else 'on'}")
    print(f"{'node':<32}{'turns':>6}{'p50 ms':>10}{'p95 ms':>10}")
    for node, values in sorted(nodes.items(), key=lambda kv: -percentile(kv[1], 50)):
        print(f"{node:<32}{len(values):>6}{percentile(values, 50) * 1000:>10.1f}{percentile(values, 95) * 1000:>10.1f}")
    measured = {"reply (latency_s)": reply_s, "reply, ordinary turns": ordinary_s, "reply, recall turns": recall_s,
                "whole turn": whole_s}
    for label, values in measured.items():
        print(f"{label:<32}{len(values):>6}{percentile(values, 50) * 1000:>10.1f}{percentile(values, 95) * 1000:>10.1f}")
    for label, target in TARGET_P95_S.items():
        ratio = percentile(measured[label], 95) / target
        print(f"{label} p95 / {target * 1000:.0f} ms target = {ratio:.2f} ({'met' if ratio <= 1 else 'NOT met'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Per-node time split of a dialogue turn with the offline backends (no language model).

    .venv/bin/python -m scripts.bench.turn_latency [--users 12] [--no-memory]
                                                   [--against DIR [--rounds 2]] [--record FILE]

Runs the real DialogueManager in this process on a fresh temporary data root, with the real memory
services (MiniLM ONNX embedder, embedded ChromaDB, scene index, knowledge RAG) unless --no-memory;
publishing goes to an outbox that only notes when the reply is handed to control, so MQTT is not
measured (scripts.bench.mqtt_latency does that). Each simulated user has one session: introduction,
facts, an emotional moment (stored as a scene, as perception would), chit-chat, a question about
Nadine, a recall, a farewell. Printed: p50 / p95 per graph node (ms, over the turns that ran it), the
reply latency (utterance received -> reply text ready, what latency_s reports), the CPU time of this
thread until the reply is handed to control (machines shared with other jobs stretch wall time, much
less CPU time), and the whole turn including the farewell's episodic save; the reply of ordinary turns
(no memory request) and of recall turns apart; and each p95 as a ratio of its target (every turn 150
ms, ordinary 30 ms, recall with the verifier 80 ms).

--against DIR measures another checkout of the project (an older commit's worktree) in the same run:
this bench runs in a process of its own on each side, the sides taking turns (--rounds each, in the
order A B B A ...) so that both meet the same load; printed are both sides' figures, the ratios of
this checkout's p95 to the other's, and whether both gave the same replies, recall outcomes and
stored data (profiles, the id index, every episodic document and its vector) turn for turn.
--record FILE writes one run's turns and stored data as JSON.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from common.clock import Clock
from common.config import load_settings
from common.messages import UserInput
from common.store import DataLayout, SceneMetadata, SceneStore, new_scene_id
from common.topics import SPEAK
from interaction.agents import understand_agent
from interaction.dialogue import DialogueManager
from interaction.offline import fact_changes
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
# what is compared between two checkouts besides the replies: the stored data, with what differs
# from run to run by the clock alone (times, session ids) masked
_TIMES = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[+-]\d{2}:\d{2})?|\d{8}_\d{6}_[0-9a-f]{6}")


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


class ReplyClock(NullOutbox):
    """Notes when a turn's first utterance is handed to control: wall time and this thread's CPU time."""

    def __init__(self) -> None:
        self.spoken: tuple[float, float] | None = None

    def publish(self, spec, message) -> None:
        if spec is SPEAK and self.spoken is None:
            self.spoken = (time.monotonic(), time.thread_time())


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


def run(users: int, memory: bool) -> dict[str, Any]:
    """One run of every simulated session: each turn's figures and reply, and the data stored."""
    root = Path(tempfile.mkdtemp(prefix="nadine-bench-"))
    settings = load_settings(environ={"NADINE_DATA_DIR": str(root)})
    layout = DataLayout(root)
    clock = Clock(layout.runtime_dir)
    # what the interaction process does in the background at start
    fact_changes.warm_up().join()
    understand_agent.warm_up().join()
    services = None
    if memory:
        from interaction.memory.local_services import LocalMemoryServices

        services = LocalMemoryServices(settings, layout, clock, None)
        services.warm_up()  # what the interaction process does in the background at start
    out = ReplyClock()
    dm = DialogueManager(settings, layout, clock, out, services, environ={})
    dm.process_input(UserInput(text="Hello!"))  # warm-up: first graph compile paths, first ONNX run
    dm.close_session("warm-up")
    turns = []
    for n, name in enumerate((NAMES * (users // len(NAMES) + 1))[:users]):
        for i, text in enumerate(session(name, n)):
            out.spoken = None
            start, cpu = time.monotonic(), time.thread_time()
            # a fixed turn id: the profile's fact records carry it, and two runs' stored data are compared
            turn = dm.process_input(UserInput(text=text, turn_id=f"u{n}t{i}"), start)
            whole_s, whole_cpu = time.monotonic() - start, time.thread_time() - cpu
            recall = turn.recall
            turns.append({
                "text": text, "reply": turn.reply, "latency_s": turn.latency_s,
                "reply_cpu_s": out.spoken[1] - cpu if out.spoken else whole_cpu,
                "whole_s": whole_s, "whole_cpu_s": whole_cpu, "is_recall": turn.is_recall,
                "ordinary": not turn.is_recall and turn.memory_intent in (None, "statement"),
                "recall": None if recall is None else [recall.outcome, [m.text for m in recall.memories]],
                "nodes": dict(dm.deps.timings),
            })
            if i == 2 and turn.user_id:
                _store_moment(layout, clock, turn.user_id, dm, moment(n))
        dm.close_session("bench")
    return {"turns": turns, "stored": _stored(layout, services)}


def _stored(layout: DataLayout, services: Any) -> str:
    """A digest of what the run left on disk: the id index, every profile and every episodic document
    (text, metadata and vector), clock-made values masked."""
    import numpy as np

    from common.store import ProfileStore

    def masked(value: Any) -> str:
        text = _TIMES.sub("<time>", json.dumps(value, sort_keys=True, default=str))
        return re.sub(r'"occurred_ts": [0-9.e+]+', '"occurred_ts": <time>', text)

    store = ProfileStore(layout)
    ids = store.user_ids()
    parts = [masked(ids)]
    for uid in sorted(ids):
        profile = store.load(uid)
        parts.append(masked(profile.model_dump() if profile else None))
        got = services.episodic.documents(uid) if services is not None else None
        if got is not None:
            parts += sorted(masked([doc_id, doc, meta, hashlib.sha1(np.asarray(vector, np.float32).tobytes()).hexdigest()])
                            for doc_id, doc, meta, vector in zip(*got, strict=True))
    return hashlib.sha1("\n".join(parts).encode()).hexdigest()


def figures(turns: list[dict[str, Any]]) -> dict[str, dict[str, list[float]]]:
    """label -> {"wall": seconds per turn, "cpu": seconds per turn}."""
    picked = {"reply (latency_s)": turns, "reply, ordinary turns": [t for t in turns if t["ordinary"]],
              "reply, recall turns": [t for t in turns if t["is_recall"]]}
    out = {label: {"wall": [t["latency_s"] for t in ts], "cpu": [t["reply_cpu_s"] for t in ts]}
           for label, ts in picked.items()}
    out["whole turn"] = {"wall": [t["whole_s"] for t in turns], "cpu": [t["whole_cpu_s"] for t in turns]}
    return out


def _ms(values: list[float], q: float) -> float:
    return percentile(values, q) * 1000 if values else float("nan")


def report(turns: list[dict[str, Any]], memory: bool) -> None:
    nodes: dict[str, list[float]] = defaultdict(list)
    for t in turns:
        for node, seconds in t["nodes"].items():
            nodes[node].append(seconds)
    print(f"turn latency, offline backends, {len(turns)} turns, memory services {'on' if memory else 'off'}")
    print(f"{'node (wall)':<32}{'turns':>6}{'p50 ms':>10}{'p95 ms':>10}")
    for node, values in sorted(nodes.items(), key=lambda kv: -percentile(kv[1], 50)):
        print(f"{node:<32}{len(values):>6}{_ms(values, 50):>10.1f}{_ms(values, 95):>10.1f}")
    print(f"{'':<38}{'wall p50':>10}{'p95':>8}{'CPU p50':>10}{'p95':>8}")
    measured = figures(turns)
    for label, v in measured.items():
        print(f"{label:<32}{len(v['wall']):>6}{_ms(v['wall'], 50):>10.1f}{_ms(v['wall'], 95):>8.1f}"
              f"{_ms(v['cpu'], 50):>10.1f}{_ms(v['cpu'], 95):>8.1f}")
    for label, target in TARGET_P95_S.items():
        wall, cpu = (percentile(measured[label][k], 95) / target for k in ("wall", "cpu"))
        print(f"{label} p95 / {target * 1000:.0f} ms target = {wall:.2f} ({'met' if wall <= 1 else 'NOT met'}); "
              f"CPU time {cpu:.2f}")


def _side(checkout: Path, users: int, memory: bool) -> dict[str, Any]:
    """This bench, run by a process of its own on `checkout`'s code (its folder first on the path)."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as fh:
        record = Path(fh.name)
    argv = [__file__, "--users", str(users), "--record", str(record), *([] if memory else ["--no-memory"])]
    code = f"import runpy, sys; sys.argv = {argv!r}; runpy.run_path({__file__!r}, run_name='__main__')"
    subprocess.run([sys.executable, "-c", code], cwd=checkout, check=True, stdout=subprocess.DEVNULL)
    try:
        return json.loads(record.read_text())
    finally:
        record.unlink()


def against(other: Path, rounds: int, users: int, memory: bool) -> int:
    here = Path(__file__).resolve().parents[2]
    sides: dict[str, list[dict[str, Any]]] = {"this": [], "other": []}
    for r in range(rounds):
        for name in (("other", "this") if r % 2 == 0 else ("this", "other")):
            sides[name].append(_side(here if name == "this" else other, users, memory))
    print(f"{here} (this) against {other} (other): {rounds} runs each, taking turns; load average "
          + " ".join(f"{x:.1f}" for x in os.getloadavg()))
    for name, runs in sides.items():
        print(f"\n== {name}")
        report([t for run in runs for t in run["turns"]], memory)
    print("\n== this / other, p95")
    this, other_ = ({k: v for k, v in figures([t for run in sides[s] for t in run["turns"]]).items()}
                    for s in ("this", "other"))
    for label in this:
        print(f"{label:<32}" + "  ".join(
            f"{kind} {_ms(this[label][kind], 95):.1f} / {_ms(other_[label][kind], 95):.1f} ms = "
            f"{percentile(this[label][kind], 95) / percentile(other_[label][kind], 95):.2f}" for kind in ("wall", "cpu")))
    said = [[(t["reply"], t["recall"]) for t in run["turns"]] for run in sides["this"] + sides["other"]]
    same_replies = all(s == said[0] for s in said)
    same_store = len({run["stored"] for run in sides["this"] + sides["other"]}) == 1
    print(f"replies and recall outcomes identical in every run: {same_replies}; stored data identical: {same_store}")
    return 0 if same_replies and same_store else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=12)
    parser.add_argument("--no-memory", action="store_true", help="no memory services (graph and rules only)")
    parser.add_argument("--against", type=Path, help="another checkout to measure in the same run")
    parser.add_argument("--rounds", type=int, default=2, help="with --against: runs of each side")
    parser.add_argument("--record", type=Path, help="write this run's turns and stored data as JSON")
    args = parser.parse_args(argv)
    if args.against is not None:
        return against(args.against.resolve(), args.rounds, args.users, not args.no_memory)
    record = run(args.users, not args.no_memory)
    if args.record is not None:
        args.record.write_text(json.dumps(record))
        return 0
    report(record["turns"], not args.no_memory)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""How long a chat turn without a camera keeps the person waiting, through the whole suite.

    .venv/bin/python -m scripts.bench.chat_turn [--users 3]

Starts a Mosquitto and the three processes (offline backends, fresh temporary data root, a camera
source that does not exist), then plays each simulated user's session through the chat client
(interaction.chat.ChatClient, what `python -m interaction.chat` runs): the first turn gives the name
and emotional news in one sentence, then facts, chit-chat, a question about Nadine, a recall, a
farewell. Measured per turn: the reply (line sent -> TurnResult) and the prompt (line sent -> the
storage decision that completes the notes under the reply, when the chat asks for the next line).
Printed: p50 / p95 of each, also without the farewells (a farewell's TurnResult comes after the
session's episode is saved, which embeds every turn of it), each prompt p95 as a ratio of its target
(1 s), whether every first turn was kept as a text-only moment, and one JSON line with the figures.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from common.bus import Bus
from common.config.perception_settings import SelectiveMemorySettings
from common.supervisor.suite import Suite
from interaction.chat import DECISION_GRACE_S, ChatClient
from scripts.bench.turn_latency import NAMES, moment, session
from scripts.eval.stats import percentile

TARGET_P95_S = {"prompt": 1.0, "prompt, farewells apart": 1.0}


def chat_session(name: str, n: int) -> list[str]:
    """turn_latency's session with the introduction and the news in one sentence, as people chat."""
    news = moment(n)
    first = f"Hi, I'm {name} and {news[0].lower()}{news[1:]}"
    return [first, *session(name, n)[1:]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=3)
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="nadine-bench-chat-"))
    suite = Suite(root / "data", root / "logs", env={"NADINE_CAMERA": str(root / "no-camera")},
                  topic_root=f"bench-chat-{int(time.time() * 1000) % 10_000_000}")
    reply_s: list[float] = []
    prompt_s: list[float] = []
    prompt_not_farewell_s: list[float] = []
    first_turns_kept = 0
    decision_wait = SelectiveMemorySettings().decision_wait_s + DECISION_GRACE_S
    with suite:
        bus = Bus("bench-chat", suite.mqtt_settings, suite.topics)
        client = ChatClient(bus)
        if not bus.start(wait_s=10):
            raise SystemExit("bench: no broker answers")
        try:
            warm = client.say("Hello!")  # warm-up: first graph compile paths, first ONNX run
            client.decision(warm.turn_id if warm else None, decision_wait)
            for n, name in enumerate((NAMES * (args.users // len(NAMES) + 1))[: args.users]):
                for i, text in enumerate(chat_session(name, n)):
                    start = time.monotonic()
                    result = client.say(text)
                    if result is None:
                        raise SystemExit(f"bench: no reply to {text!r}\n{suite.log_tail('interaction')}")
                    reply_s.append(time.monotonic() - start)
                    decision, scenes = client.decision(result.turn_id, decision_wait)
                    prompt_s.append(time.monotonic() - start)
                    if result.intent != "end_conversation":
                        prompt_not_farewell_s.append(prompt_s[-1])
                    if i == 0 and decision is not None and decision.stored and any(
                            s.scene_id == decision.scene_id and not s.image_path for s in scenes):
                        first_turns_kept += 1
        finally:
            bus.stop()
    measured = {"reply": reply_s, "prompt": prompt_s, "prompt, farewells apart": prompt_not_farewell_s}
    print(f"chat turn without a camera, offline backends, {len(prompt_s)} turns of {args.users} user(s)")
    print(f"{'':<26}{'turns':>6}{'p50 ms':>10}{'p95 ms':>10}")
    for label, values in measured.items():
        print(f"{label:<26}{len(values):>6}{percentile(values, 50) * 1000:>10.1f}{percentile(values, 95) * 1000:>10.1f}")
    result = {"turns": len(prompt_s), "users": args.users, "first_turns_text_only_moment": first_turns_kept}
    keys = {label: label.replace(", farewells apart", "_not_farewell") for label in measured}
    for label, values in measured.items():
        result[f"{keys[label]}_p50_s"] = round(percentile(values, 50), 4)
        result[f"{keys[label]}_p95_s"] = round(percentile(values, 95), 4)
    for label, target in TARGET_P95_S.items():
        ratio = percentile(measured[label], 95) / target
        result[f"{keys[label]}_p95_ratio"] = round(ratio, 3)
        print(f"{label} p95 / {target * 1000:.0f} ms target = {ratio:.2f} ({'met' if ratio <= 1 else 'NOT met'})")
    print(f"first turns kept as text-only moments: {first_turns_kept} of {args.users}")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

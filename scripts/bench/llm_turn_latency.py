"""Per-turn latency with a small local model behind the OpenAI-compatible API, vs offline, in one run.

    .venv/bin/python -m scripts.bench.llm_turn_latency [--users 2] [--threads 2]

Starts llama.cpp's server with SmolLM2-135M-Instruct (scripts.local_llm) and plays the session of
scripts.bench.turn_latency (introduction, facts, a moment stored as a scene, chit-chat, a question
about Nadine, a recall, a farewell) through the real DialogueManager and memory services twice:
offline backends, then every agent on the local server with the default budgets. Prints p50 / p95 of
the reply latency (latency_s) and of the understanding and response nodes for each, the ratios to
offline, and how many turns the model answered (the rest fell back: budget, breaker or an unusable
answer). Wire compatibility and latency only: a 135M model's replies are not judged here.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from common.clock import Clock
from common.config import load_settings
from common.messages import UserInput
from common.store import DataLayout
from interaction.dialogue import DialogueManager
from scripts.bench.turn_latency import NAMES, NullOutbox, _store_moment, session
from scripts.eval.stats import percentile
from scripts.local_llm import MODEL_ALIAS, LocalLlmServer

NODES = ("understand", "response_agent")


def play(users: int, overrides: list[str]) -> dict[str, list[float]]:
    from interaction.memory.local_services import LocalMemoryServices

    root = Path(tempfile.mkdtemp(prefix="nadine-bench-llm-"))
    settings = load_settings(environ={"NADINE_DATA_DIR": str(root)}, overrides=overrides)
    layout = DataLayout(root)
    clock = Clock(layout.runtime_dir)
    services = LocalMemoryServices(settings, layout, clock, None)
    dm = DialogueManager(settings, layout, clock, NullOutbox(), services, environ={})
    dm.process_input(UserInput(text="Hello!"))  # warm-up (graph, ONNX, the server's first prompt)
    dm.close_session("warm-up")
    out: dict[str, list[float]] = {"reply": [], "model_replies": [], **{n: [] for n in NODES}}
    for name in (NAMES * (users // len(NAMES) + 1))[:users]:
        for i, text in enumerate(session(name)):
            turn = dm.process_input(UserInput(text=text), time.monotonic())
            out["reply"].append(turn.latency_s)
            out["model_replies"].append(0.0 if turn.extra.get("offline") else 1.0)
            for node in NODES:
                if node in dm.deps.timings:
                    out[node].append(dm.deps.timings[node])
            if i == 2 and turn.user_id:
                _store_moment(layout, clock, turn.user_id, dm)
        dm.close_session("bench")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2, help="llama.cpp threads")
    args = parser.parse_args(argv)
    offline = play(args.users, [])
    with LocalLlmServer(threads=args.threads) as server:
        local = play(args.users, [f"interaction.llm.base_url={server.url}", f"interaction.llm.model={MODEL_ALIAS}"])
    print(f"per-turn latency, {len(offline['reply'])} turns each, SmolLM2-135M Q4_1 on llama.cpp "
          f"({args.threads} threads) vs offline backends, same run")
    print(f"{'what':<22}{'offline p50':>12}{'p95':>8}{'local p50':>11}{'p95':>8}{'ratio p50':>11}{'p95':>8}")
    for key in ("reply", *NODES):
        o50, o95 = percentile(offline[key], 50), percentile(offline[key], 95)
        l50, l95 = percentile(local[key], 50), percentile(local[key], 95)
        print(f"{key + ' (ms)':<22}{o50 * 1000:>12.0f}{o95 * 1000:>8.0f}{l50 * 1000:>11.0f}{l95 * 1000:>8.0f}"
              f"{l50 / o50:>10.1f}x{l95 / o95:>7.1f}x")
    print(f"turns answered by the model end to end: {int(sum(local['model_replies']))}/{len(local['reply'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

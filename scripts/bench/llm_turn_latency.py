"""Per-turn latency with a small local model behind the OpenAI-compatible API, vs offline, in one run.

    .venv/bin/python -m scripts.bench.llm_turn_latency [--users 1] [--threads 1] [--budget-s S]

Starts llama.cpp's server with SmolLM2-135M-Instruct (scripts.local_llm) and plays the session of
scripts.bench.turn_latency (introduction, facts, a moment stored as a scene, chit-chat, a question
about Nadine, a recall, a farewell) through the real DialogueManager and memory services twice:
offline backends, then every agent on the local server (with the configured budgets, or --budget-s
for each phase to see the model's own time). Prints p50 / p95 of the reply latency (latency_s) and
of the understanding and response nodes for each, the ratios to offline, and how many turns the
endpoint served without a timeout, error or open circuit. Wire compatibility and latency only: a
135M model's replies are not judged here.
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
from scripts.bench.turn_latency import NAMES, NullOutbox, _store_moment, moment, session
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
    services.warm_up()  # what the interaction process does in the background at start
    dm = DialogueManager(settings, layout, clock, NullOutbox(), services, environ={})
    dm.process_input(UserInput(text="Hello!"))  # warm-up (graph, ONNX, the server's first prompt)
    dm.close_session("warm-up")
    out: dict[str, list[float]] = {"reply": [], "served": [], **{n: [] for n in NODES}}
    for n, name in enumerate((NAMES * (users // len(NAMES) + 1))[:users]):
        for i, text in enumerate(session(name, n)):
            turn = dm.process_input(UserInput(text=text), time.monotonic())
            out["reply"].append(turn.latency_s)
            out["served"].append(0.0 if turn.extra.get("offline") else 1.0)
            for node in NODES:
                if node in dm.deps.timings:
                    out[node].append(dm.deps.timings[node])
            if i == 2 and turn.user_id:
                _store_moment(layout, clock, turn.user_id, dm, moment(n))
        dm.close_session("bench")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=1)
    parser.add_argument("--budget-s", type=float, help="understanding and response budget (default: config)")
    parser.add_argument("--threads", type=int, default=1, help="llama.cpp threads (scripts.local_llm)")
    args = parser.parse_args(argv)
    offline = play(args.users, [])
    with LocalLlmServer(threads=args.threads) as server:
        budgets = [f"interaction.llm.budget.{phase}_s={args.budget_s}" for phase in ("understanding", "response")] \
            if args.budget_s else []
        local = play(args.users, [f"interaction.llm.base_url={server.url}", f"interaction.llm.model={MODEL_ALIAS}",
                                  *budgets])
    print(f"per-turn latency, {len(offline['reply'])} turns each, SmolLM2-135M Q4_1 on llama.cpp "
          f"({args.threads} threads) vs offline backends, same run")
    print(f"{'what':<22}{'offline p50':>12}{'p95':>8}{'local p50':>11}{'p95':>8}")
    for key in ("reply", *NODES):
        o50, o95 = percentile(offline[key], 50), percentile(offline[key], 95)
        l50, l95 = percentile(local[key], 50), percentile(local[key], 95)
        print(f"{key + ' (ms)':<22}{o50 * 1000:>12.0f}{o95 * 1000:>8.0f}{l50 * 1000:>11.0f}{l95 * 1000:>8.0f}")
    o50, o95 = percentile(offline["reply"], 50), percentile(offline["reply"], 95)
    l50, l95 = percentile(local["reply"], 50), percentile(local["reply"], 95)
    print(f"reply latency local / offline: p50 {l50 / o50:.1f}x, p95 {l95 / o95:.1f}x")
    budget = f"{args.budget_s:.0f} s" if args.budget_s else "configured"
    print(f"turns the endpoint served (no timeout, error or open circuit; {budget} budgets): "
          f"{int(sum(local['served']))}/{len(local['reply'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

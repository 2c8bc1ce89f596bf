"""What an endpoint that never answers costs a conversation, beside its budget, in one run.

    .venv/bin/python -m scripts.bench.fail_fast [--users 4] [--budget-s 1.0]

An endpoint that accepts connections and never answers stands for a hung server. The sessions of
scripts.bench.turn_latency are played through the real DialogueManager and memory services: offline,
then each against an endpoint of its own (a fresh circuit) that never answers, with the given
understanding budget. The first turn's one call ends at the budget and the turn is answered offline;
the circuit that timeout opened sends the session's later turns offline without a call. Each side
plays other users' sessions (the embedder and the parser remember recent texts). Prints one JSON
line: budget_s; first_turn_p50_s against the silent endpoint and offline_first_turn_p50_s; the
median of first turn - budget - offline first turn (over_budget_p50_s, what failing fast adds to the
budget: goal near 0); later_turns_ratio_p50 (later turns against the silent endpoint over offline
ones: goal about 1, no waiting); calls_per_session (goal 1) and offline_share (goal 1.0).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from common.clock import Clock
from common.config import load_settings
from common.messages import UserInput
from common.store import DataLayout
from interaction.dialogue import DialogueManager
from scripts.bench.turn_latency import NAMES, NullOutbox, session
from scripts.eval.stats import percentile
from tests.interaction.llm_servers import SilentServer


def _session(dm: DialogueManager, name: str, n: int) -> list[tuple[float, bool]]:
    """(reply latency s, answered offline) per turn of one session."""
    turns = []
    for text in session(name, n):
        turn = dm.process_input(UserInput(text=text), time.monotonic())
        turns.append((turn.latency_s, bool(turn.extra.get("offline"))))
    dm.close_session("bench")
    return turns


def main(argv: list[str] | None = None) -> int:
    from interaction.memory.local_services import LocalMemoryServices

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=4, help="sessions on each side")
    parser.add_argument("--budget-s", type=float, default=1.0, help="the understanding budget")
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="nadine-bench-fail-fast-"))
    layout = DataLayout(root)
    clock = Clock(layout.runtime_dir)

    def manager(*overrides: str) -> DialogueManager:
        settings = load_settings(environ={"NADINE_DATA_DIR": str(root)}, overrides=list(overrides))
        return DialogueManager(settings, layout, clock, NullOutbox(), services, environ={})

    services = LocalMemoryServices(load_settings(environ={"NADINE_DATA_DIR": str(root)}), layout, clock, None)
    services.warm_up()  # what the interaction process does in the background at start
    warm = manager()
    warm.process_input(UserInput(text="Hello!"))  # warm-up: first graph paths, first ONNX run
    warm.close_session("warm-up")
    # a manager of its own for every session on both sides, as each silent endpoint needs one
    offline = [_session(manager(), NAMES[n], n) for n in range(args.users)]
    silent, calls = [], []
    for n in range(args.users, 2 * args.users):
        endpoint = SilentServer()
        try:
            silent.append(_session(manager(f"interaction.llm.base_url={endpoint.url}",
                                           f"interaction.llm.budget.understanding_s={args.budget_s}",
                                           "interaction.llm.breaker.cooldown_s=600"), NAMES[n], n))
            calls.append(len(endpoint.connections))
        finally:
            endpoint.close()
    offline_first = percentile([s[0][0] for s in offline], 50)
    result = {
        "budget_s": args.budget_s,
        "first_turn_p50_s": percentile([s[0][0] for s in silent], 50),
        "offline_first_turn_p50_s": offline_first,
        "over_budget_p50_s": percentile([s[0][0] - args.budget_s - offline_first for s in silent], 50),
        "later_turns_ratio_p50": percentile([t for s in silent for t, _ in s[1:]], 50)
        / percentile([t for s in offline for t, _ in s[1:]], 50),
        "calls_per_session": max(calls),
        "offline_share": sum(o for s in silent for _, o in s) / sum(len(s) for s in silent),
        "sessions": args.users,
    }
    print(json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in result.items()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""How much sooner a streamed reply starts to be spoken: time to the first sentence vs the whole reply.

    .venv/bin/python -m scripts.bench.first_sentence [--repeats 2] [--max-tokens 96] [--threads 1]

Starts llama.cpp's server with SmolLM2-135M-Instruct (scripts.local_llm) and plays questions that ask
for a few sentences through the real DialogueManager, its reply streamed (stream=true) and checked
sentence by sentence (interaction/llm/sentences.py). Understanding runs on the offline rules, so the
model's time is the reply's alone. For each turn, from the transcript received: when the first sentence
was handed to control (a SPEAK), and when the last was, i.e. when the whole reply existed, which is
when a reply produced whole would have been handed on. Only replies of two sentences or more count
(one sentence is the whole reply). Prints one JSON line: first_sentence_p50_s, reply_p50_s, ratio_p50
(the median of the per-turn first / whole ratios; the goal is at most 0.5), before_reply_p50_s (the
time before the reply's request, in both figures alike), prompt_tokens_read_p50 and
prompt_tokens_reused_p50 (per request, from the server's log: what its prefix cache kept of the
previous prompt and what it evaluated again), and the counts.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
from pathlib import Path
from typing import Any

from common import topics as t
from common.clock import Clock
from common.config import load_settings
from common.messages import Message, UserInput
from common.store import DataLayout
from interaction.dialogue import DialogueManager
from scripts.eval.stats import percentile
from scripts.local_llm import MODEL_ALIAS, LocalLlmServer

QUESTIONS = (
    "Tell me a little about the sea, the beach and the waves.",
    "What do you like about rainy days? Tell me a few things.",
    "Can you describe a nice morning routine for me?",
    "Tell me three fun facts about cats.",
    "What should I cook for dinner tonight, and why?",
    "Describe your favourite season and what you like about it.",
    "Tell me about the moon and the stars.",
    "What makes a good friend? Tell me a few things.",
)
# llama-cpp-python's verbose line for a prompt whose start the server had evaluated already
_PREFIX_HIT = re.compile(r"Llama\.generate: (\d+) prefix-match hit, remaining (\d+) prompt tokens to eval")


class SpeakTimes:
    """The outbox: when each SPEAK was handed on (monotonic seconds); everything else is dropped."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def publish(self, spec: t.TopicSpec, message: Message) -> Any:
        if spec is t.SPEAK:
            self.times.append(time.monotonic())


def play(url: str, repeats: int, max_tokens: int) -> list[tuple[float, float, int, float]]:
    """(first sentence s, whole reply s, sentences, s before the reply's request) per turn."""
    root = Path(tempfile.mkdtemp(prefix="nadine-bench-first-sentence-"))
    settings = load_settings(environ={"NADINE_DATA_DIR": str(root)}, overrides=[
        f"interaction.llm.base_url={url}", f"interaction.llm.model={MODEL_ALIAS}",
        "interaction.llm.agents.turn_understanding=offline", "interaction.llm.agents.memory_update_agent=offline",
        f"interaction.llm.profiles.response_gpt.max_tokens={max_tokens}",
        "interaction.llm.budget.response_s=60"])  # a loaded 2-core machine: the model's own time, not a cut-off
    layout = DataLayout(root)
    out = SpeakTimes()
    dm = DialogueManager(settings, layout, Clock(layout.runtime_dir), out, environ={})
    dm.process_input(UserInput(text="Hello!"))  # warm-up: the splitter, the offline rules, the server's first prompt
    turns = []
    for _ in range(repeats):
        for question in QUESTIONS:
            dm.close_session("next question")  # every question on its own: the same prompt size each time
            out.times.clear()
            start = time.monotonic()
            turn = dm.process_input(UserInput(text=question), start)
            if turn.extra.get("sentences") and out.times:
                before = sum(s for node, s in dm.deps.timings.items() if node != "response_agent")
                turns.append((out.times[0] - start, out.times[-1] - start, len(out.times), before))
    return turns


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=2, help="times each of the questions is asked")
    parser.add_argument("--max-tokens", type=int, default=96, help="the reply's max_tokens")
    parser.add_argument("--threads", type=int, default=1, help="llama.cpp threads (scripts.local_llm)")
    args = parser.parse_args(argv)
    server_log = Path(tempfile.mkdtemp(prefix="nadine-bench-llama-")) / "server.log"
    with LocalLlmServer(threads=args.threads, log_path=server_log) as server:
        turns = play(server.url, args.repeats, args.max_tokens)
    prompts = [(int(kept), int(read)) for kept, read in _PREFIX_HIT.findall(server_log.read_text(errors="replace"))]
    multi = [(first, whole, before) for first, whole, n, before in turns if n >= 2]
    result = {
        "first_sentence_p50_s": percentile([f for f, _, _ in multi], 50),
        "reply_p50_s": percentile([w for _, w, _ in multi], 50),
        "ratio_p50": percentile([f / w for f, w, _ in multi], 50),
        # the offline understanding and the graph before the reply's request: in both figures alike
        "before_reply_p50_s": percentile([b for _, _, b in multi], 50),
        "prompt_tokens_read_p50": percentile([read for _, read in prompts], 50),
        "prompt_tokens_reused_p50": percentile([kept for kept, _ in prompts], 50),
        "multi_sentence_turns": len(multi), "streamed_turns": len(turns),
        "turns": args.repeats * len(QUESTIONS), "max_tokens": args.max_tokens,
    }
    print(json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in result.items()}))
    return 0 if multi else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""The recall figures of played conversation scripts, per turn, as the answerability targets name them.

    python -m scripts.eval.recall_turns LOG_DIR [--only NAME ...]

Reads the records a run of `python -m scripts.eval.memory --log-dir LOG_DIR` left beside its logs
(LOG_DIR/<script>/records.jsonl) and the scripts' expectations, and counts per category and split
(splits.yaml):

- told: a turn expecting `recall_outcome: asserted` with a `recalled_text` — its own memory asserted
  (the report asserted and the text among its memories), or at least asserted or offered;
- untold: a turn expecting a recall outcome without "asserted" — anything asserted (a turn with no
  recall report counts as asserted: the question was not heard as a recall, so nothing held the
  reply back);
- ordinary: a turn expecting `recall: false` — it volunteers a memory when a scene was injected, a
  `reply_lacks` word is in the reply, or a recall report asserted or offered something.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from scripts.eval.memory import DEFAULT_SCRIPTS, assignments, parse_records, select
from scripts.eval.splits import SPLITS
from scripts.runner.expect import Observed, texts_match
from scripts.runner.script import load_script

FIGURES = (
    ("told", "own memory asserted"), ("told", "own memory asserted or offered"),
    ("untold", "anything asserted"), ("ordinary", "volunteers a memory"),
)


def judge(expect, record: dict) -> tuple[str, dict[str, bool]] | None:
    """(kind, figure -> hit) for one expected turn; None when the turn is none of the three kinds."""
    obs = Observed.from_record(record)
    outcomes = expect.recall_outcome or []
    if "asserted" in outcomes and expect.recalled_text:
        own = obs.recall is not None and any(texts_match(expect.recalled_text, m.text) for m in obs.recall.memories)
        return "told", {"own memory asserted": own and obs.recall.outcome == "asserted",
                        "own memory asserted or offered": own and obs.recall.outcome in ("asserted", "offered")}
    if outcomes:
        return "untold", {"anything asserted": obs.recall is None or obs.recall.outcome == "asserted"}
    if "recall" in expect.keys() and expect.recall is False:
        reply = (obs.reply or "").casefold()
        shown = obs.recall is not None and obs.recall.outcome in ("asserted", "offered")
        lacks = any(w.casefold() in reply for w in expect.reply_lacks or [])
        return "ordinary", {"volunteers a memory": bool(obs.injected) or lacks or shown}
    return None


def count(log_dir: Path, paths: list[Path]) -> Counter[tuple[str, str, str, str]]:
    """(category, split, kind, figure) -> hits, and (category, split, kind, "n") -> turns."""
    counts: Counter[tuple[str, str, str, str]] = Counter()
    for path, (split, category) in assignments(paths).items():
        file = log_dir / path.stem / "records.jsonl"
        if not file.is_file():
            print(f"recall_turns: {path.stem} was not played in {log_dir}", file=sys.stderr)
            continue
        records = {(r.get("session"), r.get("turn")): r for r in parse_records(file.read_text(encoding="utf-8"))}
        script, _ = load_script(path)
        for s, session in enumerate(script.sessions, start=1):
            for t, turn in enumerate(session.turns, start=1):
                record = records.get((s, t))
                if turn.expect is None or record is None:
                    continue
                judged = judge(turn.expect, record)
                if judged is None:
                    continue
                kind, hits = judged
                for group in (category, "all"):
                    for column in (split, "all"):
                        counts[(group, column, kind, "n")] += 1
                        for figure, hit in hits.items():
                            counts[(group, column, kind, figure)] += hit
    return counts


def table(counts: Counter[tuple[str, str, str, str]]) -> str:
    columns = (*SPLITS, "all")
    groups = sorted({k[0] for k in counts} - {"all"}) + ["all"]
    lines = ["| category | figure | " + " | ".join(columns) + " |", "|---|---|" + "---|" * len(columns)]
    for group in groups:
        for kind, figure in FIGURES:
            if not any(counts[(group, c, kind, "n")] for c in columns):
                continue
            cells = []
            for c in columns:
                n = counts[(group, c, kind, "n")]
                hits = counts[(group, c, kind, figure)]
                cells.append(f"{100 * hits / n:.0f} % ({hits}/{n})" if n else "-")
            lines.append(f"| {group} | {kind}: {figure} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.recall_turns", description=__doc__.split("\n")[0])
    parser.add_argument("log_dir", type=Path)
    parser.add_argument("--scripts", type=Path, default=DEFAULT_SCRIPTS)
    parser.add_argument("--only", nargs="+", default=None, help="script names (or parts of them)")
    args = parser.parse_args(argv)
    paths = select(args.scripts, args.only)
    if not paths:
        print("recall_turns: no script selected", file=sys.stderr)
        return 2
    print(table(count(args.log_dir, paths)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

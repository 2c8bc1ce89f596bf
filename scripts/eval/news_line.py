"""The line at which the offline reply says what a person tells is good or bad news ("That sounds
like good news", "That doesn't sound easy"): interaction/offline/replies.py NEWS_LINES.

    python -m scripts.eval.news_line

On the reply-feeling judge (scripts/eval/named_feeling.py: its written, news and tester turns), a turn
whose reply names no feeling is said to be good or bad news when the calibrated polarity's likelier
sign reaches that sign's line. Each pair of lines from 0.50 to 0.80 is scored on the dev splits with
the judge's costs (a wrong sign 4, a sign where none was said 2, one left unsaid 1). A pair within
TOLERANCE of the cheapest pair's cost is as good on this many turns (one turn moves it by 1 to 4), so the
chosen pair is the lowest of those: the least departure from saying news is good or bad when it is
likelier so than not. It is printed with its figures on dev and test beside the shipped lines'.
"""

from __future__ import annotations

import itertools

from interaction.offline.replies import NEWS_LINES, named_feeling, news_reading
from interaction.offline.understand_rules import user_emotion
from scripts.eval.named_feeling import COST, error, load, load_apart, sign_of

GRID = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8)
TOLERANCE = 0.02  # of the cheapest dev cost


def main() -> int:
    rows = [*load(), *(r for rs in load_apart().values() for r in rs)]
    readings = [(r, sign_of(named_feeling(user_emotion(r.text))), news_reading(r.text)) for r in rows]

    def cost(split: str, lines: dict[str, float]) -> tuple[float, dict[str, int]]:
        errors: dict[str, int] = dict.fromkeys(COST, 0)
        for row, felt, news in readings:
            if row.split != split:
                continue
            said = felt if felt != "none" else news[0] if news is not None and news[1] >= lines[news[0]] else "none"
            if (e := error(row, said)) is not None:
                errors[e] += 1
        return sum(COST[e] * n for e, n in errors.items()), errors

    grid = [{"positive": p, "negative": n} for p, n in itertools.product(GRID, GRID)]
    cheapest = min(cost("dev", lines)[0] for lines in grid)
    chosen = min((lines for lines in grid if cost("dev", lines)[0] <= cheapest * (1 + TOLERANCE)),
                 key=lambda lines: (lines["positive"] + lines["negative"], cost("dev", lines)[0]))
    for name, lines in (("shipped", NEWS_LINES), ("chosen on dev", chosen)):
        for split in ("dev", "test"):
            total, errors = cost(split, lines)
            print(f"{name:<14} {split:<5} lines {lines}  cost {total:g}  {errors}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

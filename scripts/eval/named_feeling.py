"""Whether the offline reply names the right feeling, or none, for what a person says.

    python -m scripts.eval.named_feeling [--json] [--errors]

The judge: user turns labelled with what a reply should do (`scripts/eval/reply_feeling/`):
- script_turns.tsv: every statement of the dev conversation scripts (no questions, memory requests,
  confirmations, bare greetings or goodbyes), labelled by hand; all of it is dev.
- written.tsv: sentences written for this judge in eight voices (a retired woman, a teenager texting,
  a second-language speaker, a doctor, a parent, a man of few words, a rambling student, a Highland
  postman): plain facts about pets, family, places and routines, news told with and without feeling
  words, and facts that merely contain one ("The café downstairs is called The Happy Teapot"). Split
  by writer (sha256 of "<SEED>:<writer>", even -> dev).
- news.tsv, reported apart as "news": news whose outcome and the body's reaction to it point different
  ways, in nine more voices ("I got into Juilliard, I screamed so loud", "we all just stood in the
  driveway bawling" when a sister came home; "The pathology came back: malignant" said calmly; mixed
  days), written before the polarity model learned from such sentences; split by writer the same way.
- tester_turns.tsv, reported apart as "testers": every statement of the conversation scripts that
  testers who had not read the code played through `--chat` (one writer per scripted person, 140 of
  them; appointments, codes, greetings with a name, family news, grief), labelled by someone who had
  not seen the model's readings; split by writer the same way.
A label is positive (name a pleasant feeling: "That's wonderful"), negative (an unpleasant one: "I'm
sorry"), none (reply to the content), or two of them joined by "/" when either reply is fine ("It's
drizzling again, typical.": negative/none).

A reply names what `replies.named_feeling` makes of the offline understanding of the turn. Errors by
cost: a feeling of the wrong sign (the worst: "sorry" for good news), a feeling where none was said, a
feeling left unnamed (the reply still answers the content).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

FOLDER = Path(__file__).parent / "reply_feeling"
SEED = "nadine-reply-feeling-1"
SIGNS = ("positive", "negative", "none")
PLEASANT_LABELS = frozenset({"happy", "surprised"})
# what one error costs: the chosen lines minimise the total on dev
COST = {"wrong sign": 4.0, "named, none said": 2.0, "unnamed": 1.0}


@dataclass(frozen=True)
class Judged:
    split: str
    writer: str
    text: str
    allowed: frozenset[str]  # the signs a reply may take

    @property
    def label(self) -> str:
        return "/".join(s for s in SIGNS if s in self.allowed)


def split_of(writer: str) -> str:
    return "dev" if int(hashlib.sha256(f"{SEED}:{writer}".encode()).hexdigest(), 16) % 2 == 0 else "test"


def by_writer(path: Path) -> list[Judged]:
    with path.open(encoding="utf-8") as f:
        return [Judged(split_of(r["writer"]), r["writer"], r["text"], frozenset(r["label"].split("/")))
                for r in csv.DictReader(f, delimiter="\t")]


def load(folder: Path = FOLDER) -> list[Judged]:
    with (folder / "script_turns.tsv").open(encoding="utf-8") as f:
        rows = [Judged("dev", f"script:{r['script']}", r["text"], frozenset(r["label"].split("/")))
                for r in csv.DictReader(f, delimiter="\t")]
    return rows + by_writer(folder / "written.tsv")


def load_news(folder: Path = FOLDER) -> list[Judged]:
    return by_writer(folder / "news.tsv")


def load_testers(folder: Path = FOLDER) -> list[Judged]:
    return by_writer(folder / "tester_turns.tsv")


def load_apart(folder: Path = FOLDER) -> dict[str, list[Judged]]:
    """The sets reported apart from the judge's own, by the prefix of their splits."""
    return {"news ": load_news(folder), "testers ": load_testers(folder)}


def sign_of(label: str | None) -> str:
    if label is None or label == "neutral":
        return "none"
    return "positive" if label in PLEASANT_LABELS else "negative"


def error(row: Judged, said: str) -> str | None:
    """The kind of error a reply of sign `said` makes on `row`, None when it is right."""
    if said in row.allowed:
        return None
    if said == "none":
        return "unnamed"
    return "named, none said" if "none" in row.allowed and len(row.allowed) == 1 else "wrong sign"


def score(rows: list[Judged], said: list[str]) -> dict:
    errors = Counter(e for r, s in zip(rows, said, strict=True) if (e := error(r, s)))
    confusion = Counter(f"{r.label} -> {s}" for r, s in zip(rows, said, strict=True))
    return {"n": len(rows), "right": len(rows) - sum(errors.values()),
            "accuracy": round(1 - sum(errors.values()) / len(rows), 3) if rows else 0.0,
            "cost": sum(COST[e] * n for e, n in errors.items()), "errors": dict(errors),
            "confusion": dict(sorted(confusion.items()))}


def reply_signs(rows: list[Judged]) -> list[str]:
    """What the offline reply names for each row: the shipped understanding and the reply's rule."""
    from interaction.offline.replies import named_feeling
    from interaction.offline.understand_rules import user_emotion

    return [sign_of(named_feeling(user_emotion(r.text))) for r in rows]


def reply_signs_with_news(rows: list[Judged]) -> list[str]:
    """The sign the whole reply takes: the feeling it names, else the kind of news it says the turn
    told ("That doesn't sound easy", replies.news_sign), which a listener hears as a feeling too."""
    from interaction.offline.replies import named_feeling, news_sign
    from interaction.offline.understand_rules import user_emotion

    return [sign if (sign := sign_of(named_feeling(user_emotion(r.text)))) != "none" else news_sign(r.text) or "none"
            for r in rows]


def report(rows: list[Judged], signs: Callable[[list[Judged]], list[str]] = reply_signs,
           apart: dict[str, list[Judged]] | None = None) -> dict:
    """The judge's dev and test splits, then those of each set reported apart ("news dev", "news test", ...)."""
    out: dict = {"splits": {}, "wrong": []}
    for prefix, part in (("", list(rows)), *(apart or {}).items()):
        if not part:
            continue
        said = signs(part)
        out["splits"] |= {prefix + split: score([r for r in part if r.split == split],
                                                [s for r, s in zip(part, said, strict=True) if r.split == split])
                          for split in ("dev", "test")}
        out["wrong"] += [{"split": prefix + r.split, "writer": r.writer, "text": r.text, "label": r.label,
                          "said": s, "error": e} for r, s in zip(part, said, strict=True) if (e := error(r, s))]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="one JSON line instead of the tables")
    parser.add_argument("--errors", action="store_true", help="list every turn the reply gets wrong")
    parser.add_argument("--with-news", action="store_true",
                        help="judge the reply's sign with the kind of news it says when it names no feeling")
    args = parser.parse_args(argv)
    result = report(load(), reply_signs_with_news if args.with_news else reply_signs, apart=load_apart())
    if args.json:
        print(json.dumps(result))
        return 0
    print("| split | turns | right | accuracy | wrong sign | named, none said | unnamed | cost |\n|---|---|---|---|---|---|---|---|")
    for split, s in result["splits"].items():
        e = s["errors"]
        print(f"| {split} | {s['n']} | {s['right']} | {s['accuracy']:.3f} | {e.get('wrong sign', 0)} "
              f"| {e.get('named, none said', 0)} | {e.get('unnamed', 0)} | {s['cost']:g} |")
    for split, s in result["splits"].items():
        print(f"\n{split} confusion (label -> reply): " + "; ".join(f"{k}: {n}" for k, n in s["confusion"].items()))
    if args.errors:
        print("\n| split | writer | said | label | reply | error |\n|---|---|---|---|---|---|")
        for w in sorted(result["wrong"], key=lambda w: (list(COST).index(w["error"]), w["split"])):
            print(f"| {w['split']} | {w['writer']} | {w['text']} | {w['label']} | {w['said']} | {w['error']} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The storage decision on every scripted turn that says whether it is worth keeping, offline.

    python -m scripts.eval.worth_keeping [--json]

For each user turn of scripts/eval/scripts with `stored: moment` (keep) or `stored: none` (do not keep),
and no pinned user_emotion: the word lists' reading (scripts.eval.emotion_word_lists, what the offline
understanding used before the fitted model) against the shipped model's (understand_rules.user_emotion),
each deciding keep iff the turn is not suppressed (a recall question, a request to forget, a goodbye:
perception never keeps those) and its intensity reaches the storage threshold. Prints precision, recall
and accuracy of "keep" per split, then every turn where the two disagree.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml

from common.config import load_settings
from interaction.offline.understand_rules import understand, user_emotion
from interaction.turn_understanding import Emotion
from scripts.eval.emotion_word_lists import word_list_emotion
from scripts.eval.splits import SCRIPTS, load_manifest
from scripts.runner.script import Script

FORGET = ("forget_one", "forget_me")


@dataclass(frozen=True)
class ScriptedTurn:
    split: str
    script: str
    where: str  # s<session>t<turn>
    text: str
    keep: bool  # the script's expectation
    suppressed: bool  # perception is told not to keep this turn whatever it feels


def scripted_turns(folder: Path = SCRIPTS) -> list[ScriptedTurn]:
    manifest = load_manifest()
    turns = []
    for path in sorted(folder.glob("*.yaml")):
        # the turns' words are all that is read here: no camera image is needed
        script = Script.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
        for s, session in enumerate(script.sessions, 1):
            for t, turn in enumerate(session.turns, 1):
                stored = turn.expect.stored if turn.expect else None
                if stored not in ("moment", "none") or turn.user_emotion is not None:
                    continue
                u = understand(turn.say)
                turns.append(ScriptedTurn(
                    manifest.scripts[path.name].split, path.stem, f"s{s}t{t}", turn.say, stored == "moment",
                    u.is_recall or u.memory_intent in FORGET or u.intent == "end_conversation"))
    return turns


def storage_threshold() -> float:
    return load_settings().perception.selective_memory.intensity_threshold


def decisions(turns: Iterable[ScriptedTurn], read: Callable[[str], Emotion], threshold: float) -> list[bool]:
    return [not t.suppressed and read(t.text).intensity >= threshold for t in turns]


def keep_scores(expected: list[bool], decided: list[bool]) -> dict[str, float | int]:
    tp = sum(e and d for e, d in zip(expected, decided, strict=True))
    fp = sum(d and not e for e, d in zip(expected, decided, strict=True))
    fn = sum(e and not d for e, d in zip(expected, decided, strict=True))
    right = sum(e == d for e, d in zip(expected, decided, strict=True))
    return {"n": len(expected), "keep": sum(expected), "tp": tp, "fp": fp, "fn": fn,
            "precision": round(tp / (tp + fp), 3) if tp + fp else 0.0,
            "recall": round(tp / (tp + fn), 3) if tp + fn else 0.0,
            "accuracy": round(right / len(expected), 3) if expected else 0.0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="one JSON line instead of the tables")
    args = parser.parse_args(argv)
    threshold = storage_threshold()
    turns = scripted_turns()
    readers = {"word lists": word_list_emotion, "model": user_emotion}
    decided = {name: decisions(turns, read, threshold) for name, read in readers.items()}
    result = {split: {name: keep_scores([t.keep for t, _ in rows], [d for _, d in rows])
                      for name, made in decided.items()
                      for rows in [[(t, d) for t, d in zip(turns, made, strict=True) if split in ("all", t.split)]]}
              for split in ("dev", "test", "all")}
    if args.json:
        print(json.dumps({"threshold": threshold, "splits": result}))
        return 0
    print(f"Storage decision on scripted turns (keep iff not suppressed and intensity >= {threshold:.2f})\n")
    print("| split | reader | turns | keep | precision | recall | accuracy |\n|---|---|---|---|---|---|---|")
    for split, by_reader in result.items():
        for name, s in by_reader.items():
            print(f"| {split} | {name} | {s['n']} | {s['keep']} | {s['precision']:.3f} | {s['recall']:.3f} "
                  f"| {s['accuracy']:.3f} |")
    print("\nTurns the two readers decide differently (expected: keep / none):\n")
    print("| split | turn | said | expected | word lists | model |\n|---|---|---|---|---|---|")
    old, new = decided["word lists"], decided["model"]
    for t, a, b in zip(turns, old, new, strict=True):
        if a != b:
            print(f"| {t.split} | {t.script} {t.where} | {t.text} | {'keep' if t.keep else 'none'} "
                  f"| {'keep' if a else 'none'} | {'keep' if b else 'none'} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

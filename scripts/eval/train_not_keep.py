"""Train the reader of pleas not to keep a turn (interaction/memory_intent/not_keep_reader.py) and report it, deterministically.

    python -m scripts.eval.train_not_keep [--write]

Data: interaction/memory_intent/not_keep_turns.tsv (label, text, group): pleas not to keep what a turn
says, written in paraphrase groups in many voices and verbs, and near misses labelled other ("don't
forget that ...", "don't tell my wife but ...", "I don't remember much", "keep this in mind: ..."), a
group's rows in one split (not_keep_reader.split_of); and every row of
interaction/memory_intent/utterances.tsv as other, in its own split. Steps as
scripts/eval/first_class_training.py says: not_keep_above is the smallest P(not_keep) of 0.50, 0.51,
... 0.99 at which at most MAX_FALSE_NOT_KEEP of the other dev turns read as pleas. --write stores
interaction/memory_intent/not_keep_weights.json.
"""

from __future__ import annotations

import argparse
import csv

from interaction.memory_intent.classifier import UTTERANCES
from interaction.memory_intent.not_keep_reader import (
    CLASSES,
    MAX_FALSE_NOT_KEEP,
    WEIGHTS,
    NotKeepReader,
    load_turns,
)
from scripts.eval.first_class_training import FirstClassReader, train


def reader() -> FirstClassReader:
    with UTTERANCES.open(encoding="utf-8") as f:
        others = [("other", r["split"], r["text"]) for r in csv.DictReader(f, delimiter="\t")]
    rows = load_turns() + others
    splits = {text: split for _, split, text in rows}
    return FirstClassReader([(label, text) for label, _, text in rows], splits.__getitem__, CLASSES,
                            MAX_FALSE_NOT_KEEP, WEIGHTS, NotKeepReader, "not_keep_above", "pleas")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.train_not_keep", description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="store interaction/memory_intent/not_keep_weights.json")
    return train(reader(), parser.parse_args(argv).write)


if __name__ == "__main__":
    raise SystemExit(main())

"""Train the reader of pastimes said by their doing (interaction/offline/pastimes.py) and report it, deterministically.

    python -m scripts.eval.train_pastimes [--write]

Data: interaction/offline/data/pastimes.tsv (label, text): things people say they do, labelled pastime
("I ring the bells at our church") or other ("I take the ferry to work"), written for this repo; a
sentence's split is a seeded hash of it (verb_jobs.split_of with the pastimes' seed). Steps:
1-3. vocabulary, logistic regression (with and without first / last clause vectors) and softmax
   temperature, fitted as scripts/eval/linear_text.py says;
4. pastime_above, the smallest P(pastime) threshold of 0.50, 0.51, ... 0.99 at which at most
   MAX_FALSE_PASTIME of the dev sentences labelled other read as pastimes;
5. accuracy, precision and recall of "pastime" on dev and on the held-out test split, the sentences
   read wrong, and one JSON line. --write stores the weights.
"""

from __future__ import annotations

import argparse

from interaction.offline.pastimes import CLASSES, DATA, MAX_FALSE_PASTIME, SPLIT_SEED, WEIGHTS, PastimeModel
from interaction.offline.verb_jobs import load_rows, split_of
from scripts.eval.first_class_training import FirstClassReader, train
from scripts.eval.first_class_training import load as load_rows_of
from scripts.eval.linear_text import Split


def reader() -> FirstClassReader:
    return FirstClassReader(load_rows(DATA), lambda text: split_of(text, SPLIT_SEED), CLASSES, MAX_FALSE_PASTIME,
                            WEIGHTS, PastimeModel, "pastime_above", "pastimes")


def load() -> dict[str, Split]:
    return load_rows_of(reader())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.train_pastimes", description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="store interaction/offline/data/pastime_weights.json")
    return train(reader(), parser.parse_args(argv).write)


if __name__ == "__main__":
    raise SystemExit(main())

"""Train the reader of jobs said with a verb (interaction/offline/verb_jobs.py) and report it, deterministically.

    python -m scripts.eval.train_verb_jobs [--write]

Data: interaction/offline/data/verb_jobs.tsv (label, text): self-descriptions said with a verb, labelled
job ("I mend fishing nets in the harbour") or other ("I knit scarves for my grandchildren"), written for
this repo; a sentence's split is a seeded hash of it (verb_jobs.split_of). Steps:
1-3. vocabulary, logistic regression (with and without first / last clause vectors) and softmax
   temperature, fitted as scripts/eval/linear_text.py says;
4. job_above, the smallest P(job) threshold of 0.50, 0.51, ... 0.99 at which at most MAX_FALSE_JOB of
   the dev sentences labelled other read as jobs (linear_text.lowest_safe_threshold);
5. accuracy, precision and recall of "job" on dev and on the held-out test split, the sentences read
   wrong, and one JSON line. --write stores the weights (with the training rows' fingerprint).
"""

from __future__ import annotations

import argparse

from interaction.offline.verb_jobs import (
    CLASSES,
    MAX_FALSE_JOB,
    WEIGHTS,
    VerbJobModel,
    load_rows,
    split_of,
    training_fingerprint,
)
from scripts.eval.first_class_training import FirstClassReader, train
from scripts.eval.first_class_training import load as load_rows_of
from scripts.eval.linear_text import Split


def reader() -> FirstClassReader:
    rows = load_rows()
    return FirstClassReader(rows, split_of, CLASSES, MAX_FALSE_JOB, WEIGHTS, VerbJobModel, "job_above", "jobs",
                            extra_weights={"training_fingerprint": training_fingerprint(rows)})


def load() -> dict[str, Split]:
    return load_rows_of(reader())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.train_verb_jobs", description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="store interaction/offline/data/verb_job_weights.json")
    return train(reader(), parser.parse_args(argv).write)


if __name__ == "__main__":
    raise SystemExit(main())

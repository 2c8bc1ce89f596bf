"""Whether a self-description said with a verb tells the person's job ("I drive a tram in Zurich", "we
run a small hotel by the sea", "I fix bikes for a living") or something else about them (a pastime, a
habit, a belonging: "I play tennis on Sundays", "I drive a red Fiat", "I bake cakes at the weekend").

The same verb is either ("I bake bread for a living" / "I bake bread for the family on Sundays"), so no
list of verbs can decide it: a calibrated linear text model (interaction/linear_text.py) reads the
clause, trained by scripts/eval/train_verb_jobs.py on data/verb_jobs.tsv (written for this repo, split
by a seeded hash of each sentence). A clause is a job only when P(job) reaches `job_above`, the
threshold the training script chose on the dev split so that at most MAX_FALSE_JOB of the dev clauses
that are no job read as one: a job nobody has would be stored and said back to them.
"""

from __future__ import annotations

import csv
import functools
import hashlib
import logging
from pathlib import Path
from typing import Literal

from common.embedding.base import TextEmbedder
from common.vision.base import BackendUnavailable
from interaction.linear_text import FirstClassModel

log = logging.getLogger("nadine.interaction.verb_jobs")

DATA = Path(__file__).with_name("data") / "verb_jobs.tsv"
WEIGHTS = Path(__file__).with_name("data") / "verb_job_weights.json"
CLASSES = ("job", "other")
SPLIT_SEED = "nadine-verb-jobs-1"
MAX_FALSE_JOB = 0.05


def split_of(text: str, seed: str = SPLIT_SEED) -> Literal["train", "dev", "test"]:
    """sha256 of "<seed>:<sentence>" as an integer, mod 10: 0-5 train, 6-7 dev, 8-9 test."""
    bucket = int(hashlib.sha256(f"{seed}:{text}".encode()).hexdigest(), 16) % 10
    return "train" if bucket < 6 else "dev" if bucket < 8 else "test"


def load_rows(path: Path = DATA) -> list[tuple[str, str]]:
    """(label, sentence) in file order."""
    with path.open(encoding="utf-8") as f:
        return [(row["label"], row["text"]) for row in csv.DictReader(f, delimiter="\t")]


def training_fingerprint(rows: list[tuple[str, str]]) -> str:
    """sha256 of the training rows (order and labels included): the weights belong to exactly these."""
    train = [f"{label}\t{text}" for label, text in rows if split_of(text) == "train"]
    return hashlib.sha256("\n".join(train).encode("utf-8")).hexdigest()


class VerbJobModel(FirstClassModel):
    def __init__(self, embedder: TextEmbedder, weights: Path = WEIGHTS) -> None:
        super().__init__(embedder, weights, CLASSES, "job_above", "verb jobs",
                         "run python -m scripts.eval.train_verb_jobs --write")

    def is_job(self, clause: str) -> bool:
        return self.reads_as_first(clause)


@functools.cache
def default_model() -> VerbJobModel | None:
    """The shipped model on the offline text embedder; None (one log line) when it cannot load: then no
    clause said with a verb is taken for a job."""
    from common.embedding.registry import offline_text_embedder

    try:
        return VerbJobModel(offline_text_embedder())
    except (BackendUnavailable, OSError, ValueError, KeyError) as exc:
        log.error("jobs said with a verb are not read (%s)", exc)
        return None

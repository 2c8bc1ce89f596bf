"""Whether a turn asks Nadine not to keep what it says, read whole: "no need to remember this but my mum
is unwell", "this is just between us, don't keep it: ...", "kid got suspended. dont log it", "off the
record: ...". The parse (not_keep.py) finds such a plea by a negated verb whose request, without its
negation, the memory-intent classifier reads as "remember"; short pleas ("don't keep it", "dont log it")
are too few words for that classifier, and "no need to", "you needn't", "off the record" negate no verb.

A calibrated linear text model (interaction/linear_text.py), trained by scripts/eval/train_not_keep.py
on not_keep_turns.tsv (pleas in many voices and verbs, and near misses: "don't forget that ...", "I
don't remember much", "don't tell my wife but ...", "keep this in mind: ...", in paraphrase groups,
a group's rows in one split) beside every row of utterances.tsv as "other". A turn reads as a plea only
when P(not_keep) reaches `not_keep_above`, chosen on the dev split so that at most MAX_FALSE_NOT_KEEP of
the other dev turns read as one: what is told in a turn misread so is lost.
"""

from __future__ import annotations

import csv
import functools
import hashlib
import logging
from pathlib import Path

from common.embedding.base import TextEmbedder
from common.vision.base import BackendUnavailable
from interaction.linear_text import FirstClassModel

log = logging.getLogger("nadine.interaction.not_keep")

HERE = Path(__file__).parent
TURNS = HERE / "not_keep_turns.tsv"
WEIGHTS = HERE / "not_keep_weights.json"
CLASSES = ("not_keep", "other")
SPLIT_SEED = "nadine-not-keep-1"
MAX_FALSE_NOT_KEEP = 0.02


def split_of(group: str, seed: str = SPLIT_SEED) -> str:
    """sha256 of "<seed>:<group>" as an integer, mod 4: 0-1 train, 2 dev, 3 test; a paraphrase group's
    rows share a split, so the held-out figures are of requests whose words the model never saw."""
    bucket = int(hashlib.sha256(f"{seed}:{group}".encode()).hexdigest(), 16) % 4
    return "train" if bucket < 2 else "dev" if bucket == 2 else "test"


def load_turns(path: Path = TURNS) -> list[tuple[str, str, str]]:
    """(label, split, text) of each labelled turn."""
    with path.open(encoding="utf-8") as f:
        return [(r["label"], split_of(r["group"]), r["text"]) for r in csv.DictReader(f, delimiter="\t")]


class NotKeepReader(FirstClassModel):
    def __init__(self, embedder: TextEmbedder, weights: Path = WEIGHTS) -> None:
        super().__init__(embedder, weights, CLASSES, "not_keep_above", "not_keep",
                         "run python -m scripts.eval.train_not_keep --write")


@functools.cache
def default_reader() -> NotKeepReader | None:
    """The shipped reader on the offline text embedder; None (one log line) when it cannot load: a plea
    not to keep is then read from its negated verb alone (not_keep.py)."""
    from common.embedding.registry import offline_text_embedder

    try:
        return NotKeepReader(offline_text_embedder())
    except (BackendUnavailable, OSError, ValueError, KeyError) as exc:
        log.error("pleas not to keep a turn are read from their negated verb alone (%s)", exc)
        return None


def asks_not_to_keep(text: str) -> bool:
    """The reader takes the turn for a plea not to keep it; False without the reader. A sentence
    declining to talk of what the turn tells ("the engagement is off. I don't want to talk about it")
    leaves the news to keep: the turn is read without it, unless it is all the turn says."""
    from interaction import cues
    from interaction.turn_act.reader import turn_acts

    reader = default_reader()
    if reader is None:
        return False
    said = cues.sentences(text)
    told = [s for s, act in zip(said, turn_acts(said), strict=True) if act != "decline"] if len(said) > 1 else said
    return bool(told) and reader.reads_as_first(" ".join(told))


def texts_read(text: str) -> list[str]:
    """The texts whose vectors reading `text` whole takes, to embed them ahead with the turn's other texts."""
    reader = default_reader()
    return reader.texts_read([text]) if reader is not None else []

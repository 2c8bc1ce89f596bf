"""Whether a clause the speaker says with a verb, that tells no job, tells a pastime: what they do for
its own sake, alone or with others ("I ring the bells at our church", "I coach a netball team", "I
volunteer at the animal shelter"), or something else they do (a chore, a commute, a habit, a care, a
belonging: "I cut the grass on Sundays", "I take the ferry to work", "I own three bicycles").

The same verb is either ("I ride with a cycling club" / "I ride the bus into town"), so no list of verbs
can decide it: a calibrated linear text model (interaction/linear_text.py) reads the clause, trained by
scripts/eval/train_pastimes.py on data/pastimes.tsv (written for this repo, split by a seeded hash of
each sentence). A clause is a pastime only when P(pastime) reaches `pastime_above`, chosen on the dev
split so that at most MAX_FALSE_PASTIME of the other dev clauses read as one: a hobby nobody has would
be said back to them.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

from common.embedding.base import TextEmbedder
from common.vision.base import BackendUnavailable
from interaction.linear_text import FirstClassModel

log = logging.getLogger("nadine.interaction.pastimes")

DATA = Path(__file__).with_name("data") / "pastimes.tsv"
WEIGHTS = Path(__file__).with_name("data") / "pastime_weights.json"
CLASSES = ("pastime", "other")
SPLIT_SEED = "nadine-pastimes-1"
MAX_FALSE_PASTIME = 0.05


class PastimeModel(FirstClassModel):
    def __init__(self, embedder: TextEmbedder, weights: Path = WEIGHTS) -> None:
        super().__init__(embedder, weights, CLASSES, "pastime_above", "pastimes",
                         "run python -m scripts.eval.train_pastimes --write")

    def is_pastime(self, clause: str) -> bool:
        return self.reads_as_first(clause)


@functools.cache
def default_model() -> PastimeModel | None:
    """The shipped model on the offline text embedder; None (one log line) when it cannot load: then no
    pastime is read from what someone says they do."""
    from common.embedding.registry import offline_text_embedder

    try:
        return PastimeModel(offline_text_embedder())
    except (BackendUnavailable, OSError, ValueError, KeyError) as exc:
        log.error("pastimes said by their doing are not read (%s)", exc)
        return None

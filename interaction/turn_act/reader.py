"""What a turn does in the conversation, besides what it says: a farewell ("right, must dash, see you
Thursday", "hasta luego"), a backchannel that only acknowledges and hands the turn back ("mhm", "fair
enough"), declining to talk about something ("I'd rather not go into that"), or none of these ("other":
news, questions, greetings, thanks, and words of parting said of something else: "we said our goodbyes at
the airport", "I'm leaving for Oslo on Monday").

A calibrated linear text model (interaction/linear_text.py) over the offline sentence vector, its words
and character n-grams, trained by scripts/eval/train_turn_act.py on turns.tsv: turns written in paraphrase
groups by invented writers (languages, slang, registers), a writer's rows all in one split
(split_of). An act other than "other" needs its calibrated probability to reach its line in weights.json
("above"), chosen on the dev writers so that few turns of other kinds read as it: a wrong farewell ends the
conversation, a wrong backchannel or decline leaves news unanswered.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import threading
from pathlib import Path
from typing import Literal

import numpy as np
from cachetools import LRUCache

from common.embedding.base import TextEmbedder
from common.vision.base import BackendUnavailable
from interaction.linear_text import LinearTextModel

log = logging.getLogger("nadine.interaction.turn_act")

HERE = Path(__file__).parent
WEIGHTS = HERE / "weights.json"
TURNS = HERE / "turns.tsv"
Act = Literal["farewell", "backchannel", "decline", "other"]
ACTS: tuple[Act, ...] = ("farewell", "backchannel", "decline", "other")
OTHER: Act = "other"
SPLIT_SEED = "nadine-turn-acts-1"
RECENT_TEXTS = 1024


def split_of(writer: str, seed: str = SPLIT_SEED) -> Literal["train", "dev", "test"]:
    """sha256 of "<seed>:<writer>" as an integer, mod 4: 0-1 train, 2 dev, 3 test. A writer's turns
    share a split, so the held-out figures are of people whose words the model never saw."""
    bucket = int(hashlib.sha256(f"{seed}:{writer}".encode()).hexdigest(), 16) % 4
    return "train" if bucket < 2 else "dev" if bucket == 2 else "test"


class TurnActReader:
    def __init__(self, embedder: TextEmbedder, weights: Path = WEIGHTS) -> None:
        data = json.loads(weights.read_text(encoding="utf-8"))
        self._model = LinearTextModel(embedder, data, "turn_act", "run python -m scripts.eval.train_turn_act")
        if tuple(self._model.classes) != ACTS:
            raise ValueError(f"turn-act weights have classes {self._model.classes}, expected {list(ACTS)}")
        self.above: dict[str, float] = {act: float(data["above"][act]) for act in ACTS if act != OTHER}

    def probabilities(self, texts: list[str]) -> np.ndarray:
        """(len(texts), 4) calibrated probabilities of farewell, backchannel, decline, other."""
        return self._model.probabilities(texts)

    def decide(self, probs: np.ndarray) -> Act:
        # every line is 0.5 or above, so at most one act reaches its own
        return next((act for i, act in enumerate(ACTS) if act != OTHER and probs[i] >= self.above[act]), OTHER)

    def texts_read(self, texts: list[str]) -> list[str]:
        """The texts whose vectors reading `texts` takes."""
        return self._model.texts_read(texts)

    def read(self, texts: list[str]) -> list[Act]:
        """Each text's act; a question asked by a wh-word ("which subject?") asks for something, and
        declines nothing (the words of "change the subject" are no refusal there)."""
        from interaction.offline.question_form import asks_by_a_wh_word

        acts = [self.decide(p) for p in self.probabilities(texts)] if texts else []
        return [OTHER if act == "decline" and asks_by_a_wh_word(text) else act for act, text in zip(acts, texts, strict=True)]


@functools.cache
def default_reader() -> TurnActReader | None:
    """The shipped reader on the offline embedder, loaded once per process; None (one log line) when it
    cannot load: every turn is then "other", so no conversation is ended on a guess."""
    from common.embedding.registry import offline_text_embedder

    try:
        return TurnActReader(offline_text_embedder())
    except (BackendUnavailable, OSError, KeyError, ValueError) as exc:
        log.error("turn-act reader unavailable (%s); no turn reads as a farewell, backchannel or decline", exc)
        return None


# a turn is read whole by the guards, the understanding and the reply, and by its sentences and clauses
# for its feeling and for what it tells: each text once
_recent: LRUCache[str, Act] = LRUCache(RECENT_TEXTS)
_recent_lock = threading.Lock()  # the episode save reads what was told on its own thread


def turn_acts(texts: list[str]) -> list[Act]:
    """What each of `texts` does, those not read before read in one batch."""
    reader = default_reader()
    if reader is None:
        return [OTHER] * len(texts)
    with _recent_lock:
        known = {t: _recent[t] for t in texts if t in _recent}
    new = list(dict.fromkeys(t for t in texts if t not in known and t.strip()))
    if new:
        read = dict(zip(new, reader.read(new), strict=True))
        with _recent_lock:
            _recent.update(read)
        known.update(read)
    return [known.get(t, OTHER) for t in texts]


def texts_read(texts: list[str]) -> list[str]:
    """The texts whose vectors reading `texts` takes, to embed them ahead with a turn's other texts."""
    reader = default_reader()
    return reader.texts_read(texts) if reader is not None else []


def turn_act(text: str) -> Act:
    return turn_acts([text])[0]

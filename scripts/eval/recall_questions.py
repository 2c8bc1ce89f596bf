"""Labelled recall questions through the retrieval core, for fitting and reporting the recall
decision (scripts/eval/calibrate_recall.py on the labels written here, scripts/eval/
locomo_answerability.py on LoCoMo): each question's shortlist as a recall turn judges it, and what a
calibration decides about it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from common.config.interaction_settings import RecallCalibration
from interaction.memory.retrieval import decision
from interaction.memory.retrieval.candidates import CandidatePool
from interaction.memory.retrieval.core import Judged, RetrievalCore


@dataclass
class Asked:
    person: str
    question: str
    told: frozenset[str]  # ids of the memories that answer it; empty: never told
    judged: list[Judged]  # the shortlist, best fused first
    category: str = ""

    @property
    def kind(self) -> str:
        return "told" if self.told else "untold"


def shortlist(core: RetrievalCore, pool: CandidatePool, question: str, vector: np.ndarray) -> list[Judged]:
    """The verify_top best fused candidates, judged (verifier, entities, margins)."""
    ranked = core.rank(pool, question, vector)
    judged = [Judged(pool.items[i], float(ranked.dense[i]), float(ranked.lexical[i]),
                     float(ranked.coverage[i]), float(ranked.fused[i]))
              for i in ranked.order[: core.settings.verify_top]]
    core.judge(question, judged)
    return judged


def labels(asked: list[Asked]) -> np.ndarray:
    return np.array([j.candidate.memory_id in a.told for a in asked for j in a.judged])


def rows(asked: list[Asked]) -> np.ndarray:
    return np.vstack([decision.feature_rows(a.judged) for a in asked]) if asked else np.zeros((0, len(decision.FEATURES)))


def decide(core: RetrievalCore, cal: RecallCalibration, a: Asked) -> tuple[decision.Outcome, bool]:
    """The outcome under `cal` and whether the memory it names first is one that answers."""
    core.score(a.judged, cal)
    outcome, named = decision.CalibratedChooser(cal).choose(a.question, a.judged, core.settings.top_k)
    right = bool(named) and a.judged[named[0]].candidate.memory_id in a.told
    return outcome, right


def tally(core: RetrievalCore, cal: RecallCalibration, asked: list[Asked], by: str = "kind") -> Counter[str]:
    """Counts of `<group>:<outcome>` and `<group>:asserted_right` (group: told / untold, or the category)."""
    counts: Counter[str] = Counter()
    for a in asked:
        outcome, right = decide(core, cal, a)
        group = a.kind if by == "kind" else a.category
        counts[f"{group}:{outcome}"] += 1
        counts[f"{group}:n"] += 1
        if outcome == "asserted" and right:
            counts[f"{group}:asserted_right"] += 1
    return counts

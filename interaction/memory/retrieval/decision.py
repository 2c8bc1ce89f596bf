"""The recall decision: does the best shortlisted memory answer the question, and how sure is Nadine?

One calibrated probability that a candidate is what the person told, from everything the core knows
about it together (FEATURES): the dense cosine, the BM25 coverage, the verifier's logit, what the
question names against what the memory names (entities.py: the share of the question's mentions
found in it, the share absent, the share with only a sister word in it, a name of the question
missing, a conflicting entity, whether it agrees with everything the question names) and the margins
of its verifier logit and of its dense cosine over the best other shortlisted candidate's (a
recognised face is named only with a margin over the runner-up: with a person's few memories, the
one a vague question means stands out from the others even where no score of the pair is high). No single score separates told from untold
(shared/spec/retrieval-notes.md); a logistic regression, fitted on labelled pairs by
scripts/eval/calibrate_recall.py, is the smallest model that weighs them against each other. Every
feature reads one (question, memory) pair or the shortlist, never the size of the store: a person
with three memories is asked the same question as one with thousands.

Three outcomes on the best: asserted from assert_above, asked about ("do you mean ...?") from
abstain_below, else abstained; and one more way to be asked about: the closest memory by the dense
cosine when it stands out from the person's other memories by offer_margin and names nothing
conflicting. Asked vaguely ("do you remember my big news?", "my late husband" for "since Jorge passed
away"), a told thing shares no word with the question and the cross-encoder reads it as irrelevant,
so no probability reaches a bound; what still says it is the one meant is that nothing else the
person told comes near it. It is only asked about: untold neighbours stand out as well (the near-miss
labels), and asking is what the person can answer. A memory that names something conflicting with what the question
names ("our dog" for "my neighbour's cat", "my aunt" for "my cousin") is never asserted; it may be
asked about. A memory is also asserted, whatever the verifier says of the pair, when it agrees with
everything the question names (the same things or their kinds: "my kid" for "my daughter") and is
the closest of the shortlist by the dense cosine, from agree_dense or agree_margin above the next
closest: with a person's few memories
the question is whether this memory answers, and the cross-encoder, trained on web search, reads
paraphrases of a memory as irrelevant (`python -m scripts.eval.calibrate_recall` chooses
agree_dense with assert_above, on dev, for the same false-assert rate, and agree_margin as the least
adding no wrong assertion on dev).

The margins here read only the shortlist (the verify_top best), never the size of the store.

`Chooser` is the interface of this choice: CalibratedChooser is the offline one; another (a model
reading the shortlist) can stand behind the same call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol

import numpy as np

from common.config.interaction_settings import RecallCalibration
from interaction.memory.retrieval.candidates import Candidate

Outcome = Literal["asserted", "offered", "abstained"]
FEATURES = ("dense", "lexical", "verifier", "agreement", "absent", "names_missing", "conflict", "margin", "rival",
            "dense_margin", "all_agree")
SUMMARY_KINDS = {"episode", "conversation"}  # a session's summary or transcript: many things told at once
MARGIN_CLIP = 8.0  # verifier logits span about -11..+8; no runner-up counts as the widest margin
DENSE_MARGIN_CLIP = 0.3  # a told memory stands at most about this far above the next by dense cosine


class Scored(Protocol):
    """What the decision reads of a shortlisted candidate (core.Judged)."""

    dense: float
    coverage: float
    verifier: float | None
    agreement: float
    absent: float
    names_missing: float
    rival: float
    conflict: bool
    all_agree: bool
    margin: float
    dense_margin: float
    probability: float
    candidate: Candidate


def margins(scores: np.ndarray, clip: float = MARGIN_CLIP) -> np.ndarray:
    """Each candidate's score minus the best other one's (clipped; alone: the widest)."""
    v = np.asarray(scores, np.float64)
    if len(v) < 2:
        return np.full(len(v), clip)
    top2 = np.sort(v)[-2:]
    others = np.where(v >= top2[1], top2[0], top2[1])
    return np.clip(v - others, -clip, clip)


def feature_rows(judged: Sequence[Scored]) -> np.ndarray:
    return np.array([[j.dense, j.coverage, j.verifier or 0.0, j.agreement, j.absent, j.names_missing,
                      float(j.conflict), j.margin, j.rival, j.dense_margin, float(j.all_agree and not j.conflict)]
                     for j in judged], dtype=np.float64).reshape(len(judged), len(FEATURES))


def weights(cal: RecallCalibration) -> np.ndarray:
    return np.array([getattr(cal, name) for name in FEATURES], dtype=np.float64)


def probability(cal: RecallCalibration, rows: np.ndarray) -> np.ndarray:
    z = cal.intercept + np.asarray(rows, np.float64) @ weights(cal)
    return 1.0 / (1.0 + np.exp(-z))


def outcome(cal: RecallCalibration, p: float, conflict: bool = False) -> Outcome:
    if p >= cal.assert_above and not conflict:
        return "asserted"
    return "offered" if p >= cal.abstain_below else "abstained"


def closest(shortlist: Sequence[Scored]) -> tuple[int, float] | None:
    """The shortlisted memory closest by dense cosine, and its cosine over the next closest one's
    (alone: over nothing, its cosine); None for an empty shortlist."""
    if not shortlist:
        return None
    best = max(range(len(shortlist)), key=lambda i: shortlist[i].dense)
    others = [j.dense for i, j in enumerate(shortlist) if i != best]
    return best, shortlist[best].dense - max(max(others, default=0.0), 0.0)


def agreeing(cal: RecallCalibration, shortlist: Sequence[Scored]) -> int | None:
    """The shortlisted memory asserted by agreement: the closest by dense cosine, agreeing with
    everything the question names and conflicting with nothing, from agree_dense or when it stands
    agree_margin above the next closest (a person's one memory of their son, asked "what did I say
    about my son?", is the answer however low the cosine of a short question to a long memory);
    None when there is none."""
    found = closest(shortlist)
    if found is None:
        return None
    j = shortlist[found[0]]
    if not j.all_agree or j.conflict:
        return None
    return found[0] if j.dense >= cal.agree_dense or found[1] >= cal.agree_margin else None


def standing_out(offer_margin: float, shortlist: Sequence[Scored]) -> int | None:
    """The shortlisted memory asked about by its margin: the closest by dense cosine, at least
    offer_margin above the next closest, naming nothing conflicting; None when there is none."""
    found = closest(shortlist)
    if found is None or shortlist[found[0]].conflict or found[1] < offer_margin:
        return None
    return found[0]


class Chooser(Protocol):
    def choose(self, query: str, shortlist: Sequence[Scored], top_k: int) -> tuple[Outcome, list[int]]:
        """The outcome and the shortlist indices it names (asserted: up to top_k; offered: one)."""
        ...


class CalibratedChooser:
    """The offline decision on the calibrated probabilities (already in the shortlist)."""

    def __init__(self, cal: RecallCalibration) -> None:
        self.cal = cal

    def choose(self, query: str, shortlist: Sequence[Scored], top_k: int) -> tuple[Outcome, list[int]]:
        if not shortlist:
            return "abstained", []
        order = sorted(range(len(shortlist)), key=lambda i: -shortlist[i].probability)
        asserted = [i for i in order if outcome(self.cal, shortlist[i].probability, shortlist[i].conflict) == "asserted"]
        agreed = agreeing(self.cal, shortlist)
        if agreed is not None and agreed not in asserted:
            asserted.append(agreed)
        if asserted:
            return "asserted", asserted[:top_k]
        best = order[0]  # may name a conflicting entity: asked about, never asserted
        if shortlist[best].probability >= self.cal.abstain_below:
            return "offered", [best]
        standing = standing_out(self.cal.offer_margin, shortlist)
        if standing is not None:
            return "offered", [standing]
        return "abstained", []

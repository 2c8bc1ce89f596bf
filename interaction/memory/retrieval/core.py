"""The retrieval core: one path for every recall.

rank(): dense cosine (one matrix product) and BM25 over a pool, fused (fused_score.py).
decide(): the time window (windows.py) removes candidates outside it; the best fused candidates of
every pool are read by the verifier and by the entity reader (entities.py: does the memory name what
the question names?); the calibrated probability (decision.py) of the best says asserted / offered /
abstained, through the chooser (decision.Chooser); an asserted recall hands up to top_k memories that
pass on their own, never one naming a conflicting entity.
A question that names no topic (generic.py), or names an event that is its own window ("the first
time we met"), recalls what was told in the window it names, or in the last session when it names
none ("do you remember what I told you?"): the things told one by one, the most memorable first (a
session's summary only when nothing was); a question that names a topic is answered by the things
told one by one, never by a summary, and never falls back to another moment: nothing passes, Nadine
says she does not remember.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from common.config.interaction_settings import RecallCalibration, RecallSettings
from common.messages import RecalledMemory, RecallReport
from interaction.memory.retrieval import decision, later_news, spelling, windows
from interaction.memory.retrieval.candidates import Candidate, CandidatePool
from interaction.memory.retrieval.entities import EntityReader
from interaction.memory.retrieval.fused_score import fuse
from interaction.memory.retrieval.generic import (
    GenericQuestions,
    asks_what_was_kept,
    kind_of_telling,
    names_a_thing,
    without,
)
from interaction.memory.retrieval.lexical import LexicalIndex
from interaction.memory.retrieval.verifier import Verifier
from interaction.memory.retrieval.windows import Window

SCENE_KINDS = {"moment", "first_meeting", "observation"}
KEPT_KINDS = {"moment", "explicit_memory"}  # kept because they were worth it: memorable, or asked to be kept
REPORT_KINDS = {"moment", "first_meeting", "observation", "turn", "episode", "explicit_memory", "fact"}


@dataclass
class Ranked:
    """One pool's channel scores for one query; `order` is best fused first."""

    pool: CandidatePool
    dense: np.ndarray
    lexical: np.ndarray  # raw BM25
    coverage: np.ndarray
    fused: np.ndarray

    @property
    def order(self) -> np.ndarray:
        return np.argsort(-self.fused, kind="stable")


@dataclass
class Judged:
    candidate: Candidate
    dense: float
    lexical: float
    coverage: float
    fused: float
    verifier: float | None = None
    agreement: float = 0.0  # what the question names against what the memory names (entities.py)
    absent: float = 0.0
    names_missing: float = 0.0
    rival: float = 0.0  # share of the question's mentions with only a sister word in the memory
    conflict: bool = False
    all_agree: bool = False  # the memory agrees with everything the question names (and it names something)
    margin: float = 0.0  # its verifier logit over the best other shortlisted candidate's
    dense_margin: float = 0.0  # its dense cosine over the best other shortlisted candidate's
    probability: float = 0.0

    def memory(self) -> RecalledMemory:
        kind = self.candidate.kind if self.candidate.kind in REPORT_KINDS else "turn"
        return RecalledMemory(
            kind=kind, memory_id=self.candidate.memory_id, text=self.candidate.quote,  # type: ignore[arg-type]
            occurred_at=self.candidate.occurred_at, fused_score=round(self.fused, 4),
            verifier_score=None if self.verifier is None else round(self.verifier, 3),
            channels={"dense": round(self.dense, 4), "lexical": round(self.lexical, 3),
                      "coverage": round(self.coverage, 3), "p_told": round(self.probability, 3),
                      "entity_agreement": round(self.agreement, 3), "entity_absent": round(self.absent, 3),
                      "entity_conflict": float(self.conflict),
                      "margin": round(self.margin, 3), "dense_margin": round(self.dense_margin, 3)},
        )


def names_all_asked(memory: RecalledMemory) -> bool:
    """The entity reader found in the memory every thing the question names, conflicting with none
    (Judged.all_agree, as its channels carry it: some agreement, nothing absent)."""
    c = memory.channels
    return c.get("entity_agreement", 0.0) > 0 and c.get("entity_absent", 1.0) == 0 and not c.get("entity_conflict", 0.0)


@dataclass
class RecallDecision:
    outcome: decision.Outcome | None  # None: nothing stored to decide about
    chosen: list[Judged] = field(default_factory=list)  # asserted: up to top_k; offered: the one asked about
    considered: list[Judged] = field(default_factory=list)  # everything the verifier read, best first
    window: Window | None = None
    decided_by: str | None = None  # "probability", "agreement", "margin", "window", "memorable" or "planned" (RecallReport.decided_by)
    bounds: tuple[float, float] | None = None  # (assert_above, abstain_below) when by probability
    changed_plans: frozenset[str] = frozenset()  # planned: news that moved or called off a plan of the day

    @property
    def named(self) -> Judged | None:
        """The candidate asserted or offered first; None when the decision abstained."""
        return self.chosen[0] if self.outcome in ("asserted", "offered") and self.chosen else None

    def report(self) -> RecallReport:
        best = self.considered[0].verifier if self.considered else None
        # what was told since about someone an asserted memory names goes with it (later_news.py): of
        # each, as the one that answers may not be the first ("what's my dog called?" answered by "my dog
        # Rex is a german shepherd", asserted after "we got a new puppy!", and "Rex died" since)
        since: list[Judged] = []
        if self.outcome == "asserted" and self.decided_by not in ("window", "memorable"):
            for told in self.chosen:
                since += [j for j in _told_since(told, self.considered, self.chosen) if j not in since]
        return RecallReport(
            outcome=self.outcome or "abstained", memories=[j.memory() for j in [*self.chosen, *since]],
            window_start=self.window.start.isoformat() if self.window else None,
            window_end=self.window.end.isoformat() if self.window else None,
            window_expression=(self.window.expression or None) if self.window else None,
            verifier_score=None if best is None else round(best, 3), decided_by=self.decided_by,  # type: ignore[arg-type]
            p_told=round(self.considered[0].probability, 4) if self.considered and self.bounds else None,
            changed_plans=sorted(self.changed_plans),
            assert_above=self.bounds[0] if self.bounds else None, abstain_below=self.bounds[1] if self.bounds else None,
        )


class RetrievalCore:
    def __init__(self, settings: RecallSettings, verifier: Verifier | None, calibration: RecallCalibration,
                 generic: GenericQuestions | None = None, entities: EntityReader | None = None,
                 chooser: decision.Chooser | None = None, reading: Callable[[str], str] | None = None,
                 meant: Callable[[list[str]], list[str]] | None = None) -> None:
        self.settings = settings
        # a quote is verified and read for what it names as its words were meant: the cross-encoder and
        # the parser know "appointment" and "February", not "apointment" and "Feburary"
        self.meant = meant or (lambda quotes: quotes)
        # another way the verifier reads a memory's quote, the better of the two counting: a kept request
        # to be reminded is also what the person has to do, the words a question after it may ask with
        # ("what did I have to buy?" for "remind me to buy eggs": the cross-encoder read the request
        # as irrelevant), or the request it was ("what did I ask you to remind me about?")
        self.reading = reading or (lambda quote: quote)
        self.verifier = verifier
        self.calibration = calibration
        self.generic = generic
        self.entities = entities
        self.chooser = chooser or decision.CalibratedChooser(calibration)

    def warm_up(self, now: datetime) -> None:
        """What the first recall would otherwise load on its reply path (about 50 ms): the calendar
        parser of time windows, BM25's tokenizer and the verifier's first run; and what the first forget
        request with a misspelt word would (0.4 s): the English lemmas by length and their letters."""
        windows.resolve("what did I tell you yesterday?", now, [])
        LexicalIndex(["a warm-up"]).scores("warm-up")
        if self.verifier is not None:
            self.verifier.score("a warm-up", ["a warm-up"])
        if self.entities is not None:
            spelling.mend("forgt", set(), self.entities.lexicon, 0.8)

    def rank(self, pool: CandidatePool, query: str, query_vector: np.ndarray) -> Ranked:
        dense = np.einsum("ij,j->i", pool.vectors, query_vector) if len(pool) else np.zeros(0, np.float32)
        lexical, coverage = pool.lexical.scores(query)
        fused = fuse(dense, lexical, self.settings.fusion, self.settings.dense_weight, self.settings.lexical_weight)
        return Ranked(pool, dense, lexical, coverage, fused)

    def decide(self, query: str, now: datetime, pools: list[tuple[CandidatePool, np.ndarray]],
               chooser: decision.Chooser | None = None) -> RecallDecision:
        """pools: each with the query embedded in that pool's vector space; chooser: this turn's,
        in place of the core's (a model reading the shortlist)."""
        live = [(p, v) for p, v in pools if len(p)]
        if not live:
            return RecallDecision(None)
        window = windows.resolve(query, now, [p for p, _ in live])
        return self.of_its_time(query, now, live, window) or self.planned(query, now, live) \
            or self.verify(query, live, window, chooser)

    def of_its_time(self, query: str, now: datetime, live: list[tuple[CandidatePool, np.ndarray]],
                    window: Window | None) -> RecallDecision | None:
        """What was told in the time a question names when it names no topic ("what did I tell you
        yesterday?", "do you remember what happened yesterday?"; _memorable), or in the event it names;
        None for a question that names a topic."""
        if (window is not None and window.names_event) or (
                self.generic is not None and self.generic.is_generic(without(query, window.expression if window else None))):
            return self._memorable(query, now, live, window)
        return None

    def planned(self, query: str, now: datetime, pools: list[tuple[CandidatePool, np.ndarray]]) -> RecallDecision | None:
        """What the memories say takes place in the window of a question that names nothing but a day
        today or to come (windows.to_come: "what do I have on today?", "anything on Friday?"): up to
        top_k, in the order they take place, asserted; None when the question is no such one or nothing
        told takes place then (the topic path decides: "who is coming on Tuesday?" may name no thing,
        but asks one told with no day)."""
        from interaction.offline.value_changes import joins_things

        window = windows.to_come(query, now)
        if window is None or names_a_thing(query):
            return None
        told = [[int(i) for i in np.flatnonzero(~np.isin(pool.kinds, list(decision.SUMMARY_KINDS)))] for pool, _ in pools]
        said = [(float(pools[k][0].occurred_ts[i]), k, i) for k in range(len(pools)) for i in told[k]]
        listed: list[tuple[tuple, int, int]] = []  # (when it takes place, pool, item)
        changed: set[str] = set()
        for k, (pool, _) in enumerate(pools):
            for i in told[k]:
                day = window.day_named_in(pool.items[i].quote, float(pool.occurred_ts[i]))
                if day is None:
                    continue
                # a plan that later news changes or calls off ("the study group is moved, we meet Thursday
                # instead", this conversation's or an earlier one's) no longer takes place on the day it
                # named: the latest such news is what there is to say of that day; news of someone the
                # plan is made with ("my brother Luis just got out of hospital") changes no plan
                news = [(at, kk, j) for at, kk, j in said if at > pool.occurred_ts[i]
                        and later_news.updates(pools[kk][0].items[j].quote, pool.items[i].quote, of_people=False)]
                _, kk, j = max(news) if news else (None, k, i)
                when = (day.start, day.at is None, day.at or day.start)  # by the time of day, those with none after
                if news:
                    changed.add(pools[kk][0].items[j].memory_id)
                    if joins_things(pool.items[i].quote):
                        # the news is of one of the things told together: the others still take place
                        listed.append((when, k, i))
                listed.append((when, kk, j))
        # ranked only where something takes place then
        ranked = {kk: self.rank(pools[kk][0], query, pools[kk][1]) for kk in {kk for _, kk, _ in listed}}
        found = [(when, Judged(pools[kk][0].items[j], float(ranked[kk].dense[j]), float(ranked[kk].lexical[j]),
                               float(ranked[kk].coverage[j]), float(ranked[kk].fused[j]))) for when, kk, j in listed]
        chosen = _distinct([j for _, j in sorted(found, key=lambda f: f[0])])[: self.settings.top_k]
        if not chosen:
            return None
        self.judge(query, chosen)
        return RecallDecision("asserted", chosen, chosen, window, "planned", changed_plans=frozenset(changed))

    def verify(self, query: str, pools: list[tuple[CandidatePool, np.ndarray]],
               window: Window | None = None, chooser: decision.Chooser | None = None) -> RecallDecision:
        """The topic path alone: the best fused candidates (inside the window) read by the verifier,
        the calibrated probability of the best decides. Also what a forget request or a question about
        this conversation is matched with: they name a topic, never only a time."""
        shortlist: list[Judged] = []
        for pool, vector in pools:
            if not len(pool):
                continue
            ranked = self.rank(pool, query, vector)
            keep = window.mask(pool.occurred_ts) if window else np.ones(len(pool), bool)
            # a session's summary holds everything said then: a question naming a topic is answered
            # by the things told one by one, never by the summary that quotes them all
            keep &= ~np.isin(pool.kinds, list(decision.SUMMARY_KINDS))
            if window is not None and window.happened:  # and a thing told before of a day inside it
                told = ~np.isin(pool.kinds, list(decision.SUMMARY_KINDS))
                for i in [int(i) for i in ranked.order if told[i] and not keep[i]][: self.settings.verify_top]:
                    keep[i] = window.names_a_day_in(pool.items[i].quote, float(pool.occurred_ts[i]))
            for i in [int(i) for i in ranked.order if keep[i]][: self.settings.verify_top]:
                shortlist.append(Judged(pool.items[i], float(ranked.dense[i]), float(ranked.lexical[i]),
                                        float(ranked.coverage[i]), float(ranked.fused[i])))
        if not shortlist:
            return RecallDecision("abstained", window=window)
        shortlist.sort(key=lambda j: -j.fused)
        shortlist = _distinct(shortlist)[: self.settings.verify_top]
        self.judge(query, shortlist)
        shortlist.sort(key=lambda j: -j.probability)
        outcome, named = (chooser or self.chooser).choose(query, shortlist, self.settings.top_k)
        decided_by = self._decided_by(outcome, shortlist[named[0]].probability if named else 0.0)
        alone = _alone_in_window(shortlist) if outcome == "abstained" and window is not None else None
        if alone is not None:
            outcome, named, decided_by = "offered", [alone], "window"
        return RecallDecision(outcome, [shortlist[i] for i in named], shortlist, window, decided_by,
                              (self.calibration.assert_above, self.calibration.abstain_below))

    def _decided_by(self, outcome: decision.Outcome, p: float) -> str:
        """Which route named the memory: below its bound, an assertion was by agreement and an
        offer by the margin over the runner-up (decision.py)."""
        if outcome == "asserted" and p < self.calibration.assert_above:
            return "agreement"
        if outcome == "offered" and p < self.calibration.abstain_below:
            return "margin"
        return "probability"

    def _memorable(self, query: str, now: datetime, live: list[tuple[CandidatePool, np.ndarray]],
                   window: Window | None) -> RecallDecision:
        """A question that names no topic: what was told in its window (of the last session when it
        names none), asserted (_told_in); nothing in the window: abstained."""
        window = window or windows.last_session(now, [p for p, _ in live])
        if window is None:
            return RecallDecision("abstained")
        in_window = [(self.rank(pool, query, vector), window.mask(pool.occurred_ts) & _of_the_kind(query, pool))
                     for pool, vector in live]
        chosen = _told_in(in_window, window.names_event, self.settings.top_k)
        if not chosen:
            return RecallDecision("abstained", window=window)
        self.judge(query, chosen)
        return RecallDecision("asserted", chosen, chosen, window, "memorable")

    def judge(self, query: str, judged: list[Judged]) -> None:
        """Verifier scores, what the question names against each memory, margins over the runner-up
        and the calibrated probability, in place."""
        if self.verifier is not None and judged:
            quotes = self.meant([j.candidate.quote for j in judged])
            readings = [self.reading(q) for q in quotes]
            scores = self.verifier.score(query, quotes)
            if readings != quotes:  # else the same batch again, the same logits (a recall's costliest part)
                scores = np.maximum(scores, self.verifier.score(query, readings))
        else:
            scores = np.zeros(len(judged), np.float32)
        dense_margins = decision.margins(np.array([j.dense for j in judged]), decision.DENSE_MARGIN_CLIP)
        for j, s, margin, dense_margin in zip(judged, scores, decision.margins(scores), dense_margins, strict=True):
            j.verifier = float(s) if self.verifier is not None else None
            j.margin = float(margin) if self.verifier is not None else 0.0
            j.dense_margin = float(dense_margin)
        self.read(query, judged)
        self.score(judged)

    def read(self, query: str, judged: list[Judged]) -> None:
        """What the question names against what each memory says (its quote), in place."""
        if self.entities is None:
            return
        quotes = self.meant([j.candidate.quote for j in judged])
        self.entities.prepare([query, *quotes])
        for j, quote in zip(judged, quotes, strict=True):
            compared = self.entities.compare(query, quote)
            j.agreement = compared.agreement
            j.absent = compared.absent / compared.asked if compared.asked else 0.0
            j.names_missing = float(compared.names_missing > 0)
            j.rival = compared.rivals / compared.asked if compared.asked else 0.0
            j.conflict = compared.conflict
            j.all_agree = compared.asked > 0 and compared.agreeing == compared.asked

    def score(self, judged: list[Judged], calibration: RecallCalibration | None = None) -> None:
        """The calibrated probability of each judged candidate, in place."""
        p = decision.probability(calibration or self.calibration, decision.feature_rows(judged))
        for j, pj in zip(judged, p, strict=True):
            j.probability = float(pj)


def _distinct(judged: list[Judged]) -> list[Judged]:
    """One candidate per quoted text (a turn, a summary and a scene can hold the same words); the
    scene is kept where there is one, since it also carries the picture of that moment."""
    kept: dict[str, int] = {}
    out: list[Judged] = []
    for j in judged:
        key = j.candidate.quote.strip().casefold()
        if key not in kept:
            kept[key] = len(out)
            out.append(j)
        elif j.candidate.kind in SCENE_KINDS and out[kept[key]].candidate.kind not in SCENE_KINDS:
            out[kept[key]] = j
    return _told_whole(out)


_WHOLE_TURNS = {"turn", "this_session"}


def _told_whole(judged: list[Judged]) -> list[Judged]:
    """A turn kept with the statement before it that it speaks of by a pronoun (said_before.py) holds
    that statement whole: it stands in its place, once, so a reply never says the statement twice."""
    # (the words as forgotten.words reads them; that module reads memories through this one, so it is not
    # imported here)
    said = [" ".join(re.findall(r"\w+", j.candidate.quote.casefold())) for j in judged]

    def holder(i: int) -> int:  # the longest that holds it: a chain of them is one memory
        holders = [k for k, j in enumerate(judged) if k != i and j.candidate.kind in _WHOLE_TURNS
                   and len(said[k]) > len(said[i]) and said[i] and f" {said[i]} " in f" {said[k]} "]
        return max(holders, key=lambda k: len(said[k]), default=i)

    held = list(dict.fromkeys(holder(i) for i in range(len(judged))))
    return [judged[k] for k in held]


def _alone_in_window(shortlist: list[Judged]) -> int | None:
    """In the time the question names, the one thing told that agrees with everything it names and
    conflicts with nothing ("what happened with my kid yesterday?" and yesterday's "my daughter was
    accepted into medical school"), when no other does: asked about, never asserted, since the
    probability found too little to assert."""
    agreeing = [i for i, j in enumerate(shortlist)
                if j.all_agree and not j.conflict and j.candidate.kind not in decision.SUMMARY_KINDS]
    return agreeing[0] if len(agreeing) == 1 else None


def _of_the_kind(query: str, pool: CandidatePool) -> np.ndarray:
    """Which of the pool's memories are of the kind of telling the question asks for: what they asked
    to be kept when it asks that (generic.asks_what_was_kept), and of those, the ones whose
    feeling has the sign of the "good" of "good news" or the "sad" of "sad news" (the offline polarity
    model); every one when the question names no kind, or one with no sign ("what big news ...?")."""
    from interaction.offline.feeling_polarity import shipped_polarity

    # "what did I ask you to remember?": what they told alongside was not asked to be kept
    asked = pool.kinds == "explicit_memory" if asks_what_was_kept(query) else np.ones(len(pool), bool)
    kind = kind_of_telling(query)
    model = shipped_polarity() if kind else None
    if model is None or not len(pool):
        return asked
    probabilities = model.probabilities([kind, *(c.quote for c in pool.items)])
    wanted = model.named(probabilities[0])
    if wanted == "none":
        return asked
    return asked & np.array([model.named(p) == wanted for p in probabilities[1:]], bool)


def _told_in(in_window: list[tuple[Ranked, np.ndarray]], first_meeting: bool, top_k: int) -> list[Judged]:
    """What a window holds for a question that names only the window. A first-meeting window: its
    first-meeting scene where there is one. Otherwise, up to top_k said in the order told: what was
    kept as worth remembering (moments, the most memorable first, and what they asked to be kept);
    only without those the other things told one by one, the latest first ("Hello! My name is
    Eileen." is no news of the last visit beside its moment); a session's summary only when nothing
    was told one by one (it quotes every turn, greetings included), and the first-meeting anchor last
    of all."""
    items = [Judged(ranked.pool.items[i], float(ranked.dense[i]), float(ranked.lexical[i]),
                    float(ranked.coverage[i]), float(ranked.fused[i]))
             for ranked, keep in in_window for i in np.flatnonzero(keep)]
    anchors = [j for j in items if j.candidate.kind == "first_meeting"]
    if first_meeting and anchors:
        return [min(anchors, key=lambda j: j.candidate.occurred_ts or 0.0)]
    ranked_items = sorted(items, key=lambda j: (j.candidate.memorability, j.candidate.occurred_ts or 0.0), reverse=True)
    for kinds in (KEPT_KINDS, None, decision.SUMMARY_KINDS, {"first_meeting"}):
        found = [j for j in ranked_items if (j.candidate.kind in kinds if kinds else
                                              j.candidate.kind not in decision.SUMMARY_KINDS | {"first_meeting"})]
        if found:
            chosen = _distinct(found)[: top_k if kinds in (None, KEPT_KINDS) else 1]
            return sorted(chosen, key=lambda j: j.candidate.occurred_ts or 0.0)
    return []


def _told_since(best: Judged, considered: list[Judged], chosen: list[Judged]) -> list[Judged]:
    """What of the shortlist, told after `best` and not chosen already, tells a new state of someone
    `best` names (later_news.updates), latest last. One that names what is asked by another head is
    left out ("my neighbour's cat" for the dog), unless it gives `best` itself a new value ("Meera's
    dentist got moved to the 12th" of her dentist appointment, asked as "Meera's appointment"), or
    tells that a thing of `best` was called off ("the planners cancelled the meeting", whoever it is
    said to be of)."""
    from interaction.asked_value import calls_off
    from interaction.offline.value_changes import changed_value

    told = best.candidate.occurred_ts
    if told is None:
        return []
    after = [j for j in considered if j not in chosen
             and j.candidate.occurred_ts is not None and j.candidate.occurred_ts > told
             and (not j.conflict or changed_value(j.candidate.quote, best.candidate.quote) is not None
                  or calls_off(best.candidate.quote, j.candidate.quote))]
    return sorted((j for j in after if later_news.updates(j.candidate.quote, best.candidate.quote)
                   or calls_off(best.candidate.quote, j.candidate.quote)), key=lambda j: j.candidate.occurred_ts)

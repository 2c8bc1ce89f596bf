"""Fit and test the recall decision (interaction/memory/retrieval/decision.py).

    python -m scripts.eval.calibrate_recall [--labels scripts/eval/recall_labels] [--no-locomo] [--write | --shipped]

For every person of a split their moments become one candidate pool (dated `days_ago` before a fixed
"now"); each question goes through the retrieval core (dense + BM25 fused, the shortlist read by the
verifier and the entity reader). Every shortlisted (question, memory) pair is a training row:
features (decision.FEATURES), label = this memory is the one the question asks about (never, for a
question about something untold).

Dev (fitted): dev.jsonl, the near-miss people of NEAR_MISS_DEV (near_miss.jsonl split by person: the
others are only reported), the people of VAGUE_DEV (vague.jsonl: a few memories each, asked vaguely;
split by person the same way) and LoCoMo's dev conversations read as scripts/eval/locomo_answerability.py
reads them (real phrasing nobody here wrote; skipped with a warning when the shared data is absent).
On dev: for each point of the entity grid (head phrases and possessors by cosine, WordNet sister
words by depth, sister words by cosine where WordNet knows neither: entities.py), each feature set and
each regularisation strength, a class-balanced logistic regression (scikit-learn, on standardised
features) fitted on every dev pair, and two thresholds on
the question's best probability, chosen on the people's dev questions (dev.jsonl and the near-miss and
vague dev people; LoCoMo's speakers have hundreds of turns each and are reported beside them):
assert_above = the lowest at which at most MAX_WRONG_ASSERTS of those questions would be asserted
wrongly (untold, or another memory: the false-assert rate over all questions); agree_dense
(decision.agreeing: a memory agreeing with everything the question names, asserted from this dense
cosine) is chosen from AGREE_GRID with assert_above, under the same rate, and agree_margin (the same
memory asserted when it stands that far above the next closest) as the least of AGREE_MARGIN_GRID adding
no wrong assertion on dev. abstain_below and
offer_margin (decision.standing_out: the closest memory asked about by its dense margin over the next)
together: the pair asking about or asserting the most told questions rightly while at most
MAX_UNTOLD_OFFERED of the untold ones are asked about or asserted. The grid
point asserting the most told dev questions rightly wins. test.jsonl and the other near-miss people are only reported,
side by side with dev, never fitted (LoCoMo's test conversations: locomo_answerability). --write puts
the calibration into config/generated/recall_calibration.yaml (interaction.retrieval.recall.
calibration.<embedder profile> and generic_threshold), which the config loader merges over
config/interaction.yaml.

The generic-question threshold (interaction/memory/retrieval/generic.py) is fitted here too: each dev
generic question's leave-one-out cosine to the others against the dev specific questions' cosine to
all of them; the threshold is the lowest that calls at most MAX_SPECIFIC_AS_GENERIC of the specific
dev questions generic (a specific question answered with "the most memorable moment" would be a
false recall). Reported on generic_test.txt and the test questions.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import yaml

from common.config import load_settings
from common.config.interaction_settings import RecallCalibration
from common.config.loader import GENERATED_DIR, default_config_dir
from common.embedding.registry import offline_text_embedder
from interaction.memory.retrieval import decision
from interaction.memory.retrieval.candidates import Candidate, CandidatePool
from interaction.memory.retrieval.core import RetrievalCore
from interaction.memory.retrieval.entities import Thresholds, build_reader
from interaction.memory.retrieval.generic import GenericQuestions, load_questions
from interaction.memory.retrieval.verifier import build_verifier
from scripts.eval.recall_questions import Asked, decide, labels, rows, shortlist, tally

LABELS = Path(__file__).resolve().parent / "recall_labels"
NOW = datetime(2026, 6, 15, 18, 0)
MAX_WRONG_ASSERTS = 0.02
MAX_UNTOLD_OFFERED = 0.25
MAX_SPECIFIC_AS_GENERIC = 0.02
PROFILE = "minilm_onnx"
NEAR_MISS_DEV = ("hannah", "tom", "grace", "ravi")  # the first half of near_miss.jsonl; the rest is reported
VAGUE_DEV = ("marta", "kwame", "fiona", "bernard")  # the first half of vague.jsonl; the rest is reported
HEAD_GRID = (0.7, 0.8)
POSSESSOR_GRID = (0.7,)
SISTER_GRID = ((2, 5), (3, 5), (3, 6))  # WordNet sisters: (kind-of links to the common ancestor, its least depth)
RIVAL_GRID = (float("inf"),)  # cosine from which heads WordNet does not know are sister words
# cosine from which WordNet relates two words through a rarer sense of either (entities.py); not -1
# (every sense, always): on dev it asserts one told question more, through "in the end" agreeing with
# "tries" by the 11th sense of "end", and outside the labels it asserts a deposit for "my bank PIN"
SENSE_GRID = (0.5, 0.6, 0.7)
AGREE_GRID = (float("inf"), 0.1, 0.2, 0.3, 0.35, 0.4, 0.45, 0.5)  # dense cosine asserting a memory that agrees (inf: off)
AGREE_MARGIN_GRID = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3)  # dense margin over the next asserting a memory that agrees
OFFER_GRID = (float("inf"), 0.1, 0.12, 0.15, 0.18, 0.2, 0.22, 0.25, 0.3, 0.35)  # dense margin asking about the closest
# which features the regression may weigh (the others get 0): chosen on dev with the thresholds, since
# a feature that separates pairs (the margin does) can still blur which question to assert
FEATURE_SETS = (
    ("dense", "lexical", "verifier"),
    ("dense", "lexical", "verifier", "agreement", "absent", "names_missing", "conflict"),
    ("dense", "lexical", "verifier", "agreement", "absent", "names_missing", "conflict", "rival"),
    ("dense", "lexical", "verifier", "agreement", "absent", "names_missing", "conflict", "margin", "dense_margin",
     "all_agree"),
    decision.FEATURES,
)
# the regression's inverse L2 strength on standardised features (every feature penalised on one scale:
# unscaled, a feature spanning 0.3 such as a dense margin needed a weight 30 times a logit's to count)
C_GRID = (1.0, 0.1)


def load_people(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def pool_of(person: dict, embedder) -> CandidatePool:
    items = [Candidate(kind="turn", memory_id=m["id"], text=m["text"], quote=m["text"],
                       occurred_ts=(NOW - timedelta(days=m["days_ago"])).timestamp(), group=m["id"])
             for m in person["moments"]]
    return CandidatePool(items, embedder.embed([c.text for c in items]), embedder.name)


def shortlists(core: RetrievalCore, people: list[dict], embedder) -> list[Asked]:
    out = []
    for person in people:
        pool = pool_of(person, embedder)
        for q in person["questions"]:
            judged = shortlist(core, pool, q["q"], embedder.embed([q["q"]])[0])
            out.append(Asked(person["person"], q["q"], frozenset([q["told"]] if q["told"] else []), judged))
    return out


def reread(core: RetrievalCore, asked: list[Asked]) -> None:
    for a in asked:
        core.read(a.question, a.judged)


def fit_weights(asked: list[Asked], thresholds: Thresholds, features: tuple[str, ...] = decision.FEATURES,
                c: float = 1.0) -> RecallCalibration:
    """A class-balanced logistic regression on the standardised features, its weights given back on
    the raw features (the decision reads raw ones)."""
    from sklearn.linear_model import LogisticRegression

    columns = [decision.FEATURES.index(f) for f in features]
    x = rows(asked)[:, columns]
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    model = LogisticRegression(class_weight="balanced", C=c, max_iter=2000).fit((x - mean) / scale, labels(asked))
    coef = model.coef_[0] / scale
    intercept = float(model.intercept_[0] - coef @ mean)
    w = dict.fromkeys(decision.FEATURES, 0.0) | dict(zip(features, (float(v) for v in coef), strict=True))
    return RecallCalibration(intercept=intercept, **w, head_threshold=thresholds.head,
                             possessor_threshold=thresholds.possessor, sister_depth=thresholds.sister_depth,
                             ancestor_depth=thresholds.ancestor_depth, rival_threshold=thresholds.rival,
                             sense_threshold=thresholds.sense,
                             abstain_below=0.5, assert_above=0.5)


@dataclass(frozen=True)
class Scored:
    """What the decision can do with one question, whatever its bounds."""

    best: float  # best probability of a candidate that may be asserted
    best_right: bool  # that one answers
    anyone: float  # best probability of any candidate (an offer may name a conflicting one)
    anyone_right: bool
    agreed: float  # dense cosine of the candidate asserted by agreement (-inf: none agrees)
    agreed_right: bool
    agreed_margin: float  # its dense margin over the next closest (-inf: none agrees)
    standing: float  # dense margin of the closest candidate over the next (-inf: it names a conflict)
    standing_right: bool
    told: bool

    def asserted(self, assert_above: float, agree_dense: float, agree_margin: float = float("inf")) -> bool | None:
        """Asserted rightly, wrongly, or not asserted (None)."""
        if self.best >= assert_above:
            return self.best_right and self.told
        if self.agreed >= agree_dense or self.agreed_margin >= agree_margin:
            return self.agreed_right and self.told
        return None

    def reached(self, cal: RecallCalibration) -> bool | None:
        """Asserted or asked about, rightly or wrongly; None: abstained."""
        asserted = self.asserted(cal.assert_above, cal.agree_dense, cal.agree_margin)
        if asserted is not None:
            return asserted
        if self.anyone >= cal.abstain_below:
            return self.anyone_right and self.told
        if self.standing >= cal.offer_margin:
            return self.standing_right and self.told
        return None


def scored(core: RetrievalCore, cal: RecallCalibration, a: Asked) -> Scored:
    core.score(a.judged, cal)
    free = [j for j in a.judged if not j.conflict]
    top = max(free, key=lambda j: j.probability) if free else None
    anyone = max(a.judged, key=lambda j: j.probability, default=None)
    agreed = decision.agreeing(cal.model_copy(update={"agree_dense": -1.0}), a.judged)
    closest = decision.closest(a.judged)
    standing = -np.inf if closest is None or a.judged[closest[0]].conflict else closest[1]
    return Scored(top.probability if top else 0.0, top is not None and top.candidate.memory_id in a.told,
                  anyone.probability if anyone else 0.0, anyone is not None and anyone.candidate.memory_id in a.told,
                  a.judged[agreed].dense if agreed is not None else -np.inf,
                  agreed is not None and a.judged[agreed].candidate.memory_id in a.told,
                  closest[1] if agreed is not None and closest is not None else -np.inf,
                  standing, closest is not None and a.judged[closest[0]].candidate.memory_id in a.told, bool(a.told))


def thresholds_for(core: RetrievalCore, cal: RecallCalibration, asked: list[Asked]) -> RecallCalibration:
    """For each agree_dense of AGREE_GRID the lowest assert_above keeping MAX_WRONG_ASSERTS; the pair
    asserting the most told questions rightly (ties: the first); then agree_margin (margin_for)."""
    rows = [scored(core, cal, a) for a in asked]
    grid = sorted({round(r.best, 6) for r in rows} | {0.5, 0.999999})
    best: tuple[int, float, float] | None = None
    for agree_dense in AGREE_GRID:
        assert_above = next((t for t in grid if _wrong_share(rows, t, agree_dense) <= MAX_WRONG_ASSERTS), None)
        if assert_above is None:
            continue
        right = sum(r.asserted(assert_above, agree_dense) is True for r in rows)
        if best is None or right > best[0]:
            best = (right, assert_above, agree_dense)
    _, assert_above, agree_dense = best or (0, 0.999999, float("inf"))
    cal = cal.model_copy(update={"assert_above": round(assert_above, 6), "agree_dense": agree_dense})
    return asking(margin_for(cal, rows), rows)


def margin_for(cal: RecallCalibration, rows: list[Scored]) -> RecallCalibration:
    """agree_margin: the least of AGREE_MARGIN_GRID at which the agreement route asserts no dev
    question wrongly that the bounds already chosen did not (inf: every margin would)."""
    wrong = sum(r.asserted(cal.assert_above, cal.agree_dense) is False for r in rows)
    for margin in sorted(AGREE_MARGIN_GRID):
        if sum(r.asserted(cal.assert_above, cal.agree_dense, margin) is False for r in rows) == wrong:
            return cal.model_copy(update={"agree_margin": margin})
    return cal


def asking(cal: RecallCalibration, rows: list[Scored]) -> RecallCalibration:
    """abstain_below and offer_margin together: the pair reaching (asserting or asking about) the most
    told questions rightly while at most MAX_UNTOLD_OFFERED of the untold ones are reached at all
    (ties: the stricter pair, fewer questions asked)."""
    bounds = sorted({round(r.anyone, 6) for r in rows if r.anyone <= cal.assert_above} | {cal.assert_above}, reverse=True)
    untold = sum(not r.told for r in rows)
    best: tuple[int, RecallCalibration] | None = None
    for abstain_below, offer_margin in itertools.product(bounds, sorted(OFFER_GRID, reverse=True)):
        option = cal.model_copy(update={"abstain_below": abstain_below, "offer_margin": offer_margin})
        reached = [r.reached(option) for r in rows]
        if sum(h is not None for h, r in zip(reached, rows, strict=True) if not r.told) > MAX_UNTOLD_OFFERED * untold:
            continue
        right = sum(h is True for h in reached)
        if best is None or right > best[0]:
            best = (right, option)
    return best[1] if best else cal.model_copy(update={"abstain_below": cal.assert_above})


def _wrong_share(rows: list[Scored], assert_above: float, agree_dense: float,
                 agree_margin: float = float("inf")) -> float:
    """The false-assert rate: questions asserted with a memory that does not answer them (an untold
    question, or another memory), over all questions."""
    return sum(r.asserted(assert_above, agree_dense, agree_margin) is False for r in rows) / len(rows) if rows else 0.0


def fit(core: RetrievalCore, asked: list[Asked], people: list[Asked]) -> RecallCalibration:
    """The grid point (entity thresholds, feature set) whose fitted decision asserts the most told
    dev questions of `people` rightly (ties: the first); the weights are fitted on every dev question
    (`asked`: the people's and LoCoMo's), the bounds on the people's questions alone (a person's few
    memories, the scale Nadine decides at: a LoCoMo speaker has hundreds of turns, and the other
    speaker's experiences told in their own words). core.entities is left on the chosen thresholds."""
    assert core.entities is not None
    best: tuple[int, RecallCalibration] | None = None
    for head, possessor, (sister, ancestor), rival, sense in itertools.product(
            HEAD_GRID, POSSESSOR_GRID, SISTER_GRID, RIVAL_GRID, SENSE_GRID):
        core.entities.thresholds = Thresholds(head, possessor, sister, ancestor, rival, sense)
        reread(core, asked)
        for features, c in itertools.product(FEATURE_SETS, C_GRID):
            cal = thresholds_for(core, fit_weights(asked, core.entities.thresholds, features, c), people)
            right = tally(core, cal, people)["told:asserted_right"]
            if best is None or right > best[0]:
                best = (right, cal)
    assert best is not None
    cal = best[1]
    core.entities.thresholds = Thresholds.of(cal)
    reread(core, asked)
    return cal


def report(core: RetrievalCore, cal: RecallCalibration, asked: list[Asked]) -> dict[str, int]:
    """Counts of told-right / told-wrong / untold questions per outcome."""
    counts: Counter[str] = Counter()
    for a in asked:
        outcome, right = decide(core, cal, a)
        kind = "untold" if not a.told else ("told" if right or outcome == "abstained" else "told_wrong_best")
        counts[f"{kind}:{outcome}"] += 1
    return dict(counts)


def coverage_curve(core: RetrievalCore, cal: RecallCalibration, asked: list[Asked],
                   bounds: tuple[float, ...] = (0.5, 0.8, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995)) -> str:
    """Coverage (told questions asserted with their own memory) against the false-assert rate
    (questions asserted with a memory that does not answer them, over all questions) as assert_above
    moves, agree_dense as fitted; `cal`'s own bound is marked *."""
    rows = [scored(core, cal, a) for a in asked]
    told = sum(r.told for r in rows)
    cells = []
    for bound in sorted({*bounds, cal.assert_above}):
        right = sum(r.asserted(bound, cal.agree_dense, cal.agree_margin) is True for r in rows)
        mark = "*" if bound == cal.assert_above else ""
        cells.append(f"{bound:g}{mark}: {100 * right / max(told, 1):.0f}% / {100 * _wrong_share(rows, bound, cal.agree_dense, cal.agree_margin):.1f}%")
    return "coverage / false-assert at assert_above " + "; ".join(cells)


def dense_only(asked: list[Asked], threshold: float) -> dict[str, int]:
    """The decision before the retrieval core, without its word rules: the most similar memory,
    asserted when its cosine reaches the embedder profile's recall_threshold (no offer band)."""
    counts: Counter[str] = Counter()
    for a in asked:
        top = max(a.judged, key=lambda j: j.dense)
        kind = "untold" if not a.told else ("told" if top.candidate.memory_id in a.told else "told_wrong_best")
        counts[f"{kind}:{'asserted' if top.dense >= threshold else 'abstained'}"] += 1
    return dict(counts)


def _rates(counts: dict[str, int]) -> str:
    told = sum(v for k, v in counts.items() if k.startswith("told"))
    untold = sum(v for k, v in counts.items() if k.startswith("untold"))
    right = counts.get("told:asserted", 0)
    wrong = counts.get("told_wrong_best:asserted", 0) + counts.get("untold:asserted", 0)
    asserted = right + wrong
    return (f"told {told}: asserted right {right} ({100 * right / max(told, 1):.0f}%), asked about "
            f"{counts.get('told:offered', 0)} (another memory {counts.get('told_wrong_best:offered', 0)}), abstained "
            f"{counts.get('told:abstained', 0) + counts.get('told_wrong_best:abstained', 0)}, asserted wrong memory "
            f"{counts.get('told_wrong_best:asserted', 0)} | untold {untold}: asserted {counts.get('untold:asserted', 0)} "
            f"({100 * counts.get('untold:asserted', 0) / max(untold, 1):.1f}%), "
            f"offered {counts.get('untold:offered', 0)}, abstained {counts.get('untold:abstained', 0)} | "
            f"false asserts {wrong}/{asserted} ({100 * wrong / max(asserted, 1):.1f}% of asserted)")


def generic_threshold(embedder, generic_dev: list[str], specific_dev: list[str]) -> float:
    g = embedder.embed(generic_dev)
    sims = g @ g.T
    np.fill_diagonal(sims, -1.0)
    specific = (embedder.embed(specific_dev) @ g.T).max(axis=1)
    grid = sorted(set(np.round(np.concatenate([sims.max(axis=1), specific]), 4)))
    return float(next(t for t in grid if (specific >= t).mean() <= MAX_SPECIFIC_AS_GENERIC))


def generic_rates(embedder, threshold: float, generic: list[str], specific: list[str]) -> str:
    """How the shipped reading (cosine, then the nouns the nearest generic question lacks) sorts them."""
    reader = GenericQuestions(embedder, threshold)
    as_generic = lambda qs: sum(reader.is_generic(q) for q in qs)  # noqa: E731
    return (f"generic questions called generic {as_generic(generic)}/{len(generic)}, "
            f"specific questions called generic {as_generic(specific)}/{len(specific)}")


def write(cal: RecallCalibration, generic: float, path: Path) -> None:
    """The generated config file the loader merges over config/interaction.yaml (probabilities crowd
    near 1: thresholds keep 6 decimals)."""
    data = {"interaction": {"retrieval": {"recall": {
        "generic_threshold": round(generic, 4),
        "calibration": {PROFILE: {k: round(v, 6) for k, v in cal.model_dump().items()}},
    }}}}
    header = ("# Generated by `python -m scripts.eval.calibrate_recall --write`; do not edit by hand (re-run it).\n"
              "# Fitted on recall_labels/dev.jsonl, the near-miss people " + ", ".join(NEAR_MISS_DEV)
              + ", the vague-question people " + ", ".join(VAGUE_DEV)
              + " (and LoCoMo's dev conversations unless --no-locomo); the rest is reported, never fitted.\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(header + yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def locomo_dev(core: RetrievalCore, embedder) -> list[Asked]:
    """LoCoMo's dev conversations as answerability questions; none (said) without the shared data."""
    from scripts.eval.locomo_answerability import DEFAULT_DATA, conversation_questions, dev_conversations

    if not DEFAULT_DATA.exists() or core.entities is None:
        print(f"warning: {DEFAULT_DATA} or the spaCy pipeline is missing; fitting without LoCoMo", file=sys.stderr)
        return []
    return [a for conv in dev_conversations() for a in conversation_questions(core, conv, embedder, core.entities.nlp)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.calibrate_recall", description=__doc__.split("\n")[0])
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--no-locomo", action="store_true", help="fit without LoCoMo's dev conversations")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--shipped", action="store_true",
                        help="report the configured calibration on every split, without fitting")
    args = parser.parse_args(argv)
    if args.shipped and args.write:
        parser.error("--shipped reports the configured calibration; --write writes a new fit")
    settings = load_settings()
    recall = settings.interaction.retrieval.recall
    embedder = offline_text_embedder()
    verifier = build_verifier(recall.verifier, recall.verifier_model)
    placeholder = RecallCalibration(intercept=0, dense=0, lexical=0, verifier=0, abstain_below=0.5, assert_above=0.5)
    entities = build_reader(embedder.embed, Thresholds(HEAD_GRID[0], POSSESSOR_GRID[0]))
    core = RetrievalCore(recall, verifier, placeholder, entities=entities)
    near = load_people(args.labels / "near_miss.jsonl")
    dev = shortlists(core, load_people(args.labels / "dev.jsonl"), embedder)
    near_dev = shortlists(core, [p for p in near if p["person"] in NEAR_MISS_DEV], embedder)
    near_test = shortlists(core, [p for p in near if p["person"] not in NEAR_MISS_DEV], embedder)
    vague = load_people(args.labels / "vague.jsonl")
    vague_dev = shortlists(core, [p for p in vague if p["person"] in VAGUE_DEV], embedder)
    vague_test = shortlists(core, [p for p in vague if p["person"] not in VAGUE_DEV], embedder)
    test = shortlists(core, load_people(args.labels / "test.jsonl"), embedder)
    locomo = [] if args.no_locomo else locomo_dev(core, embedder)
    people_dev = dev + near_dev + vague_dev
    if args.shipped:
        cal = recall.decision_for(PROFILE)
        assert cal is not None and entities is not None
        entities.thresholds = Thresholds.of(cal)
        reread(core, people_dev + locomo + test + near_test + vague_test)
    else:
        cal = fit(core, people_dev + locomo, people_dev)
        reread(core, test + near_test + vague_test)
    print(f"verifier {verifier.name if verifier else 'none'}; dev {len(dev)} + near-miss dev {len(near_dev)} + "
          f"vague dev {len(vague_dev)} + LoCoMo dev {len(locomo)} questions {'dev' if args.shipped else 'fitted'}; "
          f"test {len(test)}, near-miss test {len(near_test)}, vague test {len(vague_test)} reported")
    print("calibration:", json.dumps(cal.model_dump()))
    for name, asked in (("labels dev", dev), ("labels test", test), ("near-miss dev", near_dev),
                        ("near-miss test", near_test), ("vague dev", vague_dev), ("vague test", vague_test),
                        ("LoCoMo dev", locomo)):
        if asked:
            print(f"{name:<14}:", _rates(report(core, cal, asked)))
    print("dev           :", coverage_curve(core, cal, people_dev + locomo))
    print("test          :", coverage_curve(core, cal, test + near_test + vague_test))
    recall_threshold = settings.interaction.visual_memory.embedder_profiles[PROFILE].recall_threshold
    print(f"baseline, dense cosine >= recall_threshold {recall_threshold} alone:")
    print("  labels dev :", _rates(dense_only(dev, recall_threshold)))
    print("  labels test:", _rates(dense_only(test, recall_threshold)))
    labelled_dev, labelled_test = load_people(args.labels / "dev.jsonl"), load_people(args.labels / "test.jsonl")
    specific_dev = [q["q"] for p in labelled_dev for q in p["questions"]]
    specific_test = [q["q"] for p in labelled_test for q in p["questions"]]
    generic_test = load_questions(args.labels / "generic_test.txt")
    threshold = generic_threshold(embedder, load_questions(), specific_dev)
    print(f"generic_threshold {threshold:.4f}")
    print("generic dev :", generic_rates(embedder, threshold, [], specific_dev), "(dev generic questions are the prototypes)")
    print("generic test:", generic_rates(embedder, threshold, generic_test, specific_test))
    if args.write:
        write(cal, threshold, default_config_dir() / GENERATED_DIR / "recall_calibration.yaml")
        print(f"written to config/{GENERATED_DIR}/recall_calibration.yaml")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Fit and test the recall decision (interaction/memory/retrieval/decision.py).

    python -m scripts.eval.calibrate_recall [--labels scripts/eval/recall_labels] [--write]

For every person of a split their moments become one candidate pool (dated `days_ago` before a fixed
"now"); each question goes through the retrieval core (dense + BM25 fused, the shortlist read by the
verifier). Every shortlisted (question, memory) pair is a training row: features (dense cosine, BM25
coverage, verifier logit), label = this memory is the one the question asks about (never, for a
question about something untold).

On dev.jsonl: a class-balanced logistic regression (scikit-learn), then two thresholds on the
question's best probability: assert_above = the lowest at which at most MAX_WRONG_ASSERTS of the
dev questions asserted would be wrong (untold, or another moment); abstain_below = the lowest at
which at most MAX_UNTOLD_OFFERED of the untold dev questions still reach an offer. test.jsonl is only
reported, side by side with dev, never fitted; so is near_miss.jsonl (8 more people whose untold
questions are hard near-misses: the same possessor or frame with another entity). --write puts the calibration into
config/generated/recall_calibration.yaml (interaction.retrieval.recall.calibration.<embedder profile>
and generic_threshold), which the config loader merges over config/interaction.yaml.

The generic-question threshold (interaction/memory/retrieval/generic.py) is fitted here too: each dev
generic question's leave-one-out cosine to the others against the dev specific questions' cosine to
all of them; the threshold is the lowest that calls at most MAX_SPECIFIC_AS_GENERIC of the specific
dev questions generic (a specific question answered with "the most memorable moment" would be a
false recall). Reported on generic_test.txt and the test questions.
"""

from __future__ import annotations

import argparse
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
from interaction.memory.retrieval.core import Judged, RetrievalCore
from interaction.memory.retrieval.generic import load_questions
from interaction.memory.retrieval.verifier import build_verifier

LABELS = Path(__file__).resolve().parent / "recall_labels"
NOW = datetime(2026, 6, 15, 18, 0)
MAX_WRONG_ASSERTS = 0.05
MAX_UNTOLD_OFFERED = 0.25
MAX_SPECIFIC_AS_GENERIC = 0.02
PROFILE = "minilm_onnx"


@dataclass
class Asked:
    person: str
    question: str
    told: str | None
    judged: list[Judged]  # the shortlist, best fused first


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
            ranked = core.rank(pool, q["q"], embedder.embed([q["q"]])[0])
            judged = [Judged(pool.items[i], float(ranked.dense[i]), float(ranked.lexical[i]),
                             float(ranked.coverage[i]), float(ranked.fused[i]))
                      for i in ranked.order[: core.settings.verify_top]]
            core.judge(q["q"], judged)  # fills verifier scores (the probability is refitted below)
            out.append(Asked(person["person"], q["q"], q["told"], judged))
    return out


def features(asked: list[Asked]) -> tuple[np.ndarray, np.ndarray]:
    rows = [[j.dense, j.coverage, j.verifier or 0.0] for a in asked for j in a.judged]
    labels = [j.candidate.memory_id == a.told for a in asked for j in a.judged]
    return np.array(rows), np.array(labels)


def best(cal: RecallCalibration, a: Asked) -> tuple[float, bool]:
    """The question's best probability and whether that candidate is the told moment."""
    p = decision.probability(cal, np.array([j.dense for j in a.judged]), np.array([j.coverage for j in a.judged]),
                             np.array([j.verifier or 0.0 for j in a.judged]))
    k = int(np.argmax(p))
    return float(p[k]), a.judged[k].candidate.memory_id == a.told


def fit(asked: list[Asked]) -> RecallCalibration:
    from sklearn.linear_model import LogisticRegression

    x, y = features(asked)
    model = LogisticRegression(class_weight="balanced", C=1.0).fit(x, y)
    w = model.coef_[0]
    cal = RecallCalibration(intercept=float(model.intercept_[0]), dense=float(w[0]), lexical=float(w[1]),
                            verifier=float(w[2]), abstain_below=0.5, assert_above=0.5)
    scored = [(*best(cal, a), a.told is not None) for a in asked]
    grid = sorted({round(p, 4) for p, _, _ in scored} | {0.5, 0.99})
    assert_above = next((t for t in grid if _wrong_share(scored, t) <= MAX_WRONG_ASSERTS), 0.99)
    untold = [p for p, _, told in scored if not told]
    abstain_below = next((t for t in grid if sum(p >= t for p in untold) <= MAX_UNTOLD_OFFERED * len(untold)), 0.5)
    return cal.model_copy(update={"assert_above": round(assert_above, 4),
                                  "abstain_below": round(min(abstain_below, assert_above), 4)})


def _wrong_share(scored: list[tuple[float, bool, bool]], t: float) -> float:
    asserted = [(right, told) for p, right, told in scored if p >= t]
    return sum(not (right and told) for right, told in asserted) / len(asserted) if asserted else 0.0


def report(cal: RecallCalibration, asked: list[Asked]) -> dict[str, int]:
    """Counts of told-right / told-wrong / untold questions per outcome."""
    counts: Counter[str] = Counter()
    for a in asked:
        p, right = best(cal, a)
        kind = "untold" if a.told is None else ("told" if right else "told_wrong_best")
        counts[f"{kind}:{decision.outcome(cal, p)}"] += 1
    return dict(counts)


def dense_only(asked: list[Asked], threshold: float) -> dict[str, int]:
    """The decision before issue 12 without its word rules: the most similar memory, asserted when its
    cosine reaches the embedder profile's recall_threshold (no offer band)."""
    counts: Counter[str] = Counter()
    for a in asked:
        top = max(a.judged, key=lambda j: j.dense)
        kind = "untold" if a.told is None else ("told" if top.candidate.memory_id == a.told else "told_wrong_best")
        counts[f"{kind}:{'asserted' if top.dense >= threshold else 'abstained'}"] += 1
    return dict(counts)


def _rates(counts: dict[str, int]) -> str:
    told = sum(v for k, v in counts.items() if k.startswith("told"))
    untold = sum(v for k, v in counts.items() if k.startswith("untold"))
    right = counts.get("told:asserted", 0)
    wrong = counts.get("told_wrong_best:asserted", 0) + counts.get("untold:asserted", 0)
    return (f"told {told}: asserted right {right} ({100 * right / max(told, 1):.0f}%), offered "
            f"{counts.get('told:offered', 0) + counts.get('told_wrong_best:offered', 0)}, abstained "
            f"{counts.get('told:abstained', 0) + counts.get('told_wrong_best:abstained', 0)}, asserted wrong moment "
            f"{counts.get('told_wrong_best:asserted', 0)} | untold {untold}: asserted {counts.get('untold:asserted', 0)}, "
            f"offered {counts.get('untold:offered', 0)}, abstained {counts.get('untold:abstained', 0)} | "
            f"wrong asserts {wrong}")


def generic_threshold(embedder, generic_dev: list[str], specific_dev: list[str]) -> float:
    g = embedder.embed(generic_dev)
    sims = g @ g.T
    np.fill_diagonal(sims, -1.0)
    specific = (embedder.embed(specific_dev) @ g.T).max(axis=1)
    grid = sorted(set(np.round(np.concatenate([sims.max(axis=1), specific]), 4)))
    return float(next(t for t in grid if (specific >= t).mean() <= MAX_SPECIFIC_AS_GENERIC))


def generic_rates(embedder, threshold: float, generic: list[str], specific: list[str]) -> str:
    g = embedder.embed(load_questions())
    as_generic = lambda qs: int(((embedder.embed(qs) @ g.T).max(axis=1) >= threshold).sum())  # noqa: E731
    return (f"generic questions called generic {as_generic(generic)}/{len(generic)}, "
            f"specific questions called generic {as_generic(specific)}/{len(specific)}")


def write(cal: RecallCalibration, generic: float, path: Path) -> None:
    """The generated config file the loader merges over config/interaction.yaml."""
    data = {"interaction": {"retrieval": {"recall": {
        "generic_threshold": round(generic, 4),
        "calibration": {PROFILE: {k: round(v, 4) for k, v in cal.model_dump().items()}},
    }}}}
    header = ("# Generated by `python -m scripts.eval.calibrate_recall --write`; do not edit by hand (re-run it).\n"
              "# Fitted on scripts/eval/recall_labels/dev.jsonl; test.jsonl is reported, never fitted.\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(header + yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.calibrate_recall", description=__doc__.split("\n")[0])
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    settings = load_settings()
    recall = settings.interaction.retrieval.recall
    embedder = offline_text_embedder()
    verifier = build_verifier(recall.verifier, recall.verifier_model)
    placeholder = RecallCalibration(intercept=0, dense=0, lexical=0, verifier=0, abstain_below=0.5, assert_above=0.5)
    core = RetrievalCore(recall, verifier, placeholder)
    dev = shortlists(core, load_people(args.labels / "dev.jsonl"), embedder)
    test = shortlists(core, load_people(args.labels / "test.jsonl"), embedder)
    cal = fit(dev)
    print(f"verifier {verifier.name if verifier else 'none'}; {len(dev)} dev / {len(test)} test questions")
    print("calibration:", json.dumps(cal.model_dump()))
    print("dev :", _rates(report(cal, dev)))
    print("test:", _rates(report(cal, test)))
    near_miss = shortlists(core, load_people(args.labels / "near_miss.jsonl"), embedder)
    print("near-miss (reported, never fitted):", _rates(report(cal, near_miss)))
    recall_threshold = settings.interaction.visual_memory.embedder_profiles[PROFILE].recall_threshold
    print(f"baseline, dense cosine >= recall_threshold {recall_threshold} alone:")
    print("  dev :", _rates(dense_only(dev, recall_threshold)))
    print("  test:", _rates(dense_only(test, recall_threshold)))
    people_dev, people_test = load_people(args.labels / "dev.jsonl"), load_people(args.labels / "test.jsonl")
    specific_dev = [q["q"] for p in people_dev for q in p["questions"]]
    specific_test = [q["q"] for p in people_test for q in p["questions"]]
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

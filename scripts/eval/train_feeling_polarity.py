"""Fit the feeling-polarity model (interaction/offline/feeling_polarity.py) and choose where a reply names a feeling.

    python -m scripts.eval.train_feeling_polarity [--write] [--cache DIR]

Data: the rated sentences of vaderSentiment 3.3.2 (fetched and split by writer as in
scripts/eval/train_emotion_intensity.py): negative when raters put a sentence at -1 ("slightly") or
below, positive at +1 or above, none between; and the plain facts about oneself the profile readers
were written with ("I work at Siemens": none). The raters judged tweets, opinion pieces and reviews,
seldom a person's own news told plainly ("Got the promotion.", "My mum's cancer has come back."), so
`interaction/offline/data/feeling_polarity_told.tsv` adds such sentences written for this model
(pleasant, unpleasant and plain facts; none of them in the judge), each weighing as many rated
sentences as the judge's dev turns choose. A word of the body's reaction (screamed, cried, shaking)
says how strongly, not which way: in the rated sentences it is mostly distress, so the told rows pair
such words with good news and with bad in equal measure ("I got into law school and I screamed the
house down", "I screamed when I saw the water pouring through the ceiling") and tell bad news calmly,
so that the outcome told decides the sign. A multinomial logistic regression over the intensity
model's features, its penalty chosen by the dev writers' log-loss, its temperature fitted on them.

Then, on the dev split of the reply-feeling judge (scripts/eval/named_feeling.py) and its news rows' dev
writers only (the testers' turns it reports apart are never chosen on): which text the
sign is read from (the most felt part's sentence, or the turn), the least felt intensity a named
feeling needs, and the probability lines of positive and negative, by the judge's cost (a wrong sign
costs most); between equal costs, the higher lines (naming less). Reported on the judge's test writers
and on the test writers' rated sentences. --write ships the weights.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import logging
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.linear_model import LogisticRegression

from common.embedding.registry import offline_text_embedder
from interaction.offline.emotion_intensity import features, shipped_model
from interaction.offline.feeling_polarity import CLASSES, WEIGHTS, PolarityModel
from interaction.offline.understand_rules import feeling_of_sign, feeling_text, felt_parts
from scripts.eval import named_feeling
from scripts.eval.train_emotion_intensity import (
    CACHE,
    CachedEmbedder,
    Rated,
    fetch,
    plain_self_facts,
    read_rated,
)

log = logging.getLogger("nadine.eval.feeling_polarity")

SLIGHTLY = 1.0  # of 4 on the raters' scale: the least rating that says a feeling
C_GRID = (0.001, 0.003, 0.01, 0.03, 0.1)
TEMPERATURES = tuple(round(0.5 + 0.05 * i, 2) for i in range(51))  # 0.5 .. 3.0
LINES = tuple(round(0.30 + 0.02 * i, 2) for i in range(31))  # 0.30 .. 0.90
FELT = (0.0, 0.1, 0.15, 0.2, 0.25)  # least calibrated intensity (|rating| / 4) of the most felt part
READS = ("part", "turn")
TOLD = Path(__file__).resolve().parents[2] / "interaction" / "offline" / "data" / "feeling_polarity_told.tsv"
TOLD_WEIGHTS = (0.0, 5.0, 10.0, 20.0, 40.0)
DECIMALS = 6


def sign_class(r: Rated) -> int:
    return CLASSES.index("negative" if r.rating <= -SLIGHTLY else "positive" if r.rating >= SLIGHTLY else "none")


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    return float(-np.mean(np.log(np.clip(p[np.arange(len(y)), y], 1e-12, None))))


def softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def told_rows() -> tuple[list[str], list[int]]:
    with TOLD.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [r["text"] for r in rows], [CLASSES.index(r["label"]) for r in rows]


def fit_model(rows: list[Rated], embedder: CachedEmbedder, weight: float) -> dict[str, Any]:
    """The regression on the rated train writers, the plain self-facts and the told rows (each
    weighing `weight`), its penalty by the dev writers' log-loss."""
    train = [r for r in rows if r.split == "train"]
    dev = [r for r in rows if r.split == "dev"]
    facts = plain_self_facts()
    told_texts, told_y = told_rows()
    x_train = features(embedder, [r.text for r in train] + facts + told_texts).astype(np.float64)
    mean, scale = x_train.mean(axis=0), np.maximum(x_train.std(axis=0), 1e-6)
    x_train = (x_train - mean) / scale
    y_train = np.array([sign_class(r) for r in train] + [CLASSES.index("none")] * len(facts) + told_y)
    w = np.concatenate([np.ones(len(train) + len(facts)), np.full(len(told_y), weight)])
    x_dev = (features(embedder, [r.text for r in dev]).astype(np.float64) - mean) / scale
    y_dev = np.array([sign_class(r) for r in dev])
    fits = {c: LogisticRegression(C=c, max_iter=3000).fit(x_train, y_train, sample_weight=w) for c in C_GRID}
    loss = {c: log_loss(m.predict_proba(x_dev), y_dev) for c, m in fits.items()}
    c = min(loss, key=lambda k: loss[k])
    log.info("penalty C=%g (dev writers' log-loss %s)", c, {k: round(v, 4) for k, v in loss.items()})
    model = fits[c]
    logits = x_dev @ model.coef_.T + model.intercept_
    temperature = min(TEMPERATURES, key=lambda t: log_loss(softmax(logits / t), y_dev))
    return {"embedder": embedder.name, "mean": mean.round(DECIMALS).tolist(), "scale": scale.round(DECIMALS).tolist(),
            "coef": model.coef_.round(DECIMALS).tolist(), "intercept": model.intercept_.round(DECIMALS).tolist(),
            "C": c, "temperature": temperature, "plain_self_facts": len(facts), "told_weight": weight,
            "dev_writers_log_loss": round(log_loss(softmax(logits / temperature), y_dev), 4)}


def judge_readings(rows: list[named_feeling.Judged], model: PolarityModel) -> list[dict[str, Any]]:
    """For each judged turn: the calibrated intensity of its most felt part, the polarity of each text
    the sign may be read from and the sign its feeling words give when the polarity is unsure (nothing
    when no part may say a feeling)."""
    intensity = shipped_model()
    out = []
    for r in rows:
        parts = felt_parts(r.text)
        if not parts or intensity is None:
            out.append({})
            continue
        readings = dict(zip(parts, intensity.read(list(parts)), strict=True))
        best = max(parts, key=lambda p: readings[p].intensity)
        texts = {read: feeling_text(parts, best, read) for read in READS}
        out.append({"rated": readings[best].rated,
                    **{read: model.probabilities([text])[0] for read, text in texts.items()},
                    "words": {read: named_feeling.sign_of(feeling_of_sign(text, "none")) for read, text in texts.items()}})
    return out


def signs_for(readings: list[dict[str, Any]], read: str, felt: float, positive: float, negative: float) -> list[str]:
    said = []
    for reading in readings:
        if not reading or reading["rated"] < felt:
            said.append("none")
            continue
        p = reading[read]
        sign = "positive" if p[2] >= p[0] else "negative"
        sure = p[CLASSES.index(sign)] >= (positive if sign == "positive" else negative)
        said.append(sign if sure else reading["words"][read])
    return said


def choose_lines(rows: list[named_feeling.Judged], readings: list[dict[str, Any]]) -> tuple[tuple, dict[str, Any]]:
    """The read, felt and lines of least cost on `rows`, with their ranking key."""
    best: tuple | None = None
    for read, felt, positive, negative in itertools.product(READS, FELT, LINES, LINES):
        s = named_feeling.score(rows, signs_for(readings, read, felt, positive, negative))
        key = (-s["cost"], s["accuracy"], positive + negative, felt)
        if best is None or key > best[0]:
            best = (key, {"read": read, "felt": felt, "lines": {"positive": positive, "negative": negative}})
    assert best is not None
    return best


def writers_report(rows: list[Rated], model: PolarityModel) -> dict[str, Any]:
    out = {}
    for split in ("dev", "test"):
        part = [r for r in rows if r.split == split]
        p = model.probabilities([r.text for r in part])
        y = np.array([sign_class(r) for r in part])
        said = np.array([CLASSES.index(model.named(row)) for row in p])
        polar = y != CLASSES.index("none")
        named = said != CLASSES.index("none")
        out[split] = {"n": len(part), "log_loss": round(log_loss(p, y), 4),
                      "felt named": round(float((named & polar).sum() / max(polar.sum(), 1)), 3),
                      "named with the right sign": round(float((said[named & polar] == y[named & polar]).mean()), 3),
                      "unfelt named": round(float((named & ~polar).sum() / max((~polar).sum(), 1)), 3)}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"ship the weights ({WEIGHTS.name})")
    parser.add_argument("--cache", type=Path, default=CACHE, help="where the package and the vectors are kept")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    rated = read_rated(fetch(args.cache))
    embedder = CachedEmbedder(offline_text_embedder(), args.cache / "minilm_vectors.npz")
    judged = named_feeling.load()
    apart = named_feeling.load_apart()
    every = judged + [r for rows in apart.values() for r in rows]
    chosen_on = {*judged, *apart["news "]}
    dev = [i for i, r in enumerate(every) if r.split == "dev" and r in chosen_on]
    candidates = {}
    for weight in TOLD_WEIGHTS:
        fitted = fit_model(rated, embedder, weight)
        provisional = PolarityModel(embedder, {**fitted, "lines": {"positive": 1.0, "negative": 1.0}, "felt": 0.0,
                                               "read": "turn"})
        readings = judge_readings(every, provisional)
        key, chosen = choose_lines([every[i] for i in dev], [readings[i] for i in dev])
        candidates[weight] = (key, {**fitted, **chosen}, readings)
        log.info("told rows weighing %g: dev cost %g, accuracy %.3f, %s", weight, -key[0], key[1], chosen)
    embedder.save()
    _, data, readings = max(candidates.values(), key=lambda c: c[0])
    model = PolarityModel(embedder, data)
    said = dict(zip(every, signs_for(readings, data["read"], data["felt"], data["lines"]["positive"],
                                             data["lines"]["negative"]), strict=True))
    judge = named_feeling.report(judged, lambda rows: [said[r] for r in rows], apart)
    result = {"chosen": {k: data[k] for k in ("told_weight", "C", "temperature", "read", "felt", "lines",
                                              "dev_writers_log_loss")},
              "judge": judge["splits"], "writers": writers_report(rated, model)}
    print(json.dumps(result, indent=1))
    if args.write:
        WEIGHTS.write_text(json.dumps(data) + "\n", encoding="utf-8")
        print(f"wrote {WEIGHTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

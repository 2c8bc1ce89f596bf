"""Memorability protocol of the paper on any image folder plus a ratings CSV.

    python -m scripts.eval.memorability --images DIR --ratings CSV [--repeats 20] [--outer 5] [--inner 3]
        [--weights 0.5,0.5 1,0 0,1] [--novelty-repeats 1000] [--burn-in 5] [--seed 0]

Ratings CSV: columns `image` (file name inside DIR) and `rating`; with a `rater` column, one row per
rater and image (the mean is the target, and human consistency is printed too). Emotion probabilities
come from the configured emotion backend on the largest detected face (no face: all zero); novelty is
the repeated burn-in distance in the configured scene encoder's space. The protocol itself is in
memorability_cv.py. Prints a table and one JSON line.
"""

from __future__ import annotations

import argparse
import csv
import json
import logging
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from common.config import ConfigError, load_settings
from common.emotions import FACIAL_LABELS
from common.vision.base import BackendUnavailable
from common.vision.image import read_rgb
from common.vision.registry import build_scene_encoder
from perception.backends.registry import build_emotion, build_face_detector
from scripts.eval.memorability_cv import burn_in_novelty, human_consistency, nested_cv

log = logging.getLogger("nadine.eval.memorability")


def read_ratings(path: Path) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
    """Mean rating per image, and per-rater ratings (empty without a `rater` column)."""
    by_image: dict[str, list[float]] = defaultdict(list)
    by_rater: dict[str, dict[str, float]] = defaultdict(dict)
    with path.open(newline="", encoding="utf-8") as f:
        for i, row in enumerate(csv.DictReader(f)):
            try:
                image, rating = row["image"].strip(), float(row["rating"])
            except (KeyError, TypeError, ValueError):
                raise ValueError(f"{path} row {i + 2}: needs an image name and a numeric rating") from None
            by_image[image].append(rating)
            if row.get("rater"):
                by_rater[row["rater"].strip()][image] = rating
    return {k: float(np.mean(v)) for k, v in by_image.items()}, dict(by_rater)


def image_features(paths: list[Path], settings) -> tuple[np.ndarray, np.ndarray]:
    """(N, 8) emotion probabilities of the largest face and (N, d) scene embeddings."""
    detector = build_face_detector(settings)
    emotion = build_emotion(settings)
    encoder = build_scene_encoder(settings)
    if emotion is None or encoder is None:
        raise BackendUnavailable("memorability", "emotion or scene encoder backend is 'none'",
                                 "configure perception.emotion.backend and perception.scene_encoder.backend")
    probs, embeddings = [], []
    for path in paths:
        rgb = read_rgb(path)
        boxes = detector.detect(rgb)
        if boxes:
            p = emotion.probabilities(rgb, max(boxes, key=lambda b: b.area))
            probs.append([p.get(label, 0.0) for label in FACIAL_LABELS])
        else:
            probs.append([0.0] * len(FACIAL_LABELS))
        embeddings.append(encoder.embed_image(rgb))
    return np.array(probs, dtype=float), np.vstack(embeddings)


def _weights(text: str) -> tuple[float, float]:
    parts = [float(x) for x in text.split(",")]
    if len(parts) != 2 or min(parts) < 0:
        raise argparse.ArgumentTypeError(f"weights must be 'w_emotion,w_novelty', got {text!r}")
    return parts[0], parts[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.memorability", description=__doc__.split("\n")[0])
    parser.add_argument("--images", type=Path, required=True)
    parser.add_argument("--ratings", type=Path, required=True)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--outer", type=int, default=5)
    parser.add_argument("--inner", type=int, default=3)
    parser.add_argument("--weights", type=_weights, nargs="+", default=[(0.5, 0.5), (1.0, 0.0), (0.0, 1.0)])
    parser.add_argument("--novelty-repeats", type=int, default=1000)
    parser.add_argument("--burn-in", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    try:
        ratings, by_rater = read_ratings(args.ratings)
        missing = [name for name in ratings if not (args.images / name).is_file()]
        if missing:
            raise ValueError(f"{len(missing)} rated images not in {args.images}: {missing[:5]}")
        names = sorted(ratings)
        settings = load_settings()
        probs, embeddings = image_features([args.images / n for n in names], settings)
        novelty = burn_in_novelty(embeddings, args.burn_in, args.novelty_repeats, args.seed)
        y = np.array([ratings[n] for n in names])
        results = nested_cv(probs, novelty, y, args.weights, args.outer, args.inner, args.repeats, args.seed)
    except (OSError, ValueError, ConfigError, BackendUnavailable) as exc:
        print(f"memorability: {exc}", file=sys.stderr)
        return 2
    consistency = human_consistency(by_rater)
    print(f"{len(names)} images, {args.repeats} repeats x {args.outer} outer / {args.inner} inner folds; "
          f"emotion {settings.perception.emotion.backend}, scene encoder {settings.perception.scene_encoder.backend}")
    print(f"{'(w_emotion, w_novelty)':<24}{'mean rho':>10}{'std rho':>10}{'log10 p_Fisher':>16}")
    if consistency is not None:
        print(f"{'human consistency':<24}{consistency:>10.3f}{'-':>10}{'-':>16}")
    for r in results:
        print(f"{r.name:<24}{r.mean:>10.3f}{r.std:>10.3f}{r.log10_p_fisher:>16.1f}")
    print(json.dumps({
        "images": len(names), "human_consistency": consistency,
        "results": [{"weights": r.name, "mean_rho": round(r.mean, 4), "std_rho": round(r.std, 4),
                     "log10_p_fisher": round(r.log10_p_fisher, 2), "folds": len(r.rhos)} for r in results],
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())

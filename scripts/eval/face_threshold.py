"""Face recognition threshold chosen on one part of the shared faces and reported on the other.

    python -m scripts.eval.face_threshold [--faces DIR] [--max-far 0]

The single-face photos of shared/data/faces (MANIFEST.csv) are split by identity into two parts
(sorted identities, alternately), so no person and no photo is on both sides. Within each part every
pair of photos is a same-identity or a different-identity pair, scored by the cosine similarity of the
configured identity backend's embeddings. The threshold is chosen on one part with the calibration
rule (scripts/eval/calibrate.choose_threshold: balanced accuracy, widest margin) under a false-accept
limit (--max-far, default 0: recognising someone as another person hands them that person's memories)
and reported on the other part: true-accept rate (same-identity pairs at or above it) and false-accept
rate (different-identity pairs at or above it). Both folds are run (choose on 1, report on 2; choose on
2, report on 1). The configured threshold, chosen on all photos, is reported on each part for
comparison: those figures are measured on data it was tuned on.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from common.config import ConfigError, load_settings
from common.vision.base import BackendUnavailable
from common.vision.image import read_rgb
from perception.backends.registry import build_face_detector, build_face_identifier, recognition_threshold
from scripts.eval.calibrate import choose_threshold
from scripts.eval.stats import ratio
from scripts.shared_data import shared_path


@dataclass(frozen=True)
class Photo:
    file: str
    identity: str
    embedding: np.ndarray


def single_face_rows(faces_dir: Path) -> list[dict[str, str]]:
    with open(faces_dir / "MANIFEST.csv", encoding="utf-8") as fh:
        return [r for r in csv.DictReader(fh) if r["faces_in_image"] == "1" and r["identity"] not in ("none", "unknown")]


def split_identities(identities: set[str]) -> tuple[set[str], set[str]]:
    ordered = sorted(identities)
    return set(ordered[0::2]), set(ordered[1::2])


def pairs(photos: list[Photo]) -> tuple[list[float], list[bool]]:
    sims, same = [], []
    for a, b in itertools.combinations(photos, 2):
        sims.append(float(a.embedding @ b.embedding))
        same.append(a.identity == b.identity)
    return sims, same


def rates(sims: list[float], same: list[bool], threshold: float) -> dict[str, float | int | None]:
    accepted = [s >= threshold for s in sims]
    n_same = sum(same)
    n_diff = len(same) - n_same
    return {
        "true_accept_rate": ratio(sum(a for a, m in zip(accepted, same, strict=True) if m), n_same),
        "false_accept_rate": ratio(sum(a for a, m in zip(accepted, same, strict=True) if not m), n_diff),
        "same_pairs": n_same, "different_pairs": n_diff,
        # how close the nearest mistakes are: the least similar same-identity pair, the most similar other
        "same_min": min((x for x, m in zip(sims, same, strict=True) if m), default=None),
        "different_max": max((x for x, m in zip(sims, same, strict=True) if not m), default=None),
    }


def embed_photos(faces_dir: Path, settings) -> list[Photo]:
    detector, identifier = build_face_detector(settings), build_face_identifier(settings)
    photos = []
    for row in single_face_rows(faces_dir):
        rgb = read_rgb(faces_dir / row["file"])
        boxes = detector.detect(rgb)
        if len(boxes) != 1:
            print(f"face_threshold: {row['file']}: {len(boxes)} faces detected, skipped", file=sys.stderr)
            continue
        photos.append(Photo(row["file"], row["identity"], identifier.embed(rgb, boxes[0])))
    return photos


def evaluate(photos: list[Photo], configured: float, max_far: float) -> dict:
    part_ids = split_identities({p.identity for p in photos})
    parts = [[p for p in photos if p.identity in ids] for ids in part_ids]
    scored = [pairs(part) for part in parts]
    folds = []
    for choose, report in ((0, 1), (1, 0)):
        choice = choose_threshold(*scored[choose], max_fpr=max_far)
        folds.append({
            "chosen_on": f"part {choose + 1}", "reported_on": f"part {report + 1}",
            "threshold": choice.threshold, "chosen_part": rates(*scored[choose], choice.threshold),
            "held_out_part": rates(*scored[report], choice.threshold),
        })
    return {
        "photos": len(photos),
        "parts": [sorted(ids) for ids in part_ids],
        "folds": folds,
        "configured_threshold": configured,
        "configured_on_parts": [rates(*s, configured) for s in scored],  # tuned on all photos: not held out
    }


def _as_percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f} %"


def _gap(r: dict) -> str:
    lo, hi = r["same_min"], r["different_max"]
    return f"{'-' if lo is None else f'{lo:.3f}'} / {'-' if hi is None else f'{hi:.3f}'}"


def table(result: dict) -> str:
    lines = [f"{'threshold chosen on':<22}{'value':>8}{'held-out part':>16}{'TAR':>10}{'FAR':>10}{'pairs same/diff':>18}"
             f"{'same min / diff max':>22}"]
    for fold in result["folds"]:
        held = fold["held_out_part"]
        lines.append(f"{fold['chosen_on']:<22}{fold['threshold']:>8.3f}{fold['reported_on']:>16}"
                     f"{_as_percent(held['true_accept_rate']):>10}{_as_percent(held['false_accept_rate']):>10}"
                     f"{str(held['same_pairs']) + '/' + str(held['different_pairs']):>18}{_gap(held):>22}")
    for i, on_part in enumerate(result["configured_on_parts"], 1):
        lines.append(f"{'configured (all)':<22}{result['configured_threshold']:>8.3f}{f'part {i} (tuned)':>16}"
                     f"{_as_percent(on_part['true_accept_rate']):>10}{_as_percent(on_part['false_accept_rate']):>10}"
                     f"{str(on_part['same_pairs']) + '/' + str(on_part['different_pairs']):>18}{_gap(on_part):>22}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.face_threshold", description=__doc__.split("\n")[0])
    parser.add_argument("--faces", type=Path, default=shared_path("faces"), help="shared/data/faces (NADINE_SHARED_DATA)")
    parser.add_argument("--max-far", type=float, default=0.0, help="false-accept rate allowed when choosing")
    args = parser.parse_args(argv)
    try:
        settings = load_settings()
        photos = embed_photos(args.faces, settings)
    except (OSError, ConfigError, BackendUnavailable) as exc:
        print(f"face_threshold: {exc}", file=sys.stderr)
        return 2
    result = evaluate(photos, recognition_threshold(settings), args.max_far)
    print(f"{settings.perception.faces.backend} identity, {result['photos']} single-face photos of {args.faces}; "
          f"parts by identity: {result['parts'][0]} | {result['parts'][1]}")
    print(table(result))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())

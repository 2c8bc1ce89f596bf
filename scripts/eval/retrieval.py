"""Multimodal retrieval protocol of the paper: Recall@K for text, image and fusion.

    python -m scripts.eval.retrieval --images DIR --captions CSV [--alphas 0,0.1,...,1] [--k 1 5 10]
        [--descriptions CSV]

Captions CSV: `image,caption`, one or more rows per image; every caption is a query whose target is
its image, and the gallery is every image in the CSV. Each image is described once (the configured
captioner, or `--descriptions` with `image,description` rows), as a stored scene would be.
* text:   cosine(text embedding of the query, text embedding of the description)
* image:  cosine(scene-encoder text embedding of the query, scene-encoder image embedding)
* fusion: alpha * z(image) + (1 - alpha) * z(text) (eq. 6), each similarity z-scored over the gallery
  of its query so that the two channels are on one scale; alpha swept, the best reported.
The image channel needs a scene encoder with a text tower (CLIP, lab backend); the offline MobileNetV2
has none, so offline only the text channel is measured.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from common.config import ConfigError, load_settings
from common.embedding import build_text_embedder
from common.vision.base import BackendUnavailable, CaptionFacts
from common.vision.image import read_rgb
from common.vision.registry import build_captioner, build_scene_encoder

DEFAULT_ALPHAS = tuple(round(0.1 * i, 1) for i in range(11))
EPS = 1e-8


def zscore_rows(sim: np.ndarray) -> np.ndarray:
    sim = np.asarray(sim, dtype=float)
    return (sim - sim.mean(axis=1, keepdims=True)) / (sim.std(axis=1, keepdims=True) + EPS)


def fuse(sim_image: np.ndarray, sim_text: np.ndarray, alpha: float) -> np.ndarray:
    return alpha * zscore_rows(sim_image) + (1.0 - alpha) * zscore_rows(sim_text)


def recall_at_k(sim: np.ndarray, targets: Sequence[int], ks: Sequence[int]) -> dict[int, float]:
    """Share of queries whose target is among the k best; rank = 1 + items scoring strictly higher
    (a tie does not push the target down)."""
    sim = np.asarray(sim, dtype=float)
    idx = np.asarray(targets)
    target_scores = sim[np.arange(len(idx)), idx]
    ranks = 1 + (sim > target_scores[:, None]).sum(axis=1)
    return {k: float((ranks <= k).mean()) for k in ks}


def alpha_sweep(
    sim_image: np.ndarray, sim_text: np.ndarray, targets: Sequence[int], alphas: Sequence[float], ks: Sequence[int]
) -> dict[float, dict[int, float]]:
    return {a: recall_at_k(fuse(sim_image, sim_text, a), targets, ks) for a in alphas}


def best_alpha(sweep: dict[float, dict[int, float]], ks: Sequence[int]) -> float:
    """Highest R@k for the smallest k, ties broken by the larger ks, then by the smaller alpha."""
    return max(sweep, key=lambda a: (tuple(sweep[a][k] for k in sorted(ks)), -a))


def _read_pairs(path: Path, value_column: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    with path.open(newline="", encoding="utf-8") as f:
        for i, row in enumerate(csv.DictReader(f)):
            image, value = (row.get("image") or "").strip(), (row.get(value_column) or "").strip()
            if not image or not value:
                raise ValueError(f"{path} row {i + 2}: needs image and {value_column}")
            out[image].append(value)
    return dict(out)


def _alphas(text: str) -> list[float]:
    values = [float(x) for x in text.split(",")]
    if any(not 0 <= a <= 1 for a in values):
        raise argparse.ArgumentTypeError("alphas must lie in [0, 1]")
    return values


def _row(name: str, r: dict[int, float] | None, ks: Sequence[int]) -> str:
    cells = "".join(f"{100 * r[k]:>8.1f}" if r else f"{'n/a':>8}" for k in ks)
    return f"{name:<16}{cells}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.retrieval", description=__doc__.split("\n")[0])
    parser.add_argument("--images", type=Path, required=True)
    parser.add_argument("--captions", type=Path, required=True)
    parser.add_argument("--descriptions", type=Path, default=None, help="image,description CSV (skips the captioner)")
    parser.add_argument("--alphas", type=_alphas, default=list(DEFAULT_ALPHAS))
    parser.add_argument("--k", type=int, nargs="+", default=[1, 5, 10])
    args = parser.parse_args(argv)
    try:
        captions = _read_pairs(args.captions, "caption")
        images = sorted(captions)
        settings = load_settings()
        rgbs = {name: read_rgb(args.images / name) for name in images}
        encoder = build_scene_encoder(settings)
        if args.descriptions:
            given = _read_pairs(args.descriptions, "description")
            descriptions = [given[name][0] for name in images]
            describer = f"descriptions from {args.descriptions}"
        else:
            captioner = build_captioner(settings, encoder)
            if captioner is None:
                raise ValueError("perception.captioner.backend is 'none': pass --descriptions")
            descriptions = [captioner.caption(rgbs[name], CaptionFacts()).text for name in images]
            describer = f"captioner {captioner.name}"
        queries = [(c, i) for i, name in enumerate(images) for c in captions[name]]
        texts, targets = [q for q, _ in queries], [t for _, t in queries]
        embedder = build_text_embedder(settings.interaction)
        sim_text = embedder.embed(texts) @ embedder.embed(descriptions).T
        sim_image = None
        if encoder is not None and encoder.can_embed_text:
            image_vectors = np.vstack([encoder.embed_image(rgbs[name]) for name in images])
            sim_image = np.vstack([encoder.embed_text(t) for t in texts]) @ image_vectors.T
    except (OSError, ValueError, KeyError, ConfigError, BackendUnavailable) as exc:
        print(f"retrieval: {exc}", file=sys.stderr)
        return 2
    ks = sorted(args.k)
    text_r = recall_at_k(sim_text, targets, ks)
    image_r = recall_at_k(sim_image, targets, ks) if sim_image is not None else None
    sweep = alpha_sweep(sim_image, sim_text, targets, args.alphas, ks) if sim_image is not None else {}
    alpha = best_alpha(sweep, ks) if sweep else None
    encoder_name = getattr(encoder, "name", "none")
    print(f"{len(images)} images, {len(queries)} queries; {describer}; text embedder {embedder.name}; "
          f"scene encoder {encoder_name}")
    print(f"{'mode':<16}" + "".join(f"{'R@' + str(k):>8}" for k in ks))
    print(_row("text", text_r, ks))
    print(_row("image", image_r, ks))
    print(_row(f"fusion ({alpha})" if alpha is not None else "fusion", sweep.get(alpha) if sweep else None, ks))
    if sweep:
        print("alpha sweep: " + ", ".join(f"{a}: " + "/".join(f"{100 * r[k]:.1f}" for k in ks) for a, r in sweep.items()))
    else:
        print(f"image and fusion need a scene encoder with a text tower (CLIP, lab backend); {encoder_name} has none")
    print(json.dumps({
        "images": len(images), "queries": len(queries), "text": text_r, "image": image_r,
        "fusion": {"alpha": alpha, "recall": sweep[alpha]} if sweep else None,
        "sweep": {str(a): r for a, r in sweep.items()},
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())

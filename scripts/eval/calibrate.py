"""Calibrate a text embedder's scene-retrieval thresholds from labelled (query, scene text) pairs.

    python -m scripts.eval.calibrate --pairs scripts/eval/calibration_pairs/minilm_*.jsonl \
        [--embedder minilm_onnx|openai] [--write]

Each pair has `kind` (ordinary | recall | first_meeting), `query` (what the person says), the scene's
retrieval text (`scene`; for first_meeting it defaults to the first-meeting anchor for `user_name`) and
`should_match`. For each kind the threshold is chosen on the cosine similarities of that kind alone:

* maximise balanced accuracy ((true-positive rate + true-negative rate) / 2), so that a kind with more
  positives than negatives does not pull the threshold down;
* among thresholds with the same balanced accuracy, take the middle of the widest gap between
  neighbouring similarities (the largest margin), so a new pair near the boundary is least likely to
  flip;
* on ordinary turns only thresholds that let no labelled non-match through are considered
  (--max-fpr ordinary=0 by default): there nobody asked to remember, and an unrelated moment brought up
  in small talk is a visible mistake while a related one left out is not.
Generic recall questions (no content words) are left out: interaction answers them by recency.

ordinary -> similarity_threshold, recall -> recall_threshold, first_meeting ->
first_meeting_recall_threshold (retrieval uses max(recall, first-meeting) for the anchor). With --write
the profile interaction.visual_memory.embedder_profiles.<name> is written to the generated file
config/generated/embedder_profiles.yaml, which the config loader merges over config/interaction.yaml.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml

from common.config import ConfigError, load_settings
from common.config.interaction_settings import EmbedderProfile, VisualMemorySettings
from common.config.loader import GENERATED_DIR, default_config_dir
from common.embedding import build_text_embedder
from common.embedding.registry import profile_key
from common.store.atomic import atomic_write_text
from common.store.scenes import FIRST_MEETING_ANCHOR
from common.vision.base import BackendUnavailable
from interaction.memory.recall_query import is_generic_recall

KINDS = {
    "ordinary": "similarity_threshold",
    "recall": "recall_threshold",
    "first_meeting": "first_meeting_recall_threshold",
}
# On an ordinary turn nobody asked to remember anything: an unrelated moment brought up in small talk
# is a visible mistake, a related one left out is not. So no labelled non-match may pass there.
DEFAULT_MAX_FPR = {"ordinary": 0.0}
ROUND = 3


@dataclass(frozen=True)
class Pair:
    kind: str
    query: str
    scene: str
    should_match: bool
    note: str = ""


@dataclass(frozen=True)
class ThresholdChoice:
    threshold: float
    balanced_accuracy: float
    margin: float  # half the gap the threshold sits in
    n_pos: int
    n_neg: int
    pos_mean: float | None
    pos_min: float | None
    neg_mean: float | None
    neg_max: float | None
    auc: float | None  # P(similarity of a match > similarity of a non-match)

    @property
    def separable(self) -> bool:
        return self.pos_min is not None and self.neg_max is not None and self.pos_min > self.neg_max


def _as_bool(value: object) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in {"1", "true", "yes", "y"}:
        return True
    if text in {"0", "false", "no", "n"}:
        return False
    raise ValueError(f"should_match must be a boolean, got {value!r}")


def _pair(row: dict, where: str) -> Pair:
    kind = str(row.get("kind", "")).strip()
    if kind not in KINDS:
        raise ValueError(f"{where}: kind must be one of {sorted(KINDS)}, got {kind!r}")
    scene = row.get("scene")
    if not scene and kind == "first_meeting":
        scene = FIRST_MEETING_ANCHOR.format(user_name=row.get("user_name") or "they")
    query = str(row.get("query") or "").strip()
    if not query or not scene:
        raise ValueError(f"{where}: query and scene (or user_name for first_meeting) are required")
    return Pair(kind, query, str(scene).strip(), _as_bool(row.get("should_match")), str(row.get("note") or ""))


def load_pairs(path: Path) -> list[Pair]:
    """Pairs from .jsonl (one object a line), .json / .yaml (a list, or {pairs: [...]}) or .csv."""
    text = path.read_text(encoding="utf-8")
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        rows = [json.loads(line) for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    elif suffix == ".csv":
        rows = list(csv.DictReader(text.splitlines()))
    else:
        data = yaml.safe_load(text)  # JSON is YAML
        rows = data.get("pairs", []) if isinstance(data, dict) else data
    if not isinstance(rows, list):
        raise ValueError(f"{path}: expected a list of pairs")
    return [_pair(row, f"{path.name} pair {i + 1}") for i, row in enumerate(rows)]


def _auc(pos: np.ndarray, neg: np.ndarray) -> float | None:
    if not len(pos) or not len(neg):
        return None
    greater = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(greater / (len(pos) * len(neg)))


def choose_threshold(
    similarities: list[float], should_match: list[bool], max_fpr: float | None = None, pad: float = 0.05
) -> ThresholdChoice:
    """Balanced-accuracy-maximising threshold, ties broken by the widest margin (module docstring);
    with max_fpr only thresholds that let at most that share of non-matches through are considered.
    A similarity >= threshold counts as a match."""
    sims = np.asarray(similarities, dtype=float)
    labels = np.asarray(should_match, dtype=bool)
    if not len(sims):
        raise ValueError("no pairs for this kind")
    pos, neg = sims[labels], sims[~labels]
    values = np.unique(sims)
    # candidate gaps: below everything, between neighbours, above everything
    lows = np.concatenate([[values[0] - 2 * pad], values])
    highs = np.concatenate([values, [values[-1] + 2 * pad]])
    best: tuple[float, float, float] | None = None  # (balanced accuracy, margin, threshold)
    for lo, hi in zip(lows, highs, strict=True):
        t = (lo + hi) / 2
        tpr = float((pos >= t).mean()) if len(pos) else None
        tnr = float((neg < t).mean()) if len(neg) else None
        if max_fpr is not None and tnr is not None and 1.0 - tnr > max_fpr + 1e-12:
            continue
        rates = [r for r in (tpr, tnr) if r is not None]
        ba = sum(rates) / len(rates)
        key = (round(ba, 9), (hi - lo) / 2, t)
        if best is None or key[:2] > best[:2]:
            best = key
    assert best is not None
    return ThresholdChoice(
        threshold=round(float(best[2]), ROUND),
        balanced_accuracy=float(best[0]),
        margin=float(best[1]),
        n_pos=int(len(pos)),
        n_neg=int(len(neg)),
        pos_mean=float(pos.mean()) if len(pos) else None,
        pos_min=float(pos.min()) if len(pos) else None,
        neg_mean=float(neg.mean()) if len(neg) else None,
        neg_max=float(neg.max()) if len(neg) else None,
        auc=_auc(pos, neg),
    )


def pair_similarities(pairs: list[Pair], embed) -> np.ndarray:
    """Cosine similarity of each pair (rows of `embed` are L2-normalised); each text embedded once."""
    texts = sorted({p.query for p in pairs} | {p.scene for p in pairs})
    index = {t: i for i, t in enumerate(texts)}
    vectors = np.asarray(embed(texts), dtype=np.float32)
    return np.array([float(vectors[index[p.query]] @ vectors[index[p.scene]]) for p in pairs])


def thresholded(pair: Pair) -> bool:
    """A generic recall question ("what did I tell you last time?") is answered by recency in
    interaction/memory/scene_index.py, never by the recall threshold, so it does not calibrate it."""
    return not (pair.kind == "recall" and is_generic_recall(pair.query))


def calibrate(
    pairs: list[Pair], sims: np.ndarray, max_fpr: dict[str, float] | None = None
) -> dict[str, ThresholdChoice]:
    limits = DEFAULT_MAX_FPR if max_fpr is None else max_fpr
    out = {}
    for kind in KINDS:
        idx = [i for i, p in enumerate(pairs) if p.kind == kind and thresholded(p)]
        if idx:
            out[kind] = choose_threshold(
                [float(sims[i]) for i in idx], [pairs[i].should_match for i in idx], limits.get(kind)
            )
    return out


PROFILES_FILE = "embedder_profiles.yaml"
HEADER = (
    "# Generated by `python -m scripts.eval.calibrate --write`; do not edit by hand (re-run the calibration).\n"
    "# The config loader merges config/generated/*.yaml over config/<section>.yaml.\n"
)


def profiles_path(config_dir: Path) -> Path:
    return config_dir / GENERATED_DIR / PROFILES_FILE


def _written_profiles(path: Path) -> dict:
    if not path.exists():
        return {}
    tree = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return ((tree.get("interaction") or {}).get("visual_memory") or {}).get("embedder_profiles") or {}


def write_profile(config_dir: Path, name: str, profile: dict[str, float]) -> Path:
    """Set interaction.visual_memory.embedder_profiles.<name> in the generated profiles file. A YAML
    embedder_profiles mapping replaces the built-in one as a whole, so the file always carries every
    profile: the built-in ones, those calibrated before, and this one."""
    EmbedderProfile.model_validate(profile)
    path = profiles_path(config_dir)
    wanted = {
        other: p.model_dump() for other, p in VisualMemorySettings().embedder_profiles.items()
    } | _written_profiles(path) | {name: profile}
    tree = {"interaction": {"visual_memory": {"embedder_profiles": wanted}}}
    atomic_write_text(path, HEADER + yaml.safe_dump(tree, sort_keys=False))
    return path


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def report(choices: dict[str, ThresholdChoice], pairs: list[Pair], sims: np.ndarray) -> str:
    out = [
        f"{'kind':<14}{'field':<32}{'threshold':>10}{'bal.acc':>9}{'margin':>8}{'AUC':>7}"
        f"{'pos n/mean/min':>22}{'neg n/mean/max':>22}",
    ]
    for kind, c in choices.items():
        out.append(
            f"{kind:<14}{KINDS[kind]:<32}{c.threshold:>10.3f}{c.balanced_accuracy:>9.3f}{c.margin:>8.3f}"
            f"{_fmt(c.auc):>7}{f'{c.n_pos}/{_fmt(c.pos_mean)}/{_fmt(c.pos_min)}':>22}"
            f"{f'{c.n_neg}/{_fmt(c.neg_mean)}/{_fmt(c.neg_max)}':>22}"
        )
    wrong = [
        (p, s) for p, s in zip(pairs, sims, strict=True)
        if p.kind in choices and thresholded(p) and (s >= choices[p.kind].threshold) != p.should_match
    ]
    if wrong:
        out.append("misclassified at the chosen thresholds:")
        out += [
            f"  {p.kind:<13} sim {s:.3f} should_match={p.should_match}: {p.query!r} vs {p.scene!r}"
            for p, s in wrong
        ]
    if "ordinary" in choices and "recall" in choices and choices["ordinary"].threshold < choices["recall"].threshold:
        out.append("warning: the ordinary threshold is below the recall threshold (recall should be the permissive one)")
    return "\n".join(out)


def _max_fpr(items: list[str] | None) -> dict[str, float]:
    if items is None:
        return DEFAULT_MAX_FPR
    out = {}
    for item in items:
        if item == "none":
            continue
        kind, _, rate = item.partition("=")
        if kind not in KINDS:
            raise ValueError(f"--max-fpr: unknown kind {kind!r}")
        out[kind] = float(rate)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.calibrate", description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=Path, nargs="+", required=True, help="one or more pair files")
    parser.add_argument("--embedder", choices=["minilm_onnx", "openai"], default=None,
                        help="default: interaction.visual_memory.text_embedder")
    parser.add_argument("--max-fpr", nargs="*", default=None, metavar="KIND=RATE",
                        help="false-match rate a kind may have (default: ordinary=0); 'none' for plain balanced accuracy")
    parser.add_argument("--write", action="store_true", help="write this embedder's profile to config/generated/embedder_profiles.yaml")
    parser.add_argument("--config-dir", type=Path, default=None)
    args = parser.parse_args(argv)
    try:
        pairs = [p for path in args.pairs for p in load_pairs(path)]
        max_fpr = _max_fpr(args.max_fpr)
        overrides = [f"interaction.visual_memory.text_embedder={args.embedder}"] if args.embedder else []
        settings = load_settings(config_dir=args.config_dir, overrides=overrides)
        embedder = build_text_embedder(settings.interaction)
        sims = pair_similarities(pairs, embedder.embed)
    except (OSError, ValueError, ConfigError, BackendUnavailable) as exc:
        print(f"calibrate: {exc}", file=sys.stderr)
        return 2
    choices = calibrate(pairs, sims, max_fpr)
    name = profile_key(embedder)
    generic = sum(not thresholded(p) for p in pairs)
    print(f"embedder {embedder.name} (profile {name}), {len(pairs)} pairs from "
          f"{', '.join(str(p) for p in args.pairs)} ({generic} generic recall pairs left out: answered by recency)")
    print(report(choices, pairs, sims))
    profile = {field: choices[kind].threshold for kind, field in KINDS.items() if kind in choices}
    print(json.dumps({"embedder": embedder.name, "profile": name, "thresholds": profile,
                      "balanced_accuracy": {k: round(c.balanced_accuracy, 3) for k, c in choices.items()}}))
    if args.write:
        if len(profile) != len(KINDS):
            print("calibrate: --write needs pairs of every kind", file=sys.stderr)
            return 2
        target = write_profile(args.config_dir or default_config_dir(), name, profile)
        print(f"wrote interaction.visual_memory.embedder_profiles.{name} in {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

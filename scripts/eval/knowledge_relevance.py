"""Knowledge answers: the right section for a question about Nadine, "I don't know" for the rest.

    python -m scripts.eval.knowledge_relevance [--write]

Indexes the shipped knowledge (interaction/knowledge/*.md) as interaction does, asks every question of
scripts/eval/knowledge_questions/questions.jsonl (written for this repo: a question, its split, and the
section that answers it or null when the knowledge cannot), and scores the top chunk. A question is
answered right when its section is the top chunk and clears the threshold, or, for a question the
knowledge cannot answer, when nothing clears it. The threshold is chosen on the dev split only
(highest accuracy, ties to the middle of the best run); --write puts it into the generated profiles
file (config/generated/embedder_profiles.yaml, embedder_profiles.<embedder>.knowledge_threshold). Prints dev and test accuracy side by side.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from common.config import load_settings
from common.config.interaction_settings import ChromaSettings
from common.config.loader import default_config_dir
from common.embedding import offline_text_embedder
from common.embedding.chroma import NadineEmbeddingFunction
from common.embedding.registry import profile_key
from interaction.memory.chroma_store import make_client
from interaction.memory.knowledge import KnowledgeBase, seed_rag_files

DATA = Path(__file__).resolve().parent / "knowledge_questions" / "questions.jsonl"


def load(path: Path = DATA) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def section_of(chunk: str) -> str:
    """The last header of a chunk's header path ("Nadine > Who created Nadine" -> "Who created Nadine")."""
    return chunk.split("\n", 1)[0].split(" > ")[-1].strip()


def top_chunks(kb: KnowledgeBase, rows: list[dict]) -> list[tuple[str, float]]:
    return [kb.scored(row["question"], k=1)[0] for row in rows]


def accuracy(rows: list[dict], tops: list[tuple[str, float]], threshold: float) -> float:
    right = 0
    for row, (chunk, similarity) in zip(rows, tops, strict=True):
        answered = similarity >= threshold
        right += (answered and section_of(chunk) == row["section"]) if row["section"] else not answered
    return right / len(rows)


def choose_threshold(rows: list[dict], tops: list[tuple[str, float]]) -> float:
    """Highest dev accuracy; among equally good thresholds the middle of the best run."""
    cuts = sorted({round(s, 4) for _, s in tops})
    candidates = [(a + b) / 2 for a, b in zip(cuts, cuts[1:], strict=False)] or cuts
    scored = [(accuracy(rows, tops, c), c) for c in candidates]
    best = max(a for a, _ in scored)
    winners = [c for a, c in scored if a == best]
    return round(winners[len(winners) // 2], 3)


def write_threshold(config_dir: Path, embedder: str, threshold: float) -> Path:
    """Set knowledge_threshold in the embedder's generated profile, keeping its other thresholds."""
    from scripts.eval.calibrate import write_profile

    current = load_settings(config_dir=config_dir).interaction.visual_memory.embedder_profiles[embedder]
    return write_profile(config_dir, embedder, current.model_dump() | {"knowledge_threshold": threshold})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.knowledge_relevance", description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="store the dev threshold in the generated profiles")
    args = parser.parse_args(argv)
    rows = load()
    embedder = offline_text_embedder()
    with tempfile.TemporaryDirectory() as tmp:
        seed_rag_files(Path(tmp) / "rag")
        kb = KnowledgeBase(make_client(ChromaSettings(), Path(tmp) / "chroma"), NadineEmbeddingFunction(embedder),
                           Path(tmp) / "rag")
        splits = {s: [r for r in rows if r["split"] == s] for s in ("dev", "test")}
        tops = {s: top_chunks(kb, subset) for s, subset in splits.items()}
    key = profile_key(embedder)
    threshold = choose_threshold(splits["dev"], tops["dev"])
    configured = load_settings().interaction.visual_memory.embedder_profiles[key].knowledge_threshold
    report = {"embedder": key, "chosen_on_dev": threshold, "configured": configured}
    for split, subset in splits.items():
        answerable = [i for i, r in enumerate(subset) if r["section"]]
        top1 = sum(section_of(tops[split][i][0]) == subset[i]["section"] for i in answerable) / len(answerable)
        always = accuracy(subset, tops[split], float("-inf"))  # no threshold: every question gets a chunk
        report[split] = {"questions": len(subset), "accuracy": accuracy(subset, tops[split], threshold),
                         "accuracy_without_threshold": always, "top1_section_of_answerable": top1}
        print(f"{split:<5} n={len(subset):>3}  accuracy at {threshold:.3f}: {100 * report[split]['accuracy']:5.1f} %  "
              f"(without a threshold {100 * always:5.1f} %; right section first for {100 * top1:5.1f} % of "
              f"answerable questions)")
    if args.write:
        path = write_threshold(default_config_dir(), key, threshold)
        print(f"wrote knowledge_threshold {threshold} for {key} to {path}")
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

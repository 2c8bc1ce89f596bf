"""Knowledge answers as a turn gets them: the question is routed to the knowledge only when it is about
Nadine (cues.is_about_nadine, read from the parse), and then answered by the top chunk when it clears
the configured threshold.

    python -m scripts.eval.knowledge_routing

Asks the questions of scripts/eval/knowledge_questions/questions.jsonl (knowledge_relevance.py scores
the retrieval alone, as if every question were routed). A question about Nadine is answered right when
it is routed and its section is the top chunk above the threshold; one the knowledge cannot answer,
when it gets nothing from the knowledge (not routed, or nothing clears the threshold). Nothing is chosen
here: the routing is the parse's and the threshold is the one in the settings (chosen on dev by
knowledge_relevance.py --write). Prints dev and test side by side, and the questions about Nadine the
routing misses.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from common.config import load_settings
from common.config.interaction_settings import ChromaSettings
from common.embedding import offline_text_embedder
from common.embedding.chroma import NadineEmbeddingFunction
from common.embedding.registry import profile_key
from interaction import cues
from interaction.memory.chroma_store import make_client
from interaction.memory.knowledge import KnowledgeBase, seed_rag_files
from scripts.eval.knowledge_relevance import load, section_of


def main() -> int:
    rows = load()
    embedder = offline_text_embedder()
    threshold = load_settings().interaction.knowledge_thresholds.get(profile_key(embedder), float("-inf"))
    report: dict = {"embedder": profile_key(embedder), "threshold": threshold}
    with tempfile.TemporaryDirectory() as tmp:
        seed_rag_files(Path(tmp) / "rag")
        kb = KnowledgeBase(make_client(ChromaSettings(), Path(tmp) / "chroma"), NadineEmbeddingFunction(embedder),
                           Path(tmp) / "rag")
        for split in ("dev", "test"):
            subset = [r for r in rows if r["split"] == split]
            right, missed = 0, []
            for row in subset:
                chunk, similarity = kb.scored(row["question"], k=1)[0]
                routed = cues.is_about_nadine(row["question"])
                answered = routed and similarity >= threshold
                right += (answered and section_of(chunk) == row["section"]) if row["section"] else not answered
                if row["section"] and not routed:
                    missed.append(row["question"])
            report[split] = {"questions": len(subset), "accuracy": right / len(subset), "not_routed": missed}
            print(f"{split:<5} n={len(subset):>3}  routed and answered right: {100 * right / len(subset):5.1f} %  "
                  f"({len(missed)} questions about Nadine not routed to her knowledge)")
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

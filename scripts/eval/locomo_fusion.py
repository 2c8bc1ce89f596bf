"""Choose the fusion of the retrieval core on LoCoMo's dev conversations only.

    python -m scripts.eval.locomo_fusion [--context-turns 0 1 2] [--data PATH]

The dev conversations (scripts/eval/locomo.DEV_CONVERSATIONS) are stored once per context setting;
every fusion method and lexical weight then ranks the same pools. Prints session R@1/5/10 per
setting; the chosen one goes to config (interaction.retrieval.recall) and is then reported on the
test conversations by `python -m scripts.eval.locomo`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from common.config import load_settings
from common.embedding.chroma import NadineEmbeddingFunction
from common.embedding.registry import offline_text_embedder
from common.store.layout import DataLayout
from interaction.memory.chroma_store import make_client
from interaction.memory.episodic import EpisodicMemory
from interaction.memory.retrieval.core import RetrievalCore
from interaction.memory.retrieval.text_pool import TextPools
from scripts.eval.locomo import (
    DEFAULT_DATA,
    DEV_CONVERSATIONS,
    SessionClock,
    Tally,
    evaluate,
    store_conversation,
)
from scripts.eval.locomo_data import load

SETTINGS = [("zscore", w) for w in (0.5, 0.75, 1.0, 1.5, 2.0)] + [("rrf", w) for w in (0.5, 1.0, 2.0)] + [
    ("weighted", w) for w in (0.5, 1.0, 2.0)] + [("zscore", 0.0)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.locomo_fusion", description=__doc__.split("\n")[0])
    parser.add_argument("--context-turns", type=int, nargs="+", default=[0, 1])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args(argv)
    conversations = load(args.data)[:DEV_CONVERSATIONS]
    settings = load_settings()
    base = settings.interaction.retrieval.recall
    embedder = offline_text_embedder()
    ks = [1, 5, 10]
    print(f"dev conversations: {', '.join(c.sample_id for c in conversations)}")
    print(f"{'context':>7} {'fusion':>8} {'w_lex':>6}" + "".join(f"{'R@' + str(k):>8}" for k in ks)
          + "".join(f"{'turn@' + str(k):>9}" for k in ks))
    for context in args.context_turns:
        with tempfile.TemporaryDirectory(prefix="nadine-locomo-dev-") as tmp:
            clock = SessionClock()
            chroma = settings.interaction.chroma.model_copy(update={"mode": "embedded"})
            memory = EpisodicMemory(make_client(chroma, DataLayout(Path(tmp)).chroma_dir),
                                    NadineEmbeddingFunction(embedder), clock, context_turns=context)
            pools = TextPools(memory, embedder.name, embedder.dim)
            for conv in conversations:
                store_conversation(memory, clock, conv)
            for fusion, weight in SETTINGS:
                core = RetrievalCore(base.model_copy(update={"fusion": fusion, "lexical_weight": weight}),
                                     None, None)  # type: ignore[arg-type]
                tallies: dict[str, Tally] = defaultdict(Tally)
                for conv in conversations:
                    evaluate(core, memory, pools.pool(conv.sample_id), conv, ks, tallies, "dev", [])
                r, t = tallies["dev"].recall(ks), tallies["dev"].recall(ks, "turns")
                print(f"{context:>7} {fusion:>8} {weight:>6}" + "".join(f"{100 * r[k]:>8.1f}" for k in ks)
                      + "".join(f"{100 * t[k]:>9.1f}" for k in ks), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

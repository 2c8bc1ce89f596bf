"""bm25s or SQLite FTS5 for the retrieval core's lexical channel, measured on LoCoMo's dev
conversations only (the rest stays held out).

    python -m scripts.eval.lexical_choice [--data PATH]

Both index the same per-turn documents (the turn after the turn before it, as EpisodicMemory stores
them) and rank sessions by their best turn for every dev question with evidence. Printed per library:
session R@1/5/10 and the median / p95 time of one query (tokenise + score + rank). FTS5 uses its
porter tokenizer and bm25(); its MATCH is an OR of the question's terms (its default AND finds
nothing for most questions). bm25s scores every document in one sparse lookup, which z-score fusion
with the dense channel needs; FTS5 returns only the rows that match.
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import sys
import time
from pathlib import Path

import numpy as np

from interaction.memory.retrieval.lexical import LexicalIndex
from scripts.eval.locomo import DEFAULT_DATA, DEV_CONVERSATIONS
from scripts.eval.locomo_data import Conversation, load
from scripts.eval.stats import percentile

KS = (1, 5, 10)


def documents(conv: Conversation) -> tuple[list[str], list[int]]:
    texts, sessions = [], []
    for s in conv.sessions:
        for i, t in enumerate(s.turns):
            before = f"{s.turns[i - 1].speaker}: {s.turns[i - 1].spoken}\n" if i else ""
            texts.append(f"{before}{t.speaker}: {t.spoken}")
            sessions.append(s.number)
    return texts, sessions


def _sessions(order: list[int], sessions: list[int]) -> list[int]:
    return list(dict.fromkeys(sessions[i] for i in order))


class Bm25s:
    def __init__(self, texts: list[str]) -> None:
        self._index = LexicalIndex(texts)

    def rank(self, query: str) -> list[int]:
        raw, _ = self._index.scores(query)
        return [int(i) for i in np.argsort(-raw, kind="stable") if raw[i] > 0]


class Fts5:
    def __init__(self, texts: list[str]) -> None:
        self._db = sqlite3.connect(":memory:")
        self._db.execute("CREATE VIRTUAL TABLE docs USING fts5(text, tokenize='porter')")
        self._db.executemany("INSERT INTO docs(rowid, text) VALUES (?, ?)", enumerate(texts))

    def rank(self, query: str) -> list[int]:
        terms = [f'"{w}"' for w in re.findall(r"[A-Za-z0-9]+", query)]
        if not terms:
            return []
        rows = self._db.execute("SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY bm25(docs)", (" OR ".join(terms),))
        return [int(r[0]) for r in rows]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.eval.lexical_choice", description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args(argv)
    conversations = load(args.data)[:DEV_CONVERSATIONS]
    print(f"dev conversations: {', '.join(c.sample_id for c in conversations)}")
    print(f"{'library':<8}{'n':>6}" + "".join(f"{'R@' + str(k):>8}" for k in KS) + f"{'query p50 ms':>14}{'p95 ms':>9}")
    for name, library in (("bm25s", Bm25s), ("fts5", Fts5)):
        found = dict.fromkeys(KS, 0)
        times: list[float] = []
        n = 0
        for conv in conversations:
            texts, sessions = documents(conv)
            index = library(texts)
            for q in conv.questions:
                if not q.sessions:
                    continue
                start = time.perf_counter()
                ranking = _sessions(index.rank(q.question), sessions)
                times.append((time.perf_counter() - start) * 1000)
                n += 1
                for k in KS:
                    found[k] += bool(q.sessions.intersection(ranking[:k]))
        print(f"{name:<8}{n:>6}" + "".join(f"{100 * found[k] / n:>8.1f}" for k in KS)
              + f"{percentile(times, 50):>14.2f}{percentile(times, 95):>9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

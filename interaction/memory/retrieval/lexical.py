"""The lexical channel: Okapi BM25 (bm25s, Lucene IDF, Snowball stemming, bm25s' English stop list).

bm25s was chosen over SQLite FTS5 by `python -m scripts.eval.lexical_choice` (LoCoMo dev
conversations, 495 questions, per-turn documents): the same session recall (R@1/5/10 67.9 / 92.1 /
96.4 against FTS5's 67.3 / 91.9 / 97.2), a third of the query time (p50 0.17 against 0.55 ms), and
bm25s scores every document of a user in one sparse lookup, which z-score fusion with the dense
channel needs, while FTS5 returns only the matching rows.

`coverage` turns a raw BM25 score into a pool-size-free feature for the recall decision: the score
divided by the most any document could score for that query ((k1 + 1) * the sum of the query terms'
IDF; a query word the user never said counts with the IDF of an unseen term, so it lowers coverage).
"""

from __future__ import annotations

import threading

import bm25s
import numpy as np
import Stemmer

_STEMMER = Stemmer.Stemmer("english")
_LOCK = threading.Lock()  # PyStemmer objects are not thread-safe


def tokenize(texts: list[str]) -> list[list[str]]:
    with _LOCK:
        return bm25s.tokenize(texts, stopwords="en", stemmer=_STEMMER, return_ids=False, show_progress=False)


def stems(words: list[str]) -> list[str]:
    """The Snowball stems BM25 indexes `words` by."""
    with _LOCK:
        return _STEMMER.stemWords(words)


class LexicalIndex:
    def __init__(self, texts: list[str], k1: float = 1.2, b: float = 0.75) -> None:
        self.size = len(texts)
        self._k1 = k1
        self._bm25 = bm25s.BM25(k1=k1, b=b)
        if texts:
            tokens = tokenize(texts)
            self._bm25.index([t or ["_"] for t in tokens], show_progress=False)
            indptr = np.asarray(self._bm25.scores["indptr"])
            self._df = np.diff(indptr)

    def _idf(self, df: float) -> float:
        return float(np.log(1.0 + (self.size - df + 0.5) / (df + 0.5)))

    def scores(self, query: str) -> tuple[np.ndarray, np.ndarray]:
        """(raw BM25 of every document, coverage in [0, 1))."""
        if not self.size:
            return np.zeros(0, np.float32), np.zeros(0, np.float32)
        terms = tokenize([query])[0]
        vocab = self._bm25.vocab_dict
        known = [t for t in terms if t in vocab]
        raw = (np.asarray(self._bm25.get_scores(known), dtype=np.float32) if known
               else np.zeros(self.size, np.float32))
        ceiling = (self._k1 + 1.0) * sum(self._idf(self._df[vocab[t]] if t in vocab else 0.0) for t in terms)
        coverage = raw / ceiling if ceiling > 0 else np.zeros_like(raw)
        return raw, coverage.astype(np.float32)

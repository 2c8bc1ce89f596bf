"""A user's retrieval candidates as parallel arrays (one row per stored item), so a turn scores them
with a matrix product and a sparse BM25 lookup instead of a Python object per item."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from interaction.memory.retrieval.lexical import LexicalIndex


@dataclass(frozen=True)
class Candidate:
    kind: str  # turn | episode | conversation | explicit_memory | moment | first_meeting | observation
    memory_id: str
    text: str  # what it is retrieved by (a turn with its neighbouring context)
    quote: str  # what a reply may quote: the turn itself, never a truncated transcript
    occurred_ts: float | None  # epoch seconds when it happened
    group: str  # the session (turns, summaries) or the scene itself
    memorability: float = 0.0

    @property
    def occurred_at(self) -> str | None:
        return None if self.occurred_ts is None else datetime.fromtimestamp(self.occurred_ts).isoformat()


@dataclass
class CandidatePool:
    """Rows in insertion order; `vectors` are L2-normalised rows of `embedder`'s space."""

    items: list[Candidate]
    vectors: np.ndarray
    embedder: str
    occurred_ts: np.ndarray = field(init=False)  # NaN where unknown
    memorability: np.ndarray = field(init=False)
    kinds: np.ndarray = field(init=False)  # str per row, for masks without a Python loop per turn
    _lexical: LexicalIndex | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.occurred_ts = np.array(
            [np.nan if c.occurred_ts is None else c.occurred_ts for c in self.items], dtype=np.float64)
        self.memorability = np.array([c.memorability for c in self.items], dtype=np.float32)
        self.kinds = np.array([c.kind for c in self.items], dtype=object)

    def __len__(self) -> int:
        return len(self.items)

    @property
    def lexical(self) -> LexicalIndex:
        """Built on first use (ordinary turns never need it)."""
        if self._lexical is None:
            self._lexical = LexicalIndex([c.text for c in self.items])
        return self._lexical

    def subset(self, keep: np.ndarray) -> CandidatePool:
        """The rows where `keep` is true, as a pool of their own."""
        rows = np.flatnonzero(keep)
        return CandidatePool([self.items[i] for i in rows], self.vectors[rows], self.embedder)

    @classmethod
    def empty(cls, embedder: str, dim: int) -> CandidatePool:
        return cls([], np.zeros((0, dim), dtype=np.float32), embedder)

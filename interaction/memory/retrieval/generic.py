"""Does a recall question name a topic, or only a time ("what did I tell you last week?")?

A nearest-neighbour classifier: the question, its time expression removed, is generic when its
MiniLM cosine to the nearest labelled generic question (generic_questions.txt, the dev half) reaches
interaction.retrieval.recall.generic_threshold, fitted by scripts.eval.calibrate_recall against the
specific dev questions and reported on held-out ones. It replaces the hand-written word lists that
decided this before (they were written after seeing the benchmark's misses)."""

from __future__ import annotations

from pathlib import Path

from common.embedding.base import TextEmbedder

QUESTIONS = Path(__file__).with_name("generic_questions.txt")


def load_questions(path: Path = QUESTIONS) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


class GenericQuestions:
    def __init__(self, embedder: TextEmbedder, threshold: float, questions: list[str] | None = None) -> None:
        self._embedder = embedder
        self.threshold = threshold
        self._prototypes = embedder.embed(questions or load_questions())

    def closeness(self, question: str) -> float:
        """Cosine to the nearest labelled generic question."""
        return float((self._prototypes @ self._embedder.embed([question])[0]).max())

    def is_generic(self, question: str) -> bool:
        return self.closeness(question) >= self.threshold


def without(question: str, expression: str | None) -> str:
    """The question with the words that named its time window taken out."""
    if not expression:
        return question
    at = question.casefold().find(expression.casefold())
    return question if at < 0 else (question[:at] + question[at + len(expression):]).strip()

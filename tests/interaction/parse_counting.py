"""Counting what the cached spaCy parser parses, for tests that check a turn parses nothing beyond its
read-ahead's one batch."""

from __future__ import annotations


class _Counted:
    """The pipeline, noting each call: one text, or a batch."""

    def __init__(self, inner, calls: list[list[str]]) -> None:  # noqa: ANN001 - a spaCy Language
        self.inner = inner
        self.calls = calls

    def __call__(self, one: str):  # noqa: ANN204 - a spaCy Doc
        self.calls.append([one])
        return self.inner(one)

    def pipe(self, texts):  # noqa: ANN001, ANN202 - texts in, spaCy Docs out
        self.calls.append(list(texts))
        return self.inner.pipe(self.calls[-1])


def count_parses(monkeypatch, nlp) -> list[list[str]]:  # noqa: ANN001 - pytest's monkeypatch, the CachedParser
    """Empty the parser's cache and count what it parses from now on: each call's texts, in order."""
    calls: list[list[str]] = []
    monkeypatch.setattr(nlp, "_docs", type(nlp._docs)(nlp._docs.maxsize))  # nothing parsed before
    monkeypatch.setattr(nlp, "nlp", _Counted(nlp.nlp, calls))
    return calls

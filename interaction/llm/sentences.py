"""A streamed reply as spoken sentences: text deltas in, each complete sentence out as soon as the
sentence splitter can tell it is complete, checked before it is handed on.

The splitter is spaCy's rule-based sentencizer on a blank English pipeline (spaCy is already a
dependency; the sentencizer needs no model weights): its tokenizer keeps "Dr.", "3.5" and "..." inside
a sentence. A sentence is complete once the first token of the next one has arrived, so "1990." is not
handed on before it is known not to be "1990.5". The last sentence is complete when the stream ends.

Before a sentence is handed on, the reply checks (interaction/llm/reply_text.py) read everything received
up to the end of that sentence, with its trailing space: where they cut, the part before the cut is the
last thing spoken and the stream is closed (the server stops generating what would not be said). The
sentence still arriving is searched for the prompt's markers after every delta, so a model that goes
on with "<|im_start|>user ..." (no full stop in sight) is stopped there, not at max_tokens."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from typing import Any

from interaction.llm.reply_text import ReplyCheck, has_word

_lock = threading.Lock()


@lru_cache(maxsize=1)
def _pipeline() -> Any:
    import spacy

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    return nlp


def splitter() -> Any:
    """The shared spaCy pipeline (loaded once; spaCy's import takes seconds on a loaded 2-core machine)."""
    with _lock:
        return _pipeline()


def warm_up() -> threading.Thread:
    """Load the splitter in the background at process start, so the first streamed reply does not wait."""
    thread = threading.Thread(target=splitter, name="sentence-splitter-warm-up", daemon=True)
    thread.start()
    return thread


class SentenceBuffer:
    """Text deltas in order; `complete()` returns the sentences that are known to be complete."""

    def __init__(self) -> None:
        self.nlp = splitter()
        self.punct = set(self.nlp.get_pipe("sentencizer").punct_chars)
        self.text = ""
        self.done = 0  # self.text[:done] is complete sentences (with their trailing space)

    def add(self, delta: str) -> list[int]:
        """Append a delta; where each sentence it completed ends in `text` (after its trailing space)."""
        self.text += delta
        pending = self.text[self.done:]
        if not any(c in self.punct for c in pending):
            return []  # no sentence can end without its punctuation
        ends = []
        for sentence in list(self.nlp(pending).sents)[:-1]:  # the last one may still grow
            ends.append(self.done + sentence.end_char + len(sentence[-1].whitespace_))
        if ends:
            self.done = ends[-1]
        return ends


def spoken_sentences(deltas: Iterable[str], check: ReplyCheck) -> Iterator[str]:
    """Each sentence of the streamed reply that passes `check`, in order, as soon as it is complete.
    Closes the deltas (which stops the request) when the check cuts, or when the consumer stops early."""
    buffer = SentenceBuffer()
    handed = 0  # characters of check.text(received) already yielded
    stream = iter(deltas)
    close: Callable[[], None] = getattr(stream, "close", lambda: None)

    def through(text: str) -> tuple[str, bool]:
        """What of `text` (whole sentences, checked) is new and may be spoken; whether the check cut it."""
        nonlocal handed
        cut = check.cut(text)
        part = text[handed:len(text) if cut is None else max(cut, handed)].strip()
        handed = len(text)
        return part, cut is not None

    try:
        for delta in stream:
            for end in buffer.add(delta):
                part, cut = through(check.text(buffer.text[:end]))
                if has_word(part):
                    yield part
                if cut:
                    return
            # a marker in the sentence still arriving ("<|im_end|>" has no full stop): the reply ends
            # there, and what precedes the marker is checked as its last sentence
            text = check.text(buffer.text)
            if (marker := check.cut(text, whole_sentences=False)) is not None:
                part, _ = through(text[:marker])
                if has_word(part):
                    yield part
                return
        part, _ = through(check.text(buffer.text))  # the stream ended: what is left is the last sentence
        if has_word(part):
            yield part
    finally:
        close()

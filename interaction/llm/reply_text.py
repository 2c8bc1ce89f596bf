"""What of a model's reply may be spoken: the text before it starts to continue the prompt.

Small models continue the transcript they were shown ("... User: ... Nadine: ...") or echo their
instructions. The markers come from the prompt format the caller sent (its speaker labels and
section headings), plus the reserved-token delimiters `<|` `|>` that ChatML-family chat templates
(SmolLM2, Qwen, Llama 3, Phi-3) use around roles: no spoken sentence contains them. A reply that
repeats ECHO_WORDS consecutive words of the instructions is cut where the copy starts, and so is one
whose sentence is made of the instructions' words in its own order ("... from the facts listed above,
in a warm spoken summary; no lists or emojis"): a sentence whose content words (function words set
aside, scikit-learn's general English stop list) are ECHO_SHARE of them the instructions' own, and at
least ECHO_CONTENT_WORDS of them, restates the instructions instead of talking to the person. A line
that starts a list item ("- Profile: ...") is cut too: spoken sentences are never list items, and small
models copy the prompt's list of facts that way. A reply with no word left is no reply ("").

Each check reads the text up to where it cuts, in whole sentences, so a streamed reply is checked as it
grows (interaction/llm/sentences.py): a prefix of whole sentences that passes may be spoken at once.
One thing only the whole reply can show: a copy of ECHO_WORDS instruction words that starts in a
sentence already spoken and ends in the next; the stream then stops there."""

from __future__ import annotations

import re
from collections.abc import Sequence

# spaCy's list, not scikit-learn's: spaCy ships with the processes, scikit-learn only with the eval extra
from spacy.lang.en.stop_words import STOP_WORDS

ECHO_WORDS = 8
ECHO_SHARE = 0.75
ECHO_CONTENT_WORDS = 4
TEMPLATE_DELIMITERS = ("<|", "|>")
_WORD = re.compile(r"\w+(?:'\w+)?")
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")
_LIST_ITEM = re.compile(r"(?m)^[ \t]*(?:[-*\u2022]|\d{1,2}[.)])[ \t]+")
# a later line in the transcript's "Speaker: text" shape: a short capitalised label, a colon, a space
_SPEAKER_LINE = re.compile(r"\n[ \t]*[A-Z][\w .'-]{0,30}:[ \t]")


def _ngrams(words: Sequence[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


def _content(words: Sequence[str]) -> list[str]:
    return [w for w in words if w not in STOP_WORDS and not w.isdigit()]


def has_word(text: str) -> bool:
    return _WORD.search(text) is not None


class ReplyCheck:
    """The checks for one prompt: its speaker labels, the model's own label, its section headings and
    its instructions (their word n-grams and words computed once, for every sentence of a stream)."""

    def __init__(self, *, labels: Sequence[str], own_label: str, headings: Sequence[str] = (),
                 instructions: Sequence[str] = ()) -> None:
        self.markers = (*(f"{label}:" for label in labels), *TEMPLATE_DELIMITERS)
        self.own = f"{own_label}:"
        self.headings = [re.compile(rf"(?m)^\s*{re.escape(h)}\b") for h in headings]
        self.echoes = set().union(*(_ngrams(_WORD.findall(i.lower()), ECHO_WORDS) for i in instructions)) \
            if instructions else set()
        self.instruction_words = {w.lower() for i in instructions for w in _WORD.findall(i)} if instructions else None

    def text(self, answer: str) -> str:
        """The answer without leading space and without the model announcing itself ("Nadine: ..."). Its
        trailing space stays: a streamed sentence's "1. " is a list item only with the space."""
        text = answer.lstrip()
        while text.startswith(self.own):
            text = text[len(self.own):].lstrip()
        return text

    def cut(self, text: str, whole_sentences: bool = True) -> int | None:
        """Where `text` (as returned by `text`) starts to continue the prompt, or None. Without
        `whole_sentences` (text that ends inside a sentence) only the markers are looked for: a marker
        found in part of a reply is where the whole reply is cut too, a copied word sequence may not be."""
        cuts = [text.find(marker) for marker in self.markers]
        cuts += [m.start() for m in [_SPEAKER_LINE.search(text), _LIST_ITEM.search(text)] if m]
        cuts += [m.start() for heading in self.headings for m in [heading.search(text)] if m]
        if not whole_sentences:
            return min((c for c in cuts if c >= 0), default=None)
        words = list(_WORD.finditer(text))
        for i in range(len(words) - ECHO_WORDS + 1):
            if tuple(w.group().lower() for w in words[i:i + ECHO_WORDS]) in self.echoes:
                cuts.append(words[i].start())
                break
        if self.instruction_words is not None:
            restated = self._restating_sentence(text)
            cuts += [restated] if restated is not None else []
        return min((c for c in cuts if c >= 0), default=None)

    def _restating_sentence(self, text: str) -> int | None:
        """Where the first sentence that restates the instructions starts, or None."""
        for m in _SENTENCE.finditer(text):
            content = _content([w.lower() for w in _WORD.findall(m.group())])
            shared = [w for w in content if w in self.instruction_words]
            if len(shared) >= ECHO_CONTENT_WORDS and len(shared) >= ECHO_SHARE * len(content):
                return m.start()
        return None

    def spoken(self, answer: str) -> str:
        """The reply up to the first role marker, heading, template delimiter or copied instruction."""
        text = self.text(answer)
        end = self.cut(text)
        spoken = text[:end].strip()
        return spoken if has_word(spoken) else ""


def spoken_part(answer: str, *, labels: Sequence[str], own_label: str, headings: Sequence[str] = (),
                instructions: Sequence[str] = ()) -> str:
    """The reply up to the first role marker, heading, template delimiter or copied instruction."""
    return ReplyCheck(labels=labels, own_label=own_label, headings=headings, instructions=instructions).spoken(answer)

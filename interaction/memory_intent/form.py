"""Whether a turn has the form of the memory request the classifier reads in its words, from spaCy's
parse: the classifier weighs words and phrases ("guess what" is near "what did I ..."), the form says
what the sentence does.

- Any request of memory names something: a verb (an act: "forget it", "remember this!") or a thing
  (a noun, a name, a number, an adjective: "gate code pls"). "yes please" or "okay" alone, said
  when nothing was asked, is no request to remember, forget or recall.
- A recall (or "what do you know about me") is asked: a question or an imperative that names what
  it wants (question_form.asks_or_requests). "Guess what, my granddaughter was born!" only tells.

Without the parser the classifier's reading stands.
"""

from __future__ import annotations

from interaction.memory_intent.phrasing import CONTENT_POS

ASKED = ("recall", "about_me")


def _names_something(text: str) -> bool | None:
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        parsed = load_parser()(text)
    except ParserUnavailable:
        return None
    return any(t.pos_ in CONTENT_POS or (t.dep_ == "ROOT" and t.pos_ == "AUX") for t in parsed)


def has_form(intent: str, text: str) -> bool:
    """`text` has the form a request of `intent` needs; a statement always has."""
    from interaction.offline.question_form import asks_or_requests

    if intent == "statement" or _names_something(text) is False:
        return intent == "statement"
    return intent not in ASKED or asks_or_requests(text) is not False

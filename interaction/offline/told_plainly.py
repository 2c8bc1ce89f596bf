"""A fact someone asked to keep, in the words it is kept and said back in: without the words that
opened the telling ("wait actually my PIN is 7731": parsing.without_opening), and with a value set
after a colon said with the verb the colon stood for ("my gym pin: 8812" -> "my gym pin is 8812"),
so "I'll remember that your gym pin is 8812", never "your gym pin: 8812". Read off spaCy's parse;
the text as it came without the parser.
"""

from __future__ import annotations

import re

from interaction.offline.parsing import ParserUnavailable, load_parser, without_opening


def plainly(fact: str) -> str:
    return _colon_said(without_opening(fact).strip())


def _colon_said(fact: str) -> str:
    """"<a noun phrase>: <its value>" as "<the noun phrase> is <its value>" ("are" after a plural:
    "my kids' names: Ava and Leo"); any other text unchanged ("note: call me back" has no noun phrase
    before its colon, "I need three things: ..." a verb)."""
    # a colon between digits tells the time ("leaves at 7:40"), never a value
    found = re.search(r"(?<!\d):|:(?!\d)", fact)
    if found is None:
        return fact
    head, value = fact[:found.start()], fact[found.end():]
    if not head.strip() or not value.strip():
        return fact
    try:
        said = load_parser()(head.strip())
    except ParserUnavailable:
        return fact
    root = next((t for t in said if t.dep_ == "ROOT"), None)
    if root is None or root.pos_ not in ("NOUN", "PROPN") or any(t.pos_ in ("VERB", "AUX") for t in said):
        return fact
    verb = "are" if root.morph.get("Number") == ["Plur"] else "is"
    return f"{head.strip()} {verb} {value.strip()}"

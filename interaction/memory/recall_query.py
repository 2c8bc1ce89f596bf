"""Does a recall question name anything, or is it generic ("Do you remember what I told you last
time?")? A generic question shares no words with the remembered moment, so its similarity to any
scene is noise (MiniLM: 0.02-0.24 against the right moment, seed pairs in
scripts/eval/calibration_pairs/minilm_seed.jsonl); scene_index answers it by recency instead."""

from __future__ import annotations

import re

_FUNCTION_WORDS = frozenset("""
a an the i me my mine myself you your yours we us our ours he she it they them his her its their this that
these those what which who whom whose when where why how whether if then than so and or but of to in on at
for from with about as by into onto over after before again still ever just really also too very some any
all each every something anything everything nothing one ones thing things stuff is am are was were be been
being do does did done doing have has had having can could will would shall should may might must not no
yes oh hey hi hello nadine please there here back now like
""".split())

_RECALL_FRAMING = frozenset("""
remember remembered remembering recall recalled recollect recollection remind reminded forget forgot
forgotten memory memories memorable last time times previous previously earlier before ago yesterday
week weeks month months year years day days night once lately recently together
tell told telling say said saying talk talked talking spoke speak speaking discuss discussed conversation
conversations chat chatted share shared sharing mention mentioned news happen happened happening
meet met meeting saw see seen visit visited know knew
feel felt feeling feelings mood how
""".split())


def content_words(query: str) -> list[str]:
    words = re.findall(r"[a-z]+", query.lower().replace("'s", " ").replace("'", ""))
    return [w for w in words if w not in _FUNCTION_WORDS and w not in _RECALL_FRAMING and len(w) > 1]


def _stem(word: str) -> str:
    """Crude plural / verb-ending folding, enough for "plays" ~ "play", "flight" ~ "flights"."""
    for suffix in ("ing", "es", "s", "ed"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def names_a_word_of(query: str, text: str) -> bool:
    asked = {_stem(w) for w in content_words(query) if len(w) > 2}
    said = {_stem(w) for w in content_words(text)}
    return bool(asked & said)

"""Chat spellings read as the words they stand for, by spaCy's parse: "what do u know abt me" is
"what do you know about me" to every reader, while the turn's text stays as typed.

Texting shortens a closed class of common words ("u", "abt", "pls") in ways no dictionary and no
edit distance recover ("abt" is two edits from "about", and "u" is a letter): parsed as typed, "abt"
is an interjection and "me" the object of "know", so the question names nobody. The model's features
start from each token's NORM, so a tokenizer special case whose NORM is the word meant (the way spaCy's
own exceptions read "cuz" and "'em") makes the tagger and parser read the word meant; the token's text,
offsets and `lower_` stay as typed.
"""

from __future__ import annotations

from typing import Any

# the usual texting forms of common English words (one word each: a NORM stands for a single token)
CHAT_SPELLINGS = {
    "u": "you", "ya": "you", "ur": "your", "r": "are", "y": "why",
    "abt": "about", "bout": "about", "wat": "what", "wot": "what", "wht": "what",
    "kno": "know", "rmbr": "remember", "pls": "please", "plz": "please", "thx": "thanks",
    "bc": "because", "coz": "because", "cos": "because", "b4": "before", "tmrw": "tomorrow",
    "tmr": "tomorrow", "2moro": "tomorrow", "2day": "today", "2nite": "tonight", "ppl": "people",
    "bday": "birthday", "msg": "message", "wk": "week", "yday": "yesterday", "smth": "something",
}


def read_chat_spellings(nlp: Any) -> Any:
    """`nlp` (a spaCy Language) with each chat spelling, lower case or capitalised at a sentence's start
    (a single letter only in lower case: "U" and "R" name things), a token whose NORM is the word meant."""
    from spacy.symbols import NORM, ORTH

    for typed, meant in CHAT_SPELLINGS.items():
        for form in {typed, *([typed.capitalize()] if len(typed) > 1 else [])}:
            nlp.tokenizer.add_special_case(form, [{ORTH: form, NORM: meant}])
    return nlp

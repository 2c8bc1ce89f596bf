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

import re
from typing import Any

# the usual texting forms of common English words (one word each: a NORM stands for a single token)
CHAT_SPELLINGS = {
    "u": "you", "ya": "you", "ur": "your", "r": "are", "y": "why",
    "abt": "about", "bout": "about", "wat": "what", "wot": "what", "wht": "what",
    "kno": "know", "rmbr": "remember", "pls": "please", "plz": "please", "thx": "thanks",
    "bc": "because", "coz": "because", "cos": "because", "b4": "before", "tmrw": "tomorrow",
    "tmr": "tomorrow", "2moro": "tomorrow", "2day": "today", "2nite": "tonight", "ppl": "people",
    "bday": "birthday", "appt": "appointment", "pw": "password", "wen": "when", "msg": "message", "wk": "week", "yday": "yesterday", "smth": "something",
    "omg": "wow",  # an interjection, one word as its NORM needs ("oh my god")
}


_TYPED = re.compile(r"(?<![\w'\u2019])(" + "|".join(sorted(CHAT_SPELLINGS, key=len, reverse=True))
                    + r")(?![\w'\u2019])", re.IGNORECASE)


def spelled_out(text: str) -> str:
    """`text` with each chat spelling written as the word it stands for ("do u still have my dentist
    appt" -> "do you still have my dentist appointment"), as the retrieval core's words and embeddings
    need it: neither BM25 nor MiniLM relates "appt" to a memory of an "appointment". A capital letter
    alone stays: it names a thing ("Plan B", "U2")."""
    def meant(m: re.Match) -> str:
        typed = m.group(0)
        return typed if len(typed) == 1 and typed.isupper() else CHAT_SPELLINGS[typed.casefold()]

    return _TYPED.sub(meant, text)


def lemma_meant(token: Any) -> str:
    """The lemma a token stands for, as a question and a memory are compared: a chat spelling's word
    ("my wifi pw" is asked after as "my wifi password"), else its own lemma."""
    return token.norm_ if token.lower_ in CHAT_SPELLINGS else token.lemma_.lower()


def read_chat_spellings(nlp: Any) -> Any:
    """`nlp` (a spaCy Language) with each chat spelling, lower case or capitalised at a sentence's start
    (a single letter only in lower case: "U" and "R" name things), a token whose NORM is the word meant;
    and "wed" one token, Wednesday, where no verb can follow it (`shortened_wednesday`)."""
    from spacy.language import Language
    from spacy.symbols import NORM, ORTH

    for typed, meant in CHAT_SPELLINGS.items():
        for form in {typed, *([typed.capitalize()] if len(typed) > 1 else [])}:
            nlp.tokenizer.add_special_case(form, [{ORTH: form, NORM: meant}])
    if not Language.has_factory(_WEDNESDAY):
        Language.component(_WEDNESDAY, func=shortened_wednesday)
    nlp.add_pipe(_WEDNESDAY, first=True)
    if "attribute_ruler" in nlp.pipe_names:
        # "im" / "ive" typed without the apostrophe: spaCy's exceptions split them as "I'm" / "I've", but
        # the lemmatizer, which keeps a lemma already set, leaves "m" and "ve" as typed, so "im a bus
        # driver" told no "be" to any reader
        nlp.get_pipe("attribute_ruler").add_patterns([
            {"patterns": [[{"LOWER": "i", "SPACY": False}, {"LOWER": "m"}]], "attrs": {"LEMMA": "be", "NORM": "am"}, "index": 1},
            {"patterns": [[{"LOWER": "i", "SPACY": False}, {"LOWER": "ve"}]], "attrs": {"LEMMA": "have"}, "index": 1},
        ])
    return nlp


_WEDNESDAY = "shortened_wednesday"


def shortened_wednesday(doc: Any) -> Any:
    """"wed" typed for Wednesday ("dentist wed 3pm"), which spaCy's own exceptions split as "we'd"
    ("we" + "d"): one token whose NORM is "wednesday" when what follows it cannot be the verb a "we'd"
    takes (the end, punctuation, a number or a time: "wed 3pm"), so no reader takes it for the
    speaker's "we" ("dentist wed 3pm" was said back "dentist youd then"); "wed love to come" stays
    "we'd love". Its tag stays the tagger's: spaCy reads the typed form's shape and affixes too, so
    a day is not read from it."""
    pairs = [doc[i:i + 2] for i in range(len(doc) - 1)
             if doc[i].lower_ == "we" and doc[i + 1].text == "d" and not doc[i].whitespace_]
    with doc.retokenize() as retokenizer:
        for pair in pairs:
            after = doc[pair.end] if pair.end < len(doc) else None
            if after is None or after.is_punct or after.like_num or after.text[:1].isdigit():
                retokenizer.merge(pair, attrs={"NORM": "wednesday"})
    return doc

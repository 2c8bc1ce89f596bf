"""Wishes said to Nadine, read off spaCy's parse and WordNet: a parting wish ("have a great day", "enjoy
the rest of your evening": the person is leaving), a wish for her ("good luck with all your
conversations today") and a wish for a season or a day ("Happy Easter!", "merry Christmas to you all").
None tells anything about the person's own life, so none is news to keep."""

from __future__ import annotations

from typing import Any

from interaction import cues

_SUBJECTS = {"nsubj", "nsubjpass", "expl", "csubj"}
_FIRST_PERSON = {"i", "me", "my", "mine", "myself", "we", "us", "our", "ours"}
_SECOND_PERSON = {"you", "your", "yours", "yourself", "u", "ur"}


def _parse(text: str) -> list[Any]:
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        nlp = load_parser()
    except ParserUnavailable:
        return []
    return [sent for s in cues.sentences(text) if not cues.is_question(s) for sent in nlp(s).sents]


def _a_stretch_of_time(noun: Any) -> bool:
    """The noun names a stretch of time by WordNet ("day", "weekend", "evening"), itself or what it is
    the rest of ("the rest of your evening"); never a date, which a number names ("no wait, the 12th of
    February" puts a date right)."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    if wordnet is None or any(t.like_num or t.ent_type_ == "ORDINAL" for t in noun.subtree):
        return False
    of = [o for p in noun.children if p.dep_ == "prep" and p.lower_ == "of" for o in p.children if o.dep_ == "pobj"]
    return any(wordnet.names_a_time(n.lemma_.lower()) for n in [noun, *of])


def _imperative(verb: Any) -> bool:
    return verb.pos_ in ("VERB", "AUX") and verb.tag_ in ("VB", "VBP") \
        and not any(c.dep_ in _SUBJECTS for c in verb.children)


def _prop_word(noun: Any) -> bool:
    """"one" standing for a noun left unsaid after its adjective ("have a good one"): in a bidding to
    spend something well, the stretch of time both know is meant."""
    return noun.lemma_.lower() == "one" and any(c.dep_ == "amod" for c in noun.children) \
        and any(c.dep_ == "det" for c in noun.children)


def parting_wish(text: str) -> bool:
    """A statement that bids the listener spend a stretch of time well ("have a lovely weekend", "enjoy
    the rest of your evening", "have a good one"): what one says when leaving. The parser hangs the
    object on the verb as a noun phrase of time at times ("enjoy your weekend"); a bare one says when
    ("call me tomorrow")."""
    return any(_imperative(s.root) and _of_having(s.root)
               and any(_object(c) and (_a_stretch_of_time(c) or _prop_word(c)) for c in s.root.children)
               for s in _parse(text))


def parting_until(text: str) -> bool:
    """A statement that says when the two will next meet, the speaker left unsaid ("see you Thursday
    then!", "talk to you later", "speak to you tomorrow"): a verb with no subject, of seeing the listener
    or of talking to them (WordNet's verbs of perception and of communication), the listener its one
    object, and a time it says when. "Tell you what, ..." says no when; "thank you kindly" talks to
    no one."""
    return any(_imperative(s.root) and _meets_the_listener(s.root) and _says_when(s.root) for s in _parse(text))


def _meets_the_listener(verb: Any) -> bool:
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    kind = wordnet.verb_lexical_file(verb.lemma_.lower()) if wordnet is not None else None
    seen = [c for c in verb.children if c.dep_ in ("dobj", "ccomp", "xcomp")]
    to = [g for c in verb.children if c.dep_ == "prep" and c.lower_ in ("to", "with") for g in c.children if g.dep_ == "pobj"]
    listener = (kind == "verb.perception" and not to and seen) or (kind == "verb.communication" and not seen and to)
    return bool(listener) and len(seen + to) == 1 and (seen + to)[0].lower_ in _SECOND_PERSON


def _says_when(verb: Any) -> bool:
    """An adverb ("soon", "later", "then") or a noun phrase of time ("Thursday", "next week") on the verb."""
    return any((c.dep_ == "advmod" and c.pos_ == "ADV") or (c.dep_ == "npadvmod" and c.ent_type_ in ("DATE", "TIME"))
               for c in verb.children)


# having, enjoying or spending a time: the verbs a wish bids with ("have", "enjoy", "spend"), never one
# of thinking, telling or doing to it ("forget the appointment date", "note the day", "erase the date")
_OF_HAVING = {"verb.possession", "verb.emotion", "verb.stative"}


def _of_having(verb: Any) -> bool:
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is not None and wordnet.verb_lexical_file(verb.lemma_.lower()) in _OF_HAVING


def _object(noun: Any) -> bool:
    # a noun phrase of time taken for an adverbial is the object only after its verb ("enjoy your
    # weekend"); before it, it is something else ("no wait, keep it"). A wish bids the listener spend
    # their own time, or one both share ("the weekend"): a time someone else owns is no wish ("keep my
    # mum's birthday" asks Nadine to hold on to a date)
    return (noun.dep_ == "dobj" or (noun.dep_ == "npadvmod" and noun.i > noun.head.i
                                    and any(c.dep_ in ("det", "poss") for c in noun.children))) \
        and all(c.lower_ in _SECOND_PERSON for c in noun.children if c.dep_ == "poss")


def _named_day(noun: Any) -> bool:
    """A day or season by WordNet ("Christmas", "year", "birthday"), or a name WordNet does not know
    standing alone for one ("Diwali", "Xmas")."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    if wordnet is None:
        return False
    kind = wordnet.lexical_file(noun.lemma_.lower())
    return kind == "noun.time" or (kind is None and noun.pos_ == "PROPN")


def seasonal_wish(sentence: Any) -> bool:
    """A parsed sentence that is a day or season wished well: no verb, its head a day or season with
    no article or owner, qualified by a word VADER's lexicon rates pleasant ("Merry Christmas, by the
    way!", "happy new year!", "Happy Diwali to you all"; not "Busy weekend!", which tells how it went,
    nor "my happy birthday")."""
    from interaction.offline.emotion_intensity import vader

    root = sentence.root
    if root.pos_ not in ("NOUN", "PROPN") or not _named_day(root) \
            or any(c.dep_ in ("det", "poss") for c in root.children):
        return False
    return any(c.dep_ in ("amod", "compound") and c.i < root.i and vader().lexicon.get(c.lower_, 0.0) > 0
               for c in root.children)


def wishes_a_season(text: str) -> bool:
    """Some sentence of `text` wishes a day or season well ("Happy Easter!")."""
    return any(seasonal_wish(s) for s in _parse(text))


def wishes_the_listener(text: str) -> bool:
    """Every sentence is a wish or bidding about the listener, said without the speaker in it: a
    sentence without a verb of its own or an imperative, naming "you" or "your" and never "I", "my" or
    "we" ("good luck with all your conversations today", "have a great day"), or wishing a day or
    season well, which is said to whoever listens ("Merry Christmas!")."""
    sentences = _parse(text)
    if not sentences:
        return False
    for s in sentences:
        words = {t.lower_ for t in s}
        verbless = s.root.pos_ in ("NOUN", "PROPN", "INTJ", "ADJ")
        if words & _FIRST_PERSON or not (verbless or _imperative(s.root)):
            return False
        if not (words & _SECOND_PERSON or parting_wish(s.text) or seasonal_wish(s)):
            return False
    return True

"""A value corrected in the next breath: "I live in Gdansk" then "sorry, I meant Gdynia"; "my birthday
is on the 3rd of April" then "no, it's the 13th of April, not the 3rd"; "... my locker number is 214"
then "actually it's 241, not 214".

A correction is read off spaCy's parse, in one of the forms people repair a slip with: "I meant X"
(the speaker's own "mean" with an object), "it's X" (an expletive "it" / "that" and the copula), a
bare "X, not Y", or a bare X beside a no ("no wait, X", "X, sorry"); and it says nothing else (besides interjections, adverbs and the negation). The
earlier statement it corrects is the person's latest one that holds the value it replaces: Y when
they name it ("not the 3rd"), else the one phrase of the earlier statement of X's kind (spaCy's entity
type: a town for a town, a date for a date). The corrected statement is the earlier one with that
phrase replaced, a day alone ("it's the 14th") replacing only the day of a date. What cannot be placed
is no correction: the turn is read as any other.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from interaction import cues
from interaction.offline.value_in_place import DAY, holds_a_value, of_kind, span_text, with_value

_EXPLETIVE = {"it", "that", "this"}
_ASIDE_POS = {"INTJ", "ADV", "PUNCT", "CCONJ", "SCONJ"}  # "sorry", "actually", "no", "wait", ","
_ASIDE_DEPS = {"intj", "advmod", "punct", "dep", "discourse", "cc", "neg", "det", "aux"}


@dataclass(frozen=True)
class Correction:
    earlier: str  # the statement corrected, as said
    corrected: str  # the same statement with the new value
    old: str  # the words replaced
    new: str  # the words put in their place
    disowned: bool = False  # the person named the words replaced ("..., not Berlin")


def _parser():
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        return load_parser()
    except ParserUnavailable:
        return None


def _negated(doc) -> list:  # noqa: ANN001 - a spaCy Doc
    """The phrase after "not" ("not March 3", "not the 3rd"): up to the next punctuation."""
    for tok in doc:
        if tok.dep_ == "neg" and tok.lower_ in {"not", "n't"} and tok.i + 1 < len(doc):
            out = []
            for t in doc[tok.i + 1:]:
                if t.is_punct:
                    break
                out.append(t)
            return out
    return []


def _a_repair(words: list) -> bool:
    """Words set off beside a bare value that take back what was said: the confirmation reader's no
    ("sorry", "no wait"), or an aside of no one's with no yes in it ("oops", "whoops", "oh wait"). A
    pronoun or an auxiliary makes a clause of its own ("I think", "I guess"), which hedges rather than
    repairs."""
    from interaction.confirmation.reader import read_offline

    said = " ".join(t.text for t in words)
    verdict = read_offline(said)
    return verdict == "no" or (verdict == "unclear" and not any(t.pos_ in {"PRON", "AUX"} for t in words))


def _after_a_no(doc) -> list | None:  # noqa: ANN001 - a spaCy Doc
    """"no wait, the 12th of February", "Gdynia, sorry", "oops, in June": one phrase with no verb and
    no subject, set off by commas from a repair (`_a_repair`); its words, else None. Without the
    repair, or with a coordinating conjunction or an adverb in the phrase, a bare phrase adds to what
    was said ("London too", "oh, and Berlin")."""

    parts: list[list] = [[]]
    for t in doc:
        if t.is_punct:
            parts.append([])
        else:
            parts[-1].append(t)
    parts = [p for p in parts if p]
    valued = [p for p in parts if any(t.ent_type_ or t.pos_ in {"PROPN", "NUM"} for t in p)]
    if len(parts) < 2 or len(valued) != 1:
        return None
    value = valued[0]
    if any(t.pos_ in {"VERB", "AUX", "PRON", "CCONJ", "ADV"} for t in value):
        return None
    return value if _a_repair([t for p in parts if p is not value for t in p]) else None


def _form(doc, old: list) -> str | None:  # noqa: ANN001 - a spaCy Doc
    """Which correction form the sentence has: "meant" ("I meant X"), "expletive" ("it's X"), "bare"
    ("X, not Y"), "restated" (the statement said again, "... is X, not Y"), else None."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None:
        return None
    subjects = [t for t in root.children if t.dep_ in {"nsubj", "nsubjpass", "expl"}]
    if root.lemma_ == "mean" and all(s.lower_ == "i" for s in subjects) and subjects:
        return "meant"
    if root.lemma_ == "be" and subjects and all(s.lower_ in _EXPLETIVE for s in subjects):
        return "expletive"
    if old and not subjects and not any(t.pos_ in {"VERB", "AUX"} for t in doc):
        return "bare"
    return "restated" if old else None


def _new_value(doc, old: list) -> list | None:  # noqa: ANN001 - a spaCy Doc
    """The words that hold the new value, when the sentence is one of the correction forms and says
    nothing else; None otherwise."""
    if not old and (repaired := _after_a_no(doc)) is not None:
        return repaired
    form = _form(doc, old)
    if form is None:
        return None
    if form == "restated":
        return _restated(doc, old)
    if form == "bare":
        # a bare "X, not Y": X is what comes before the "not", as many words as Y has
        before = [t for t in doc if t.i < old[0].i - 1 and not t.is_punct and t.pos_ not in _ASIDE_POS]
        return before[-len(old):] or None
    root = next(t for t in doc if t.dep_ == "ROOT")
    skip = {t.i for t in old}
    subjects = [t for t in root.children if t.dep_ in {"nsubj", "nsubjpass", "expl"}]
    if form == "meant":
        heads = [t for t in root.children if t.dep_ in {"dobj", "ccomp", "attr", "oprd", "pobj", "npadvmod"}]
    else:
        heads = [t for t in root.children if t.dep_ in {"attr", "acomp", "prep", "npadvmod"}]
    if len(heads) != 1:  # "it's on a Sunday this year" says more than one new thing
        return None
    if (clause := _said_again(doc)) is not None:
        # "I meant the door code is 4417, not 4471": the statement said again, whose value is the new
        # one (not the whole clause: "your door code is the door code is 4417")
        if old:
            return _restated(doc, old)
        heads = [t for t in clause.children if t.dep_ in {"attr", "acomp", "dobj", "oprd", "prep", "npadvmod"}]
        if len(heads) != 1:
            return None
        skip |= {t.i for t in clause.subtree if t.dep_ != "punct"} - {t.i for t in heads[0].subtree}
    value = [t for h in heads for t in h.subtree if t.i not in skip and not (t.dep_ == "neg" or t.is_punct)]
    # the negation's phrase may hang inside X's subtree ("March 13, not March 3"): cut at the "not"
    neg = next((t.i for t in doc if t.dep_ == "neg"), None)
    if neg is not None and old:
        value = [t for t in value if t.i < neg]
    said = {t.i for t in value} | skip | {s.i for s in subjects} | {root.i} | {t.i for t in _topic(doc, old, value)} \
        | {t.i for c in root.children if _owns_the_slip(c) for t in c.subtree}
    rest = [t for t in doc if t.i not in said and t.pos_ not in _ASIDE_POS and t.dep_ not in _ASIDE_DEPS]
    # "what a week it has been" exclaims: a wh-word holds no value
    return value if value and not rest and not any(t.tag_.startswith("W") for t in doc) else None


# nouns of doing, saying or thinking: what a slip is called ("a mistake", "a typo", "my confusion")
_OF_THE_SLIP = {"noun.act", "noun.communication", "noun.cognition"}


def _owns_the_slip(clause) -> bool:  # noqa: ANN001 - a spaCy Token
    """A clause beside the correction in which the speaker owns the slip or says they checked ("Sorry,
    I misspoke - it's the 14th", "I made a mistake, it's ...", "I checked, it's ..."): the speaker its
    subject, no value of its own (a number, a name, a date), no noun but one of a slip."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    if clause.dep_ not in {"ccomp", "parataxis", "advcl"} or clause.pos_ not in {"VERB", "AUX"}:
        return False
    if not any(c.dep_ == "nsubj" and c.lower_ == "i" for c in clause.children):
        return False
    lexicon = load_wordnet()
    words = list(clause.subtree)
    return lexicon is not None and not any(t.ent_type_ or t.like_num or t.pos_ == "PROPN" for t in words) \
        and all(lexicon.lexical_file(t.lemma_.lower()) in _OF_THE_SLIP for t in words if t.pos_ == "NOUN")


def _said_again(doc):  # noqa: ANN001, ANN202 - a spaCy Doc, its Token or None
    """The clause of "I meant <a statement>" ("I meant the door code is 4417"), None for any other
    sentence: a statement said again, which must say what the corrected one said (`_frame`)."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.lemma_ != "mean":
        return None
    clauses = [t for t in root.children if t.dep_ == "ccomp" and t.pos_ in {"VERB", "AUX"}]
    return clauses[0] if len(clauses) == 1 else None


def _topic(doc, old: list, new: list) -> list:  # noqa: ANN001 - a spaCy Doc
    """The words that say which statement is put right ("I meant the 14th for the kiln, not the 4th"):
    a phrase on the main verb whose object is a thing, neither the value replaced nor the new one; the
    statement corrected must name that thing."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    skip = {t.i for t in [*old, *new]}
    return [t for prep in (root.children if root is not None else ()) if prep.dep_ == "prep"
            and any(c.dep_ == "pobj" and c.pos_ in ("NOUN", "PROPN") and c.ent_type_ not in ("DATE", "TIME")
                    for c in prep.children)
            for t in prep.subtree if t.i not in skip and not t.is_punct and t.dep_ not in ("neg", "appos")]


def _restated(doc, old: list) -> list | None:  # noqa: ANN001 - a spaCy Doc
    """"the dentist is at 11am not 10am", "my sister lives in Leeds, not Bradford": the statement said
    again with the value before the "not" in the place of the one after it. The new value is the words
    just before the "not", as many as the old has and of its shape, word by word (the same entity
    type, else the same part of speech); its statement must say what the corrected one said, which
    `_frame` checks against it."""
    neg = next(t.i for t in doc if t.dep_ == "neg")
    before = [t for t in doc if t.i < neg and not t.is_punct][-len(old):]
    date = _date_before(doc, neg, old)
    if date is not None:
        return date
    if len(before) != len(old) or any(t.pos_ in {"VERB", "AUX", "PRON", "PART"} for t in before):
        return None
    # a capitalised word for a capitalised word is a name for a name, however the tagger files the two
    same = all((a.ent_type_ and a.ent_type_ == b.ent_type_) or a.pos_ == b.pos_ or (a.is_title and b.is_title and a.i > 0)
               for a, b in zip(before, old, strict=True))
    return before if same else None


def _date_before(doc, neg: int, old: list) -> list | None:  # noqa: ANN001 - a spaCy Doc
    """A date said again in place of a day ("... is the 5th of March, not the 3rd"): the date entity
    that ends just before the "not", when the words replaced are a day or a date; None otherwise."""
    if not any(t.ent_type_ in ("DATE", "ORDINAL") for t in old):
        return None
    last = next((t for t in reversed(doc[:neg]) if not t.is_punct), None)
    ent = next((e for e in doc.ents if last is not None and e.start <= last.i < e.end and e.label_ == "DATE"), None)
    return list(ent) if ent is not None and len(ent) > len(old) else None


def _frame(token) -> str | None:  # noqa: ANN001 - a spaCy Token
    """The lemma of the verb whose statement holds `token` ("lives" for "Leeds" in "my sister lives in
    Leeds"), None when it hangs from none."""
    return _frames(token)[0]


def _frames(token) -> list[str]:  # noqa: ANN001 - a spaCy Token
    """The lemmas of the verbs the token's statement holds it under, nearest first ("visit" and "come"
    for "the 14th" in "she is coming to visit me on the 14th": "she comes on the 16th, not the 14th"
    says it again)."""
    out = []
    while token.head.i != token.i:
        token = token.head
        if token.pos_ in {"VERB", "AUX"}:
            out.append(token.lemma_)
    return out or [None]


def _names_the_same(new, old) -> bool:  # noqa: ANN001 - spaCy Tokens
    """"my daughter is Chloe, not Zoe" puts right "my daughter Zoe just got engaged" and "my son is
    called Theo": the new value is what the subject of "is" is called, and the old one stood beside a
    noun of the same lemma, or was what it was called."""
    verb = new.head
    subjects = {c.lemma_.casefold() for c in verb.children if c.dep_ == "nsubj"} if verb.lemma_ == "be" else set()
    beside = ([old.head] if old.dep_ in {"appos", "compound"} else []) + \
        [c for c in old.children if c.dep_ in {"appos", "compound"}] + \
        ([c for c in old.head.children if c.dep_ in {"nsubj", "nsubjpass"}] if old.dep_ == "oprd" else [])
    return bool(subjects & {t.lemma_.casefold() for t in beside})


def _find(words: str, doc) -> tuple[int, int] | None:  # noqa: ANN001 - a spaCy Doc
    """Token span [start, end) of `words` in the earlier statement, case, spacing and punctuation aside
    ("10am" is the tokens "10" and "am")."""
    def bare(text: str) -> str:
        return re.sub(r"\W+", "", text).casefold()

    want = bare(words)
    for start in range(len(doc)):
        said = ""
        for end in range(start, len(doc)):
            said += bare(doc[end].text)
            if said == want and want and bare(doc[start].text):
                return start, end + 1
            if not want.startswith(said):
                break
    return None


def _found(old: list, doc) -> tuple[int, int] | None:  # noqa: ANN001 - spaCy Tokens, a Doc
    """Where the words taken back are in the earlier statement, with their article or without it
    ("not the 3rd" takes back "3rd March")."""
    span = _find(span_text(old), doc)
    if span is None and len(old) > 1 and old[0].pos_ == "DET":
        span = _find(span_text(old[1:]), doc)
    days = [t for t in old if DAY.match(t.text)]
    if span is None and len(days) == 1 and all(t.pos_ == "DET" or t in days for t in old):
        # a day said as an ordinal takes back the same day said as a number ("not the 12th" of "12 January")
        same = [t for t in doc if DAY.match(t.text) and re.sub(r"\D", "", t.text) == re.sub(r"\D", "", days[0].text)]
        span = (same[0].i, same[0].i + 1) if len(same) == 1 else None
    return span


def _reading(text: str, of_one_sentence: bool = False) -> tuple[list, list] | None:
    """The words replaced (empty when not named) and the new value, when `text` is one of the
    correction forms; else None. `of_one_sentence`: the one sentence of a longer turn that is one
    ("Sorry, I made a mistake. The bike lock code is 0942, not 0492.")."""
    nlp = _parser()
    if nlp is None or cues.is_question(text):
        return None
    sentences = [s for s in cues.sentences(text) if s.strip()]
    if len(sentences) != 1 and not of_one_sentence:
        return None
    readings = []
    for sentence in sentences:
        for said in _said_in(sentence):
            doc = nlp(said) if said else None
            if doc is not None and (new := _new_value(doc, old := _negated(doc))) is not None:
                readings.append((old, new))
                break
    return readings[0] if len(readings) == 1 else None


def _said_in(sentence: str) -> Iterator[str | None]:
    """The sentence, then what it says after a stretch taking back what was just said: the second is
    only read when the whole sentence holds no correction (reading it runs the memory-intent classifier)."""
    yield sentence
    yield _after_a_taking_back(sentence)


def _after_a_taking_back(sentence: str) -> str | None:
    """What a sentence says after a stretch that takes back what was just said and names nothing
    ("scratch that, it's Verdi": the request the memory classifier reads as pointing back, no value in
    it); None for any other sentence. The stretch's parse is looked at before the classifier is run:
    a stretch that names a value takes nothing back, whatever the classifier reads."""
    from interaction.memory_intent.phrasing import stretches
    from interaction.memory_intent.refers_back import refers_back

    parts = stretches(sentence)
    if len(parts) < 2 or any(t.ent_type_ or t.pos_ in {"PROPN", "NUM"} for t in _parser()(parts[0])) or not refers_back(parts[0]):
        return None
    return sentence[sentence.find(parts[1]):]


def says_a_correction(text: str) -> bool:
    """`text` says outright that something said was not meant: "I meant X", or "X, not Y" naming
    the words taken back. "It's Friday" or "Wednesday, sorry" put right only what was just said."""
    reading = _reading(text)
    if reading is None:
        return False
    old, new = reading
    return bool(old) or any(t.dep_ == "ROOT" and t.lemma_ == "mean" for t in new[0].doc)


def corrected_in_turn(text: str) -> str | None:
    """A slip put right in the same turn, in the "I meant X" form after a pause or a comma ("I'm a taxi
    accountant... no, I mean a tax accountant, in Edinburgh"): the statement with the new value in the
    place of the one phrase of its kind, then what was said after it ("I'm a tax accountant, in
    Edinburgh"); None for any other turn. A common noun's kind is its most frequent WordNet sense's
    lexicographer file (a person for a person: "taxi accountant" / "tax accountant")."""
    nlp = _parser()
    if nlp is None:
        return None
    doc = nlp(text)
    for start, new, tail in [*_meant_in_turn(doc), *_after_a_no_in_turn(doc)]:
        before = doc[:start].text
        if not before.strip():
            continue
        earlier = nlp(before)
        span = of_kind(new, earlier, any_name=True) or _of_its_sense(new, earlier)
        if span is None:
            continue
        corrected, _, _ = with_value(new, earlier, span)
        rest = doc[tail + 1:].text.strip() if tail is not None else ""
        return f"{corrected.rstrip(' .')}, {rest}" if rest else corrected
    return None


def _meant_in_turn(doc) -> list[tuple[int, list, int | None]]:  # noqa: ANN001 - a spaCy Doc
    """Each "I mean X" after a punctuation mark: (that mark's index, X's words, the index of the mark
    after X or None)."""
    out = []
    for mean in (t for t in doc if t.lemma_ == "mean" and t.i > 1 and any(
            p.is_punct for p in doc[max(0, t.i - 4):t.i])):
        start = next(p.i for p in doc[max(0, mean.i - 4):mean.i] if p.is_punct)
        tail = next((t.i for t in doc[start + 1:] if t.is_punct and t.i > mean.i), None)
        reading = _reading((doc[start + 1:tail] if tail is not None else doc[start + 1:]).text.rstrip(" ,.") + ".")
        if reading is not None and not reading[0]:
            out.append((start, reading[1], tail))
    return out


def _after_a_no_in_turn(doc) -> list[tuple[int, list, int | None]]:  # noqa: ANN001 - a spaCy Doc
    """Each bare noun phrase set off after words the reply reader reads as a clear no ("sorry, no, a tax
    adviser"): (the mark before them, the phrase's words, the mark after it or None). The phrase has no
    verb and no pronoun: "no, I love it" repairs nothing; nor do words read as no answer at all ("I am
    Ruth Baker, retired school teacher, 81 this year": "retired school teacher" is no repair)."""
    # the turn's end closes a phrase as a mark does ("I live in Brighton, no wait, Hove actually")
    marks = [t.i for t in doc if t.is_punct]
    ends = [*marks, len(doc)] if not doc[-1].is_punct else marks
    out = []
    for start in marks:
        for end in (e for e in ends if e > start):
            value_start = max((m for m in marks if start < m < end), default=None)
            if value_start is None:
                continue
            aside = [t for t in doc[start + 1:value_start] if not t.is_punct]
            value = list(doc[value_start + 1:end])
            while value and value[-1].pos_ in ("ADV", "INTJ"):  # "Hove actually": said of the repair
                value.pop()
            # the reply reader (a model run) only where the phrase could be a value put right
            if aside and value and any(t.pos_ in ("NOUN", "PROPN") for t in value) \
                    and not any(t.pos_ in {"VERB", "AUX", "PRON"} for t in value) and _takes_back(aside):
                out.append((start, value, end if end < len(doc) - 1 else None))
    return out


def _takes_back(words: list) -> bool:  # noqa: ANN001 - spaCy Tokens
    from interaction.confirmation.reader import read_offline

    return read_offline(" ".join(t.text for t in words)) == "no"


def _of_its_sense(value: list, doc) -> tuple[int, int] | None:  # noqa: ANN001 - spaCy Tokens, a Doc
    """The one noun phrase of `doc` whose head's most frequent WordNet sense lies in the lexicographer
    file of the value's head's ("a taxi accountant" for "a tax accountant": two kinds of person)."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    head = next((t for t in value if t.pos_ == "NOUN" and t.head not in value), None)
    if wordnet is None or head is None or (kind := wordnet.lexical_file(head.lemma_.lower())) is None:
        return None
    spans = [(c.start, c.end) for c in doc.noun_chunks
             if c.root.pos_ == "NOUN" and wordnet.lexical_file(c.root.lemma_.lower()) == kind]
    return spans[0] if len(spans) == 1 else None


def puts_someone_right(correction: Correction) -> bool:
    """The words replaced name someone, person or animal: said beside a word for one ("my sister
    Aoife") or as what one is or is called ("my favourite composer is Puccini", "my dog is called Rex").
    "it's Verdi" then puts that name right, and names no one speaking."""
    from interaction.memory.retrieval.lexicon import load_wordnet
    from interaction.offline.parsing import subject_of

    nlp, wordnet = _parser(), load_wordnet()
    if nlp is None or wordnet is None:
        return False
    before = nlp(correction.earlier)
    at = correction.earlier.find(correction.old)
    replaced = [t for t in before if at <= t.idx < at + len(correction.old)] if at >= 0 else []

    def someone(word) -> bool:  # noqa: ANN001 - a spaCy Token
        return word.pos_ == "NOUN" and wordnet.a_being(word.lemma_.lower())

    for t in replaced:
        beside = [t.head] if t.dep_ in ("appos", "compound") else []
        beside += [c for c in t.children if c.dep_ in ("appos", "compound")]
        subject = subject_of(t.head) if t.dep_ in ("attr", "oprd") and t.head.lemma_ in ("be", "call", "name") else None
        if any(someone(w) for w in beside) or subject is not None and someone(subject):
            return True
    return False


def read_correction(text: str, earlier: list[str]) -> Correction | None:
    """`text` corrects a value of one of the `earlier` statements (the person's, latest first): the
    corrected statement, else None."""
    # a sentence beside it may own the slip: the earlier statement the correction must name decides
    reading = _reading(text, of_one_sentence=True) if earlier else None
    if reading is None:
        return None
    nlp = _parser()
    old, new = reading
    new_text = span_text(new)
    topic = {t.lemma_.casefold() for t in _topic(new[0].doc, old, new) if t.pos_ in ("NOUN", "PROPN")}
    # "it's now the 3rd" names neither the value taken back nor the thing: "it" is what was told last
    unnamed = not old and not topic
    for i, said in enumerate(earlier):
        before = nlp(said)
        span = _found(old, before) if old else of_kind(new, before)
        if span is None or _find(new_text, before) is not None:
            if unnamed and i == 0 and holds_a_value(before):
                return None  # what was told last holds a value, of another kind: nothing else is "it"
            continue
        said_again = _form(new[0].doc, old) == "restated" or _said_again(new[0].doc) is not None
        if said_again and _frame(new[0]) not in _frames(before[span[0]]) and not _names_the_same(new[0], before[span[0]]):
            continue  # "I prefer tea, not coffee" puts nothing right of "I drink coffee every morning"
        if not topic <= {t.lemma_.casefold() for t in before}:
            continue  # "... for the kiln" puts right only what was said of the kiln
        if unnamed and i > 0 and any(of_kind(new, nlp(other)) is not None for other in earlier[i + 1:]):
            return None  # two earlier statements hold a value of its kind and none is named: which is not known
        corrected, replaced_words, replaced = with_value(new, before, span)
        return Correction(earlier=said, corrected=corrected, old=replaced_words, new=replaced, disowned=bool(old))
    return None

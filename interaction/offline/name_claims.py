"""How a name is said, read off spaCy's parse: asked to be called by it ("call me Bobby", "you can call
me Kat", "I'd rather be called Bea"), or stated ("I'm Ola", "it's Katarzyna", "my real name is
Robert"), and whether it is said as a correction of the name held: an aside on the statement
("actually", "no", "sorry"; a greeting is none), a qualified name ("my real / actual name is"), or the
old name disowned ("..., not Kasia").

Who is asked for is read from the parse: the object predicate of a verb whose object is "me" and whose
subject is Nadine or nobody (an imperative), or of a passive verb the speaker wishes for. A statement's
subject is "I", an expletive "it" / "this", or the speaker's name: "name" itself or, by WordNet, a
qualified name that is no other kind of name ("my middle name", "my last name", "my nickname" are
other names, "my first name" and "my real name" are the name). The word must read as a name by the
casual-introduction reader's checks (name_reading.py), so "call me when you land", "it's the 13th" and
"I'm actually quite tired" name nobody.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from interaction import cues
from interaction.offline.name_reading import (
    Candidate,
    chat_words,
    default_reader,
    someone_else_before,
    weighed,
)
from interaction.offline.parsing import an_aside
from interaction.offline.titles import title_before, without_titles

_EXPLETIVE = {"it", "this"}
_ASIDE_DEPS = {"advmod", "intj"}
_NOT_BARE = {"det", "poss", "amod", "nummod", "prep", "predet"}
_ADDRESSEE = {"you"}
_NAME_TOKEN_DEPS = {"attr", "acomp", "oprd"}  # a name the tagger misreads as an adjective: "I'm Ola"


@dataclass(frozen=True)
class NameClaim:
    name: str
    request: bool  # asked to be called by it: how to address them, never who they are
    corrects: bool  # said as a correction of the name held before
    disowned: str | None = None  # the name after "not" ("..., not Kasia")
    hearsay: bool = False  # what others call them ("most people call me Roz"): no request of Nadine
    title: str | None = None  # said before the name asked to be called by ("call me Dr. Okafor")
    another: bool = False  # said as someone else of the name ("I'm a different Sofia", "I'm the other Sam")
    qualified: bool = False  # said as their name by a word that makes no other kind of name ("my real name is")

    @property
    def address(self) -> str | None:
        """How they ask to be addressed when a title is part of it ("Dr. Okafor"), which the name alone
        is not."""
        return f"{self.title} {self.name}" if self.request and self.title else None


def _words(token) -> list:  # noqa: ANN001 - a spaCy Token
    """The name's words: the token and its compound parts, and theirs ("Robert Smith", "Joost van Dijk"),
    but for a chat word closing them, which the parser may take for the head ("i'm kofi haha")."""
    parts = [token]
    for part in parts:
        parts += [t for t in part.children if t.dep_ in {"compound", "flat"} and t.i < token.i]
    words = sorted(parts, key=lambda t: t.i)
    while len(words) > 1 and words[-1].lower_ in chat_words():
        words.pop()
    return words


def _as_name(tokens, sentence: str) -> str | None:  # noqa: ANN001 - spaCy Tokens
    reader = default_reader()
    if reader is None or not tokens or all(t.lower_ in chat_words() for t in tokens):
        return None  # "i'm a vet nurse lol": the chat word the parser hangs as the name is none
    # a word typed in lower case inside a name that the parser still takes as part of it is a particle
    # of the surname ("Bram de Wit", "Ana da Silva"), kept as typed
    particles = {t.i for t in tokens[1:-1] if t.is_lower and t.pos_ == "PROPN"}
    if not all(reader.is_name(Candidate(t.text, sentence, proper=t.i > 0 and t.is_title))
               for t in tokens if t.i not in particles):
        return None
    # as written between its first and last word ("Dee-Dee", "Mary Ann")
    said = tokens[0].doc.text[tokens[0].idx:tokens[-1].idx + len(tokens[-1].text)]
    if said.endswith(".") and len(tokens[-1].text) > 2:
        said = said[:-1]  # the tokenizer keeps a sentence's full stop on what it knows as an abbreviation ("I'm Mo.")
    kept = {t.text for t in tokens if t.i in particles}
    return " ".join(w if not w.islower() or w in kept else w[:1].upper() + w[1:] for w in said.split())


def _is_speakers_name(subject) -> tuple[bool, bool]:  # noqa: ANN001 - a spaCy Token
    """(the subject is the speaker's name, qualified by a word that makes no other kind of name)."""
    if not any(c.dep_ == "poss" and c.lower_ in {"my"} for c in subject.children):
        return False, False
    from interaction.memory.retrieval.lexicon import Relation, load_wordnet

    wordnet = load_wordnet()
    mods = [c for c in subject.children if c.dep_ in {"amod", "compound"}]
    phrase = " ".join(t.lower_ for t in sorted([*mods, subject], key=lambda t: t.i))
    if any(c.dep_ in {"compound", "poss", "nmod"} and c.lower_ != "my" for c in subject.children) and not (
            wordnet is not None and wordnet.senses(phrase)):
        return False, False  # someone's or something's name ("my landlords name", "my dog's name")
    if wordnet is None:
        return subject.lemma_ == "name" and not mods, False
    if wordnet.relation(phrase, "first name")[0] in (Relation.SAME, Relation.NARROWER):
        return True, False  # "my forename", "my first name", "my christian name"
    kind = wordnet.relation(phrase, "name")[0]
    if not mods or kind in (Relation.SAME, Relation.NARROWER):
        # "name" itself, or another kind of name ("my middle name", "my nickname", "my surname")
        return kind is Relation.SAME, False
    # "name" qualified by a word that makes no kind of name ("my real name", "my actual name"; "my proper
    # name", to WordNet a kind of noun)
    return wordnet.relation(subject.lemma_, "name")[0] is Relation.SAME, True


def _requested(token) -> bool | None:  # noqa: ANN001 - a spaCy Token (the object predicate)
    """The object predicate of "(you) call me X" or of a passive the speaker wishes for ("I'd rather be
    called X", "I'd like to be called X"): True; of the speaker's plain passive ("I'm called X") or of
    others calling them so ("everyone calls me X"): False (a statement); of anything else: None."""
    verb = token.head
    subjects = [c for c in verb.children if c.dep_ in {"nsubj", "nsubjpass"}]
    if any(c.dep_ == "dobj" and c.lower_ == "me" for c in verb.children):
        return all(s.lower_ in _ADDRESSEE for s in subjects)
    if not any(c.dep_ == "auxpass" for c in verb.children):
        return None
    if [s.lower_ for s in subjects] == ["i"]:
        # a modal makes it a wish ("I'd rather be called", "I would be called")
        return any(c.dep_ == "aux" and c.tag_ == "MD" for c in verb.children)
    wisher = verb.head if verb.dep_ in {"xcomp", "ccomp"} and not subjects else None
    if wisher is not None and any(c.dep_ == "nsubj" and c.lower_ == "i" for c in wisher.children):
        return True
    return None


def _disowned(doc, after: int) -> str | None:  # noqa: ANN001 - a spaCy Doc
    """The name said after "not", following the name given; none when a pronoun follows ("not mine")."""
    for tok in doc:
        if tok.dep_ == "neg" and tok.i > after and tok.i + 1 < len(doc):
            if doc[tok.i + 1].pos_ == "PRON":
                return None
            words = []
            for t in doc[tok.i + 1:]:
                if t.is_punct:
                    break
                words.append(t.text)
            return " ".join(words) or None
    return None


def _is_other_name(subject) -> bool:  # noqa: ANN001 - a spaCy Token
    """The subject is a name of the speaker's that others use: "my nickname", "my pet name" (by WordNet, a
    nickname or a kind of one)."""
    if not any(c.dep_ == "poss" and c.lower_ == "my" for c in subject.children):
        return False
    from interaction.memory.retrieval.lexicon import Relation, load_wordnet

    wordnet = load_wordnet()
    mods = [c for c in subject.children if c.dep_ in {"amod", "compound"}]
    phrase = " ".join(t.lower_ for t in sorted([*mods, subject], key=lambda t: t.i))
    return wordnet is not None and wordnet.relation(phrase, "nickname")[0] in (Relation.SAME, Relation.NARROWER)


def _called_me(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """The small parser's readings of "everyone calls me Maggie": a verb whose object is "me Maggie", or
    the name right after the object "me" hung on the verb as an adverb ("please call me Kat")."""
    if token.dep_ == "dobj":
        return any(c.dep_ == "compound" and c.lower_ == "me" for c in token.children) \
            and not any(c.dep_ == "dobj" and c.i != token.i for c in token.head.children)
    before = token.doc[token.i - 1] if token.i > 0 else None
    return token.dep_ in ("advmod", "npadvmod") and token.text[:1].isupper() and before is not None \
        and before.lower_ == "me" and before.dep_ == "dobj" and before.head.i == token.head.i and token.head.lemma_ == "call"


def _claims_in(doc, sentence: str) -> Iterator[tuple[NameClaim, int | None]]:  # noqa: ANN001 - a spaCy Doc
    """Each claim, with where its "it" stands when it is an "it's <name>" (the offset in `sentence`)."""
    for token in doc:
        misread = _called_me(token)
        another = _another_of_the_name(token)
        what = _who_they_say_they_are(token)
        if not misread and not another and what is None and (
                token.dep_ not in _NAME_TOKEN_DEPS or any(c.dep_ in _NOT_BARE and not an_aside(c) for c in token.children)):
            continue  # a name stands bare: "a postman", "a Leo", "my friend" are no names ("Kasia for short" is)
        after = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
        if token.dep_ == "acomp" and after is not None and after.tag_ in ("JJ", "VBG", "VBN"):
            continue  # how the speaker is, said by the word after it: "im lowkey terrified" names nobody Lowkey
        verb = token.head if what is None or token.dep_ == "attr" else what.head
        qualified = expletive = False
        hearsay = False
        it_at = None  # where an expletive subject stands
        if misread:
            # others' words for the speaker, unless the speaker or Nadine is who calls them so
            subjects = [c.lower_ for c in verb.children if c.dep_ in {"nsubj", "nsubjpass"}]
            request = all(s in _ADDRESSEE for s in subjects)
            hearsay = not request
        elif token.dep_ == "oprd":
            request = _requested(token)
            if request is None:
                continue
            hearsay = not request and any(c.dep_ == "dobj" for c in verb.children)
        else:
            subjects = [c for c in verb.children if c.dep_ == "nsubj"]
            if len(subjects) != 1 or verb.lemma_ != "be" or weighed(token):
                continue  # "I always forget whether it's Mont Blanc or Elbrus" gives no name
            subject = subjects[0]
            own, qualified = _is_speakers_name(subject)
            expletive = subject.lower_ in _EXPLETIVE
            it_at = subject.idx if expletive else None
            if expletive and verb.tag_ == "VBD":
                continue  # "it was my roommate's laptop, not mine" says what something was, not who speaks
            hearsay = not (subject.lower_ == "i" or expletive or own) and _is_other_name(subject)
            if not (subject.lower_ == "i" or expletive or own or hearsay):
                continue
            request = False
        name = _as_name([t for t in _words(token) if t.lower_ != "me" and not (another and t.pos_ == "ADJ")
                         and not (what is not None and t.i == what.i)], sentence)
        if name is None:
            continue
        full = next((c for c in token.children if c.dep_ == "appos" and c.pos_ == "PROPN"), None) if another else None
        if full is not None:  # "a different Sofia, Sofia Rossi": the name they go by among those of it
            name = _as_name(_words(full), sentence) or name
        # an opening greeting's words ("Hi there, I'm Greta", "Hello dear, ...") are no aside
        opening = next((c.i for c in verb.children if c.dep_ == "nsubj"), verb.i) if cues.GREETING.match(sentence) else 0
        asides = [c for c in verb.children if c.dep_ in _ASIDE_DEPS and c.i >= opening and c.pos_ in {"ADV", "INTJ"}]
        disowned = _disowned(doc, token.i)
        # "it's X" says whose name only with the old one disowned: "actually it's Rex" may be the dog's
        corrects = not request and bool(disowned if expletive else asides or qualified or disowned)
        yield (NameClaim(name, request, corrects=corrects and not hearsay, disowned=disowned, hearsay=hearsay,
                         another=another, qualified=qualified), it_at)
        if not request and not hearsay and not another:
            # a name set beside the one they say is theirs ("it's Agnieszka, Aga for short", "I'm
            # Katarzyna, Kasia"): another name of theirs, which others call them by
            # (set off by a comma, which the parser may read as a conjunct: "I'm Aleksandra, Ola for short")
            joined = any(c.dep_ == "cc" for c in token.children)
            for beside in (c for c in token.children if c.pos_ == "PROPN" and (
                    c.dep_ == "appos" or c.dep_ == "conj" and not joined)):
                if (also := _as_name(_words(beside), sentence)) is not None:
                    yield NameClaim(also, False, corrects=False, hearsay=True), None


def _who_they_say_they_are(token):  # noqa: ANN001, ANN202 - a spaCy Token -> Token or None
    """The person word a name is set beside when it is who the speaker says they are ("I'm his wife Yui",
    "I'm Tom's sister, Ana"): right after the complement of "be", a word whose most frequent WordNet
    sense is a kind of person, the name in apposition to it or hung by the parser on the "be" itself
    ("I'm her cousin Njeri"); None otherwise."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    what = _what_they_are(token) if token.pos_ == "PROPN" else None
    # "my husband Rolf" is someone of theirs, never the speaker
    if what is None or any(c.dep_ == "poss" and "1" in c.morph.get("Person") for c in (*what.children, *token.children)):
        return None
    wordnet = load_wordnet()
    return what if wordnet is not None and wordnet.kind_of_person(what.lemma_.lower()) else None


def _what_they_are(name):  # noqa: ANN001, ANN202 - a spaCy Token -> Token or None
    """The complement of "be" a name follows (", " between them or not) when the name hangs on it or on
    the same "be", or the noun the parser compounded with the name that is the complement ("her nephew
    Joaquim"); None otherwise."""
    doc = name.doc
    before = doc[name.i - 1] if name.i > 0 else None
    if before is not None and before.text == "," and name.i > 1:
        before = doc[name.i - 2]
    if before is None or before.pos_ != "NOUN":
        return None
    if before.dep_ == "compound" and before.head.i == name.i and name.dep_ == "attr":
        return before
    hangs = before.dep_ == "attr" and ((name.dep_ == "appos" and name.head.i == before.i) or (
        name.dep_ in ("npadvmod", "attr", "appos") and name.head.i == before.head.i))
    return before if hangs else None


def _another_of_the_name(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """The name is said of one of several who have it, one other than the one meant before ("a different
    Sofia", "the other Sam", "another Sam"): an article and a word that WordNet gives as the opposite of
    "same" ("another" is "an other"), and nothing else before it."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    # (said again after the name given, the parser may hang it on the verb: "I'm Steve too, different Steve")
    # (a name the tagger does not know may be tagged a noun: capitalised inside the sentence, it is the name)
    if token.dep_ not in (*_NAME_TOKEN_DEPS, "appos", "npadvmod", "conj", "dep") or not (
            token.pos_ == "PROPN" or (token.pos_ == "NOUN" and token.text[:1].isupper() and token.i > 0)):
        return False
    # the small parser may make "other" part of the name ("the other Sam": a compound)
    said = [c for c in token.children if c.dep_ in _NOT_BARE or c.dep_ == "compound" and c.pos_ == "ADJ"]
    if not said or not all(c.dep_ in {"det", "amod", "compound"} for c in said):
        return False  # a bare name, the common case, loads no adjectives
    wordnet = load_wordnet()
    other = wordnet.antonyms("same") if wordnet is not None else frozenset()
    # "another" is the article and "other" written as one word
    return any(c.lower_ in other or c.lower_ == "another" for c in said)


def _claims(text: str) -> Iterator[NameClaim]:
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        nlp = load_parser()
    except ParserUnavailable:
        return
    said: list[str] = []  # the sentences before this one
    for sentence in cues.sentences(text):
        before = " ".join(said)
        said.append(sentence)
        # a question asks, with its mark or without: "how old am i" gives no name "Old"
        if cues.is_question(sentence) or cues.is_about_nadine(sentence):
            continue
        # a title is no part of a name, so the parse reads the name without it ("be called Dr. Okafor")
        bare = without_titles(sentence)
        found = list(_claims_in(nlp(bare), bare))
        # a name said again as someone else of it makes the one given someone else of it too ("I'm
        # Steve too, different Steve")
        others = {c.name.casefold() for c, _ in found if c.another}
        for claim, at in found:
            if at is not None and someone_else_before(f"{before} {bare[:at]}"):
                continue  # "it's Tomas" of the son just spoken of
            if claim.name.casefold() in others:
                claim = replace(claim, another=True, corrects=False)
            yield replace(claim, title=title_before(sentence, claim.name)) if claim.request else claim


def read_name_claim(text: str) -> NameClaim | None:
    """The name the speaker asks to be called or says is theirs, and how; None when the turn gives no
    name in these forms (or spaCy cannot load). Asked to be called by one in a sentence of its own
    after giving their name ("I'm Sofia. Call me Sofi."), the request is the claim, as it is in one
    sentence."""
    claims = list(_claims(text))
    return next((c for c in claims if c.request), claims[0] if claims else None)


def names_others_use(text: str) -> list[str]:
    """The names the speaker says others call them by ("..., but everyone calls me Maggie", "my nickname
    is Bobby"): other names of the same person, never who they are instead."""
    return list(dict.fromkeys(c.name for c in _claims(text) if c.hearsay))


def names_beside_a_request(text: str) -> list[str]:
    """The speaker's own names said beside a request to be called by another: the name they state ("I'm
    Wilhelmina, but call me Mina") or the one after "not" ("call me Teddy, not Theodora"). The same
    person's other names, never who they are instead."""
    claims = list(_claims(text))
    asked = next((c for c in claims if c.request), None)
    if asked is None:
        return []
    said = [c.name for c in claims if not c.request and not c.hearsay]
    if asked.disowned:
        said.append(" ".join(w[:1].upper() + w[1:] for w in asked.disowned.split()))
    return [n for n in dict.fromkeys(said) if n.casefold() != asked.name.casefold()]

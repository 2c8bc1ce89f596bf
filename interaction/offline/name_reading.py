"""Names said in casual or terse introductions, read from where the word stands, not from a list of
names: "Tomas here.", "hey its dunja", "sup, im lee", "Hi. Ivo. I keep bees.", "yo milo again".

A candidate is the single word of one of these slots (a clause is a stretch between punctuation):
- "it's / I'm / this is <word>" closing its clause, "again" or "here" may follow; in lower case too
  (the explicit forms with a capital are extract.py's own patterns);
- "<word> here / speaking" as a clause of its own ("Radek here", "nurse here" is a job, below);
- any of these may close with chat words ("im jake lol", "Tom here haha"): words VADER's lexicon
  scores that WordNet does not know as English, never a name;
- loose, only while the speaker has no name yet: a sentence or clause that is that one word right
  after a greeting said on its own ("Hi. Tomas.", "Hi, Tomas."), "<word> again" in a turn that
  greets or as a clause of its own ("yo milo again", "Doris again.", with a surname too: "Ines Berg
  again"), and the clause after the speaker points at themselves ("it's me, Ines Berg"); a clause
  that is only "again" belongs to the clause before it ("Ines Berg, again").
A hyphenated name ("Hyun-woo") is read by its first part, unless WordNet knows the whole word as an
English compound ("check-in", "self-employed").

The word must then read as a name: in the clause with casual contractions written out ("its" ->
"it's", so "its freezing" is a verb) spaCy's tagger does not read it as an adjective, verb or adverb
that the English lexicon shipped with the pipeline knows ("tired", "raining"; the tagger's guesses on
unknown lower-case names are not trusted, nor on a capitalised word spaCy reads as a proper name,
"I'm Frank"); it is not in lower case from a writer who capitalises ("I'm vegetarian"); it is no kind of
person said of the speaker ("im vegan", "I'm Methodist"; WordNet, below); it is no stop word (but
"I'm May", "this is Will": a capitalised proper noun or auxiliary), no greeting, no people, faith or
language, no date or time unless the speaker is said to be it ("it's March 13", not "I'm Summer"), not
Nadine's own name; and MiniLM places it no nearer an occupation ("Hi. Plumber.") or a city ("Lisbon
here") than a person's name by the margins chosen on the dev split of
scripts/eval/name_reading/intros.tsv (python -m scripts.eval.name_reading: no made-up name on dev).
Only a noun WordNet knows can be an occupation, and only a kind of person where the writer marks the
word as a name by a capital mid-sentence or by its slot ("Jasper speaking": jasper is a stone).
A name missed is asked for again; a name invented makes a person nobody is, so every doubt reads as
no name.
"""

from __future__ import annotations

import functools
import logging
import re
import unicodedata
from dataclasses import dataclass

from interaction import cues
from interaction.memory.retrieval.lexicon import load_wordnet

log = logging.getLogger("nadine.interaction.name_reading")

ROBOT_NAME = "nadine"
# MiniLM's nearness of the word to each notion; a word nearer an occupation or a place than a name
# by at least the margin is not read as a name (margins: the dev split, see the module docstring)
NAME_NOTION = "first name of a person"
JOB_NOTION = "job title, profession"
PLACE_NOTION = "city, town, country"
JOB_MARGIN = 0.03
PLACE_MARGIN = 0.3
_NAME_POS = {"PROPN", "NOUN", "X"}
_LEXICON_POS = {"ADJ": "adj", "VERB": "verb", "ADV": "adv"}  # tags the lexicon can back (WordNet's index)
# a date, time or amount names no one, unless the speaker is what the clause says it is ("I'm Summer")
_NOT_NAME_ENTS = {"DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY"}
# a people, faith or language describes the speaker, whoever is its subject ("I'm Catholic", "I'm English")
_GROUP_ENTS = {"NORP", "LANGUAGE"}
# words that may trail a name in its slot ("dunja again", "Radek here")
_TRAILING_WORD = r"(?:again|here|now)"
_TRAILING = rf"(?:\s+{_TRAILING_WORD})*"
_WORD = r"([^\W\d_][\w'\-]*)"
_SAYS_WHO = re.compile(rf"^(?:it'?s|it is|i'?m|i am|this is|(?:my\s+)?name'?s){_TRAILING}\s+({_WORD[1:-1]}(?:\s+(?!{_TRAILING_WORD}\b){_WORD[1:-1]})?){_TRAILING}$",
                       re.IGNORECASE)  # a first name, and a surname maybe ("hey im Peter Novak")
# a first name and a surname may stand in the slot too ("Aisha Mwangi here", "Bob speaking")
_HERE = re.compile(rf"^({_WORD[1:-1]}(?:\s+{_WORD[1:-1]})?)\s+(?:here(?:\s+again)?|speaking)$", re.IGNORECASE)
_AGAIN = re.compile(rf"^({_WORD[1:-1]}(?:\s+{_WORD[1:-1]})?)\s+again$", re.IGNORECASE)
_LONE = re.compile(rf"^{_WORD}$")
_FULL = re.compile(rf"^{_WORD[1:-1]}(?:\s+{_WORD[1:-1]})?$")  # a first name, and a surname maybe
# the speaker pointing at themselves before saying who that is ("it's me, Anna Smith, again")
_ME = re.compile(r"^(?:(?:it'?s|it is|this is|is)\s+me|me\s+again)$", re.IGNORECASE)  # "Is me, Rosa": "it" left out
# the speaker naming themselves by the reflexive pronoun, with no verb ("Myself Arjun Mehta")
_MYSELF = re.compile(rf"^myself\s+({_WORD[1:-1]}(?:\s+{_WORD[1:-1]})?)$", re.IGNORECASE)
# a stretch in which the speaker goes on to speak of themselves ("I am a chemist", "im from Oslo")
_SPEAKER_GOES_ON = re.compile(r"^(?:i|im)\b", re.IGNORECASE)
_AGE = re.compile(r"\d{1,3}")  # a number said alone after a name
_ONLY_TRAILING = re.compile(rf"^{_TRAILING_WORD}$", re.IGNORECASE)
# casual spellings of the contractions that open a self-introduction, written out for the tagger
_CASUAL = [(re.compile(r"\bits\b(?=\s+\w+\W*$)", re.IGNORECASE), "it's"), (re.compile(r"\bim\b", re.IGNORECASE), "I'm"),
           (re.compile(r"\bi\b"), "I")]
CLAUSE_BREAK = re.compile(r"\s*[,;:]\s*|\s+[-–—]\s+")  # between the stretches of a sentence a clause is
# where the speaker goes on to say more of themselves with no comma before it ("im Bella im 13", "hi im
# bella and im 13"): a name slot closes there as it closes at a comma
_GOES_ON = re.compile(r"\s+(?:and\s+)?(?=(?:i'?m|i am|i)\b)", re.IGNORECASE)


def told_then_asked(sentence: str) -> tuple[str, str] | None:
    """(what a sentence that ends in a question tells, the clause that asks) ("hey, tomasz here, remember
    me?": "hey, tomasz here", "remember me?"), when that clause is a question of its own and what comes
    before it is none; None for any other sentence ("is it Tomasz?", "Tomasz, are you there?" asks whole)."""
    if not sentence.rstrip().endswith("?"):
        return None
    breaks = list(CLAUSE_BREAK.finditer(sentence))
    if not breaks:
        return None
    told, asked = sentence[:breaks[-1].start()].strip(), sentence[breaks[-1].end():]
    return (told, asked) if len(told.split()) > 1 and cues.is_question(asked) and not cues.is_question(told) else None


def told_before_asking(sentence: str) -> str | None:
    """What a sentence that ends in a question tells before the clause that asks (told_then_asked)."""
    parts = told_then_asked(sentence)
    return parts[0] if parts is not None else None


@dataclass(frozen=True)
class Candidate:
    word: str
    clause: str  # the clause it stands in, as said
    # marked as a name: capitalised where no sentence starts ("hey, it's Jasper again", "this is
    # Sky"), standing where only a person, their job or their place can ("Jasper here", "Jasper
    # speaking"), or the answer to a question for the name; then only an occupation or a place
    # competes with the name, not every English noun ("jasper" is a stone)
    proper: bool = False


def _proper(word: str, sentence: str) -> bool:
    """`word` is capitalised and does not start `sentence`."""
    return word[:1].isupper() and not sentence.lstrip(" \"'([").startswith(word)


def _lemma_index(nlp) -> dict[str, frozenset[str]]:  # noqa: ANN001 - spaCy pipeline
    """The English lexicon shipped in the pipeline's rule lemmatizer (WordNet's lemma index, part of
    speech -> lemmas); empty when the pipeline has none, and then every such tag counts."""
    try:
        table = nlp.get_pipe("lemmatizer").lookups.get_table("lemma_index")
    except (KeyError, AttributeError):
        return {}
    return {pos: frozenset(table[pos]) for pos in (*_LEXICON_POS.values(), "noun") if pos in table}


def _greeting_end(clause: str) -> int | None:
    """Where the greeting that opens the clause ends, perhaps after exclamations ("omg hiii", "wow
    hey"): words VADER scores as feeling or that WordNet does not know as English; None without one."""
    for word in re.finditer(r"\S+", clause):
        found = cues.GREETING.match(clause[word.start():])
        if found:
            return word.start() + found.end()
        if not exclamation(word.group()):
            return None
    return None


def exclamation(word: str) -> bool:
    """A word said as a sound or a feeling, not as a word of the sentence ("omg", "hmm", "wow"): one
    VADER scores as feeling, or one WordNet does not know as English."""
    from interaction.offline.emotion_intensity import vader

    bare = word.casefold().strip(".!,")
    lexicon = load_wordnet()
    return bare.isalpha() and (bare in vader().lexicon or (lexicon is not None and not lexicon.knows(bare)))


def _greets(sentence: str) -> bool:
    return _greeting_end(sentence) is not None


_SAYS_WHO_OPENS = re.compile(r"^\W*(?:it'?s|it is|i'?m|i am|this is)\b", re.IGNORECASE)
# the greeting put as a question that may follow a greeting ("yo whats up", "hi, how are you"): here, in
# front of who the speaker is, it is part of the greeting, not something they ask
_GREETING_ASKED = re.compile(rf"^\W*(?:what'?s up|{cues.ASKING_AFTER_HER})\b\W*", re.IGNORECASE)


def _verbs(words: list[str]) -> bool:
    """Some word is an English verb to the tagger, of a lemma WordNet knows: "had lost its ..." tells
    something, it is no sound ("ayyy", whatever the tagger calls it, is)."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    lexicon = load_wordnet()
    try:
        return any(t.pos_ in ("VERB", "AUX") and (lexicon is None or lexicon.knows(t.lemma_))
                   for t in load_parser()(" ".join(words)))
    except ParserUnavailable:
        return True


def _where_says_who(words: list[str]) -> int | None:
    """The index of the word, after the first, from which the speaker says who they are ("im", "it's")."""
    return next((i for i in range(1, len(words)) if _SAYS_WHO_OPENS.match(" ".join(words[i:]))), None)


def _strip_greeting(clause: str) -> str:
    """The clause after its greetings ("yo whats up", "hi there"), or after the sounds before a
    speaker says who they are ("ayy its jayden", "hiii im zoe"), and without the signs that close it
    (an emoji, "!")."""
    rest = re.sub(rf"^(?:\W*\b(?:{ROBOT_NAME}|there|again|all|everyone)\b)*\W*", "", clause[_greeting_end(clause) or 0:],
                  flags=re.IGNORECASE)
    if rest != clause:
        rest = _GREETING_ASKED.sub("", rest)
    words = rest.split()
    opens = _where_says_who(words)
    if opens is not None and all(exclamation(w) for w in words[:opens]) and not _verbs(words[:opens]):
        rest = " ".join(words[opens:])
    return re.sub(r"[^\w]+$", "", rest).strip()


@functools.lru_cache(maxsize=1)
def chat_words() -> frozenset[str]:
    """Words VADER scores as feeling that are no English lemma ("lol", "haha", "lmao", "rofl"). Its
    lexicon is the project's sentiment dictionary (emotion_intensity.py); WordNet keeps out the names
    it scores ("Grace", "Joy", "Hope")."""
    from interaction.offline.emotion_intensity import vader

    lexicon = load_wordnet()
    return frozenset(w for w in vader().lexicon if w.isalpha()
                     and (lexicon is None or not lexicon.knows(w)))


def _without_chat_words(clause: str) -> str:
    """The clause without the chat words that close it, and without a word of address after "here" or
    "again" ("Dorothy Brown here dear", "Shirley again love": a person, in one of WordNet's senses)."""
    words = clause.split()
    while len(words) > 1 and words[-1].casefold().strip(".!") in chat_words():
        words.pop()
    lexicon = load_wordnet()
    if len(words) > 2 and re.fullmatch(_TRAILING_WORD, words[-2], re.IGNORECASE) and words[-1].islower() \
            and lexicon is not None and "noun.person" in lexicon.lexical_files(words[-1].strip(".!")):
        words.pop()
    return " ".join(words)


_OTHERS = {"someone", "somebody", "he", "she", "they", "him", "her", "them"}
# ... or a possessor: "my niece's name? It's Tilly" gives the niece's name
_ARGUMENT_DEPS = {"nsubj", "nsubjpass", "dobj", "dative", "pobj", "poss"}


def someone_else_before(words: str) -> bool:
    """`words` (what the turn said before an "it's <name>") speak of a person other than the speaker
    whom a name would tell who they are: a person word (WordNet's noun.person) as a verb's or a
    preposition's argument ("one of my sons is getting divorced", "our new neighbour arrived"), or a
    pronoun for someone. The "it" then is that person ("..., it's Tomas, the older one"), not the
    speaker saying who they are; someone already said by their name needs none ("Mei handed it back,
    it's Hiro again"), and a word of address in a greeting ("Hello, my friend") is no argument. False
    without the parser."""
    from interaction.memory.retrieval.lexicon import load_wordnet
    from interaction.offline.self_description import ParserUnavailable, load_parser

    if not words.strip():
        return False
    try:
        doc = load_parser()(words)
    except ParserUnavailable:
        return False
    wordnet = load_wordnet()
    return any(t.lower_ in _OTHERS or (t.dep_ in _ARGUMENT_DEPS and (
        t.pos_ == "NOUN" and wordnet is not None and wordnet.lexical_file(t.lemma_.lower()) == "noun.person"))
        for t in doc)


def _after_an_aside(clause: str, sentence: str) -> str | None:
    """The clause from the speaker's "I'm" or "it's" on, when only words of the telling come before it
    ("so im Fatima and ...", "well, it's Tom": parsing.opening_aside), read in the parse of the
    sentence it is part of (parsed with the turn, not again); None otherwise, and without the parser."""
    starts = [m.start() for m in re.finditer(r"\S+", clause)]
    opens = _where_says_who(clause.split())
    at = sentence.find(clause)
    if opens is None or at < 0:
        return None
    from interaction.offline.parsing import ParserUnavailable, load_parser, opening_aside

    try:
        doc = load_parser()(sentence)
    except ParserUnavailable:
        return None
    before = [t for t in doc if at <= t.idx < at + starts[opens]]
    # ... or the conjunction that opens the very clause they say it in ("so" of "heyy so im Fatima")
    return clause[starts[opens]:] if before and all(opening_aside(t) or (t.dep_ == "mark" and t.head.idx >= at + starts[opens])
                                                     for t in before) else None


def candidates(text: str, loose: bool) -> list[Candidate]:
    """The words standing where a name would, in the order said."""
    found: list[Candidate] = []
    sentences = cues.sentences(text)
    # a question names no one as the speaker, but what a sentence tells before asking may
    told = [told_before_asking(s) if s.rstrip().endswith("?") else s for s in sentences]
    greeted = any(_greets(c) for s in sentences for c in CLAUSE_BREAK.split(s))
    stretches = [_joined_trailing(CLAUSE_BREAK.split(s.strip(" .!"))) if s is not None else [] for s in told]
    for i, sentence in enumerate(told):
        if sentence is None:
            continue
        body = sentence.strip(" .!")
        clauses = stretches[i]
        for k, clause in enumerate(clauses):
            bare = _without_chat_words(_strip_greeting(clause))
            bare = _after_an_aside(bare, sentence) or bare
            # "it's me, Anna Smith": the clause after the speaker points at themselves says who that is
            after_me = loose and k > 0 and bool(_ME.match(_strip_greeting(clauses[k - 1])))
            closed = _GOES_ON.split(bare, maxsplit=1)[0]
            for pattern in (_SAYS_WHO, _HERE, _MYSELF,
                            *((_AGAIN,) if loose and (greeted or bare == clause or after_me) else ())):
                match = pattern.match(bare)
                said_in = clause
                if not match and pattern is not _AGAIN and (match := pattern.match(closed)):
                    said_in = closed  # the name's clause ends where the speaker goes on
                if match and pattern is _SAYS_WHO and bare[:1].casefold() in "it" and someone_else_before(
                        " ".join([*sentences[:i], *clauses[:k]])):
                    break  # "it's Tomas" of the son just spoken of
                if match:
                    word = match.group(1)
                    found.append(Candidate(word, said_in, pattern is _HERE or _proper(word, body)))
                    if pattern is _SAYS_WHO and _afterthought(word.split()[1:]):
                        # "im ava btw", "I'm Kate x": a lower-case word no lexicon knows after a given name is
                        # chat, not a surname; the given name alone is read when the two are no name together
                        first = word.split()[0]
                        found.append(Candidate(first, said_in, _proper(first, body)))
                    break
            else:
                # "Hi, Tomas." as "Hi. Tomas." (and "Hello, Fatima Al-Sayed."): the name alone right after a
                # greeting said on its own
                if loose and k > 0 and (_LONE.match(clause) or _FULL.match(clause)) and _greets(clauses[k - 1]) \
                        and not _strip_greeting(clauses[k - 1]):
                    found.append(Candidate(clause, clause, _proper(clause, body)))
                elif _FULL.match(clause) and (after_me or (
                        loose and _opens(stretches, i, k) and _speaker_goes_on(stretches, i, k)
                        and (_names_only(clause) or _age_follows(stretches, i, k)))):
                    # "Ines Berg, I teach chemistry": the name the turn opens with, then the speaker's own words
                    found.append(Candidate(clause, clause, _proper(clause, body)))
        if loose and i > 0 and _FULL.match(body) and _greets(sentences[i - 1]) and not _strip_greeting(sentences[i - 1]):
            found.append(Candidate(body, body))  # "Hi. Tomas." and "Morning! Fatima Rahman."
    return found


def _afterthought(words: list[str]) -> bool:
    """Lower-case words WordNet does not know ("btw", "x", "fyi"); "cold today" it knows."""
    lexicon = load_wordnet()
    return bool(words) and lexicon is not None and all(w.islower() and not lexicon.knows(w) for w in words)


def _opens(stretches: list[list[str]], i: int, k: int) -> bool:
    """The stretch opens the turn, or follows only a greeting said on its own ("Hello. Ines Berg, ...")."""
    before = [c for s in stretches[:i] for c in s] + stretches[i][:k]
    return all(_greets(c) and not _strip_greeting(c) for c in before)


def _names_only(clause: str) -> bool:
    """Each word is no English word WordNet knows, or the given name or surname of people it lists
    ("Schmidt"): a word said before "I ..." may be whom the speaker calls to ("Mum, I'm home"), or
    what they speak of ("Paris, I lived there"), which a name unknown to the lexicon is not."""
    lexicon = load_wordnet()
    return lexicon is not None and all(not lexicon.knows(w) or lexicon.names_someone(w) for w in clause.split())


def _speaker_goes_on(stretches: list[list[str]], i: int, k: int) -> bool:
    """The stretch right after this one, or after their age said alone, has the speaker speak of
    themselves ("..., I am a chemist", "Mike Donovan, 45, I coach little league")."""
    following = stretches[i][k + 1:] or (stretches[i + 1] if i + 1 < len(stretches) else [])
    while following and _AGE.fullmatch(following[0]):
        following = following[1:]
    return bool(following) and bool(_SPEAKER_GOES_ON.match(following[0]))


def _age_follows(stretches: list[list[str]], i: int, k: int) -> bool:
    """A number said alone right after the stretch: an age, which follows a name, never a place or
    someone called to ("Mike Donovan, 45, I coach ...": "mike" is a word to WordNet too)."""
    following = stretches[i][k + 1:]
    return bool(following) and bool(_AGE.fullmatch(following[0]))


def _joined_trailing(clauses: list[str]) -> list[str]:
    """A clause that is only a word trailing a name joins the clause before it: "Anna Smith, again"
    is "Anna Smith again"."""
    out: list[str] = []
    for clause in clauses:
        if out and _ONLY_TRAILING.match(clause):
            out[-1] = f"{out[-1]} {clause}"
        else:
            out.append(clause)
    return out


def _undoubled(word: str) -> tuple[str, ...]:
    """The stem of an -ed / -ing form whose last consonant was doubled ("gutted", "chatting"), if any."""
    for ending in ("ed", "ing"):
        stem = word.removesuffix(ending)
        if stem != word and len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "aeiou":
            return (stem[:-1],)
    return ()


class NameReader:
    """The checks of a candidate word, on spaCy's tags and MiniLM's notions."""

    def __init__(self, nlp, embed) -> None:  # noqa: ANN001 - spaCy pipeline, TextEmbedder.embed
        self.nlp = nlp
        self.embed = embed
        self._notions = embed([NAME_NOTION, JOB_NOTION, PLACE_NOTION])
        self._lexicon = _lemma_index(nlp)
        self._wordnet = load_wordnet()
        if self._wordnet is not None:
            self._wordnet.proper_adjectives  # noqa: B018 - read with the reader, never on a turn

    def margins(self, word: str, proper: bool = False) -> tuple[float, float]:
        """(job - name, place - name) cosine margins of the word. Only an English noun WordNet knows
        can be an occupation: a word it does not know ("Marta", "Rafa") is no job, however near one
        MiniLM puts it (job margin -inf). MiniLM's job notion also stands apart from every noun that
        is no name ("soup", "lunchtime"); a word the writer marks as a name (`proper`) competes only
        with a real occupation, a noun WordNet knows first as a kind of person ("Plumber", not
        "Jasper", a stone, "Hope", or "Hughes", whom WordNet knows only as people of that name)."""
        name, job, place = (self.embed([word.lower()]) @ self._notions.T)[0]
        if self._wordnet is None:
            job_word = True
        elif proper:
            job_word = self._wordnet.kind_of_person(word)
        else:
            job_word = bool(self._wordnet.senses(word))
        return float(job - name) if job_word else float("-inf"), float(place - name)

    def tagged_as_name(self, candidate: Candidate) -> bool:
        clause = candidate.clause
        for pattern, written in _CASUAL:
            clause = pattern.sub(written, clause)
        doc = self.nlp(clause)
        # a hyphenated name ("Hyun-woo", "anne-marie") is split by the tokenizer: its first part is read
        word = candidate.word.split("-")[0] if "-" in candidate.word else candidate.word
        if word != candidate.word and self._wordnet is not None and self._wordnet.knows(candidate.word):
            return False  # an English compound ("check-in", "self-employed")
        tokens = [t for t in doc if t.text.casefold() == word.casefold()]
        if not tokens:
            return False
        token = tokens[-1]
        if token.is_lower and _capitalises(candidate.clause):
            return False  # who writes with capitals capitalises a name: "I'm vegetarian", "I'm colourblind"
        if _unvoiced(word):
            return False  # a sound, not a word: "hmm", "pfff", "shh"
        return (not (self._ordinary_word(token) and not self._name_when_capitalised(doc, token))
                and not self._kind_of_person(token)
                and (not token.is_stop or _capitalised_name_tag(token)) and not self._names_no_one(token)
                and token.text.casefold() != ROBOT_NAME and not _greets(token.text))

    def _name_when_capitalised(self, doc, token) -> bool:  # noqa: ANN001 - a spaCy Doc and Token
        """A writer who uses no capitals marks no name with one: a word the lexicon knows as a noun as
        well is a name when the tagger reads it as a proper noun once it is written as a name would be
        ("hey its rose", where "rose" alone reads as the verb "rise"; "its freezing" stays a verb, "its
        cut" a noun, and "gloomy" is no noun)."""
        if not token.is_lower or token.lower_ not in self._lexicon.get("noun", ()) \
                or any(t.is_upper or t.is_title for t in doc if t.text != "I"):
            return False
        capitalised = self.nlp("".join((t.text.capitalize() if t.i == token.i else t.text) + t.whitespace_
                                       for t in doc))
        return capitalised[token.i].pos_ == "PROPN"

    def _names_no_one(self, token) -> bool:  # noqa: ANN001 - a spaCy Token
        """spaCy reads the token as a people, faith or language that the lexicon knows, said to be
        what the speaker is ("I'm Catholic"; its guess on an unknown name, "its selam", does not
        count, nor a name said alone, "Christian"), or as part of a date, time, number or amount that
        the speaker is not said to be ("it's March 13", "its sunday")."""
        if token.ent_type_ in _GROUP_ENTS:
            # ... one WordNet lists first as one person, not a kind of them, is a name ("I'm Ignatius",
            # "I'm Isolde": a saint, a heroine), however spaCy files it
            return _speaker_is(token) and (self._wordnet is None or (
                self._wordnet.knows(token.text) and not self._one_person(token.text)))
        return token.ent_type_ in _NOT_NAME_ENTS and not _speaker_is(token)

    def _one_person(self, word: str) -> bool:
        return self._wordnet is not None and self._wordnet.lexical_file(word) == "noun.person" \
            and not self._wordnet.kind_of_person(word)

    def _kind_of_person(self, token) -> bool:  # noqa: ANN001 - a spaCy Token
        """A word WordNet knows first as a kind of person, said to be what the speaker is: in lower case, one it never writes with a capital ("im vegetarian", "i'm
        pensioner"; "tom" or "dean" are someone's name too); capitalised, a faith or a people with its
        own capital and adjective ("I'm Methodist", "I'm Sikh", which spaCy may read as a person) and no
        part of a person's name WordNet lists ("I'm Norman" names Greg Norman's surname too), or,
        unless spaCy reads a person ("I'm Bobby", "Tom here"), one it never capitalises ("I'm Vegan")
        or whose first sense bears the capital itself ("I'm Quaker")."""
        if self._wordnet is None or not _speaker_is(token) or self._wordnet.lexical_file(token.text) != "noun.person":
            return False
        if not self._wordnet.kind_of_person(token.text):
            return False  # one person WordNet lists by the word ("Nina": a goddess) bears a name, not a kind
        capitalised = self._wordnet.capitalised_senses(token.text)
        if token.is_lower:
            return not any(capitalised)
        if self._wordnet.names_someone(token.text):
            return False  # "I'm Norman": a people, and the given name or surname of people WordNet lists
        if capitalised[0] and token.lower_ in self._wordnet.proper_adjectives:
            return True
        if cues.GREETING.match(token.doc.text):
            return False  # "hey I'm Leo": written with its capital right after a greeting, the name they give
        return token.ent_type_ != "PERSON" and (capitalised[0] or not any(capitalised))

    def _ordinary_word(self, token) -> bool:  # noqa: ANN001 - a spaCy Token
        """Tagged as an adjective, verb or adverb that the English lexicon knows ("tired", "raining",
        "late"), as an interjection the lexicon knows ("wow"), or a noun known only as one of those:
        the tagger guesses such tags for unknown lower-case names too ("amara", "ahmed", "tereza"), so
        only a guess the lexicon backs counts (without a lexicon, every such tag does). A word
        capitalised mid-clause is taken for a name where the tagger reads an auxiliary ("this is
        Will") or where the entity recogniser reads a proper name ("Hey, it's Frank.", "my friends
        call me Sunny"; a people, a language or a date is no name, _names_no_one)."""
        if (_capitalised_name_tag(token) and token.pos_ == "AUX") or (
                token.i > 0 and token.is_title and token.ent_type_ not in {"", *_NOT_NAME_ENTS, *_GROUP_ENTS}):
            return False
        if token.pos_ in _NAME_POS:
            # a word the lexicon knows only as an adjective, verb or adverb, tagged a noun in a clause
            # without a verb ("its chilly")
            return token.lower_ not in self._lexicon.get("noun", ()) and any(
                token.lower_ in self._lexicon.get(pos, ()) for pos in _LEXICON_POS.values())
        if token.pos_ not in _LEXICON_POS:  # an interjection or a function word: known to the lexicon at all,
            # or a capitalised word the tagger reads as an interjection ("Um."), which it reads no name of
            # the eval's openings as, said alone
            return any(token.lower_ in words for words in self._lexicon.values()) or not self._lexicon \
                or (token.pos_ == "INTJ" and not token.is_lower)
        if not self._lexicon:
            return True
        # a participle is an adjective as often as a verb ("knackered"), and the rule lemmatizer misses
        # a doubled consonant before -ed / -ing ("gutted" -> "gutte", not "gut")
        known = self._lexicon["verb"] | self._lexicon["adj"] if token.pos_ in ("VERB", "ADJ") else \
            self._lexicon[_LEXICON_POS[token.pos_]]
        return any(form in known for form in (token.lemma_.casefold(), token.lower_, *_undoubled(token.lower_)))

    def checks(self, candidate: Candidate) -> tuple[bool, float, float]:
        """(tagged as a name, job margin, place margin) of the candidate; of a first name and a surname,
        each word tagged as a name and the widest margins; no margins (inf) for a word tagged as none."""
        no = (False, float("inf"), float("inf"))
        if " " in candidate.word:
            if self._wordnet is not None and self._wordnet.knows(candidate.word) \
                    and self._wordnet.lexical_file(candidate.word) != "noun.person":
                return no  # an English compound ("soy sauce", "ice cream"), not a first name and a surname
            parts = []
            for part in candidate.word.split():
                parts.append(self.checks(Candidate(part, candidate.clause, candidate.proper)))
                if not parts[-1][0]:
                    return no
            if all(w[:1].isupper() for w in candidate.word.split()):
                # a given name and a surname each typed with its capital: a surname may be any word
                # ("Baker", "Mason", "Shepherd"), so the given name's margins decide
                return True, parts[0][1], parts[0][2]
            return True, max(p[1] for p in parts), max(p[2] for p in parts)
        if len(candidate.word) < 2 or not self.tagged_as_name(candidate):
            return no
        return True, *self.margins(candidate.word, candidate.proper)

    def is_name(self, candidate: Candidate, job_margin: float = JOB_MARGIN, place_margin: float = PLACE_MARGIN) -> bool:
        tagged, job, place = self.checks(candidate)
        return tagged and job < job_margin and place < place_margin

    def read(self, text: str, loose: bool) -> str | None:
        for candidate in candidates(text, loose):
            if self.is_name(candidate):
                word = candidate.word  # as typed when it has a capital ("Hyun-woo"), else each part capitalised
                return word if not word.islower() else " ".join(
                    "-".join(p[:1].upper() + p[1:] for p in w.split("-")) for w in word.split())
        return None


@functools.cache
def default_reader() -> NameReader | None:
    """The reader on the project's spaCy pipeline and the offline embedder, once per process; None
    (one log line) when either cannot load: then only the explicit introductions are read."""
    from common.embedding.registry import offline_text_embedder
    from common.vision.base import BackendUnavailable
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        return NameReader(load_parser(), offline_text_embedder().embed)
    except (ParserUnavailable, BackendUnavailable) as exc:
        log.warning("casual introductions are not read: %s", exc)
        return None


def _unvoiced(word: str) -> bool:
    """A word in the Latin alphabet with no vowel letter ("hmm", "mhm", "pfff"): a sound written down,
    which no name in the Latin alphabet is."""
    letters = unicodedata.normalize("NFKD", word.casefold())
    latin = [c for c in letters if "a" <= c <= "z"]
    return bool(latin) and len(latin) == sum(c.isalpha() for c in letters) and not set(latin) & set("aeiouy")


def _capitalised_name_tag(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """A capitalised word mid-clause that the tagger reads as a proper noun ("I'm May"), or as an
    auxiliary, which cannot close a clause after "is" / "I'm" ("this is Will"): a name, though the
    word is a stop word too."""
    return token.i > 0 and token.is_title and token.pos_ in {"PROPN", "AUX"}


def _capitalises(clause: str) -> bool:
    """The writer of the clause uses capitals: the pronoun "I", or a capital past its first word
    (a first letter alone may be the keyboard's)."""
    words = clause.split()
    return any(w[:1].isupper() for w in words[1:]) or any(re.fullmatch(r"I(?:'\w+)?", w) for w in words)


def _speaker_is(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """The clause says the speaker is the token ("I'm Summer"; "im summer" parses "I" under it)."""
    return any(c.dep_ == "nsubj" and c.lower_ == "i" for c in (*token.head.children, *token.children))


def names_no_one(sentence: str, word: str) -> bool:
    """The capitalised `word` after "I'm" / "it's" in `sentence` reads as no name by the checks of a
    casual introduction's word: a date ("it's March 13, not March 3"), a faith or people ("I'm
    Catholic"), an adjective the lexicon knows ("I'm Diabetic"). False when they cannot load."""
    reader = default_reader()
    return reader is not None and not reader.tagged_as_name(Candidate(word, sentence))


def weighed_not_given(sentence: str, word: str) -> bool:
    """The `word` after "it's" / "I'm" in `sentence` is weighed, not given: its clause hangs on another
    verb by a subordinator ("I always forget whether it's Mont Blanc or Elbrus", "I wonder if it's
    Kilimanjaro"), or it is one of alternatives ("it's Mont Blanc or Elbrus"); or it says the kind of
    a state ("I'm HIV positive"). False without the parser."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    try:
        doc = load_parser()(sentence)
    except ParserUnavailable:
        return False
    first = word.split()[0]
    return any(weighed(_named_whole(t)) or _of_a_state(t) for t in doc
               if t.text == first and (_named_whole(t).dep_ in ("attr", "acomp") or _of_a_state(t)))


def _of_a_state(word) -> bool:  # noqa: ANN001 - a spaCy Token
    """The word says what kind of state the adjective right after it is ("I'm HIV positive": the
    parse hangs "HIV" on "positive"), no name of the speaker."""
    state = word.head
    return word.dep_ in ("npadvmod", "compound", "nmod") and state.pos_ == "ADJ" and state.i == word.i + 1


def _named_whole(token):  # noqa: ANN001, ANN202 - a spaCy Token
    """The head of the name a word is part of ("Mont" of "Mont Blanc")."""
    while token.dep_ in ("compound", "flat") and token.head.i != token.i:
        token = token.head
    return token


def weighed(name) -> bool:  # noqa: ANN001 - a spaCy Token
    """The predicate `name` of a "be" is weighed (weighed_not_given): its verb is subordinated, or it
    has an alternative joined by "or"."""
    return any(c.dep_ == "mark" for c in name.head.children) \
        or any(c.dep_ == "cc" and c.lower_ == "or" for c in name.children)


def asked_for_name(messages: list[tuple[str, str]]) -> bool:
    """Nadine's last words in the conversation ended on asking the person's name ("What's your
    name?", "May I ask your name?")."""
    said = next((text for role, text in reversed(messages) if role != "user"), "")
    return _asks_the_name((cues.sentences(said) or [""])[-1])


def name_asked_enough(messages: list[tuple[str, str]]) -> bool:
    """Nadine ended two of her turns of the conversation on asking the person's name, and it did not
    come: asked again on every turn that tells her something, it nags."""
    ours = [text for role, text in messages if role != "user"]
    return sum(any(_asks_the_name(s) for s in cues.sentences(text)[-1:]) for text in ours) >= 2


def _asks_the_name(sentence: str) -> bool:
    return sentence.rstrip().endswith("?") and "your name" in sentence.casefold()


def read_answered_name(text: str) -> str | None:
    """The name given as the answer to Nadine's question for it ("Pierre", "pierre dubois", "Hi,
    Amara."), the whole turn or what opens it, its first sentence or that sentence's first clause,
    with more said after ("Tom. I live in Leeds.", "Priya, 29, nurse."): one or two words, each read
    as a name by the checks of a casual introduction."""
    for answer, words in _answers_of_a_name(text):
        reader = default_reader()
        # the question says a name is coming: the answer is marked as one as a capital would mark it
        if reader is not None and reader.is_name(Candidate(" ".join(words), answer, proper=True)):
            return " ".join(w if not w.islower() else w[:1].upper() + w[1:] for w in words)
    return None


def _answers_of_a_name(text: str) -> list[tuple[str, list[str]]]:
    """What of the turn may be a name given as an answer, and its words: the whole turn or what opens
    it, one or two words; never a question back or thanks."""
    bare = _strip_greeting(text.strip()).strip(" .!")
    first = (cues.sentences(bare) or [""])[0].strip(" .!")
    asked = cues.is_question(text)
    out = []
    for answer in dict.fromkeys((bare, first, CLAUSE_BREAK.split(first)[0])):
        words = answer.split()
        if not 1 <= len(words) <= 2 or not all(re.fullmatch(_WORD, w) for w in words):
            continue
        if asked and any(w.islower() for w in words):
            continue  # a question back ("¿dónde trabajo?"), not a name said unsure of the spelling ("Siobhan?")
        if cues.THANKS.match(answer):
            continue  # "thanks!" for her promise to keep something thanks her, and names no one
        out.append((answer, words))
    return out


def word_answering_for_a_name(text: str) -> str | None:
    """The answer to Nadine's question for the name that the reader takes for no name but that may be
    one: the whole turn, one or two words each typed with its capital ("Earl", "Clement", "Rocky":
    English words too), none a chat word, a greeting or a sound, and no question or goodbye
    (extract.perhaps_the_name_asked leaves out a yes or a no)."""
    if cues.is_question(text) or cues.is_unambiguous_farewell(text) or read_answered_name(text) is not None:
        return None
    whole = text.strip(" .!")
    return next((answer for answer, words in _answers_of_a_name(text) if answer == whole
                 and all(w[:1].isupper() for w in words)
                 and not any(w.casefold() in chat_words() or _greets(w) or _unvoiced(w) for w in words)), None)


def read_opening_name(text: str) -> str | None:
    """The name said alone as the whole first turn of a conversation, before Nadine asks ("Dave."):
    read as the answer to her question for it would be, and each word is no English word WordNet knows,
    or one whose most frequent sense WordNet writes with a capital or gives to people ("Nina Patel",
    "tom"), and no chat word ("Coffee.", "Thanks." and "Lol." name no one; a name that is mostly a word,
    "Grace.", is asked for instead)."""
    # a question opening a conversation asks something ("¿cómo estás?" is no one called Cómo Estás)
    name = None if cues.is_question(text) else read_answered_name(text)
    lexicon = load_wordnet()
    if name is None or lexicon is None:
        return None
    words = name.split()
    if any(w.casefold() in chat_words() for w in words):
        return None
    named = [not lexicon.knows(w) or lexicon.names_someone(w) or lexicon.capitalised_senses(w)[:1] == (True,)
             for w in words]
    # a given name and a surname, each typed with its capital ("Harold Finch."): a surname may be any
    # word ("Finch", "Baker"), so the given name is enough
    full_name = len(words) > 1 and named[0] and all(w in text and w[:1].isupper() for w in words)
    return name if all(named) or full_name else None


def introduces_only(part: str) -> bool:
    """The clause says only who the speaker is ("Linda here", "Priya again", "it's Tomasz"): a name
    the casual reader takes, standing in the whole clause."""
    found = [c for c in candidates(part, loose=True) if c.clause.strip(" .!") == part.strip(" .!")]
    reader = default_reader() if found else None
    return reader is not None and any(reader.is_name(c) for c in found)


def greets_or_introduces_only(sentence: str) -> bool:
    """Each clause of the sentence greets or only says who the speaker is ("Hi Nadine!", "wren here.",
    "Hello, it's Tomasz.")."""
    clauses = [c for c in CLAUSE_BREAK.split(sentence.strip(" .!")) if c.strip()]
    return bool(clauses) and all((_greets(c) and not _strip_greeting(c)) or introduces_only(c) for c in clauses)


def read_casual_name(text: str, loose: bool = False) -> str | None:
    """The name of a casual introduction in `text`; `loose`: the speaker has no name yet, so a word
    alone after a greeting counts too."""
    if not candidates(text, loose):
        return None  # most turns: no slot, nothing to load or parse
    reader = default_reader()
    return reader.read(text, loose) if reader is not None else None

"""Profile extraction: name, hobbies and interests by rules ("my name is / call me / I like …"); the
work and place fields (position, company, location) from the spaCy parse reader
(interaction/offline/self_description.py) when `interaction.profile_facts` is `spacy_parse` (the
default; it measured 92.5 / 94.9 % field accuracy on dev / test against the rules' 72.7 / 73.2 %,
python -m scripts.eval.profile_facts), else, or when spaCy cannot load, by the rules below.

Only currently-true, present-tense self statements become profile fields (they say what is): "I worked at",
"I lived in", "I used to" are memories and are left to the episode summary. Questions never fill
fields ("do you know where I live?").
"""

from __future__ import annotations

import itertools
import logging
import re
import threading

from interaction import cues
from interaction.confirmation import read_offline
from interaction.names import known_name_in_greeting
from interaction.offline.name_claims import read_name_claim
from interaction.offline.name_reading import (
    asked_for_name,
    names_no_one,
    read_answered_name,
    read_casual_name,
    read_opening_name,
    someone_else_before,
    told_before_asking,
    weighed_not_given,
    word_answering_for_a_name,
)
from interaction.offline.parsing import ParserUnavailable, load_parser
from interaction.offline.titles import without_titles
from interaction.profiles import MemoryUpdate

log = logging.getLogger("nadine.interaction.extract")

_I = re.IGNORECASE
_NAME_REST = r"[A-Za-zÀ-ÖØ-öø-ÿ'\u2019\-]*"
_NAME_TOKEN = r"[A-Za-zÀ-ÖØ-öø-ÿ]" + _NAME_REST
_CAPITALISED = r"[A-ZÀ-ÖØ-Þ]" + _NAME_REST
_PHRASE = r"([^,.;!?]+?)"
_LIST = r"([^.;!?]+?)"  # a list keeps its commas: "chess, running and painting"
_PHRASE_END = r"(?=\s+(?:at|for|in|as|and|but|since|because|where|with|now|currently|these days)\b|\s*$)"
_LIST_END = r"(?=\s+(?:but|since|because|where|now|currently|these days)\b|\s*$)"

# words that follow "I'm" without being a name ("I'm So happy" typed with odd capitals included)
_NOT_NAMES = {
    "so", "very", "fine", "good", "happy", "sad", "here", "back", "not", "a", "an", "the", "from", "in", "at",
    "really", "sorry", "glad", "just", "going", "doing", "feeling", "tired", "ok", "okay", "well", "great",
    "excited", "sure", "afraid", "interested", "into", "working", "living", "married", "single", "new",
    "still", "also", "too", "quite", "pretty", "nadine", "hungry", "busy", "bored", "angry", "scared",
    "curious", "nervous", "proud", "thrilled", "done", "ready", "late", "home", "alright", "all", "looking",
    "trying", "having", "thinking", "based", "originally", "currently", "always", "never", "retired",
}
# words that end a name: "my name is Bob and I live in Lyon" names Bob, not "Bob And"
_NAME_STOPS = _NOT_NAMES | {
    "and", "but", "or", "i", "im", "my", "me", "who", "to", "with", "by", "of", "please", "thanks", "thank",
    "nice", "what", "how", "you", "your", "is", "was",
}
_NAME_ALWAYS = [  # the name may be typed in lower case after these
    re.compile(rf"\bmy name(?:'s| is)\s+({_NAME_TOKEN}(?:\s+{_NAME_TOKEN})?)", _I),
    re.compile(rf"\bcall me\s+({_NAME_TOKEN})", _I),
    # "the name's Gord", "Name's Gord": a name of no one else's ("her name's Brenda" names the wife)
    re.compile(rf"(?:^|[^\w\s']\s*|\bthe\s+)name's\s+({_NAME_TOKEN})", _I),
    # the same said the other way round, closing its clause ("Siobhan's the name, from Galway"), by a word
    # that is no pronoun ("that's the name" is no name)
    re.compile(rf"(?:^\W*|[.!?;:]\s+)(?!(?:that|this|it|which|what)\b)({_NAME_TOKEN}(?:\s+{_NAME_TOKEN})?)(?:'s|\u2019s| is) "
               rf"the name\s*(?:[,.!;]|$)", _I),
]
_NAME_CAPITALISED = re.compile(rf"\b(?i:i'm|i am|it's|it is)\s+({_CAPITALISED})")
_UPPER, _LOWER = "A-ZÀ-ÖØ-Þ", "a-zß-öø-ÿ"
# a surname is a capitalised word with a small letter after its capital ("MacLeod"; a lone initial is
# none), or capitalised parts joined by an apostrophe or a hyphen, the first of which may be one capital
# ("O'Donnell", "N'Dour", "Shah-Patel"; "Smith's sister" names Smith), perhaps after an Irish particle
# of one letter ("Ó Dálaigh"; "I" is the speaker)
_SURNAME_WORD = rf"[{_UPPER}](?:[{_LOWER}][{_UPPER}{_LOWER}]*)?(?:['\u2019\-][{_UPPER}][{_UPPER}{_LOWER}]*)+|[{_UPPER}][{_LOWER}][{_UPPER}{_LOWER}]*"
_SURNAME = re.compile(rf"^\s+((?:(?!I\s)[{_UPPER}]\s+(?=[{_UPPER}][{_LOWER}]))?(?:{_SURNAME_WORD}))\b")

_COMPANY = re.compile(rf"\bi(?:'m| am)? (?:currently )?(?:work|working) (?:at|for)\s+{_PHRASE}{_PHRASE_END}", _I)
_POSITION = [
    re.compile(rf"\bi(?:'m| am)? (?:currently )?(?:work|working) as\s+(?:an? |the )?{_PHRASE}{_PHRASE_END}", _I),
    re.compile(rf"\bmy job is\s+(?:an? |the )?{_PHRASE}{_PHRASE_END}", _I),
    re.compile(rf"\b(?i:i'm|i am) (?i:an?|the) {_PHRASE}(?=\s+(?i:at|for|in)\s+[A-Z])"),
]
_COMPANY_AFTER_POSITION = re.compile(
    rf"\b(?:(?i:i'm|i am) (?i:an?|the)|(?i:i) (?i:work|am working|'m working) (?i:as)(?: (?i:an?|the))?) "
    rf"[^,.;!?]+?\s+(?i:at|for)\s+([A-Z][^,.;!?]*?){_PHRASE_END}"
)
_LOCATION = re.compile(
    rf"\bi(?:'m| am)? (?:currently )?(?:live|living|reside|residing|based) in\s+{_PHRASE}{_PHRASE_END}"
    rf"|\bi(?:'ve| have) (?:just )?moved to\s+{_PHRASE}{_PHRASE_END}",
    _I,
)
_LIKES = re.compile(rf"\bi (?:really |also |just )?(?:like|love|enjoy|adore)\s+{_LIST}{_LIST_END}", _I)
_HOBBY = re.compile(rf"\bmy (?:favou?rite )?hobb(?:y is|ies are)\s+{_LIST}{_LIST_END}", _I)
_INTEREST = re.compile(
    rf"\bi(?:'m| am) (?:really |very |also )?(?:interested in|into|passionate about|fascinated by)\s+{_LIST}{_LIST_END}",
    _I,
)
_NOT_ITEMS = re.compile(r"^(you|it|that|this|them|him|her|your|talking to you|to talk|being here|nadine)\b", _I)
_SPLIT_ITEMS = re.compile(r",|\band\b|\bor\b|&", _I)


def _statements(text: str) -> list[str]:
    return [s.strip(" .!") for s in cues.sentences(text) if not s.rstrip().endswith("?") and not cues.is_about_nadine(s)]


def _clauses(sentence: str) -> list[str]:
    """Present-tense clauses only: "I worked at …", "when I was …" are memories, not profile facts."""
    parts = (c.strip(" .!") for c in re.split(r"[;,]\s+|\s+but\s+", sentence))
    return [c for c in parts if c and not cues.PAST_MARKERS.search(c)]


def _clean(value: str) -> str | None:
    value = re.sub(r"\s+", " ", value).strip(" '\"")
    value = re.sub(r"^(?:the|a|an)\s+(?=[a-z])", "", value)
    return value or None


def extract_name(text: str, loose: bool = False, asked: bool = False) -> str | None:
    """The name the speaker gives (_given_name), with the surname they add when they say the given name
    again ("Fatima here, Fatima Rahman", "I'm Dorothy, Dorothy Pike")."""
    name = _given_name(text, loose, asked)
    if name is None:
        return name
    claim = read_name_claim(text)
    said, whole = name.casefold().split(), (claim.name.casefold().split() if claim is not None else [])
    if claim is not None and not (claim.request or claim.hearsay) and len(whole) > len(said) and whole[:len(said)] == said:
        # the parse reads the whole of it ("My name is Bram de Wit", not "Bram De"), word by word ("call me
        # Kat" is no part of "I'm Katherine")
        return claim.name
    if " " in name:
        return name
    again = re.search(rf"\b{re.escape(name)}\s+({_SURNAME_WORD})\b", text)
    return f"{name} {again.group(1)}" if again and again.group(1).casefold() not in _NOT_NAMES else name


def _given_name(text: str, loose: bool = False, asked: bool = False) -> str | None:
    """The name the speaker gives: "my name is ...", "call me ...", "I'm / it's <Capitalised>", else a
    name the parse places as one (name_claims.py), else a casual or terse introduction (name_reading.py; `loose` while the speaker has no name yet), else,
    when Nadine has just `asked` for it, the name said alone ("Pierre"). A title before a name is no
    part of it ("I'm Dr. Priya Raman" is Priya Raman)."""
    text = without_titles(text)
    said: list[str] = []  # the sentences before this one
    for sentence in cues.sentences(text):
        before = " ".join(said)
        said.append(sentence)
        if sentence.rstrip().endswith("?") and (sentence := told_before_asking(sentence)) is None:
            continue  # a question names no one as the speaker, but what a sentence tells before asking may
        sentence = _without_adverbs_after_name_is(sentence)
        # a sentence about Nadine up to the name says none of the speaker's ("you're like my aunt, it's
        # Mabel"); what follows it may ("my name is Charlotte, and my friend told me about you")
        for pattern in _NAME_ALWAYS:
            found = pattern.search(sentence)
            if found and found.group(1).split()[0].casefold() not in _NOT_NAMES \
                    and not cues.is_about_nadine(sentence[:found.end()]):
                first, *rest = found.group(1).split()
                return _title(" ".join([first, *(w for w in rest[:1] if w.casefold() not in _NAME_STOPS)]))
        found = _NAME_CAPITALISED.search(sentence)
        # "it's Tomas" after "one of my sons is getting divorced" names the son
        if found and found.group(1).casefold() not in _NOT_NAMES and not cues.is_about_nadine(sentence[:found.end()]) \
                and not names_no_one(sentence, found.group(1)) \
                and not weighed_not_given(sentence, found.group(1)) \
                and not (found.group(0)[:2].casefold() == "it" and someone_else_before(f"{before} {sentence[:found.start()]}")):
            surname = _SURNAME.match(sentence[found.end():])
            name = found.group(1) + (f" {surname.group(1)}" if surname and surname.group(1).casefold() not in _NOT_NAMES else "")
            return _title(name)
    claim = read_name_claim(text)
    if claim is not None:
        return claim.name  # "my real name is Robert", "I'd rather be called Bea": placed by the parse
    answered = read_answered_name(text) if asked else None
    # a yes or a no is no name ("ya" to "may I ask your name?"), by the confirmation reader
    return read_casual_name(text, loose) or (answered if answered and read_offline(answered) == "unclear" else None)




_NAME_IS = re.compile(r"\bname(?:'s| is)\s+", _I)


def _without_adverbs_after_name_is(sentence: str) -> str:
    """The sentence without the adverbs the tagger reads between "my name is" and the name ("my name is
    actually Siobhan", "honestly just Bob"): no part of the name. Unchanged without the parser."""
    found = _NAME_IS.search(sentence)
    if found is None:
        return sentence
    try:
        doc = load_parser()(sentence)
    except ParserUnavailable:
        return sentence
    after = [t for t in doc if t.idx >= found.end()]
    adverbs = list(itertools.takewhile(lambda t: t.pos_ == "ADV", after))
    if not adverbs or len(adverbs) == len(after):
        return sentence
    return sentence[:found.end()] + sentence[after[len(adverbs)].idx:]


def _title(name: str) -> str:
    return " ".join(part[:1].upper() + part[1:] for part in name.split())


def _items(value: str) -> list[str]:
    items = []
    for part in _SPLIT_ITEMS.split(value):
        item = _clean(part)
        if item and not _NOT_ITEMS.match(item) and len(item.split()) <= 4:
            items.append(item)
    return items


def extract_profile_rules(text: str, loose_names: bool = False, name_asked: bool = False) -> MemoryUpdate:
    update: dict = {"user_name": extract_name(text, loose_names, name_asked), "hobbies": [], "interests": []}
    for sentence in _statements(text):
        _lists(sentence, update)
        for clause in _clauses(sentence):
            _facts(clause, update)
    return MemoryUpdate.model_validate(update)


class _ReaderSlot:
    """The configured work/place reader, loaded once per process (a 4-8 s load, done off the turn
    path by warm_up() at start-up)."""

    def __init__(self) -> None:
        self.backend = "spacy_parse"
        self._reader = None
        self._loaded = False
        self._lock = threading.Lock()

    def use(self, backend: str) -> None:
        with self._lock:
            self.backend, self._reader, self._loaded = backend, None, False

    def get(self):  # noqa: ANN201 - SelfDescriptionReader | None
        with self._lock:
            if not self._loaded:
                self._loaded = True
                if self.backend == "spacy_parse":
                    self._reader = _load_reader()
            return self._reader


def _load_reader():  # noqa: ANN202
    from common.embedding.registry import offline_text_embedder
    from common.vision.base import BackendUnavailable
    from interaction.offline.self_description import ParserUnavailable, SelfDescriptionReader, load_parser
    from interaction.offline.verb_jobs import default_model

    try:
        jobs = default_model()
        return SelfDescriptionReader(load_parser(), offline_text_embedder().embed, jobs=jobs.is_job if jobs else None)
    except (ParserUnavailable, BackendUnavailable) as exc:
        log.warning("profile facts from rules only: %s", exc)
        return None


_READER = _ReaderSlot()


def use_profile_facts_backend(backend: str, warm_up: bool = True) -> None:
    """Select `spacy_parse` or `rules` (interaction.profile_facts); load in the background."""
    _READER.use(backend)
    if warm_up:
        threading.Thread(target=_READER.get, name="profile-facts-load", daemon=True).start()


def parse_ahead(texts: list[str]) -> None:
    """Parse in one batch the texts extract_profile() is about to read one by one (a session's turns
    when it is summarised): spaCy's pipe gives each the parse of a call of its own, a third faster."""
    reader = _READER.get()
    if reader is not None:
        reader.nlp.pipe(texts)


def texts_ahead(text: str) -> list[str]:
    """The texts reading `text` for work and place facts may embed: what the verb-job model reads of
    each clause said with a verb, and each position said without one, for its occupation score (to
    embed them ahead, with the turn's other texts)."""
    from interaction.offline.verb_jobs import default_model

    reader, jobs = _READER.get(), default_model()
    if reader is None:
        return []
    return [*(jobs.texts_read(reader.job_clauses(text)) if jobs is not None else []), *reader.positions(text)]


def names_an_occupation(phrase: str) -> bool:
    """The phrase is nearer an occupation than a trait ("a paramedic", not "a vegan"), by the profile
    reader's occupation score and threshold; False without the reader (rules only)."""
    reader = _READER.get()
    return reader is not None and reader.is_occupation({"current_position": phrase}) is True


def extract_profile(text: str, loose_names: bool = False, name_asked: bool = False) -> MemoryUpdate:
    """Name, hobbies and interests from the rules; position, company and location from the
    configured work/place reader (its fields replace the rules' ones, found or not). `loose_names`:
    the speaker has no name yet; `name_asked`: Nadine has just asked for it (extract_name)."""
    update = extract_profile_rules(text, loose_names, name_asked)
    reader = _READER.get()
    if reader is None:
        return update
    from interaction.offline.pastimes import default_model as pastimes
    from interaction.offline.self_description import FIELDS

    # the name they give, or, from someone not known yet, the one said alone that Nadine will ask about
    # ("Nadia, 34, vet nurse from Cork."): what it is said beside goes with the question to whoever answers yes
    facts = reader.facts(text, name=update.user_name or (read_opening_name(text) if loose_names else None))
    pastime = pastimes()
    # a pastime said by its doing ("I ring the bells at our church"), beside those said by liking it
    done = reader.pastimes(text, pastime.is_pastime) if pastime is not None else []
    hobbies = [*update.hobbies, *(h for h in done if h.casefold() not in {v.casefold() for v in update.hobbies})]
    return update.model_copy(update={**{field: facts.get(field) for field in FIELDS}, "hobbies": hobbies})


def _facts(clause: str, update: dict) -> None:
    for key, pattern in (("current_company", _COMPANY), ("current_company", _COMPANY_AFTER_POSITION),
                         ("location", _LOCATION)):
        found = pattern.search(clause)
        if found and not update.get(key):
            update[key] = _clean(next(g for g in found.groups() if g))
    for pattern in _POSITION:
        found = pattern.search(clause)
        if found and not update.get("current_position"):
            update["current_position"] = _clean(found.group(1))


def _lists(sentence: str, update: dict) -> None:
    for found in _LIKES.finditer(sentence):
        for item in _items(found.group(1)):
            # an activity ("hiking", "playing chess") is a hobby, a topic ("jazz") an interest
            update["hobbies" if item.split()[0].lower().endswith("ing") else "interests"].append(item)
    for found in _HOBBY.finditer(sentence):
        update["hobbies"].extend(_items(found.group(1)))
    for found in _INTEREST.finditer(sentence):
        update["interests"].extend(_items(found.group(1)))


def answer_name(text: str) -> str | None:
    """The name in an answer to "Is your name …?": "No, it's Mia", "I'm Mia", or just "Mia"."""
    name = extract_name(text)
    if name:
        return name
    bare = re.sub(r"^\W*(?:no|nope|nah|non)\b[\s,.!]*", "", text.strip(), flags=_I).strip(" .!")
    if re.fullmatch(rf"{_NAME_TOKEN}(?:\s+{_NAME_TOKEN})?", bare) and bare[:1].isupper():
        # "Absolutely", "Yes please": an answer the confirmation reader understands is not a name, nor
        # is a goodbye ("Goodnight.", "Night night")
        if bare.split()[0].casefold() not in _NOT_NAMES and read_offline(bare) == "unclear" \
                and not cues.is_unambiguous_farewell(bare) and read_answered_name(bare):
            return _title(bare)
    return None


def name_to_ask_about(text: str, history: list[tuple[str, str]], known: dict[str, str], high: float) -> str | None:
    """A word that is likely the nameless speaker's name, not said plainly as one, to be asked about
    ("is your name ...?") and never taken: said alone as the first words of a conversation ("Dave."), a
    known name ({user_id: name}) in a greeting said in words not read ("Hola, soy Lucía"), or an English
    word answering Nadine's question for the name ("Earl": name_reading.word_answering_for_a_name), no
    yes or no to the confirmation reader."""
    if not history:
        return read_opening_name(text) or known_name_in_greeting(text, known, high)
    word = word_answering_for_a_name(text) if asked_for_name(history) else None
    return word if word is not None and read_offline(word) == "unclear" else None

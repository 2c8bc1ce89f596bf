"""How two nouns are related in meaning: the same thing, one the kind or the whole of the other, or
sister words (another thing of the same kind) — Princeton WordNet 3.0's noun hierarchy.

Sentence embeddings put sister words as close as synonyms and hypernyms (MiniLM: "kid"-"daughter"
0.53 but "daughter"-"son" 0.52, "grandfather"-"grandmother" 0.80 but "grandfather"-"grandad" 0.54),
and the cross-encoder does no better on a pair of words; a recall that must never assert a
neighbour ("my cousin" when the aunt was told) needs the relation itself. WordNet is a general
lexical database written for no example here; its database files (index.noun, data.noun,
noun.exc) are read as they are published, from the registry package that carries them
(common/model_files.py: "wordnet"; its own code is never imported). Without them the reader answers
UNKNOWN for every pair and the entity reader falls back on cosines.

Containment reads every noun sense of both words (no sense disambiguation): a pair agrees when some
pair of senses does.
- SAME: they share a synset ("girl" / "daughter", "grandad" / "grandfather").
- BROADER: the first is an ancestor of the second through kind-of (hypernym, instance) or
  part-of / member-of links ("kid" ⊇ "son", "Japan" ⊇ "Tokyo", "leg" ⊇ "knee", "family" ⊇ "grandmother").
- NARROWER: the other way round ("mum" under "mother").
- SISTER: neither contains the other, and their most frequent senses are both at most
  `sister_depth` kind-of links below a common ancestor ("mother" / "father": 1, "cousin" / "aunt":
  2) that lies at least `ancestor_depth` links below the root ("relative": 5, while "person" and
  "artifact", under which nearly everything is a sister, lie at 4); the distance is returned.
- UNRELATED: both are known, nothing above holds.
- UNKNOWN: either word is not in WordNet (a compound it lacks, most names).

Apart from these, derived_kin says whether one word names what a kind of the other is for, through
the nouns WordNet derives from them ("music" / "cello": a cello is a musical instrument, and "music"
and "instrument" both give "musician"): the entity reader's test for two phrases' modifiers.
"""

from __future__ import annotations

import functools
import logging
import re
import threading
from enum import Enum
from pathlib import Path

from common.model_files import MODEL_FILES, ModelFiles
from common.vision.base import BackendUnavailable

log = logging.getLogger("nadine.memory.lexicon")

KIND_OF = frozenset({"@", "@i"})  # hypernym, instance hypernym
CONTAINED_IN = KIND_OF | {"#p", "#m"}  # ... and part holonym, member holonym


# the words a gloss tells a person's sex by
_FEMALE = {"female", "woman", "girl"}
_SEX_WORD = re.compile(r"\b(?:female|woman|girl|male|man|boy)\b")
# how many times more often a word must be tagged a noun than a verb to be one the parser misread as a
# verb; set by hand, not fitted on labelled data: "room" (129 to 1) and "head" (254 to 55) pass, "study"
# (131 to 125) and "work" (212 to 261) do not
_MOSTLY = 4


_BEINGS = frozenset({"person", "animal"})  # WordNet's kinds of what has a name of its own


class Relation(Enum):
    SAME = "same"
    BROADER = "broader"
    NARROWER = "narrower"
    SISTER = "sister"
    UNRELATED = "unrelated"
    UNKNOWN = "unknown"

    @property
    def agrees(self) -> bool:
        """One names what the other names, or a kind or whole of it."""
        return self in (Relation.SAME, Relation.BROADER, Relation.NARROWER)


class WordNet:
    """The noun part of a WordNet database folder (Princeton's file format), and the domain of a
    verb's most frequent sense."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._senses: dict[str, tuple[int, ...]] = {}
        with (folder / "index.noun").open(encoding="utf-8") as f:
            for line in f:
                if line.startswith(" "):  # the licence header
                    continue
                p = line.split()
                synsets, pointers = int(p[2]), int(p[3])
                self._senses[p[0]] = tuple(int(o) for o in p[4 + pointers + 2:][:synsets])
        # keyed by the synset offset each line starts with: the published files have CRLF line ends,
        # so the offsets are not byte positions in them
        self._lines: dict[int, str] = {}
        with (folder / "data.noun").open(encoding="utf-8") as f:
            for line in f:
                if line[:1].isdigit():
                    self._lines[int(line[:8])] = line
        self._exceptions: dict[str, str] = {}
        with (folder / "noun.exc").open(encoding="utf-8") as f:
            for line in f:
                words = line.split()
                if len(words) >= 2:
                    self._exceptions[words[0]] = words[1]
        # the verbs', adjectives' and adverbs' lemmas (whether a word is English at all), and the
        # lexicographer files' names: read here, with the nouns, never on a turn
        other: set[str] = set()
        for part in ("verb", "adj", "adv"):
            with (folder / f"index.{part}").open(encoding="utf-8") as f:
                other.update(line.split(" ", 1)[0] for line in f if not line.startswith(" "))
        self._other_lemmas = frozenset(other)
        with (folder / "lexnames").open(encoding="utf-8") as f:
            self._lexnames = {int(r[0]): r[1] for r in (line.split() for line in f) if len(r) >= 2}
        self._lock = threading.Lock()

    def knows(self, word: str) -> bool:
        """Whether the word is an English noun, verb, adjective or adverb at all ("ugh", "omg" and
        names are not)."""
        key = "_".join(word.casefold().split())
        if self.senses(key):
            return True
        keys = {key, key.replace("-", "_")}  # WordNet writes some compounds with a hyphen, some with "_"
        return bool(keys & self._other_lemmas)

    def only_a_noun(self, word: str) -> bool:
        """WordNet has the word as a noun and as no verb, adjective or adverb ("amir", "seb"; not
        "will", "mark", "rose")."""
        key = "_".join(word.casefold().split())
        return bool(self.senses(key)) and key not in self._other_lemmas

    @functools.cached_property
    def words(self) -> tuple[str, ...]:
        """Every one-word lemma (nouns, verbs, adjectives, adverbs), sorted: the English a misspelt
        word may be read as (spelling.py)."""
        return tuple(sorted(w for w in {*self._senses, *self._other_lemmas} if w.isalpha()))

    @functools.cached_property
    def words_by_length(self) -> dict[int, tuple[str, ...]]:
        """`words` by their length: a misspelling is only compared with words near its own length."""
        out: dict[int, list[str]] = {}
        for word in self.words:
            out.setdefault(len(word), []).append(word)
        return {n: tuple(ws) for n, ws in out.items()}

    def lexical_file(self, word: str) -> str | None:
        """The lexicographer file of the word's most frequent noun sense ("noun.person" for "father",
        "noun.communication" for "talk"); None for a word that is no noun here."""
        return next(iter(self.lexical_files(word)), None)

    def names_a_time(self, word: str) -> bool:
        """The word's most frequent noun sense is a time ("morning", "deadline", "birthday")."""
        return self.lexical_file(word) == "noun.time"

    def lexical_files(self, word: str) -> tuple[str, ...]:
        """The lexicographer file of each noun sense of the word, the most frequent first."""
        return tuple(self._lexnames.get(int(self.field(o)), "") for o in self.senses(word))

    @functools.cached_property
    def proper_adjectives(self) -> frozenset[str]:
        """The adjectives WordNet writes with a capital, in lower case: a people's, a faith's or a
        place's ("English", "Methodist", "Roman"), unlike "frank" (candid)."""
        proper: set[str] = set()
        with (self._folder / "data.adj").open(encoding="utf-8") as f:
            for line in f:
                if line[:1].isdigit():
                    p = line.split(maxsplit=4 + 2 * int(line.split(maxsplit=4)[3], 16))
                    # a word may carry its position after a noun: "Methodist(a)"
                    proper.update(w.split("(")[0].casefold() for w in p[4:4 + 2 * int(p[3], 16):2] if not w.islower())
        return frozenset(proper)

    def capitalised_senses(self, word: str) -> tuple[bool, ...]:
        """For each noun sense of the word, the most frequent first, whether it writes the word with
        a capital: someone, somewhere or something is called so ("Dean", "Hunter"), or the capital
        belongs to the word ("Catholic"); "vegetarian" and "pensioner" have none."""
        key = "_".join(word.casefold().replace("-", " ").split())
        capitalised = []
        for offset in self.senses(word):
            p = self._lines[offset].split()
            capitalised.append(any(w.casefold() == key and not w.islower() for w in p[4:4 + 2 * int(p[3], 16):2]))
        return tuple(capitalised)

    def kind_of_person(self, word: str, senses: int = 1) -> bool:
        """The word's most frequent noun sense (or one of its `senses` most frequent: "mum" is a flower
        first) is a kind of person ("plumber", "Methodist"), not one person WordNet lists by it
        ("Hughes": Howard Hughes, Ted Hughes, instances of a kind)."""
        return any(self._lexnames.get(int(self.field(o)), "") == "noun.person"
                   and not any(link[0] == "@i" for link in self._links(o)) for o in self.senses(word)[:senses])

    def a_being(self, word: str) -> bool:
        """The noun's most frequent sense is a kind of person or of animal: what has a name of its own
        ("sister", "puppy"; "weekend" has none)."""
        return self.kind_of(word, _BEINGS, senses=1)

    def kind_of(self, word: str, kinds: frozenset[str], senses: int | None = None) -> bool:
        """Some noun sense of the word (of its `senses` most frequent, when given) is, through its
        hypernyms, a synset one of whose words is in `kinds` ("clinic": a medical institution, an
        institution)."""
        return any(kinds & set(self._lemmas(above)) for sense in self.senses(word)[:senses]
                   for above in self.ancestors(sense, KIND_OF))

    def sex_of(self, word: str, *, through_kin: bool = True) -> str | None:
        """"Fem" or "Masc" (spaCy's Gender values) for a kind of person of one sex, by the first word of
        sex in the gloss of its most frequent sense ("sister": "a female person who has ...", "husband":
        "a married man; a woman's partner ..."), else by the first person in it whose own gloss says
        one ("aunt": "the sister of your father or mother", "mum": "... a mother"); None for either
        ("boss", "friend")."""
        first = next(iter(self.senses(word)), None)
        if first is None:
            return None
        gloss = self._lines[first].split(" | ", 1)[-1].casefold()
        said = next((m.group(0) for m in _SEX_WORD.finditer(gloss)), None)
        if said is not None:
            return "Fem" if said in _FEMALE else "Masc"
        if not through_kin:
            return None
        return next((sex for w in re.findall(r"[a-z]+", gloss) if w != word.casefold() and self.kind_of_person(w)
                     and (sex := self.sex_of(w, through_kin=False)) is not None), None)

    def names_someone(self, word: str) -> bool:
        """WordNet lists a person whose full name holds the word as a given name or surname
        ("Norman": Greg Norman, Jessye Norman), not a person known by that one word alone (the
        prophet Mormon) nor a kind of person ("Methodist")."""
        key = word.casefold()
        for offset in self.senses(word):
            p = self._lines[offset].split()
            lemmas = [w.casefold() for w in p[4:4 + 2 * int(p[3], 16):2]]
            person = self._lexnames.get(int(self.field(offset)), "") == "noun.person"
            if person and any(link[0] == "@i" for link in self._links(offset)) \
                    and any(key in lemma.split("_") and lemma != key for lemma in lemmas):
                return True
        return False

    def verb_lexical_file(self, lemma: str) -> str | None:
        """The lexicographer file of the verb's most frequent sense ("verb.cognition" for "learn",
        "verb.contact" for "carry"); None for a word that is no verb here."""
        offset = self._first_verb_senses.get(lemma.casefold())
        return self._verb_files.get(offset) if offset is not None else None

    def verb_of_participle(self, word: str) -> str | None:
        """The verb an adjective in "-ed" is the participle of ("married" of "marry", "engaged" of
        "engage"), by WordNet's own detachment rules for verbs (morphy: "-ed" to "-e" or to nothing,
        "-ied" to "-y"); None when none of them is a verb here."""
        key = word.casefold()
        if not key.endswith("ed"):
            return None
        return next((v for v in (key[:-1], key[:-2], key[:-3] + "y") if v in self._first_verb_senses), None)

    def is_adjective(self, word: str) -> bool:
        """WordNet knows the word as an adjective, or as the "-ed" participle of a verb it knows."""
        return word.casefold() in self._adjective_senses or self.verb_of_participle(word) is not None

    def mostly_a_noun(self, lemma: str) -> bool:
        """The word is tagged a noun far more often than a verb in the sense-tagged texts WordNet
        counts ("room" 129 times to 1, "head" 254 to 55; "study", 131 to 125, is both)."""
        nouns, verbs = self._tagged_counts.get(lemma.casefold(), (0, 0))
        return nouns > 0 and nouns >= _MOSTLY * verbs

    @functools.cached_property
    def _tagged_counts(self) -> dict[str, tuple[int, int]]:
        # read on the first word asked about, not at start-up: one reader needs it
        counts: dict[str, list[int]] = {}
        with (self._folder / "cntlist.rev").open(encoding="utf-8") as f:
            for line in f:
                key, _, count = line.split()
                lemma, _, sense = key.partition("%")
                part = {"1": 0, "2": 1}.get(sense[:1])
                if part is not None:
                    counts.setdefault(lemma, [0, 0])[part] += int(count)
        return {lemma: (n, v) for lemma, (n, v) in counts.items()}

    def means_first(self, lemma: str, other: str) -> bool:
        """The verb's most frequent sense is that of `other` ("call_off", "scrub" and "cancel" share
        theirs: to annul what was scheduled)."""
        first = self._first_verb_senses.get(lemma.casefold())
        return first is not None and first == self._first_verb_senses.get(other)

    def does_anew(self, lemma: str) -> bool:
        """The verb's most frequent sense is a kind of another verb's sense that it does again, as its
        "re" says ("reschedule" is to schedule anew, "rebook" to book anew): done anew, the thing done
        takes a new value."""
        key = lemma.casefold()
        offset = self._first_verb_senses.get(key)
        if offset is None or not key.startswith("re"):
            return False
        return bool(_kinds_above(self._first_verb_lines[offset]) & set(self._verb_senses.get(key[2:].lstrip("-"), ())))

    def parts_from_an_association(self, lemma: str, between_the_two: bool = False) -> bool:
        """One of the verb's two most frequent senses is, or is a kind of, leaving an association or
        relation: the social sense of "part" ("break up", "split up", "divorce") or of "depart" ("quit",
        "resign", "retire"). A rarer sense says nothing: nearly every verb of motion has one ("leave").
        `between_the_two`: said of the speaker and one person and nothing else ("Arjun and I separated",
        "I separated from Arjun"), where any sense may be the one meant, unless the verb is first one of
        going ("Arjun and I left early")."""
        senses = self._verb_senses.get(lemma.casefold(), ())
        if not between_the_two or self.verb_lexical_file(lemma) == "verb.motion":
            senses = senses[:2]
        return any(self._verb_ancestors(o) & self._parting for o in senses)

    def ends_employment(self, lemma: str) -> bool:
        """Some sense of the verb is, or is a kind of, ending someone's employment: the social sense of
        "sack" ("fire", "lay off"). Said of whom it is done to, the rarer senses of "fire" (a gun, a kiln)
        take no person."""
        return any(self._verb_ancestors(o) & self._dismissal for o in self._verb_senses.get(lemma.casefold(), ()))

    @functools.cached_property
    def _dismissal(self) -> frozenset[int]:
        """The social sense of "sack": to terminate someone's employment."""
        return frozenset(o for o in self._verb_senses.get("sack", ()) if self._verb_file(o) == "verb.social")

    @functools.cached_property
    def _parting(self) -> frozenset[int]:
        """The social senses of "part" and "depart": leaving an association or relation."""
        return frozenset(o for word in ("part", "depart") for o in self._verb_senses.get(word, ())
                         if self._verb_file(o) == "verb.social")

    @functools.lru_cache(maxsize=1024)  # noqa: B019 - one WordNet per process, kept for its life
    def _verb_ancestors(self, offset: int) -> frozenset[int]:
        """The verb synset and every one it is a kind of (its "@" links, transitively)."""
        out, frontier = {offset}, [offset]
        while frontier:
            above = _kinds_above(self._verb_lines[frontier.pop()]) - out
            out |= above
            frontier += above
        return frozenset(out)

    def _verb_file(self, offset: int) -> str:
        return self._lexnames.get(int(self._verb_lines[offset].split()[1]), "")

    @functools.cached_property
    def _verb_lines(self) -> dict[int, str]:
        # every verb synset: large, read once its kinds are asked about (the understanding's warm-up asks)
        with (self._folder / "data.verb").open(encoding="utf-8") as f:
            return {int(line[:8]): line for line in f if line[:1].isdigit()}

    @functools.cached_property
    def _verb_senses(self) -> dict[str, tuple[int, ...]]:
        senses: dict[str, tuple[int, ...]] = {}
        with (self._folder / "index.verb").open(encoding="utf-8") as f:
            for line in f:
                p = line.split()
                if line.startswith(" ") or len(p) < 4:
                    continue
                senses[p[0]] = tuple(int(o) for o in p[4 + int(p[3]) + 2:][:int(p[2])])
        return senses

    @functools.cached_property
    def _first_verb_senses(self) -> dict[str, int]:
        firsts: dict[str, int] = {}
        with (self._folder / "index.verb").open(encoding="utf-8") as f:
            for line in f:
                p = line.split()
                if line.startswith(" ") or len(p) < 4:
                    continue
                firsts[p[0]] = int(p[4 + int(p[3]) + 2])
        return firsts

    @functools.cached_property
    def _first_verb_lines(self) -> dict[int, str]:
        # read on the first verb asked about, not at start-up: only a few readers need the verbs
        wanted = set(self._first_verb_senses.values())
        with (self._folder / "data.verb").open(encoding="utf-8") as f:
            return {int(line[:8]): line for line in f if line[:1].isdigit() and int(line[:8]) in wanted}

    @functools.cached_property
    def _verb_files(self) -> dict[int, str]:
        return {o: self._lexnames.get(int(line.split()[1]), "") for o, line in self._first_verb_lines.items()}

    def nouns_of_verb(self, lemma: str, of_its_sense: bool = False) -> tuple[str, ...]:
        """The nouns WordNet derives from the verb's most frequent sense, from that very verb ("climb"
        -> "climb", "climbing"; "marry" -> "marriage"), never its doer ("climber"): what a question
        may name an event by that was told with the verb. `of_its_sense`: from any verb of that sense
        ("marry" -> "marriage", and "wedding" from "wed"). Empty for a word that is no verb here."""
        offset = self._first_verb_senses.get(lemma.casefold())
        return () if offset is None else self._derived_nouns(self._first_verb_lines[offset], lemma, of_its_sense)

    def nouns_of_adjective(self, lemma: str) -> tuple[str, ...]:
        """The nouns WordNet derives from the adjective's most frequent sense, from that very word
        ("allergic" -> "allergy", "diabetic" -> "diabetes"), never a kind of person: what a question
        asks after of what a person said they are ("do I have any allergy?" of "I'm allergic to
        peanuts"). Empty for a word that is no adjective here."""
        offset = self._first_adjective_senses.get(lemma.casefold())
        return () if offset is None else self._derived_nouns(self._first_adjective_lines[offset], lemma)

    def may_mean(self, adjective: str, other: str) -> bool:
        """One of the adjective's senses is the most frequent sense of `other` ("off", of events, is
        "cancelled": "the wedding is off"), or one WordNet sets beside it as similar ("late", of a
        person, is "having died recently", similar to "dead")."""
        first = self._first_adjective_senses.get(other.casefold())
        senses = self._adjective_senses.get(adjective.casefold(), ())
        return first is not None and (first in senses or any(first in self._similar_adjectives.get(s, ()) for s in senses))

    @functools.cached_property
    def _similar_adjectives(self) -> dict[int, frozenset[int]]:
        # each synset's "similar to" ("&") links
        return {o: frozenset(int(target) for symbol, target, _, _ in _pointers(p) if symbol == "&")
                for o, p in self._adjective_fields.items()}

    @functools.cached_property
    def _adjective_fields(self) -> dict[int, list[str]]:
        # every adjective synset's fields before its gloss, read on the first adjective asked about, not
        # at start-up: only the entity reader and a few others ask
        lines: dict[int, list[str]] = {}
        with (self._folder / "data.adj").open(encoding="utf-8") as f:
            for line in f:
                if line[:1].isdigit():
                    lines[int(line[:8])] = line.split(" | ", 1)[0].split()
        return lines

    @functools.cached_property
    def _adjective_senses(self) -> dict[str, tuple[int, ...]]:
        # read on the first adjective asked about, not at start-up
        with (self._folder / "index.adj").open(encoding="utf-8") as f:
            return {p[0]: tuple(int(o) for o in p[4 + int(p[3]) + 2:][:int(p[2])])
                    for p in (line.split() for line in f if not line.startswith(" ")) if len(p) >= 4}

    @functools.cached_property
    def _first_adjective_senses(self) -> dict[str, int]:
        return {word: senses[0] for word, senses in self._adjective_senses.items() if senses and word[:1].isalpha()}

    @functools.cached_property
    def _first_adjective_lines(self) -> dict[int, str]:
        # read on the first adjective asked about, not at start-up: only the entity reader asks
        wanted = set(self._first_adjective_senses.values())
        with (self._folder / "data.adj").open(encoding="utf-8") as f:
            return {int(line[:8]): line for line in f if line[:1].isdigit() and int(line[:8]) in wanted}

    def _derived_nouns(self, line: str, lemma: str, of_its_sense: bool = False) -> tuple[str, ...]:
        """The nouns a synset's line links as derived ("+") from `lemma` (from any of its words with
        `of_its_sense`), no kind of person."""
        key = lemma.casefold()
        p = line.split(" | ", 1)[0].split()
        lemmas = [w.split("(")[0].casefold() for w in p[4:4 + 2 * int(p[3], 16):2]]
        own = lemmas.index(key) + 1 if key in lemmas else -1
        at = 4 + 2 * len(lemmas)
        found: list[str] = []
        for i in range(int(p[at])):
            symbol, target, pos, words = p[at + 1 + 4 * i: at + 5 + 4 * i]
            # the event, not its doer ("climber"): a person is no thing told of
            if symbol == "+" and pos == "n" and (int(words[:2], 16) == own or of_its_sense and int(words[:2], 16)) \
                    and self._lexnames.get(int(self.field(int(target)))) != "noun.person":
                named = self._lemmas(int(target))
                found.append(named[max(int(words[2:], 16), 1) - 1].replace("_", " "))
        return tuple(dict.fromkeys(found))

    def antonyms(self, adjective: str) -> frozenset[str]:
        """The adjectives WordNet gives as the word's direct opposites, in any of its senses ("old" ->
        "new", "young"; "new" -> "old"): two of them said of the same thing say two different ones of
        it ("the old case number" is not "the new case number"). Empty for a word that is no adjective."""
        return self._adjective_antonyms.get(adjective.casefold(), frozenset())

    def verb_antonyms(self, lemma: str) -> frozenset[str]:
        """The verbs WordNet gives as the verb's direct opposites, in any of its senses ("pass" ->
        "fail"): one said of a thing answers no to the other asked of it."""
        return self._verb_antonyms.get(lemma.casefold(), frozenset())

    @functools.cached_property
    def _verb_antonyms(self) -> dict[str, frozenset[str]]:
        return _antonyms({o: line.split(" | ", 1)[0].split() for o, line in self._verb_lines.items()})

    @functools.cached_property
    def _adjective_antonyms(self) -> dict[str, frozenset[str]]:
        return _antonyms(self._adjective_fields)

    def senses(self, word: str) -> tuple[int, ...]:
        """The noun synsets of a word or phrase ("driving test" -> driving_test), by its base form."""
        form = self._base(word)
        return self._senses[form] if form else ()

    def noun_base(self, word: str) -> str:
        """The form WordNet lists the noun under ("nephews" -> "nephew", typed "my nephews name"), else
        the word in lower case."""
        return self._base(word) or word.casefold()

    def _base(self, word: str) -> str:
        """The form WordNet lists a noun under ("maths" -> "math"); "" for none."""
        key = "_".join(word.casefold().replace("-", " ").split())
        return next((f for f in (key, self._exceptions.get(key, ""), key[:-1] if key.endswith("s") else "")
                     if f and f in self._senses), "")

    @functools.lru_cache(maxsize=16384)  # noqa: B019 - one WordNet per process, kept for its life
    def _links(self, offset: int) -> tuple[tuple[str, int, int], ...]:
        """A synset's links to nouns: the symbol, the target and which of its words the link is from
        (0: the whole synset). Read once per synset: a general one ("person", "organism") lists
        hundreds of links, its hyponyms, and the ancestors of every word asked about pass through it."""
        p = self._lines[offset].split(" | ", 1)[0].split()  # the gloss after " | " holds no link
        at = 4 + 2 * int(p[3], 16)
        fields = p[at + 1:at + 1 + 4 * int(p[at])]  # four fields a link: symbol, target, part of speech, source/target
        return tuple((symbol, int(target), int(source[:2], 16))
                     for symbol, target, pos, source in zip(*(fields[i::4] for i in range(4)), strict=True) if pos == "n")

    def _lemmas(self, offset: int) -> list[str]:
        p = self._lines[offset].split()
        return [w.split("(")[0].casefold() for w in p[4:4 + 2 * int(p[3], 16):2]]

    @functools.lru_cache(maxsize=8192)  # noqa: B019 - one WordNet per process, kept for its life
    def ancestors(self, offset: int, through: frozenset[str]) -> dict[int, int]:
        """Every synset above this one through the given links, with its distance (itself: 0)."""
        out = {offset: 0}
        frontier = [offset]
        depth = 0
        while frontier:
            depth += 1
            reached = []
            for o in frontier:
                for symbol, target, _ in self._links(o):
                    if symbol in through and target not in out:
                        out[target] = depth
                        reached.append(target)
            frontier = reached
        return out

    def containers(self, offset: int) -> set[int]:
        """Every synset containing this one (itself too): its kinds and wholes, and theirs; a group it
        is a member of contains it, and that group's groups, but not the kind the group is: a cat is a
        member of the genus Felis, in the end of the class Mammalia, which is a kind of "class", of
        which a cat is no kind nor part ("my cat" is nothing told of a "pottery class")."""
        seen = {(offset, False)}
        frontier = [(offset, False)]
        while frontier:
            reached = []
            for o, in_a_group in frontier:
                for symbol, target, _ in self._links(o):
                    if symbol not in CONTAINED_IN or (in_a_group and symbol in KIND_OF):
                        continue
                    state = (target, in_a_group or symbol == "#m")
                    if state not in seen:
                        seen.add(state)
                        reached.append(state)
            frontier = reached
        return {o for o, _ in seen}

    def field(self, offset: int) -> str:
        """A synset's lexicographer file (noun.person, noun.plant, ...), as its number."""
        return self._lines[offset].split()[1]

    def _in_one_field(self, a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, int]:
        """The most frequent senses of two words, moved to a pair in one field where that exists."""
        if self.field(a[0]) == self.field(b[0]):
            return a[0], b[0]
        for first, other, swap in ((b[0], a, False), (a[0], b, True)):
            same = next((o for o in other if self.field(o) == self.field(first)), None)
            if same is not None:
                return (first, same) if swap else (same, first)
        return a[0], b[0]

    def derived_kin(self, first: str, second: str) -> bool:
        """Whether one word names what the other, or a kind or whole of it, is for: the word itself
        is, or is derivationally related (WordNet's "+" between nouns, from that very word) to the same
        noun as, an ancestor of the other's sense ("music" and "musical instrument" both give
        "musician", and a cello is a musical instrument). Either way round; by the most frequent
        senses, as sisters are (a rare sense links nearly anything: "car" is also a cable car's cabin)."""
        a, b = self.senses(first), self.senses(second)
        if not a or not b:
            return False
        with self._lock:
            return self._kin(first, a[0], b[0]) or self._kin(second, b[0], a[0])

    def _kin(self, word: str, sense: int, thing: int) -> bool:
        # from the word, not its synonyms: "car" is also "machine", whose "machinist" a computer shares
        base, lemmas = self._base(word), self._lemmas(sense)
        own = lemmas.index(base) + 1 if base in lemmas else -1
        related = {sense, *self._derived(sense, own)}
        return any(above in related or not related.isdisjoint(self._derived(above))
                   for above in self.containers(thing))

    def _derived(self, offset: int, word: int | None = None) -> set[int]:
        """The nouns derivationally related to a synset, or only to its word-th word (from 1)."""
        return {target for symbol, target, source in self._links(offset)
                if symbol == "+" and (word is None or source == word)}

    def _contains(self, above: tuple[int, ...], below: tuple[int, ...], senses: int | None) -> int | None:
        """The least sense rank through which some sense of one word contains some sense of the other
        (the rank of the less frequent sense of the pair, from 0), the contained word only in its
        `senses` most frequent senses when given; None for none."""
        ranks = [max(i, j) for j, y in enumerate(below[:senses]) for i, x in enumerate(above)
                 if x in self._containing(y)]
        return min(ranks, default=None)

    @functools.lru_cache(maxsize=8192)  # noqa: B019 - one WordNet per process, kept for its life
    def _containing(self, offset: int) -> frozenset[int]:
        """Every synset containing this one (its kinds and wholes), and those of the head a two-word
        name of its nearest kind ends with, where that head's most frequent sense lies in the same
        field: a kind WordNet names by a compound is a kind of its head, though filed elsewhere
        ("brother" is a "male sibling", filed under "kinsman", never under "sibling"). Not the word's
        own names: those may be idioms ("sea horse" is no horse, a "proper name" a kind of noun)."""
        out = set(self.containers(offset))
        for kind, depth in self.ancestors(offset, KIND_OF).items():
            heads = [self.senses(w.rsplit("_", 1)[1]) for w in self._lemmas(kind) if w.count("_") == 1] if depth == 1 else []
            out.update(a for h in heads if h and self.field(h[0]) == self.field(kind)
                       for a in self.containers(h[0]))
        return frozenset(out)

    def relation(self, first: str, second: str, sister_depth: int = 2, ancestor_depth: int = 5,
                 senses: int | None = None) -> tuple[Relation, int | None]:
        """How `first` relates to `second`: for the same, broader or narrower, the sense rank it holds
        through (0: both words' most frequent senses; a rare sense relates nearly anything, "pin" the
        tumbler of a lock to "deposit" the depository: whether it is the sense meant is the caller's to
        weigh); with `senses`, the same only through both words' `senses` most frequent senses, and a
        kind or part only named in one of its own (the whole may be a rarer sense: "work" as the
        workplace holds a "shipyard"); for sisters the kind-of distance to their nearest common
        ancestor (the larger of the two)."""
        a, b = self.senses(first), self.senses(second)
        if not a or not b:
            return Relation.UNKNOWN, None
        with self._lock:
            found = [(rank, kind) for kind, rank in (
                (Relation.SAME, min((max(a.index(s), b.index(s)) for s in set(a[:senses]) & set(b[:senses])),
                                    default=None)),
                (Relation.BROADER, self._contains(a, b, senses)),
                (Relation.NARROWER, self._contains(b, a, senses))) if rank is not None]
            if found:
                rank, kind = min(found, key=lambda f: f[0])  # min keeps the first of equal ranks
                return kind, rank
            # sisters by each word's most frequent sense (WordNet lists senses by frequency): a rare
            # sense of nearly any noun has some sister ("cat" / "grey", a horse's colour); where the
            # two most frequent senses lie in different fields, by the first sense of one in the
            # other's field ("mum" is a flower first, a person second: beside "dad", the person)
            x, y = self._in_one_field(a, b)
            up_x, up_y = self.ancestors(x, KIND_OF), self.ancestors(y, KIND_OF)
            common = min(up_x.keys() & up_y.keys(), key=lambda c: max(up_x[c], up_y[c]), default=None)
            if common is None:
                return Relation.UNRELATED, None
            nearest = max(up_x[common], up_y[common])
            # below a common ancestor as general as "person" or "artifact" nearly everything is a sister
            specific = max(self.ancestors(common, KIND_OF).values()) >= ancestor_depth
        if nearest <= sister_depth and specific:
            return Relation.SISTER, nearest
        return Relation.UNRELATED, nearest


def _kinds_above(line: str) -> set[int]:
    """The synsets a data-file line's synset is a kind of (its "@" links)."""
    p = line.split(" | ", 1)[0].split()
    at = 4 + 2 * int(p[3], 16)
    return {int(p[at + 2 + 4 * i]) for i in range(int(p[at])) if p[at + 1 + 4 * i] == "@"}


@functools.cache
def load_wordnet(files: ModelFiles = MODEL_FILES) -> WordNet | None:
    """WordNet from its registry package; None (one log line) when it is not installed."""
    try:
        return WordNet(files.folder("wordnet"))
    except BackendUnavailable as exc:
        log.error("%s; what a question names is compared by cosines alone", exc)
        return None


def a_kind_of(word: str, broader: str) -> bool:
    """WordNet has `word` as a kind of `broader` ("greyhound" of "dog", "daughter" of "child", "asthma"
    of "condition"); False without WordNet."""
    wordnet = load_wordnet()
    return wordnet is not None and wordnet.relation(broader, word)[0] is Relation.BROADER


def _antonyms(lines: dict[int, list[str]]) -> dict[str, frozenset[str]]:
    """Each word's direct opposites ("!" links) in a part of speech's synset lines (offset -> fields)."""
    found: dict[str, set[str]] = {}
    for p in lines.values():
        words = [w.split("(")[0].casefold() for w in p[4:4 + 2 * int(p[3], 16):2]]
        for symbol, target, _, source in _pointers(p):
            other = lines.get(int(target))
            if symbol != "!" or other is None or int(source[:2], 16) == 0:
                continue
            # an antonym is a link between two words, each named by its place in its synset
            said = words[int(source[:2], 16) - 1]
            found.setdefault(said, set()).add(other[4 + 2 * (int(source[2:], 16) - 1)].split("(")[0].casefold())
    return {w: frozenset(a) for w, a in found.items()}


def _pointers(fields: list[str]) -> list[list[str]]:
    """A synset line's pointers, each [symbol, target offset, part of speech, source/target]."""
    at = 4 + 2 * int(fields[3], 16)
    return [fields[at + 1 + 4 * i: at + 5 + 4 * i] for i in range(int(fields[at]))]

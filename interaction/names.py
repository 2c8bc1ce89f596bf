"""Name matching against user_ids.json (a heard name may be misspelt): Levenshtein ratio, strong,
ambiguous or none."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

from rapidfuzz import fuzz

from interaction import cues
from interaction.offline.name_reading import candidates

# what a "no" (or no clear yes) to "is your name ...?" leaves: a new person under the given name (nobody
# was known yet: the reference's rotation), the known speaker as they were, the known speaker
# renamed (they asked for a name close to, but not, another person's), or nobody (the name was a
# word said alone, unasked, and only a yes makes it theirs)
OnNo = Literal["create", "stay", "rename", "nobody"]

# Below this ratio two names are not asked about even when they sound alike ("Mo" vs "Mia").
SOUNDALIKE_MIN_RATIO = 0.5
_SOFT_LETTERS = set("aeiouyhw")


def name_similarity(a: str, b: str) -> float:
    """The Levenshtein ratio of python-Levenshtein (rapidfuzz's Indel-normalised ratio), 0-1,
    ignoring case and surrounding space."""
    return fuzz.ratio(a.strip().casefold(), b.strip().casefold()) / 100.0


def _consonant_skeleton(name: str) -> str:
    """First letter + the remaining consonants, repeats collapsed: "Maya" and "Mia" are both "m"."""
    letters = [c for c in name.strip().casefold() if c.isalpha()]
    if not letters:
        return ""
    out = [letters[0]]
    for c in letters[1:]:
        if c not in _SOFT_LETTERS and c != out[-1]:
            out.append(c)
    return "".join(out)


def sounds_alike(a: str, b: str) -> bool:
    """Spellings of one spoken name that the ratio scores low (Mia / Maya, Sean / Shawn): same first
    letter and consonants, only vowels and soft letters differ. STT transcribes a name either way."""
    return _consonant_skeleton(a) == _consonant_skeleton(b) != "" and name_similarity(a, b) >= SOUNDALIKE_MIN_RATIO


@dataclass(frozen=True)
class NameConfirmation:
    """A stated name that is close to, but not clearly, someone we know: ask "Is your name …?"."""

    given_name: str
    similar_names: tuple[str, ...]
    similar_ids: tuple[str, ...]
    similarity_scores: tuple[float, ...]
    pending_fields: dict = field(default_factory=dict)  # profile facts said with the name
    asked_again: bool = False  # the answer about the top candidate was unclear once already
    on_no: OnNo = "create"
    # a question of their own asked instead of an answer ("when's my mother's birthday?"): whose memory
    # answers it waits on who they are, so it is answered once that is settled
    held_question: str | None = None
    told: bool = False  # news was told instead of an answer: it waits with the question
    # what the one asked about told her, said in the question when others share their name ("you're a
    # civil engineer in Bilbao"): the name alone would tell them apart from no one
    told_of: str | None = None

    @property
    def top_name(self) -> str:
        return self.similar_names[0]

    def rotated(self) -> NameConfirmation:
        return replace(
            self, similar_names=self.similar_names[1:], similar_ids=self.similar_ids[1:],
            similarity_scores=self.similarity_scores[1:], asked_again=False,
        )


@dataclass(frozen=True)
class NameMatch:
    kind: Literal["strong", "ambiguous", "none"]
    user_id: str | None = None  # strong
    user_name: str | None = None  # strong
    # ambiguous; strong: the question that tells the one matched from people whose fuller names begin so
    confirmation: NameConfirmation | None = None
    shared: bool = False  # strong, and someone else has a name as close: the name alone tells them apart from no one


def match_name(given: str, known: dict[str, str], high: float, low: float,
               also_called: dict[str, tuple[str, ...]] | None = None) -> NameMatch:
    """Compare `given` with every name in user_ids.json ({user_id: user_name}); `also_called`: the
    other names people said they are called by ({user_id: names})."""
    scored = sorted(
        ((name_similarity(given, name), uid, name) for uid, name in known.items() if name and name != "Unknown"),
        key=lambda s: (-s[0], s[1]),
    )
    if scored and scored[0][0] >= high:
        top = scored[0]
        # "Sam" is Sam's name and part of Sam Ortiz's: the name alone tells the two apart from no one, so
        # each is asked about, the fuller name first (a no to all of them is someone else called so)
        fuller = [s for s in scored[1:] if s[0] < high and part_of(given, s[2])
                  and len(s[2].split()) > len(given.split())]
        return NameMatch("strong", user_id=top[1], user_name=top[2], shared=len(scored) > 1 and scored[1][0] >= high,
                         confirmation=_question(given, [*fuller, top]) if fuller else None)
    # The paper's LOW-HIGH band asks "Is your name ...?"; a sounds-alike spelling below LOW asks too,
    # because creating a second profile for the same person is worse than one confirmation question.
    # so does a name that is part of the other ("Kenji" for "Kenji Tanaka", or the other way round),
    # and one the person said others call them by ("Maggie" for Margaret): asked about by their name
    # ... also with the surname beside it ("Sam Reyes" for Samantha Reyes, whom everyone calls Sam)
    nicknamed = {uid for uid, names in (also_called or {}).items()
                 if any(name_similarity(given, n) >= high or sounds_alike(given, n)
                        for n in _with_surname(names, known.get(uid) or ""))}
    close = [s for s in scored if s[1] in nicknamed or (not _two_people(given, s[2], low) and (
             low <= s[0] < high or (s[0] < low and (sounds_alike(given, s[2]) or part_of(given, s[2])))))]
    if not close:
        return NameMatch("none")
    return NameMatch("ambiguous", confirmation=_question(given, close))


def _with_surname(names: tuple[str, ...], full: str) -> list[str]:
    """Names others use, and each given name among them with the surname of `full` after it."""
    surname = full.split()[-1:] if len(full.split()) > 1 else []
    return [*names, *(" ".join([n, *surname]) for n in names if surname and len(n.split()) == 1)]


def _two_people(a: str, b: str, low: float) -> bool:
    """Two full names alike through one part whose other part is unlike: a family's names ("Marco Rossi",
    "Elena Rossi") or two people who share a given name ("Anna Jones", "Anna Smith"); never one person's
    name misheard, so never asked about (asking would tell a stranger someone else's name)."""
    if len(a.split()) < 2 or len(b.split()) < 2:
        return False
    return any(name_similarity(part(a), part(b)) < low and not sounds_alike(part(a), part(b))
               for part in (given_name, lambda full: full.split()[-1]))


def _question(given: str, candidates: list[tuple[float, str, str]]) -> NameConfirmation:
    """"Is your name ...?" about each of (score, user id, name), in order."""
    return NameConfirmation(
        given_name=given,
        similar_names=tuple(s[2] for s in candidates),
        similar_ids=tuple(s[1] for s in candidates),
        similarity_scores=tuple(round(s[0], 3) for s in candidates),
    )


def part_of(a: str, b: str) -> bool:
    """One name's words are all among the other's: a first name for a full name."""
    words_a, words_b = set(a.casefold().split()), set(b.casefold().split())
    return words_a != words_b and (words_a <= words_b or words_b <= words_a)


def restates(stated: str, confirmation: NameConfirmation) -> bool:
    """A name said in answer to "is your name <full name>?" that is only part of it ("Ana" to "is your
    name Ana Lima?"): the name the person gave again, neither a yes nor a name of someone else, so it
    leaves the question as unanswered as it was."""
    asked = confirmation.top_name
    return part_of(stated, asked) and len(stated.split()) < len(asked.split())


def says_the_name_asked(text: str, confirmation: NameConfirmation) -> bool:
    """The reply is the whole name the question asks about and nothing else ("jayden cole" to "are you
    Jayden Cole?"): a yes in its words, however it is typed."""
    said = " ".join(re.findall(r"[^\W\d_][\w'\-]*", text)).casefold()
    return bool(said) and said == confirmation.top_name.casefold()


def given_name(full: str) -> str:
    """The name a person is addressed by: the first word of the name they gave."""
    return full.split()[0] if full.split() else full


def address(profile) -> str:  # noqa: ANN001 - a UserProfile
    """What the person is called in a reply: as they asked to be addressed ("Dr. Schmidt", "Greta")
    while that still names them (a name they took since makes it stale), else their given name
    ("Jennifer" of "Jennifer Alvarez")."""
    asked = profile.addressed_as
    if asked and (name_similarity(asked.split()[-1], profile.user_name) >= 0.99 or part_of(asked.split()[-1], profile.user_name)):
        return asked
    return given_name(profile.user_name)


def known_name_in_greeting(text: str, known: dict[str, str], high: float) -> str | None:
    """A turn that opens with a greeting and holds, capitalised where no sentence starts, the given name
    of someone known ({user_id: user_name}): a returning person saying who they are in words the
    introduction readers do not parse ("Hola, soy Lucía", "Hallo, ich bin Lena"); or that is only that
    name, however typed ("nina", "Lucas": a word WordNet knows too). The name as stored, to ask about
    and never to take: "Hi, I ran into Lucía" holds it too."""
    names = [n for n in known.values() if n and n != "Unknown"]
    alone = text.strip(" .!")
    if re.fullmatch(r"[^\W\d_][\w'\-]*", alone):
        return next((n for n in names if name_similarity(alone.capitalize(), given_name(n)) >= high), None)
    if not cues.GREETING.match(text):
        return None
    # the word where a casual introduction says who speaks ("hi it's hope", "rob here"), whatever else it is
    said_as_who = {c.word.casefold() for c in candidates(text, loose=True)}
    for sentence in cues.sentences(text):
        for word in re.findall(r"[^\W\d_][\w'\-]*", sentence)[1:]:
            # typed in lower case elsewhere, only a word that is no English word but a noun is read as the
            # name ("hi amir"; "hi, will you ..." names no Will): then asked about, never taken
            if not (word[:1].isupper() or word.casefold() in said_as_who or _perhaps_a_name(word)):
                continue
            found = next((n for n in names if name_similarity(word.capitalize(), given_name(n)) >= high), None)
            if found is not None:
                return found
    return None


def _perhaps_a_name(word: str) -> bool:
    """WordNet knows the word as no verb, adjective or adverb: unknown to it, or a noun only; False
    without WordNet."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is not None and (not wordnet.knows(word) or wordnet.only_a_noun(word))


def confirmation_question(confirmation: NameConfirmation) -> str:
    who = confirmation.top_name
    if confirmation.told_of:
        who = f"the {who} who told me {confirmation.told_of}"
    if confirmation.held_question is not None:
        return (f"I'd like to answer that, but first I need to know who I'm talking to. "
                f"Are you {who}? Please say yes or no.")
    if confirmation.asked_again and confirmation.told:
        return (f"Thank you for telling me. I can only keep it for you once I know who you are. "
                f"Are you {who}? Please say yes or no.")
    if confirmation.asked_again:
        return f"Sorry, I didn't quite get that. Are you {who}? Please say yes or no."
    if confirmation.told_of:
        # the name they gave is what the people known share ("Sofia" of Sofia and Sofia Rossi)
        return f"I know more than one {confirmation.given_name}. Just to be sure: are you {who}?"
    return f"Sorry, just to be sure: is your name {who}?"

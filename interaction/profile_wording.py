"""Profile facts as Nadine says them back: in the clause the person said them in ("you work as a nurse at
St Mary's hospital in Leeds", "you drive a tram in Zurich"), so a reply never says more or other than
what was said, else by the field's own words ("you work as a paralegal", "you enjoy chess").

A clause is said for every fact heard in it while all of them still hold: once one has ended (a new job
after "I work as a nurse at St Mary's hospital"), the others are said by their own words; a job's town
that a home replaced as the location still holds as the job's place. A place said as
where a job is ("a nurse in Leeds", "I drive a tram in Zurich") is where they work, never "you live
in": the profile keeps it as the location while no home is known, but only a place said as a home
("I live in Leeds", "we moved to Cardiff") is said as one. A job said with a verb ("drive a tram") is
said with it ("you drive a tram"), not as a title ("you work as ...").

The offline replies (confirmations, "what do you know about me?", "where do I work?") and the model's
prompt read the same phrases.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime

from common.store import UserProfile
from common.store.facts import FactRecord, says, value_key
from common.store.profile_fields import FIELDS_BY_NAME, PROFILE_FIELDS
from interaction.offline.articles import (
    articled_in,
    in_the_progressive,
    said_as_a_state,
    said_with_verb,
    spoken,
    with_its_article,
)
from interaction.reported_speech import read_ahead, reported

WORK_FIELDS = ("current_position", "current_company")
_WHEN = {"DATE", "TIME"}
_RELATION = re.compile(r"^(?P<name>.+) \((?P<relation>[^()]+)\)$")  # a relations value: "Ciarán (husband)"


@dataclass(frozen=True)
class Told:
    """One fact as it was told: its field and value, the clause it was said in (the person's words),
    and for a place whether it was said as their home."""

    field: str
    value: str
    clause: str | None = None  # None: not to be said (unknown, or a fact said in it has ended)
    home: bool | None = None
    with_verb: bool = False  # a job said with a verb ("drive a tram")
    # a workplace with the article it was told with ("the Royal Infirmary"), said by the field's words
    # once its clause no longer holds (the job told in it has changed)
    said_as: str | None = None

    @property
    def works_here(self) -> bool:
        """A place said as where their work is, not as a home."""
        return self.field == "location" and self.home is False


def own_words(t: Told) -> str:
    """One fact by its field's words, as Nadine says it ("you work as a nurse", "you drive a tram",
    "you work in Zurich" for a job's place)."""
    if t.field == "current_position" and t.with_verb:
        return f"you're {t.value}" if in_the_progressive(t.value) else f"you {t.value}"
    if t.field == "current_position" and said_as_a_state(t.value):
        return f"you're {t.value}"  # "you're retired", never "you work as retired"
    if t.field == "relations":
        return relation_words(t.value)
    if t.works_here:
        return f"you work in {t.value}"
    return FIELDS_BY_NAME[t.field].now.format(spoken(t.field, t.said_as or t.value))


def relation_of(value: str) -> tuple[str, str] | None:
    """A relations value's (name, relation): "Ciarán (husband)" -> ("Ciarán", "husband"); None for
    another shape."""
    found = _RELATION.match(value)
    return (found["name"], found["relation"]) if found else None


def relation_words(value: str) -> str:
    """A person of theirs as Nadine says it: "Ciarán (husband)" -> "your husband is Ciarán"."""
    held = relation_of(value)
    return f"your {held[1]} is {held[0]}" if held else value


def named_in(told: list[Told], question: str) -> list[Told]:
    """The people of theirs a question names, by their name or how they are theirs ("who is Idris?",
    "what's my partner's name?"); a question naming none of them ("do I have a son?") asks after no
    person held."""
    asked = {w.casefold() for w in re.findall(r"\w+", question)} | _lemmas(question)
    return [t for t in told if t.field != "relations" or asked & {w.casefold() for w in re.findall(r"\w+", t.value)}]


def left_named_in(profile: UserProfile | None, question: str) -> list[str]:
    """The people a question names whom the speaker told they have left, and who hold that place no
    more, as Nadine says it ("Marco is no longer your boyfriend" for "who is my boyfriend?")."""
    return [ended_words(profile, "relations", value) for value in people_left_named_in(profile, question)]


def people_left_named_in(profile: UserProfile | None, question: str) -> list[str]:
    """The relations values ("Marco (boyfriend)") of left_named_in."""
    return [t.value for t in named_in([Told("relations", v) for v in people_left(profile)], question)]


def people_left(profile: UserProfile | None) -> list[str]:
    """The relations values of the people they told they have left, whose place no one holds now."""
    if profile is None:
        return []
    now = {relation_of(r.value)[1] for r in profile.history("relations") if r.current and relation_of(r.value)}
    return [r.value for r in profile.history("relations")
            if not r.current and (held := relation_of(r.value)) and held[1] not in now]


def _lemmas(text: str) -> set[str]:
    """The words' base forms by spaCy's lemmatizer ("whats my brothers name": "brother"); none without
    the parser."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    try:
        return {t.lemma_.casefold() for t in load_parser()(text)}
    except ParserUnavailable:
        return set()


def aged(value: str, told_on: str | None, now: datetime | None) -> str:
    """An age told on `told_on` as it is at `now`: a year older for each full year since."""
    if now is None or not told_on or not value.isdigit():
        return value
    then = datetime.fromisoformat(told_on)
    years = now.year - then.year - ((now.month, now.day) < (then.month, then.day))
    return str(int(value) + max(0, years))


def phrases(told: Iterable[Told]) -> list[str]:
    """The facts as Nadine says them, in field order: a clause once for the facts said in it, each other
    fact by its field's words, a list field's values together ("you enjoy chess and running")."""
    told = sorted(told, key=lambda t: [f.name for f in PROFILE_FIELDS].index(t.field))
    job, absorbed = _job_with_its_place(told)
    read_ahead(t.clause for t in told if t.clause and t not in absorbed)
    out: list[str] = []
    # a clause said within another of the same breath ("I'm working as a florist" in "I moved to Cork,
    # where I'm working as a florist") is said once, in the one that holds it
    seen_clauses: set[str] = set()
    words = {value_key(t.clause): set(re.findall(r"[\w']+", value_key(t.clause))) for t in told
             if t.clause and t not in absorbed}
    within = {k for k, have in words.items() if any(k != other and have <= more for other, more in words.items())}
    listed: dict[str, list[str]] = {}
    # a job said in its clause without its article is said back with it ("you work as a nurse in ...")
    jobs = {value_key(t.clause): t.value for t in told if t.field == "current_position" and t.clause and not t.with_verb}
    for t in told:
        if t in absorbed:
            continue
        if job is not None and t.field == "current_position" and not t.clause:
            out.append(job)
        elif t.clause:
            key = value_key(t.clause)
            if key not in seen_clauses and key not in within:
                seen_clauses.add(key)
                out.append(reported(articled_in(t.clause, jobs[key]) if key in jobs else t.clause))
        elif FIELDS_BY_NAME[t.field].multi and t.field != "relations":  # each person said on their own
            if t.field not in listed:
                listed[t.field] = []
                out.append(t.field)  # placeholder, filled below with every value of the field
            listed[t.field].append(t.value)
        elif not (t.field == "relations" and (held := relation_of(t.value))
                  and any(says(c, held[0]) for c in seen_clauses)):  # a person said in a clause said back
            out.append(own_words(t))
    return [FIELDS_BY_NAME[p].now.format(listing(listed[p])) if p in listed else p for p in out]


def _job_with_its_place(told: list[Told]) -> tuple[str | None, list[Told]]:
    """A job said by its own words with the workplace and the job's town that are too, as one phrase
    ("you work as a nurse at St Mary's hospital in Leeds", "you drive a tram in Zurich"), and the facts
    it took in; None when there is no such job. A job said with a verb takes no employer (its
    preposition is unknown: "for DHL", "at a bakery")."""
    jobs = [t for t in told if t.field == "current_position" and not t.clause]
    if len(jobs) != 1:
        return None, []
    job = jobs[0]
    employers = [t for t in told if t.field == "current_company" and not t.clause and not job.with_verb]
    towns = [t for t in told if t.works_here and not t.clause]
    absorbed = employers[:1] if len(employers) == 1 else []
    absorbed += towns[:1] if len(towns) == 1 else []
    phrase = own_words(job) + "".join(f" {'at' if t.field == 'current_company' else 'in'} {t.said_as or t.value}"
                                      for t in absorbed)
    return phrase, absorbed


def listing(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def current(profile: UserProfile | None, fields: Iterable[str] | None = None,
            now: datetime | None = None) -> list[Told]:
    """What the profile holds now, each fact with its clause while every fact said in that clause still
    holds (and the clause names no value that was forgotten or has ended); an age as it is at `now`
    (as told, without it)."""
    if profile is None:
        return []
    wanted = set(fields) if fields is not None else {f.name for f in PROFILE_FIELDS}
    records = [(name, r) for name in FIELDS_BY_NAME for r in profile.history(name)]
    # a job's town that a home replaced as the location still is where the job is: its clause holds
    home_now = any(r.current and r.home is not False for r in profile.history("location"))
    ended = [(name, r) for name, r in records if not r.current
             and not (name == "location" and r.home is False and r.ended == "superseded" and home_now)]
    stale = {value_key(r.clause) for _, r in ended if r.clause}
    # the town of a job they left is where they worked, no longer where they work ("I'm a shift manager
    # at Tesco in Norwich", then "I quit my job at Tesco"); a job that changed ("I'm a senior nurse now")
    # may still be there
    quit_work = [r for name, r in ended if name in WORK_FIELDS and r.ended == "closed"]
    left_work = {value_key(r.clause) for r in quit_work if r.clause}
    left_in = {_told_in(r) for r in quit_work}
    ended_values = [r.value for _, r in ended]
    held = {value_key(r.value) for _, r in records if r.current}
    kept_from: dict[str, list[str]] = {}  # clause -> the values it told that are held now
    for _, r in records:
        if r.current and r.clause:
            kept_from.setdefault(value_key(r.clause), []).append(r.value)
    _parse_ahead(r.clause for name, r in records if name in wanted and r.current and r.clause)
    out = []
    for name, r in records:
        if name == "location" and r.home is False and (
                (r.clause and value_key(r.clause) in left_work) or _told_in(r) in left_in):
            continue  # ... told in its clause, or in the turn that told the job ("Kemal here, taxi driver in Bristol")
        if name in wanted and r.current:
            usable = r.clause and value_key(r.clause) not in stale and not any(
                says(r.clause, _said_by(v)) and value_key(v) not in held for v in ended_values) \
                and _names_only_kept(r.clause, kept_from[value_key(r.clause)])
            value = aged(r.value, r.valid_from, now) if name == "age" else r.value
            out.append(_told(name, value, r.clause if usable and value == r.value else None, r.home, r.clause))
    return out


def _said_by(value: str) -> str:
    """The words a value is said by in a clause: a person of theirs by their name ("Erik" for "Erik
    (partner)"), so a partner they broke up with is not said back as one in the clause of another fact
    ("I run a bakery with my partner Erik")."""
    held = relation_of(value)
    return held[0] if held else value


def _told_in(record: FactRecord) -> str | None:
    """The turn a fact was told in: its id, or, for facts kept before one was known (a first
    introduction), the moment it was recorded."""
    return record.source.turn_id or record.valid_from


def _told(field: str, value: str, clause: str | None, home: bool | None, said_in: str | None) -> Told:
    said_as = None
    if field == "current_company" and said_in and re.search(rf"(?<!\w)the {re.escape(value)}(?!\w)", said_in, re.IGNORECASE):
        said_as = "the " + value
    return Told(field, value, clause, home, field == "current_position" and said_with_verb(value, said_in), said_as)


def heard(learned: dict, said: dict, profile: UserProfile | None = None) -> list[Told]:
    """The facts learned this turn (field -> value or values) with how each was said (`said`: value ->
    grounding.Grounded, the turn's fact_wording); a value said on an earlier turn (kept until a name
    was known) as the profile now holds it; else by its field's words."""
    held = {(t.field, value_key(t.value)): t for t in current(profile)}
    out = []
    for field, value in learned.items():
        if field not in FIELDS_BY_NAME:
            continue
        for v in value if isinstance(value, list) else [value]:
            g = said.get(str(v))
            if g is None and (field, value_key(str(v))) in held:
                out.append(held[(field, value_key(str(v)))])
                continue
            clause = g.clause if g is not None else None
            out.append(_told(field, str(v), clause, g.words.home if g is not None else None, clause))
    return [t if t.clause is None or _names_only_kept(t.clause, [o.value for o in out if o.clause == t.clause])
            else replace(t, clause=None) for t in out]


def _parse_ahead(clauses: Iterable[str]) -> None:
    """Parse in one spaCy batch the clauses _names_only_kept is about to read one by one (pipe gives
    each the parse of a call of its own, at about a third of the cost)."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    with contextlib.suppress(ParserUnavailable):
        load_parser().pipe(dict.fromkeys(clauses))


def _names_only_kept(clause: str, values: list[str]) -> bool:
    """Every proper name and number said in a clause of its own inside the clause (under a verb other
    than its head: "..., studying chemistry in Leeds") is in one of the values kept from it: said back
    whole, such a clause would tell the person Nadine keeps a fact she does not. A place or a name
    on the fact's own verb is how the fact was told ("I repair pianos in Bristol") and goes with it;
    times say when, not another fact (spaCy's parse; without the parser, every clause is said)."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    try:
        doc = load_parser()(clause)
    except ParserUnavailable:
        return True
    kept = {w for v in values for w in re.findall(r"\w+", v.casefold())}
    return all(t.lower_ in kept for t in doc if (t.pos_ in ("PROPN", "NUM") or t.ent_type_)
               and t.ent_type_ not in _WHEN and _in_a_clause_of_its_own(t))


def _in_a_clause_of_its_own(tok) -> bool:  # noqa: ANN001 - a spaCy Token
    """A verb other than the clause's head stands between the token and that head."""
    node = tok
    while node.head.i != node.i:
        node = node.head
        if node.pos_ == "VERB" and node.head.i != node.i:
            return True
    return False


def work(profile: UserProfile | None) -> list[str]:
    """What they do and where, as said: the job, the workplace and a job's place."""
    facts = current(profile)
    at_work = [t for t in facts if t.field in WORK_FIELDS or t.works_here]
    clauses = {value_key(t.clause) for t in at_work if t.clause}
    # a home said in the same clause as the job ("I live in Oslo, where I teach maths") goes with it
    return phrases([*at_work, *(t for t in facts if t.field == "location" and not t.works_here
                                and t.clause and value_key(t.clause) in clauses)])


def home(profile: UserProfile | None) -> Told | None:
    """Where they live, when a place was said as their home (or kept from before it was known how)."""
    return next((t for t in current(profile, ["location"]) if not t.works_here), None)


def ended_words(profile: UserProfile | None, field: str, value: str) -> str:
    """A fact that stopped, as Nadine says it: "you no longer live in Oslo", "you no longer drive a tram"."""
    held = next((r for r in (profile.history(field) if profile else []) if value_key(r.value) == value_key(value)), None)
    said_in = held.clause if held is not None else None
    if field == "location" and held is not None and held.home is False:
        # the town of a workplace left, no home: the work it was told with ended ("you no longer work at
        # a bookshop in Porto"), not the town
        told = reported(held.clause or "")
        return f"you no longer {told[4:]}" if told.startswith("you ") else f"you no longer work in {spoken(field, value)}"
    if field == "current_position" and said_with_verb(value, said_in):
        return f"you're no longer {value}" if in_the_progressive(value) else f"you no longer {value}"
    if field == "current_position" and said_as_a_state(value):
        return f"you're no longer {value}"
    if field == "relations" and (held := relation_of(value)):
        return f"{held[0]} is no longer your {held[1]}"
    if field == "current_company":
        return FIELDS_BY_NAME[field].ended.format(with_its_article(said_in, value))
    return FIELDS_BY_NAME[field].ended.format(spoken(field, value))


def before_words(field: str, value: str, clause: str | None) -> str:
    """An earlier value, as Nadine says it: in the clause it was told in when there is one ("you told me
    you drove a tram in Zurich" reads "you told me you drive a tram in Zurich"), else by the field."""
    if clause:
        return f"you told me {reported(clause)}"
    return FIELDS_BY_NAME[field].before.format(spoken(field, value))


def told_of(profile: UserProfile, fields: tuple[str, ...]) -> str:
    """What the profile holds of `fields`, as Nadine says it ("you're a civil engineer in Bilbao")."""
    return listing(phrases(current(profile, fields)))

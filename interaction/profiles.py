"""User profiles on the interaction side: MemoryUpdate merge and the name logic (new, known, to confirm).

Who Nadine believes she is talking to is an Identity; every change goes through common.store's
ProfileStore (locked, atomic), so user_ids.json and user_info.json stay consistent with perception.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Literal

from pydantic import BaseModel, ValidationInfo, create_model, field_validator

from common.clock import Clock
from common.store import ProfileStore, UserProfile, validate_user_id
from common.store.facts import Wording
from common.store.profile_fields import LIST_FIELDS, PROFILE_FIELDS
from interaction.names import NameConfirmation, NameMatch, match_name, name_similarity

log = logging.getLogger("nadine.interaction.profiles")

_NO_NAMES = {"", "unknown", "none", "null", "user", "n/a"}


class _MemoryUpdateBase(BaseModel):
    """Profile fields extracted from one utterance (the memory update agent's output); the fact
    fields come from common.store.profile_fields."""

    user_name: str | None = None
    other_names: list[str] = []  # what others call the speaker, as the parse placed it (name_claims.py)
    addressed_as: str | None = None  # how they asked to be addressed, a title with a name ("Dr. Schmidt")

    @field_validator("*", mode="before")
    @classmethod
    def _clean(cls, v: object, info: ValidationInfo) -> object:
        if info.field_name in (*LIST_FIELDS, "other_names"):
            items = [] if v is None else v if isinstance(v, list) else [v]
            return [str(i).strip() for i in items if isinstance(i, str | int | float) and str(i).strip()]
        if v is None or isinstance(v, list | dict):
            return None
        text = str(v).strip()
        return None if text.casefold() in _NO_NAMES else text

    def facts(self) -> dict:
        """Everything except the name that carries a value."""
        return {k: v for k, v in self.model_dump(exclude={"user_name"}).items() if v not in (None, [], "")}


MemoryUpdate = create_model(
    "MemoryUpdate", __base__=_MemoryUpdateBase, __module__=__name__,
    **{f.name: ((list[str], []) if f.multi else (str | None, None)) for f in PROFILE_FIELDS},
)


def _asked(name: str, found: NameMatch) -> NameConfirmation:
    """The question for a stated name that matched: about the one it matched strongly, else the close ones."""
    if found.confirmation is not None:
        return found.confirmation
    return NameConfirmation(name, (found.user_name or name,), (found.user_id or "",), (1.0,))


_TELLING_APART = ("current_position", "current_company", "location", "hometown")  # what a stranger rarely shares


def _content_words(value: str) -> set[str]:
    """A value's words of three letters or more, in lower case ("a civil engineer" -> civil, engineer)."""
    return {w for w in re.findall(r"\w+", value.casefold()) if len(w) > 2}


def _adds_a_surname(stated: str, current: str) -> bool:
    """"Tomas Novak" after "Tomas": the same person giving a fuller name (first names equal)."""
    a, b = stated.casefold().split(), current.casefold().split()
    return bool(a and b) and a[0] == b[0] and len(a) != len(b)


@dataclass
class Identity:
    """Who Nadine believes is in front of her, and how she came to believe it."""

    user_id: str | None = None
    profile: UserProfile | None = None
    source: Literal["face", "dialogue"] | None = None

    @property
    def name(self) -> str | None:
        return self.profile.user_name if self.profile and self.profile.known else None

    @property
    def known(self) -> bool:
        return self.user_id is not None and self.name is not None


MEETS = ("new", "conflict_new")  # the outcomes that make the speaker someone met for the first time
UNSETTLED = ("unsettled", "not_their_name")  # no name taken: who they are is still to be told


@dataclass
class ProfileOutcome:
    # renamed: the known speaker's own profile now holds the name they gave; kept: they declined to be
    # someone else and stay who they were; unsettled: no clear answer to "is your name ...?", so nobody
    # is linked and nobody new is made; shared_name: the same, for a name several people go by;
    # not_their_name: a "no" to a word asked about as their name that nobody known goes by
    kind: Literal["updated", "linked", "new", "conflict_new", "renamed", "kept", "unsettled", "shared_name", "not_their_name",
                  "confirm", "pending", "none"]
    identity: Identity
    confirmation: NameConfirmation | None = None
    learned: dict = field(default_factory=dict)
    wording: Wording = field(default_factory=dict)  # how the facts heard were said (kept with them while pending)

    @property
    def settled(self) -> bool:
        """A name/id pair was settled: perception must link the tracked face to it (USER_INFO)."""
        return self.kind in ("linked", "new", "conflict_new", "renamed") and self.identity.known


class ProfileKeeper:
    def __init__(self, store: ProfileStore, clock: Clock, high: float, low: float) -> None:
        self.store = store
        self.clock = clock
        self.high = high
        self.low = low
        # user_id -> True when a face in view is not that user's (perception matched it against the
        # gallery and found nobody): then a claimed name is not proof, the speaker is someone else
        self.face_refutes: Callable[[str], bool] = lambda user_id: False
        # what a person told of these fields, as Nadine says it back ("you're a civil engineer in
        # Bilbao"; the dialogue sets profile_wording's): it tells apart two people of one name
        self.told_of: Callable[[UserProfile, tuple[str, ...]], str] = lambda profile, fields: ""

    def load(self, user_id: str, name_hint: str | None = None) -> Identity:
        """The identity for a recognised face (id already validated by the caller)."""
        validate_user_id(user_id)
        profile = self.store.load(user_id)
        if profile is None:
            name = name_hint if name_hint and name_hint != "Unknown" else self.store.user_ids().get(user_id)
            profile = UserProfile(user_id=user_id, user_name=name or "Unknown")
        return Identity(user_id, profile, "face")

    def save_user_info(self, identity: Identity, update: MemoryUpdate, carried: dict | None = None,
                       wording: Wording | None = None, renames: bool = False,
                       declined: tuple[str, ...] = (), never_met: bool = False, said: str = "") -> ProfileOutcome:
        """Merge `update` into the right profile, deciding who the speaker is by the stated name;
        `wording`: how its values were said; `renames`: the known speaker says the name is their own
        instead of the one held (name_claims.py); `declined`: user ids the speaker just said they are not;
        `never_met`: the speaker says they and Nadine have never met (first_meeting.py); `said`: the
        turn's words, which may tell apart people who share the name."""
        facts = {**(carried or {}), **update.facts()}
        name = update.user_name
        same_as_current = bool(name and identity.known and (
            name_similarity(name, identity.name or "") >= self.high or _adds_a_surname(name, identity.name or "")
        ))
        if name and identity.known and identity.source == "dialogue" and never_met:
            # "Sorry, I'm Sofia Rossi, we've never met" after "Hi, it's Sofia": known only by a name typed,
            # this is someone new to her, never the one known by that name (a face she knows says
            # otherwise, and is asked about as any other name)
            return self._create(Identity(), name, facts, wording)
        if same_as_current and name and len(name.split()) > len((identity.name or "").split()):
            facts["user_name"] = name  # "Tomas" said "my name is Tomas Novak": the fuller name
        if name and not same_as_current and renames and identity.known:
            others = {uid: n for uid, n in self.store.user_ids().items() if uid not in (identity.user_id, *declined)}
            found = match_name(name, others, self.high, self.low, self._also_called(others))
            if found.kind == "none":
                return self._rename(identity, name, facts, wording)
            # another person's name, or close to one: asked; without a clear yes the speaker stays
            # themselves (renamed only when nobody else has the very name)
            return ProfileOutcome("confirm", identity, replace(
                _asked(name, found), pending_fields=facts, on_no="stay" if found.kind == "strong" else "rename"))
        if name and not same_as_current:
            known = {uid: n for uid, n in self.store.user_ids().items() if uid not in declined}
            found = match_name(name, known, self.high, self.low, self._also_called(known))
            if found.kind == "strong" and found.user_id:
                if identity.known and found.user_id != identity.user_id:
                    # the face, or this conversation, says A and the words say B: ask rather than hand A's
                    # face or typing B's memories; without a clear yes A stays A
                    return ProfileOutcome("confirm", identity, replace(_asked(name, found), pending_fields=facts,
                                                                       on_no="stay"))
                if not identity.known and never_met:
                    return self._create(identity, name, facts, wording)  # someone else who shares the name
                if not identity.known and found.shared:
                    # several people go by the name: linking any of them could hand one the other's
                    # memories, unless what the speaker says of themselves is what one of them told
                    apart = self._told_apart(name, known, facts, said)
                    return ProfileOutcome("confirm", identity, replace(apart, pending_fields=facts)) \
                        if apart is not None else ProfileOutcome("shared_name", identity)
                if not identity.known and found.confirmation is not None:
                    # "Sofia" and "Sofia Rossi" both known: asked about the one what the speaker says of
                    # themselves tells apart ("sofia again, the vet from lisbon"), else the fuller name first
                    apart = self._told_apart(name, known, facts, said, found.confirmation.similar_ids)
                    return ProfileOutcome("confirm", identity, replace(apart or found.confirmation, pending_fields=facts))
                return self._link(found.user_id, facts, same=found.user_id == identity.user_id, claimed=name,
                                  wording=wording)
            # a name given with others of theirs ("call me Teddy, not Theodora") is the one they go by:
            # asked whether they are the person one of those names is, they are called by it on a yes
            called = {**facts, "user_name": name} if update.other_names else facts
            if found.kind == "ambiguous" and found.confirmation:
                if not identity.known and never_met:
                    return self._create(identity, name, facts, wording)  # "Sam" who never met Sam Patel
                return ProfileOutcome("confirm", identity, replace(found.confirmation, pending_fields=called))
            beside = self._by_other_names(update.other_names, known) if not identity.known else found
            if beside.kind != "none":
                return ProfileOutcome("confirm", identity, replace(_asked(name, beside), pending_fields=called))
            return self._create(identity, name, facts, wording)
        if identity.user_id is None:
            # learned: this turn's facts, what a reply may mention; the ones carried wait on as they are
            return ProfileOutcome("pending" if facts else "none", identity, learned=update.facts())
        if not facts:
            return ProfileOutcome("none", identity)
        profile = self.store.update(identity.user_id, facts, self.clock.now(), wording=wording)
        return ProfileOutcome("updated", Identity(identity.user_id, profile, identity.source), learned=facts)

    def _told_apart(self, name: str, known: dict[str, str], facts: dict, text: str,
                    among: tuple[str, ...] = ()) -> NameConfirmation | None:
        """Of the people who go by `name` (and those `among` whose name it is part of), the one whose
        current work or place facts share a word with what the speaker says of themselves now (their
        facts, or the words of the turn besides the name: "Lucía here, the engineer from Bilbao" keeps
        no job, "the" engineer being one in a setting), asked about by what they told; None unless
        exactly one does."""
        said = {w for value in facts.values() for v in (value if isinstance(value, list) else [value])
                if isinstance(v, str) for w in _content_words(v)} | (_content_words(text) - _content_words(name))
        matched = []
        for uid, held_name in known.items():
            profile = self.store.load(uid) if uid in among or name_similarity(name, held_name or "") >= self.high else None
            if profile is not None and any(_content_words(getattr(profile, f) or "") & said for f in _TELLING_APART):
                matched.append((uid, held_name, self.told_of(profile, _TELLING_APART)))
        if len(matched) != 1 or not matched[0][2]:
            return None
        uid, held_name, told_of = matched[0]
        return NameConfirmation(name, (held_name,), (uid,), (1.0,), on_no="stay", told_of=told_of)

    def _by_other_names(self, names: list[str], known: dict[str, str]) -> NameMatch:
        """The first of the speaker's other names that matches someone known, strongly or closely."""
        for other in names:
            found = match_name(other, known, self.high, self.low, self._also_called(known))
            if found.kind != "none":
                return found
        return NameMatch("none")

    def _also_called(self, people: dict[str, str]) -> dict[str, tuple[str, ...]]:
        """The other names each of `people` said they are called by (user_info.json)."""
        out = {}
        for uid in people:
            profile = self.store.load(uid)
            if profile is not None and profile.other_names:
                out[uid] = tuple(profile.other_names)
        return out

    def ask_name(self, identity: Identity, name: str, facts: dict) -> ProfileOutcome:
        """Ask "is your name <name>?" about a word that may be the speaker's name: a yes makes them
        that person (known by it already, or new), anything else leaves them nobody."""
        found = match_name(name, self.store.user_ids(), self.high, self.low)
        if found.confirmation is not None:
            # part of a name known ("Kenji." from Kenji Watanabe) or close to one: asked about that person,
            # as when the word is said as a name; a yes to nobody new
            return ProfileOutcome("confirm", identity, replace(found.confirmation, pending_fields=facts, on_no="nobody"))
        uid = found.user_id if found.kind == "strong" and not found.shared else ""
        return ProfileOutcome("confirm", identity, NameConfirmation(name, (found.user_name or name,), (uid or "",),
                                                                    (1.0,), pending_fields=facts, on_no="nobody"))

    def resolve_confirmation(
        self, identity: Identity, conf: NameConfirmation, affirmative: bool, stated_name: str | None
    ) -> ProfileOutcome:
        """The answer to "Is your name …?": yes / a different name / anything else (rotate)."""
        if affirmative and not stated_name:
            if not conf.similar_ids[0]:  # asked about a name nobody has yet
                return self._create(identity, conf.similar_names[0], conf.pending_fields)
            return self._link(conf.similar_ids[0], conf.pending_fields, claimed=conf.similar_names[0])
        if stated_name:
            for uid, cand in zip(conf.similar_ids, conf.similar_names, strict=True):
                if name_similarity(stated_name, cand) >= self.high:
                    return self._link(uid, conf.pending_fields, claimed=cand)
            # a known speaker who names themselves otherwise in the answer gives their own name; the
            # names asked about are not theirs, so not asked about again ("no, I'm Ann, not Anna")
            return self.save_user_info(identity, MemoryUpdate(user_name=stated_name), conf.pending_fields,
                                       renames=conf.on_no != "create", declined=conf.similar_ids)
        rest = conf.rotated()
        if rest.similar_names:
            return ProfileOutcome("confirm", identity, rest)
        if conf.on_no == "stay" and identity.known:
            return self._keep(identity, conf.pending_fields)
        if conf.on_no == "rename" and identity.known:
            return self._rename(identity, conf.given_name, conf.pending_fields)
        if conf.on_no == "nobody":
            return ProfileOutcome("unsettled" if any(conf.similar_ids) else "not_their_name", identity)
        # the last candidate was declined: the name they gave first is their own
        return self._create(identity, conf.given_name, conf.pending_fields)

    def _rename(self, identity: Identity, name: str, facts: dict, wording: Wording | None = None) -> ProfileOutcome:
        """The known speaker's own profile takes the name (user_info.json and user_ids.json), nothing
        else of it changes."""
        uid = identity.user_id or ""
        profile = self.store.update(uid, {**facts, "user_name": name}, self.clock.now(), wording=wording)
        log.info("renamed: %s is now called %s", uid, name)
        return ProfileOutcome("renamed", Identity(uid, profile, identity.source), learned=facts)

    def _keep(self, identity: Identity, facts: dict) -> ProfileOutcome:
        """No clear yes to being someone else: the speaker stays who they were, with what they said."""
        uid = identity.user_id or ""
        profile = self.store.update(uid, facts, self.clock.now()) if facts else identity.profile
        return ProfileOutcome("kept", Identity(uid, profile, identity.source), learned=facts)

    def _link(self, user_id: str, facts: dict, same: bool = False, claimed: str = "",
              wording: Wording | None = None) -> ProfileOutcome:
        if not same and self.face_refutes(user_id):
            # a different face giving a known name: a new person who shares the name, told nothing
            log.info("identity: the face in view is not %s's; the speaker becomes a new user", user_id)
            return self._create(Identity(), claimed or self.store.user_ids().get(user_id, "Unknown"), facts, wording)
        now = self.clock.now()
        held = self.store.load(user_id)
        if held is not None and facts.get("other_names"):  # the names they said beside the ones held
            facts = {**facts, "other_names": [n for n in dict.fromkeys([*held.other_names, *facts["other_names"]])
                                              if n != facts.get("user_name", held.user_name)]}
        profile = self.store.update(user_id, facts, now, wording=wording) if facts else held
        if profile is None:  # listed in user_ids.json without a profile folder yet
            profile = self.store.update(user_id, {"user_name": self.store.user_ids().get(user_id, "Unknown")}, now)
        return ProfileOutcome("updated" if same else "linked", Identity(user_id, profile, "dialogue"), learned=facts)

    def _create(self, identity: Identity, name: str, facts: dict, wording: Wording | None = None) -> ProfileOutcome:
        now = self.clock.now()
        if identity.user_id is not None and not identity.known:
            user_id, kind = identity.user_id, "new"
        else:
            # a recognised face stating a different, unmatched name is someone else: never overwrite
            kind = "conflict_new" if identity.known else "new"
            user_id = self.store.mint_user_id(name, now)
        profile = self.store.update(user_id, {"user_name": name, **facts}, now, wording=wording)
        if kind == "conflict_new":
            # the name stays out of the log: logs hold pseudonyms only, and outlive a "forget me"
            log.info("identity conflict: face said %s but the speaker gives another name; new user %s",
                     identity.user_id, user_id)
        return ProfileOutcome(kind, Identity(user_id, profile, "dialogue"), learned=facts)

"""Profile facts as typed records with history (seed 002: supersede, never silently overwrite).

A fact is one value of one profile field (FIELDS in profile_fields.py) with the time it became true,
the time it stopped (valid_to, and whether a newer value superseded it or the person said it ended),
where it came from (turn id and date) and how sure the understanding was. The plain user_info.json
fields stay beside the records as the current values, so old tools read them unchanged; a plain value
an old tool changed by hand wins over the records (it is taken as the newest statement).
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel

from common.store.profile_fields import FIELDS_BY_NAME, PROFILE_FIELDS

Operation = Literal["set", "supersede", "close"]


class FactSource(BaseModel):
    turn_id: str | None = None
    date: str | None = None  # ISO 8601, when it was said
    via: Literal["dialogue", "legacy", "edit"] = "dialogue"  # legacy: a plain value found in an older file


class FactWords(BaseModel):
    """How a value was said: the clause it was heard in, in the person's own words ("I work as a nurse at
    St Mary's hospital in Leeds"), so Nadine says back what was said rather than a field's template;
    and, for a place, whether it was said as their home ("I live in Leeds") or as where their work is
    ("a nurse in Leeds"). None where unknown (a value from an older file, an edit, a model)."""

    clause: str | None = None
    home: bool | None = None


class FactRecord(FactWords):
    value: str
    valid_from: str | None = None  # None: true since before Nadine knew
    valid_to: str | None = None  # None while current
    ended: Literal["superseded", "closed"] | None = None
    confidence: float = 1.0
    source: FactSource = FactSource()

    @property
    def current(self) -> bool:
        return self.valid_to is None


class FactChange(FactWords):
    """One decided operation on one field: a new value (set / supersede) or the end of one (close),
    with how a new value was said."""

    field: str
    op: Operation
    value: str | None = None  # close without a value ends the field's current value (one-valued fields)
    confidence: float = 1.0

    @property
    def words(self) -> FactWords:
        return FactWords(clause=self.clause, home=self.home)


def value_key(value: str) -> str:
    return " ".join(value.casefold().split())


def same_value(a: str, b: str) -> bool:
    return value_key(a) == value_key(b)


Wording = dict[tuple[str, str], FactWords]  # (field, value_key(value)) -> how that value was said


def says(clause: str | None, value: str) -> bool:
    """The clause holds the value's words (a forgotten value must not live on in another fact's clause)."""
    return bool(clause) and value_key(value) in value_key(clause or "")


def current_values(records: list[FactRecord]) -> list[str]:
    return [r.value for r in records if r.current]


def _close(record: FactRecord, when: str, ended: Literal["superseded", "closed"]) -> None:
    record.valid_to, record.ended = when, ended


def apply(records: list[FactRecord], multi: bool, change: FactChange, now: datetime,
          source: FactSource) -> bool:
    """Apply `change` to one field's records in place; True when anything changed."""
    when = now.isoformat(timespec="seconds")
    current = [r for r in records if r.current]
    if change.op == "close":
        targets = [r for r in current if (change.value is None and not multi)
                   or (change.value is not None and same_value(r.value, change.value))]
        for record in targets:
            _close(record, when, "closed")
        return bool(targets)
    if not change.value:
        return False
    again = next((r for r in current if same_value(r.value, change.value)), None)
    if again is not None:
        # said again: the record keeps the time it first became true, and takes the newer wording (a town
        # first named as a job's place, then as their home), except that their home stays their home when
        # a job there is named ("I live in Delft", then "I'm a cashier in Delft")
        if change.clause is None or (again.clause, again.home) == (change.clause, change.home) or (
                again.home and change.home is False):
            return False
        again.clause, again.home = change.clause, change.home
        return True
    if not multi:
        for record in current:
            _close(record, when, "superseded")
    records.append(FactRecord(value=change.value, valid_from=when, confidence=change.confidence, source=source,
                              clause=change.clause, home=change.home))
    return True


def without_turns(records: list[FactRecord], turn_ids: frozenset[str]) -> list[FactRecord]:
    """A field's records less those learned in `turn_ids` (turns a forgotten memory took away); a
    record one of them superseded is current again, as if the forgotten words were never said."""
    gone = [r for r in records if r.source.turn_id in turn_ids]
    kept = [r for r in records if r.source.turn_id not in turn_ids]
    for record in kept:
        if record.ended == "superseded" and any(g.valid_from and g.valid_from == record.valid_to for g in gone):
            record.valid_to, record.ended = None, None
    return kept


def reconcile(facts: dict[str, list[FactRecord]], plain: dict[str, object], stamp: str | None) -> None:
    """Bring the records in line with the plain fields (an older file, or an old tool's edit)."""
    for spec in PROFILE_FIELDS:
        records = facts.setdefault(spec.name, [])
        value = plain.get(spec.name)
        wanted = [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str) and v.strip()]
        legacy = FactSource(date=stamp, via="legacy")
        for record in [r for r in records if r.current]:
            if not any(same_value(record.value, w) for w in wanted):
                _close(record, stamp or record.valid_from or "", "superseded" if wanted and not spec.multi else "closed")
        have = current_values(records)
        for w in wanted:
            if not any(same_value(w, h) for h in have):
                records.append(FactRecord(value=w, valid_from=None if not records else stamp, source=legacy))
        if not records:
            del facts[spec.name]


def plain_values(facts: dict[str, list[FactRecord]]) -> dict[str, object]:
    """The plain user_info.json fields the records imply: the current value(s) of each field."""
    out: dict[str, object] = {}
    for spec in PROFILE_FIELDS:
        values = current_values(facts.get(spec.name, []))
        out[spec.name] = values if spec.multi else (values[-1] if values else None)
    return out


def latest_ended(records: list[FactRecord]) -> FactRecord | None:
    """The most recently ended record ("where did I live before?")."""
    ended = [(r.valid_to or "", i, r) for i, r in enumerate(records) if not r.current]
    return max(ended, key=lambda t: t[:2])[2] if ended else None  # ties: the later record


def is_field(name: str) -> bool:
    return name in FIELDS_BY_NAME

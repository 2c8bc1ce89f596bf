"""The profile facts Nadine keeps about a person, declared once: storage, extraction schema, prompts,
offline replies and the inspector all read this table (the reference's user_info.json field names)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ProfileField:
    name: str  # the user_info.json key (reference fields, readable by old tools)
    multi: bool  # a list of values that hold together (hobbies) or one value at a time (location)
    label: str  # for prompts and pages: "lives in"
    now: str  # spoken, present: "you live in {}"
    before: str  # spoken, past: "you lived in {}"
    ended: str  # spoken, a fact that stopped: "you no longer live in {}"
    # its values are people of theirs by name: a request about one of them ("forget what I told you
    # about my aunt") means what was told about them, the name going with it
    names_people: bool = False


PROFILE_FIELDS: tuple[ProfileField, ...] = (
    ProfileField("current_company", False, "works at", "you work at {}", "you worked at {}",
                 "you no longer work at {}"),
    ProfileField("current_position", False, "position", "you work as {}", "you worked as {}",
                 "you no longer work as {}"),
    ProfileField("location", False, "lives in", "you live in {}", "you lived in {}", "you no longer live in {}"),
    # where they come from, beside where they live now: "from Osaka, studying in Manchester"
    ProfileField("hometown", False, "is from", "you're from {}", "you told me you were from {}",
                 "you're no longer from {}"),
    # the age as told; the record's valid_from is when, so it is said as it is now (profile_wording.py)
    ProfileField("age", False, "age", "you're {}", "you were {}", "you're no longer {}"),
    # the people of their life by name, "<name> (<relation>)": "Ciarán (husband)"
    ProfileField("relations", True, "people", "{}", "{}", "you no longer mentioned {}", names_people=True),
    ProfileField("hobbies", True, "hobbies", "you enjoy {}", "you used to enjoy {}", "you've given up {}"),
    ProfileField("interests", True, "interests", "you're interested in {}", "you used to be interested in {}",
                 "you've lost interest in {}"),
)
FIELDS_BY_NAME = {f.name: f for f in PROFILE_FIELDS}
SCALAR_FIELDS = tuple(f.name for f in PROFILE_FIELDS if not f.multi)
LIST_FIELDS = tuple(f.name for f in PROFILE_FIELDS if f.multi)

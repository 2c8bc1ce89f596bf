"""User ids: the paper's format (YYMMDD_NNNN), and validation before any id touches a path."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

USER_ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
# names too generic to scrub from free text (logs, study records) without mangling everything else
UNSCRUBBABLE_NAMES = frozenset({"", "unknown", "none", "null", "user", "nadine"})


class InvalidUserId(ValueError):
    pass


def validate_user_id(user_id: object) -> str:
    """Return the id if it is safe as a single folder name, else raise InvalidUserId."""
    if not isinstance(user_id, str) or not USER_ID_RE.fullmatch(user_id) or user_id in {".", ".."}:
        raise InvalidUserId(f"invalid user id {user_id!r}: allowed are 1-64 of [A-Za-z0-9_-]")
    return user_id


def is_valid_user_id(user_id: object) -> bool:
    try:
        validate_user_id(user_id)
        return True
    except InvalidUserId:
        return False


def new_user_id(existing: Iterable[str], now: datetime, issued_today: int = 0) -> str:
    """Next free id for today, e.g. 251008_0001 (the original robot's YYMMDD_NNNN), above
    `issued_today` (the highest number ever issued today: a forgotten person's id is never given to
    someone else)."""
    day = now.strftime("%y%m%d")
    taken = {int(i[7:]) for i in existing if i.startswith(day + "_") and i[7:].isdigit()}
    n = issued_today + 1
    while n in taken:
        n += 1
    return f"{day}_{n:04d}"

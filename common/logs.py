"""Logging setup: one line per event to stderr and to <log_dir>/<process>.log (rotated).

Process logs never hold a person's user id or name: every handler runs a PseudonymFilter that replaces
them with a per-user pseudonymous id ("user-<hmac>"), the same in every process of one data root, so
a developer can still follow one person through the logs. Forgetting a user therefore has nothing to
rewrite in the logs (the pseudonym leads nowhere once the id and name are gone from the data root).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import logging.handlers
import os
import re
import secrets
import sys
import threading
import time
from pathlib import Path

from common.store.atomic import read_json
from common.store.ids import UNSCRUBBABLE_NAMES
from common.store.layout import DataLayout

FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"
LOG_MAX_BYTES = 10 * 1024 * 1024
LOG_BACKUPS = 5
PSEUDONYM_PREFIX = "user-"
KEY_FILE = "log_pseudonym.key"
# ids Nadine mints (YYMMDD_NNNN) are replaced even before user_ids.json lists them
MINTED_ID = re.compile(r"(?<![A-Za-z0-9_])\d{6}_\d{4}(?![A-Za-z0-9_])")


def _boundary(form: str) -> str:
    # word-ish boundaries so "Ann" does not eat "Annual"
    return r"(?<![A-Za-z0-9_])" + re.escape(form) + r"(?![A-Za-z0-9_])"


def pseudonym_key(layout: DataLayout) -> bytes:
    """The data root's random key for log pseudonyms, created once (first process wins a race)."""
    path = layout.runtime_dir / KEY_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(50):  # the creator may not have written it yet
            key = path.read_bytes()
            if key:
                return key
            time.sleep(0.02)
        raise RuntimeError(f"{path} stays empty") from None
    key = secrets.token_hex(16).encode("ascii")
    with os.fdopen(fd, "wb") as fh:
        fh.write(key)
    return key


class PseudonymFilter(logging.Filter):
    """Replaces user ids and names in a record's message (and traceback) with a pseudonym.

    Ids and names come from the data root's user_ids.json, re-read when it changes; ids and names once
    seen are kept for the process's lifetime (in memory only), so a line logged after a forget still
    hides them."""

    def __init__(self, layout: DataLayout, key: bytes) -> None:
        super().__init__()
        self.layout = layout
        self._key = key
        self._names: dict[str, str] = {}  # casefolded name -> user id
        self._ids: set[str] = set()
        self._pattern: re.Pattern[str] | None = None
        self._stamp: tuple[int, int] | None = None
        self._lock = threading.Lock()

    def pseudonym(self, user_id: str) -> str:
        digest = hmac.new(self._key, user_id.encode("utf-8"), hashlib.sha256).hexdigest()
        return PSEUDONYM_PREFIX + digest[:10]

    def _refresh(self) -> None:
        try:
            st = os.stat(self.layout.user_ids_file)
            stamp = (st.st_mtime_ns, st.st_size)
        except OSError:
            return
        if stamp == self._stamp:
            return
        ids = read_json(self.layout.user_ids_file, default={})
        self._stamp = stamp
        if not isinstance(ids, dict):
            return
        for user_id, name in ids.items():
            self._ids.add(str(user_id))
            if isinstance(name, str) and name.strip() and name.strip().casefold() not in UNSCRUBBABLE_NAMES:
                self._names[name.strip().casefold()] = str(user_id)
        forms = sorted({*self._ids, *self._names}, key=len, reverse=True)
        self._pattern = re.compile("|".join(_boundary(f) for f in forms), re.IGNORECASE) if forms else None

    def scrub(self, text: str) -> str:
        with self._lock:
            self._refresh()
            pattern = self._pattern
        if pattern is not None:
            text = pattern.sub(self._replace, text)
        return MINTED_ID.sub(lambda m: self.pseudonym(m.group(0)), text)

    def _replace(self, match: re.Match[str]) -> str:
        found = match.group(0)
        user_id = found if found in self._ids else self._names.get(found.casefold(), found)
        return self.pseudonym(user_id)

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = self.scrub(record.getMessage())
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.scrub(record.exc_text)
        if record.stack_info:
            record.stack_info = self.scrub(record.stack_info)
        return True


def log_pseudonym(layout: DataLayout, user_id: str) -> str:
    """What the process logs of this data root write for `user_id` (to find a person's log lines)."""
    return PseudonymFilter(layout, pseudonym_key(layout)).pseudonym(user_id)


class ProblemLine(logging.Formatter):
    """One line per problem for the terminal that started the suite: no traceback (the log has it)."""

    def __init__(self, process: str) -> None:
        super().__init__(f"[nadine] {process}: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        return super().format(logging.makeLogRecord({**record.__dict__, "exc_info": None, "exc_text": None,
                                                     "stack_info": None})).splitlines()[0]


class OncePerProblem(logging.Filter):
    """Each kind of problem (one message template of one logger) reaches the terminal once."""

    def __init__(self) -> None:
        super().__init__()
        self._seen: set[tuple[str, str]] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg))
        if key in self._seen:
            return False
        self._seen.add(key)
        return True


def problems_handler(process: str, stream) -> logging.Handler:  # noqa: ANN001 - a text stream
    """Errors only, one line each, once per kind (start_nadine.sh passes its terminal as a descriptor)."""
    handler = logging.StreamHandler(stream)
    handler.setLevel(logging.ERROR)
    handler.setFormatter(ProblemLine(process))
    handler.addFilter(OncePerProblem())
    return handler


def _log_uncaught(exc_type, exc, tb) -> None:
    logging.getLogger("nadine").critical("uncaught exception", exc_info=(exc_type, exc, tb))


def setup_logging(
    process: str, log_dir: Path | None, level: str = "INFO", data_root: Path | None = None, console: bool = True,
    problems=None,  # noqa: ANN001 - a text stream
) -> None:
    """`data_root`: where user_ids.json lives; given, every handler pseudonymises ids and names.
    `console`: also write to stderr (off under start_nadine.sh, which keeps stderr only for crashes of
    native code). `problems`: a stream that gets each error once, on one line (the user's terminal).
    Uncaught exceptions, of any thread, go through the same handlers and filter."""
    root = logging.getLogger()
    root.setLevel(level)
    for handler in list(root.handlers):
        root.removeHandler(handler)
    formatter = logging.Formatter(FORMAT)
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)] if console or log_dir is None else []
    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.handlers.RotatingFileHandler(
            log_dir / f"{process}.log", maxBytes=LOG_MAX_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8"))
    for handler in handlers:
        handler.setFormatter(formatter)
    if problems is not None:
        handlers.append(problems_handler(process, problems))
    privacy = None
    if data_root is not None:
        layout = DataLayout(data_root)
        privacy = PseudonymFilter(layout, pseudonym_key(layout))
    for handler in handlers:
        if privacy is not None:
            handler.addFilter(privacy)
        root.addHandler(handler)
    for noisy in ("httpx", "chromadb", "urllib3", "httpcore", "openai"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    sys.excepthook = _log_uncaught
    threading.excepthook = lambda args: _log_uncaught(args.exc_type, args.exc_value, args.exc_traceback)

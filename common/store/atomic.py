"""Crash- and concurrency-safe file writes for the shared data folder.

A write goes to a temp file in the same folder, is fsynced, then renamed over the target, so a reader
sees the old file or the new one, never half of one. The folder is fsynced after the rename so that the
rename itself survives a power cut; inside folder_syncs_deferred() that waits until the block ends
(once per folder), which leaves a crash the old file or the new one all the same. Read-modify-write cycles (user_ids.json,
user_info.json) hold an advisory lock (filelock's FileLock, an flock on a sibling .lock file) so two
processes cannot lose each other's update. Temp files left by a killed writer are removed by sweep_leftovers().

Inside writes_deferred() a thread's writes wait in memory until write_deferred_now() or the block's
end (however it ends; the process's normal end, if a daemon thread is not let finish it) writes them,
each as above: a dialogue turn's profile writes wait until its reply is handed to control. Meanwhile
this process reads them from memory (read_json, write_json_if_changed), and a lock a waiting write was
made under stays held until it is on disk, so no other process reads the file before it or loses an
update over it. A thread that would wait for a lock another holds writes its waiting files first and
lets their locks go: it never waits while holding a lock it need not.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import logging
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

log = logging.getLogger("nadine.store")

TMP_PREFIX = ".tmp-"
# per user: flock needs every process of one machine to open the same lock file
LOCK_DIR = Path(tempfile.gettempdir()) / f"nadine-locks-{os.getuid()}"
LEFTOVER_AGE_S = 60.0
_deferred = threading.local()  # .folders: folders whose fsync waits; .writes: writes that wait (this thread's)
_waiting: dict[Path, bytes] = {}  # every thread's waiting writes, read by this process in their files' place
_waiting_lock = threading.Lock()


class _DeferredWrites:
    """One thread's waiting writes (path -> bytes, in the order first made) and the locks kept for them."""

    def __init__(self) -> None:
        self.files: dict[Path, bytes] = {}
        self.locks: dict[Path, FileLock] = {}  # lock file -> the lock held until the writes are on disk
        self.made = 0  # writes made so far: a lock released with more than when taken guarded one


def _key(path: Path) -> Path:
    return Path(os.path.abspath(path))


def _waiting_bytes(path: Path) -> bytes | None:
    with _waiting_lock:
        return _waiting.get(_key(path))


def atomic_write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    later: _DeferredWrites | None = getattr(_deferred, "writes", None)
    if later is not None:  # the folder exists at once, the file's bytes wait (readers here see them)
        key = _key(path)
        with _waiting_lock:
            _waiting[key] = data
        later.files[key] = data
        later.made += 1
        return
    _write_file(path, data)


def _write_file(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX, suffix=path.suffix, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    waiting: dict[Path, None] | None = getattr(_deferred, "folders", None)
    if waiting is None:
        _fsync_dir(path.parent)
    else:
        waiting[path.parent] = None


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def _json_bytes(data: Any) -> bytes:
    return (json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n").encode("utf-8")


def atomic_write_json(path: Path, data: Any) -> None:
    atomic_write_bytes(path, _json_bytes(data))


def write_json_if_changed(path: Path, data: Any) -> bool:
    """atomic_write_json, skipped when the file already holds exactly these bytes (no fsync for a
    write that would change nothing); True when it wrote."""
    encoded = _json_bytes(data)
    with contextlib.suppress(OSError):
        if (_waiting_bytes(path) or path.read_bytes()) == encoded:
            return False
    atomic_write_bytes(path, encoded)
    return True


@contextlib.contextmanager
def folder_syncs_deferred() -> Iterator[None]:
    """This thread's atomic writes inside the block fsync their folder when it ends, once per folder
    (a dialogue turn: its reply does not wait for them). Nested blocks sync when the outermost ends."""
    if getattr(_deferred, "folders", None) is not None:
        yield
        return
    waiting: dict[Path, None] = {}
    _deferred.folders = waiting
    try:
        yield
    finally:
        _deferred.folders = None
        for folder in waiting:
            _fsync_dir(folder)


@contextlib.contextmanager
def writes_deferred() -> Iterator[None]:
    """This thread's atomic writes inside the block wait until write_deferred_now() or the block ends
    (see the module docstring). Nested blocks write when the outermost ends."""
    if getattr(_deferred, "writes", None) is not None:
        yield
        return
    _deferred.writes = _DeferredWrites()
    try:
        yield
    finally:
        try:
            write_deferred_now()
        finally:
            _deferred.writes = None


def write_deferred_now() -> None:
    """Write this thread's waiting files (each atomically, in the order first made; every one is tried,
    the first failure raised after), then release the locks kept for them; nothing when none wait."""
    later: _DeferredWrites | None = getattr(_deferred, "writes", None)
    if later is None:
        return
    files, locks = later.files, later.locks
    later.files, later.locks = {}, {}
    failed: BaseException | None = None
    try:
        for path, data in files.items():
            try:
                _write_file(path, data)
            except BaseException as exc:  # noqa: BLE001 - the other files are still written
                log.error("deferred write of %s failed: %s", path, exc)
                failed = failed or exc
            finally:
                with _waiting_lock:
                    if _waiting.get(path) is data:
                        del _waiting[path]
    finally:
        for lock in locks.values():
            lock.release()
    if failed is not None:
        raise failed


def _write_waiting_at_exit() -> None:
    """The process ends normally while a thread's writes still wait (a daemon thread is not let finish
    its block): they are written here, as that thread would have."""
    with _waiting_lock:
        waiting = dict(_waiting)
    for path, data in waiting.items():
        try:
            _write_file(path, data)
        except OSError as exc:
            log.error("deferred write of %s failed at exit: %s", path, exc)


atexit.register(_write_waiting_at_exit)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _lock_path(path: Path, outside: bool) -> Path:
    if not outside:
        return path.with_name(path.name + ".lock")
    digest = hashlib.sha256(str(path.resolve()).encode("utf-8")).hexdigest()[:32]
    return LOCK_DIR / f"{digest}.lock"


@contextlib.contextmanager
def file_lock(path: Path, outside: bool = False) -> Iterator[None]:
    """Exclusive advisory lock tied to `path` (held on `<path>.lock`), across processes and threads.

    `outside`: the lock file goes to one machine-local folder instead (LOCK_DIR), named by a hash of
    the path: for folders people read and hand on (study logs), which would otherwise fill with empty
    lock files named after participants. Every user of one path must pass the same choice."""
    lock_path = _lock_path(path, outside)
    later: _DeferredWrites | None = getattr(_deferred, "writes", None)
    if later is not None and lock_path in later.locks:  # kept by this thread for a write that waits
        kept = later.locks.pop(lock_path)  # in use: a write_deferred_now() inside must not release it
        try:
            yield
        finally:
            later.locks[lock_path] = kept
        return
    lock_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    # A fresh FileLock per call: each holds its own descriptor, so two threads of one process exclude
    # each other exactly as two processes do (flock locks open file descriptions, not processes).
    lock = FileLock(lock_path, mode=0o600)
    if later is None:
        with lock:
            yield
        return
    try:
        lock.acquire(timeout=0)
    except Timeout:
        write_deferred_now()  # never wait for a lock while keeping others for waiting writes
        lock.acquire()
    made = later.made
    try:
        yield
    finally:
        if later.made > made and later.files:
            later.locks[lock_path] = lock  # released once the writes made under it are on disk
        else:
            lock.release()


def read_json(path: Path, default: Any = None) -> Any:
    """Read a JSON file; a missing file gives `default`, a corrupt one is logged and gives `default`."""
    try:
        waiting = _waiting_bytes(path)
        return json.loads(waiting.decode("utf-8") if waiting is not None else path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return default
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        log.warning("unreadable JSON %s skipped: %s", path, exc)
        return default


def sweep_leftovers(root: Path, min_age_s: float = LEFTOVER_AGE_S) -> int:
    """Remove temp files (and folders pending deletion) a killed writer left behind, older than
    min_age_s so live writes survive."""
    removed = 0
    now = time.time()
    if not root.exists():
        return 0
    for tmp in sorted(root.rglob(f"{TMP_PREFIX}*"), key=lambda p: len(p.parts)):
        try:
            if now - tmp.stat().st_mtime < min_age_s:
                continue
            if tmp.is_dir():  # a folder renamed away for deletion (a forget) by a killed process
                shutil.rmtree(tmp, ignore_errors=True)
            else:
                tmp.unlink()
            removed += 1
        except FileNotFoundError:
            continue
    if removed:
        log.info("start-up sweep removed %d incomplete file(s) under %s", removed, root)
    return removed

"""Chroma's SQLite file is rewritten for a forget (VACUUM, blanked log records) in a process of its own.

chromadb's bindings carry their own copy of SQLite; Python's sqlite3 module is another one. SQLite
locks a database with POSIX locks, which belong to a process, not to a connection: two copies in one
process never see each other's locks, and either one closing its file handle drops the other's. A
VACUUM run by Python's copy beside a live Chroma client (interaction's, or the CLI's own) rewrites the
file under Chroma's open transactions, and Chroma then reads a file it no longer understands and
writes its stale pages back (seen: "disk I/O error", then "database disk image is malformed"), a
forgotten person's rows among them. Run from a child process, the purge and Chroma meet through
ordinary file locks, which SQLite is built for: the purge waits for Chroma's transaction, and Chroma
sees the rewritten file on its next one.

The child runs this file isolated (`python -I`: standard library only, no package to import), a JSON
request on stdin and the answer on stdout.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

BUSY_TIMEOUT_S = 30.0  # how long the child waits for Chroma's transaction before the caller retries


def vacuum(db: Path) -> set[str]:
    """VACUUM the file (deleted rows linger in free pages); returns the ids of the segments left."""
    return set(_in_child({"op": "vacuum", "db": str(db)}))


def blank_log_records(db: Path, collection_id: str, doc_ids: list[str]) -> int:
    """Empty the log records (embeddings_queue) of these documents, then VACUUM; returns the records
    blanked."""
    return int(_in_child({"op": "blank", "db": str(db), "collection_id": collection_id, "doc_ids": doc_ids}))


def _in_child(request: dict[str, Any]) -> Any:
    """Run the request in a child process; its SQLite errors come back as sqlite3.OperationalError."""
    try:
        done = subprocess.run([sys.executable, "-I", __file__], input=json.dumps({**request, "busy_s": BUSY_TIMEOUT_S}),
                              capture_output=True, text=True, timeout=BUSY_TIMEOUT_S + 30)
    except subprocess.TimeoutExpired as exc:  # the callers retry a purge that did not finish, as a locked one
        raise sqlite3.OperationalError(f"the purge did not finish within {exc.timeout:.0f} s") from None
    if done.returncode != 0:
        reason = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"
        raise sqlite3.OperationalError(reason)
    return json.loads(done.stdout)


def _run(request: dict[str, Any]) -> Any:
    con = sqlite3.connect(request["db"], timeout=request["busy_s"])
    try:
        if request["op"] == "blank":
            ids = request["doc_ids"]
            marks = ",".join("?" * len(ids))
            cur = con.execute(f"UPDATE embeddings_queue SET vector = zeroblob(length(vector)), metadata = NULL "
                              f"WHERE topic LIKE ? AND id IN ({marks})", [f"%{request['collection_id']}", *ids])
            con.commit()
            con.execute("VACUUM")
            return cur.rowcount
        live = [row[0] for row in con.execute("SELECT id FROM segments")]
        con.execute("VACUUM")
        return live
    finally:
        con.close()


if __name__ == "__main__":
    try:
        print(json.dumps(_run(json.load(sys.stdin))))
    except sqlite3.Error as exc:
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
        raise SystemExit(1) from None

#!/usr/bin/env bash
# Before a commit: lint and import order, then the fast tests (end-to-end ones are marked slow).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/bootstrap.sh" test
cd "$ROOT"
.venv/bin/ruff check common perception interaction control scripts tests
exec .venv/bin/python -m pytest -m "not slow" -q "$@"

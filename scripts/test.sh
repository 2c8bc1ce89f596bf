#!/usr/bin/env bash
# The README's test command: installs what the tests use on first use (scripts/bootstrap.sh test), then runs the whole suite.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/bootstrap.sh" test
cd "$ROOT"
. "$ROOT/scripts/freed_memory.sh"  # the tests write Chroma indexes as interaction does
# Test files run on NADINE_TEST_WORKERS processes (pytest-xdist), each file whole on one of them, so a
# module's suite fixture starts once; most of a test's time is waiting for processes and the broker,
# so three workers keep two cores busy.
exec "${NADINE_VENV:-$ROOT/.venv}/bin/python" -m pytest -n "${NADINE_TEST_WORKERS:-3}" --dist loadfile "$@"

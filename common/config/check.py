"""python -m common.config.check [--print]: validate config + env once (start_nadine.sh runs this first)."""

from __future__ import annotations

import sys

from common.config.loader import ConfigError, dump_effective, load_settings


def main(argv: list[str]) -> int:
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    if "--print" in argv:
        print(dump_effective(settings))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

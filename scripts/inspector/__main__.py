"""python -m scripts.inspector [--port 8765] [--host 127.0.0.1] [--token TOKEN] [--allow-host NAME]

Serves the memory inspector from NADINE_DATA_DIR (or --data-dir). Bound to 127.0.0.1 by default; on
any other address a token is required (--token or NADINE_INSPECTOR_TOKEN), given once as ?token=.
The browser must reach it by the bound address (or `localhost` on loopback) or a name given with
--allow-host; a wildcard binding (0.0.0.0) needs --allow-host.
"""

from __future__ import annotations

import argparse
import os
import sys

import uvicorn

from scripts.cli_settings import cli_settings
from scripts.inspector.app import create_app
from scripts.inspector.guard import is_loopback, is_wildcard, served_hosts

TOKEN_ENV = "NADINE_INSPECTOR_TOKEN"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.inspector", description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--token", default=os.environ.get(TOKEN_ENV), help=f"required off loopback (or {TOKEN_ENV})")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME[:PORT]",
                        help="another name the browser uses for this server (e.g. robot.local); repeatable")
    parser.add_argument("--data-dir", help="data root (default: NADINE_DATA_DIR / common.data_dir)")
    parser.add_argument("--config-override", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    if not is_loopback(args.host) and not args.token:
        print(f"inspector: bound to {args.host} a token is required (--token or {TOKEN_ENV})", file=sys.stderr)
        return 2
    if is_wildcard(args.host) and not args.allow_host:
        print(f"inspector: bound to {args.host} (every address), say which name the browser uses: --allow-host NAME",
              file=sys.stderr)
        return 2
    settings = cli_settings(args, "inspector")
    if settings is None:
        return 2
    app = create_app(settings, token=args.token, hosts=served_hosts(args.host, args.port, args.allow_host))
    print(f"memory inspector on http://{args.host}:{args.port}/ (data root {settings.common.data_dir})", file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""`courtroom config path|show|set`"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from courtroom_desktop.cli import Context


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("config", help="show where settings and data live, print or change settings",
                                   description="Settings are a TOML file in the config folder.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("path", help="print the config file and the data folder")
    actions.add_parser("show", help="print the effective settings as TOML")
    setter = actions.add_parser("set", help="set one setting, e.g. `courtroom config set debate.max_rounds 5`")
    setter.add_argument("key", help="dotted name, e.g. retrieval.k or models.judge.model")
    setter.add_argument("value", help="new value (parsed as TOML when possible, else taken as text)")
    return parser


def run(args: argparse.Namespace, ctx: Context) -> int:
    import tomllib

    import tomli_w

    from courtroom_desktop.core.config import CONFIG_FILE, AppConfig, save_config
    from courtroom_desktop.core.errors import ConfigError

    if args.action == "path":
        print(f"config: {ctx.config_dir / CONFIG_FILE}\ndata:   {ctx.data_dir}")
        return 0
    if args.action == "show":
        print(tomli_w.dumps(ctx.config.model_dump(mode="json", exclude_none=True)))
        return 0
    raw = ctx.config.model_dump(mode="json", exclude_none=True)
    try:
        value = tomllib.loads(f"v = {args.value}")["v"]
    except tomllib.TOMLDecodeError:
        value = args.value
    node = raw
    parts = args.key.split(".")
    for part in parts[:-1]:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            raise ConfigError(f"{args.key}: {part} is not a section")
    node[parts[-1]] = value
    try:
        config = AppConfig.model_validate(raw)
    except Exception as exc:
        raise ConfigError(f"{args.key} = {args.value!r}: {exc}") from exc
    print(f"saved {save_config(config, ctx.config_dir)}")
    return 0

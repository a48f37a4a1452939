"""The `courtroom` command line. Each subcommand lives in its own module exposing

    add_parser(subparsers) -> argparse.ArgumentParser   # registers the subcommand and its --help
    run(args, ctx: Context) -> int                       # the exit status

and is listed in ``SUBCOMMANDS``. Heavy imports (torch, lancedb, llama.cpp) stay inside ``run``
so that `courtroom --help` and the window start fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from courtroom_desktop import APP_NAME, __version__
from courtroom_desktop.cli import words
from courtroom_desktop.core.config import AppConfig, config_dir, data_dir, load_config
from courtroom_desktop.core.errors import CourtroomError

if TYPE_CHECKING:
    from courtroom_desktop.core.services.trials import Workspace

SUBCOMMANDS = ["ingest", "library", "notes", "watch", "search", "trial", "trials", "export", "check", "checks", "eval", "config", "doctor",
               "models", "zotero"]


@dataclass
class Context:
    config_dir: Path
    data_dir: Path
    _config: AppConfig | None = field(default=None, repr=False)

    @property
    def config(self) -> AppConfig:
        if self._config is None:
            self._config = load_config(self.config_dir)
        return self._config

    def workspace(self, models: list[str] | None = None) -> Workspace:
        """The data folder's Workspace with these settings (and ``--model`` overrides); the caller closes it."""
        from courtroom_desktop.core.services.trials import Workspace

        return Workspace(self.config_dir, self.data_dir, self.config).with_models(models or [])


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="courtroom",
        description=f"{APP_NAME}: put a claim on trial against your own PDF library. "
        "With no command, opens the window.",
    )
    parser.add_argument("--version", action="version", version=f"{APP_NAME} {__version__}")
    parser.add_argument("--config-dir", metavar="DIR",
                        help="settings folder (default: $COURTROOM_CONFIG_DIR or the platform config folder)")
    parser.add_argument("--data-dir", metavar="DIR",
                        help="library and trials folder (default: $COURTROOM_DATA_DIR or the platform data folder)")
    parser.add_argument("--language", metavar="CODE",
                        help="language of errors, fixes, the court's reasons and notes: en or zh (default: "
                             "$COURTROOM_LANGUAGE, else the system's locale; help texts stay English)")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        module = importlib.import_module(f"courtroom_desktop.cli.{name}")
        sub = module.add_parser(subparsers)
        sub.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    words.choose(args.language)
    ctx = Context(config_dir=config_dir(args.config_dir), data_dir=data_dir(args.data_dir))
    if args.command is None:
        from courtroom_desktop.ui.app import run_app

        return run_app(ctx.config_dir, ctx.data_dir)
    try:
        return int(args._run(args, ctx) or 0)
    except CourtroomError as exc:
        print(words.label("error") + words.say(str(exc)), file=sys.stderr)
        if exc.fix:
            print(words.label("fix") + words.say(exc.fix), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(words.word("interrupted"), file=sys.stderr)
        return 130

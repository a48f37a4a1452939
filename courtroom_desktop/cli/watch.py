"""`courtroom watch [--once] | add PATH [--private] | remove PATH | list`: watched folders (library.watched_folders),
kept in step with the library while this command (or the window) runs (see core.library.watch)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from courtroom_desktop.cli import words

if TYPE_CHECKING:
    from courtroom_desktop.cli import Context
    from courtroom_desktop.core.services.library import WatchReport


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "watch", help="watch folders: added or changed files are ingested, removed files leave the library",
        description="With no action: bring the watched folders up to date, then watch them until Ctrl+C.")
    parser.add_argument("--once", action="store_true", help="bring the folders up to date and exit")
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    add = actions.add_parser("add", help="watch a folder (saved in the settings)")
    add.add_argument("path")
    add.add_argument("--private", action="store_true", help="every document from this folder is private")
    remove = actions.add_parser("remove", help="stop watching a folder (its documents stay in the library)")
    remove.add_argument("path")
    actions.add_parser("list", help="the watched folders")
    return parser


def run(args: argparse.Namespace, ctx: Context) -> int:
    from pathlib import Path

    from courtroom_desktop.core.config import save_config
    from courtroom_desktop.core.errors import ConfigError
    from courtroom_desktop.core.services.library import folders_of, unwatching, watching

    if args.action == "add":
        if not Path(args.path).expanduser().is_dir():
            raise ConfigError(f"{args.path} is not a folder", fix="name an existing folder")
        save_config(watching(ctx.config, args.path, args.private), ctx.config_dir)
        print(f"watching {Path(args.path).expanduser().resolve()}{' (private)' if args.private else ''}: "
              "run `courtroom watch` (or open the window) to keep it in step")
        return 0
    if args.action == "remove":
        save_config(unwatching(ctx.config, args.path), ctx.config_dir)
        print(f"no longer watching {Path(args.path).expanduser().resolve()}")
        return 0
    folders = folders_of(ctx.config.library)
    if args.action == "list" or not folders:
        for folder in folders:
            print(f"{folder.path}{' (private)' if folder.private else ''}{'' if folder.path.is_dir() else ' (missing)'}")
        if not folders:
            print("No watched folders: `courtroom watch add PATH`.")
        return 0
    workspace = ctx.workspace()

    def report(result: WatchReport) -> None:
        line = result.summary()
        print(line or "up to date", flush=True)
        for path, reason in result.failures:
            print(f"  failed {path}: {reason}", flush=True)

    watcher = workspace.library.folder_watcher(on_report=report, on_error=lambda m: print(words.label("error") + words.say(m)))
    assert watcher is not None  # folders are watched (above)
    try:
        if args.once:
            watcher.sync()
            return 0
        print(f"watching {', '.join(str(f.path) for f in folders)} (Ctrl+C stops)", flush=True)
        try:
            watcher.run()
        except KeyboardInterrupt:
            pass
        return 0
    finally:
        watcher.stop()
        workspace.close()

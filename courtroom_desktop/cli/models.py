"""`courtroom models list | pull NAME | use ROLE=PROVIDER:MODEL`: find, pull and assign the chat models."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from courtroom_desktop.cli import words

if TYPE_CHECKING:
    from courtroom_desktop.cli import Context
    from courtroom_desktop.core.config import ModelSettings, ModelSpec
    from courtroom_desktop.core.services.models import PullProgress

USE_HELP = ("ROLE=PROVIDER:MODEL, e.g. judge=ollama:qwen2.5:14b, all=ollama:llama3.2:3b or "
            "defense=embedded:/path/model.gguf (ROLE: prosecution, defense, judge or all); or 'auto': the assignment "
            "`courtroom models list` proposes")


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "models", help="find the model servers on this computer, pull a model through Ollama, assign models to roles",
        description="list: what Ollama and OpenAI-compatible servers on this computer (LM Studio, llama.cpp's "
        "server, vLLM) offer, the assignment proposed for each role and what each role uses now. pull: download a "
        "model through Ollama (progress, Ctrl+C cancels, pulling again resumes). use: write a role's model to the "
        "settings file.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    lister = actions.add_parser("list", help="the servers and models found, the proposed assignment, the models in use")
    lister.add_argument("--json", action="store_true", help="print what was found as JSON")
    puller = actions.add_parser("pull", help="pull a model through Ollama, e.g. `courtroom models pull qwen2.5:7b`")
    puller.add_argument("name", help="an Ollama model name (see https://ollama.com/library), e.g. qwen2.5:7b")
    puller.add_argument("--url", metavar="URL", help="the Ollama server (default: the one in the settings, else "
                        "$OLLAMA_HOST or http://localhost:11434)")
    user = actions.add_parser("use", help="assign a model to a role (or every role) in the settings file")
    user.add_argument("assignments", nargs="+", metavar="ROLE=PROVIDER:MODEL", help=USE_HELP)
    user.add_argument("--base-url", metavar="URL", help="the server's URL (needed for openai: the API root, e.g. "
                      "http://127.0.0.1:1234/v1)")
    return parser


def run(args: argparse.Namespace, ctx: Context) -> int:
    return {"list": _list, "pull": _pull, "use": _use}[args.action](args, ctx)


# ---------------------------------------------------------------------------- list

def _now_lines(models: ModelSettings) -> list[str]:
    from courtroom_desktop.core.config import ROLES
    from courtroom_desktop.core.services.models import is_demo_spec

    lines = []
    for role in ROLES:
        spec = models.for_role(role)
        what = "the bundled SmolLM2-135M (demo model)" if is_demo_spec(spec) else spec.model or "(no model)"
        where = f" at {spec.base_url}" if spec.base_url and spec.provider != "embedded" else ""
        lines.append(f"{role}: {spec.provider}: {what}{where}")
    return lines


def _list(args: argparse.Namespace, ctx: Context) -> int:
    import json
    from dataclasses import asdict

    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from courtroom_desktop.core.services.models import (
        context_words,
        demo_line,
        detect_blocking,
        human_bytes,
        nothing_found_lines,
        propose,
    )

    config = ctx.config
    detection = detect_blocking()
    proposal = propose(detection.models(), config.models, config.library.embedding_model)
    if args.json:
        print(json.dumps({"servers": [{"name": s.name, "provider": s.provider, "base_url": s.base_url,
                                       "models": [asdict(m) for m in s.models]} for s in detection.servers],
                          "proposal": proposal.lines if proposal else [], "seconds": round(detection.seconds, 3),
                          "now": _now_lines(config.models)}, indent=1))
        return 0
    console = Console(highlight=False)
    console.print(f"[dim]Looked at {len(detection.probed)} usual places in {detection.seconds:.2f} s.[/]")
    if not detection.servers:
        for line in nothing_found_lines(detection):
            console.print(escape(line))
    for server in detection.servers:
        table = Table(title=f"{server.name} at {server.base_url}", title_justify="left")
        for column in ("model", "size", "parameters", "family", "quantisation", "context", "kind"):
            table.add_column(column, overflow="fold")
        for m in server.models:
            kind = "embedding" if m.embedding else "base" if m.chat is False else "chat"
            table.add_row(escape(m.name), human_bytes(m.size_bytes), escape(m.parameter_label or (
                f"{m.parameters_b:.1f}B" if m.parameters_b else "")), escape(m.family), escape(m.quantization),
                context_words(m.context_length) if m.context_length else "", kind)
        if not server.models:
            table.add_row("(no models: pull one, e.g. `courtroom models pull qwen2.5:7b`)", "", "", "", "", "", "")
        console.print(table)
    if proposal is not None:
        console.print("\n[bold]Proposed assignment[/]")
        for line in proposal.lines:
            console.print(f"  {escape(line)}")
        console.print("Use it: [bold]courtroom models use auto[/] (or "
                      f"`courtroom models use {escape(' '.join(proposal.overrides()))}`)")
    console.print("\n[bold]Now[/]")
    for line in _now_lines(config.models):
        console.print(f"  {escape(line)}")
    note = demo_line(config.models, setup="use the proposal above" if proposal else
                     "set up a model: install Ollama, then `courtroom models pull qwen2.5:7b`")
    if note:
        console.print(f"[yellow]{escape(note)}[/]")
    return 0


# ---------------------------------------------------------------------------- pull

def _ollama_url(ctx: Context, given: str | None) -> str:
    if given:
        return given.rstrip("/")
    from courtroom_desktop.core.config import ROLES

    models = ctx.config.models
    for spec in [models.default] + [models.for_role(r) for r in ROLES]:
        if spec.provider == "ollama" and spec.base_url:
            return spec.base_url.rstrip("/")
    return ""


def _pull(args: argparse.Namespace, ctx: Context) -> int:
    import asyncio
    import time

    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

    from courtroom_desktop.core.services.models import human_bytes, pull_model

    console = Console(highlight=False)
    name = args.name.strip()
    progress = Progress(TextColumn("{task.description}"), BarColumn(), DownloadColumn(),
                        TextColumn("{task.fields[speed]}"), TimeRemainingColumn(), console=console, transient=False)
    task = progress.add_task(f"pulling {name}", total=None, speed="")
    said = {"resuming": False}

    def show(p: PullProgress) -> None:
        if p.resuming and not said["resuming"]:
            said["resuming"] = True
            progress.console.print(f"resuming: {human_bytes(p.resumed_from)} of {name} already downloaded")
        speed = f"{p.bytes_per_s / 1e6:.1f} MB/s" if p.bytes_per_s else ""
        progress.update(task, total=p.overall_total or None, completed=p.overall_completed, speed=speed,
                        description=p.status[:40])

    start = time.monotonic()
    try:
        with progress:
            result = asyncio.run(pull_model(name, _ollama_url(ctx, args.url), on_progress=show))
    except KeyboardInterrupt:
        console.print(f"cancelled: Ollama keeps what was downloaded; `courtroom models pull {name}` resumes")
        return 130
    console.print(f"pulled {name} ({human_bytes(result.total_bytes) or 'up to date'} in "
                  f"{time.monotonic() - start:.1f} s)")
    console.print(f"use it: `courtroom models use all=ollama:{name}` (or judge=ollama:{name})")
    return 0


# ---------------------------------------------------------------------------- use

def _use(args: argparse.Namespace, ctx: Context) -> int:
    from courtroom_desktop.core.config import ROLES, AppConfig, ModelSpec, parse_model_override, save_config
    from courtroom_desktop.core.errors import ConfigError

    config = ctx.config
    models = config.models.model_copy(deep=True)
    if args.assignments == ["auto"]:
        from courtroom_desktop.core.services.models import detect_blocking, nothing_found_lines, propose

        detection = detect_blocking()
        proposal = propose(detection.models(), models, config.library.embedding_model)
        if proposal is None:
            raise ConfigError(" ".join(nothing_found_lines(detection)))
        for line in proposal.lines:
            print(line)
        models = proposal.settings(models)
    else:
        for text in args.assignments:
            roles, provider, model = parse_model_override(text)
            for role in roles:
                base = models.for_role(role)
                if args.base_url is not None:
                    url = args.base_url.strip()
                else:
                    url = base.base_url if base.provider == provider else ""
                values = {**base.model_dump(), "provider": provider, "model": model, "base_url": url}
                try:
                    spec = ModelSpec.model_validate(values)
                except ValueError as exc:
                    raise ConfigError(f"{text}: {exc}") from exc
                _validate(spec, role, text)
                setattr(models, role, spec)
    new = AppConfig.model_validate({**config.model_dump(), "models": models.model_dump()})
    path = save_config(new, ctx.config_dir)
    print(f"saved {path}")
    for line in _now_lines(new.models):
        print(f"  {line}")
    warned: set[str] = set()
    for role in ROLES:
        spec = new.models.for_role(role)
        if spec.provider == "ollama" and f"{spec.base_url}|{spec.model}" not in warned:
            warned.add(f"{spec.base_url}|{spec.model}")
            _warn_if_missing(spec)
    print("check them: `courtroom doctor`")
    return 0


def _validate(spec: ModelSpec, role: str, text: str) -> None:
    """The settings build a model (a name, a URL where one is needed); a GGUF path exists and is a GGUF file."""
    from courtroom_desktop.core.errors import ConfigError, CourtroomError
    from courtroom_desktop.core.services.models import build_chat_model

    try:
        build_chat_model(spec, role)
        if spec.provider == "embedded":
            from courtroom_desktop.core.services.models import resolve_gguf

            resolve_gguf(spec.model)
    except CourtroomError as exc:
        hint = " (add --base-url URL)" if spec.provider == "openai" and not spec.base_url else ""
        raise ConfigError(f"{text}: {exc.reason}{hint}", fix=exc.fix) from None


def _warn_if_missing(spec: ModelSpec) -> None:
    """A note (not an error: it may be pulled later) when Ollama does not have the model, or cannot be reached."""
    import asyncio

    from courtroom_desktop.core.errors import CourtroomError
    from courtroom_desktop.core.services.models import list_models, same_model

    quick = spec.model_copy(update={"connect_timeout_s": 1.0, "read_timeout_s": 5.0})
    try:
        names = asyncio.run(list_models(quick))
    except CourtroomError as exc:
        print(words.label("note") + words.say(exc.reason) + (f"; {words.say(exc.fix)}" if exc.fix else ""))
        return
    if not any(same_model(spec.model, n) for n in names):
        print(f"note: {spec.model} is not on Ollama yet: `courtroom models pull {spec.model}`")

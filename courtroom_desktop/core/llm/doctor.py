"""`courtroom doctor`: is every role's model usable, and if not, what to do about it.

For each role: the settings build a model; the server answers (or the GGUF file is there); the model is on it;
the context is large enough; a one-token call works; a structured round trip validates. Each check is a row with
the fix for a failure ("start Ollama", "ollama pull MODEL", "raise num_ctx", "wrong API key", ...). Checks after a
failed prerequisite are reported as skipped. Roles with identical settings are checked once.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from typing import Any

from pydantic import BaseModel, Field

from courtroom_desktop.core.config import ROLES, AppConfig, ModelSettings, ModelSpec
from courtroom_desktop.core.errors import CourtroomError
from courtroom_desktop.core.llm.base import ChatModel
from courtroom_desktop.core.llm.router import build_chat_model, list_models

#: Below this, a courtroom prompt (instructions, history, evidence) does not fit.
MIN_NUM_CTX = 4096

CHECKS = ("settings", "context", "server", "model", "one-token call", "structured call")


class DoctorPing(BaseModel):
    """The structured round trip's schema: small enough for any model."""

    ok: bool = Field(description="Always true.")
    word: str = Field(max_length=40, description="Any one word.")


@dataclass(frozen=True)
class DoctorRow:
    role: str
    provider: str
    model: str
    check: str
    ok: bool | None  # None: skipped because an earlier check failed
    detail: str = ""
    fix: str = ""


def _describe(exc: BaseException) -> tuple[str, str]:
    reason = getattr(exc, "reason", None) or str(exc)
    return reason, getattr(exc, "fix", "")


def _model_label(spec: ModelSpec) -> str:
    if spec.provider == "embedded":
        from courtroom_desktop.core.llm.embedded import display_name

        return display_name(spec.model)
    return spec.model or "(none)"


async def _bounded(coro, seconds: float):
    return await asyncio.wait_for(coro, seconds)


async def check_spec(spec: ModelSpec, role: str, *, calls: bool = True, data_dir: Any = None,
                     model: ChatModel | None = None) -> list[DoctorRow]:
    """The rows for one role's spec. ``model`` replaces the one the spec would build (tests)."""
    label = _model_label(spec)
    rows: list[DoctorRow] = []
    failed = False

    def add(check: str, ok: bool | None, detail: str = "", fix: str = "") -> None:
        nonlocal failed
        rows.append(DoctorRow(role, spec.provider, label, check, ok, detail, fix))
        if ok is False:
            failed = True

    def skip_rest(start: str) -> list[DoctorRow]:
        for name in CHECKS[CHECKS.index(start):]:
            if name in ("one-token call", "structured call") and not calls:
                continue
            add(name, None, "skipped: an earlier check failed")
        return rows

    # settings
    try:
        if model is None:
            kwargs = {"data_dir": data_dir} if spec.provider == "openai" else {}
            model = build_chat_model(spec, role, **kwargs)
        add("settings", True, f"{spec.provider}: {label}")
    except CourtroomError as exc:
        add("settings", False, *_describe(exc))
        if not rows[-1].fix:
            rows[-1] = replace(rows[-1], fix="correct [models] in the settings file")
        return skip_rest("context")

    # context window (known from the settings; the embedded model's is confirmed when it loads)
    window = model.context_window
    if window < MIN_NUM_CTX:
        add("context", False, f"num_ctx is {window}; courtroom prompts need {MIN_NUM_CTX} or more",
            f"raise num_ctx to {MIN_NUM_CTX} or more under [models.{role}] (or [models.default])")
    else:
        add("context", True, f"num_ctx {window}")

    # server (or file) and model presence
    deadline = spec.connect_timeout_s + min(spec.read_timeout_s, 30.0) + 5.0
    try:
        available = await _bounded(list_models(spec, data_dir=data_dir), deadline)
        where = spec.base_url or ("http://localhost:11434" if spec.provider == "ollama" else "local file")
        add("server", True, f"{where}: {len(available)} model(s)")
    except (CourtroomError, TimeoutError) as exc:
        reason, fix = _describe(exc) if not isinstance(exc, TimeoutError) else (
            f"no answer within {deadline:g}s", "check that the server is not stuck")
        add("server", False, reason, fix)
        return skip_rest("model")

    if spec.provider == "embedded":
        try:
            await _bounded(model.load(), max(spec.read_timeout_s, 60.0))  # type: ignore[attr-defined]
            add("model", True, f"loaded {label}")
        except (CourtroomError, TimeoutError) as exc:
            add("model", False, *_describe(exc))
            return skip_rest("one-token call")
    else:
        from courtroom_desktop.core.llm.ollama import same_model

        match = (lambda a, b: same_model(a, b)) if spec.provider == "ollama" else (lambda a, b: a == b)
        if any(match(spec.model, name) for name in available):
            add("model", True, f"{spec.model} is available")
        else:
            shown = ", ".join(available[:8]) + (" ..." if len(available) > 8 else "") or "none"
            fix = f"ollama pull {spec.model}" if spec.provider == "ollama" else (
                "set model to one the server lists")
            add("model", False, f"{spec.model} is not on the server (it has: {shown})", fix)
            return skip_rest("one-token call")

    if not calls or failed:
        return rows if not calls else skip_rest("one-token call")

    budget = spec.read_timeout_s + spec.connect_timeout_s + 5.0
    try:
        text, usage = await _bounded(
            model.complete([{"role": "user", "content": "Reply with the single word: OK"}], max_tokens=1), budget)
        add("one-token call", True, f"{usage.tokens_out} token in {usage.seconds:.2f}s: {text.strip()[:20]!r}")
    except (CourtroomError, TimeoutError) as exc:
        if isinstance(exc, TimeoutError):
            add("one-token call", False, f"no answer within {budget:g}s", "check the server, or raise read_timeout_s")
        else:
            add("one-token call", False, *_describe(exc))
        return skip_rest("structured call")

    try:
        messages = [
            {"role": "system", "content": "You answer with JSON only."},
            {"role": "user", "content": 'Answer {"ok": true, "word": "<any word>"}.'},
        ]
        ping, usage = await _bounded(model.structured(messages, DoctorPing, max_tokens=48), budget * 2)
        add("structured call", True, f"valid JSON in {usage.seconds:.2f}s: {ping.model_dump_json()}")
    except (CourtroomError, TimeoutError) as exc:
        if isinstance(exc, TimeoutError):
            add("structured call", False, f"no answer within {budget * 2:g}s",
                "check the server, or raise read_timeout_s")
        else:
            reason, fix = _describe(exc)
            add("structured call", False, reason, fix or "use a model that follows JSON instructions")
    return rows


async def run_doctor(models: ModelSettings | AppConfig, *, roles: list[str] | None = None, calls: bool = True,
                     data_dir: Any = None, overrides: dict[str, ChatModel] | None = None) -> list[DoctorRow]:
    """Rows for every role (in ROLES order); roles with identical specs share one set of checks."""
    if isinstance(models, AppConfig):
        models = models.models
    done: dict[str, list[DoctorRow]] = {}
    rows: list[DoctorRow] = []
    for role in roles or list(ROLES):
        spec = models.for_role(role)
        key = spec.model_dump_json()
        override = (overrides or {}).get(role)
        if override is None and key in done:
            rows.extend(replace(r, role=role) for r in done[key])
            continue
        result = await check_spec(spec, role, calls=calls, data_dir=data_dir, model=override)
        if override is None:
            done[key] = result
        rows.extend(result)
    return rows


def failed(rows: list[DoctorRow]) -> bool:
    return any(r.ok is False for r in rows)

"""`courtroom doctor`: is every role's model usable, and if not, what to do about it; and how good is it at this job.

For each role: the settings build a model; the server answers (or the GGUF file is there); the model is on it
(a GGUF file loads, and its metadata names the model, its size and context); the context is large enough; a
one-token call works; a structured round trip validates. Each check is a row with the fix for a failure ("start
Ollama", "ollama pull MODEL", "raise num_ctx", "wrong API key", ...). Checks after a failed prerequisite are reported
as skipped. Roles with identical settings are checked once.

Then three short probes rate the model for the court's job, one call each, judged on the first answer:

    JSON          a small schema answered validly, with the facts the prompt gave
    citations     from passages E1..E3, an answer that cites passages, and only those
    known answer  a claim against two passages, one clearly supporting, one irrelevant: "supported", citing the
                  supporting one only

and a rating: good (all three), usable (two), demo only (fewer, or the bundled SmolLM2-135M whatever it scores).
Probe and rating rows have ``kind`` "probe" and "rating"; only failed checks (``kind`` "check") make the doctor fail.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol, TypeVar, cast

from pydantic import BaseModel, Field

from courtroom_desktop.core.config import ROLES, AppConfig, ModelSettings, ModelSpec
from courtroom_desktop.core.errors import CourtroomError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.llm.base import ChatModel
from courtroom_desktop.core.llm.router import build_chat_model, list_models
from courtroom_desktop.core.text import CITATION

#: Below this, a courtroom prompt (instructions, history, evidence) does not fit.
MIN_NUM_CTX = 4096

CHECKS = ("settings", "context", "server", "model", "one-token call", "structured call")
PROBES = ("probe: JSON", "probe: citations", "probe: known answer")
RATINGS = ("good", "usable", "demo only")


class DoctorPing(BaseModel):
    """The structured round trip's schema: small enough for any model."""

    ok: bool = Field(description="Always true.")
    word: str = Field(max_length=40, description="Any one word.")


class ProbeFacts(BaseModel):
    """The JSON probe: facts the prompt states, in a small schema."""

    city: str = Field(max_length=40, description="The city.")
    country: str = Field(max_length=40, description="The country.")
    year: int = Field(ge=1000, le=2100, description="The year it was completed.")


class ProbeClaim(BaseModel):
    """The known-answer probe: a verdict on a claim and the passages it rests on."""

    verdict: Literal["supported", "refuted", "not enough evidence"] = Field(
        description="What the passages say about the claim.")
    evidence: list[str] = Field(max_length=3, description="Ids of the passages the verdict rests on, e.g. E1.")


RATING_FIX = Message("use a larger chat model: `courtroom models list` (or Settings → Models → Find models)")
PROBE_SYSTEM = "You are a careful assistant. Use only the passages you are given."
FACTS_PROMPT = ("The Eiffel Tower in Paris, France, was completed in 1889. Give the city, the country and the year "
                "it was completed.")
CITATION_POOL = {
    "E1": "In a trial of 300 adults, walking 30 minutes a day lowered resting blood pressure within three months.",
    "E2": "Tomatoes reached Europe from the Americas in the sixteenth century.",
    "E3": "Adults who walked every day had fewer heart attacks over ten years than adults who did not.",
}
CITATION_PROMPT = ("Passages:\n" + "\n".join(f"[{k}] {v}" for k, v in CITATION_POOL.items()) +
                   "\n\nQuestion: is daily walking good for the heart? Answer in two sentences. Cite the passages "
                   "you use by their id in square brackets, e.g. [E1].")
CLAIM_POOL = {
    "E1": "The city library opens at nine on weekdays and at ten on Saturdays.",
    "E2": "In a randomised trial of 400 adults, those given vitamin D supplements for a year had clearly higher "
          "blood levels of vitamin D than those given a placebo.",
}
CLAIM = "Vitamin D supplements raise the level of vitamin D in the blood."
CLAIM_PROMPT = ("Passages:\n" + "\n".join(f"[{k}] {v}" for k, v in CLAIM_POOL.items()) +
                f"\n\nClaim: {CLAIM}\nDo the passages support the claim, refute it, or not say? List the ids of "
                "the passages your verdict rests on (leave out passages that do not bear on the claim).")


@dataclass(frozen=True)
class DoctorRow:
    role: str
    provider: str
    model: str
    check: str
    ok: bool | None  # None: skipped because an earlier check failed
    detail: str = ""
    fix: str = ""
    kind: str = "check"  # check (a failure fails the doctor), probe (pass/miss), rating (good, usable, demo only)
    result: str = ""     # the word shown for a probe or rating ("pass", "miss", "good", ...); "" for checks


def _describe(exc: BaseException) -> tuple[str, str]:
    reason = getattr(exc, "reason", None) or str(exc)
    return reason, getattr(exc, "fix", "")


def _model_label(spec: ModelSpec) -> str:
    if spec.provider == "embedded":
        from courtroom_desktop.core.llm.embedded import display_name

        return display_name(spec.model)
    return spec.model or "(none)"


T = TypeVar("T")


class _Loads(Protocol):
    """An embedded model (``EmbeddedChatModel``, or a test's stand-in): loaded before it is called."""

    async def load(self) -> None: ...


async def _bounded(coro: Awaitable[T], seconds: float) -> T:
    return await asyncio.wait_for(coro, seconds)


async def check_spec(spec: ModelSpec, role: str, *, calls: bool = True, data_dir: Any = None,
                     model: ChatModel | None = None, probes: bool = True) -> list[DoctorRow]:
    """The rows for one role's spec, then (with ``calls`` and ``probes``) the probes and the rating. ``model``
    replaces the one the spec would build (tests)."""
    built: list[ChatModel] = [model] if model is not None else []
    rows = await _check_setup(spec, role, calls=calls, data_dir=data_dir, built=built)
    if not (calls and probes):
        return rows
    label = _model_label(spec)
    if any(r.ok is not True for r in rows) or rows[-1].check != "structured call":
        rows.append(DoctorRow(role, spec.provider, label, "rating", None, Message("not rated: an earlier check "
                                                                                  "failed"),
                              Message("fix the failed checks first"), kind="rating", result="not rated"))
        return rows
    from courtroom_desktop.core.llm.demo import is_demo_spec

    if is_demo_spec(spec):  # rated without a call: the bundled model is the demo model whatever it scores
        rows.append(DoctorRow(role, spec.provider, label, "rating", False, Message("the bundled SmolLM2-135M is for trying "
                                                                                   "the app, not for verdicts (not probed)"),
                              RATING_FIX, kind="rating", result="demo only"))
        return rows
    rows.extend(await probe_model(built[0], spec, role))
    return rows


async def _check_setup(spec: ModelSpec, role: str, *, calls: bool, data_dir: Any,
                       built: list[ChatModel]) -> list[DoctorRow]:
    """The setup checks; the model they build (or were given, ``built[0]``) is left in ``built``."""
    model = built[0] if built else None
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
            add(name, None, Message("skipped: an earlier check failed"))
        return rows

    # settings
    try:
        if model is None:
            kwargs = {"data_dir": data_dir} if spec.provider == "openai" else {}
            model = build_chat_model(spec, role, **kwargs)
            built.append(model)  # the probes reuse it (a loaded model, a warm client)
        add("settings", True, Message("{spec.provider}: {label}", spec.provider, label))
    except CourtroomError as exc:
        add("settings", False, *_describe(exc))
        if not rows[-1].fix:
            rows[-1] = replace(rows[-1], fix=Message("correct [models] in the settings file"))
        return skip_rest("context")

    # context window (known from the settings; the embedded model's is confirmed when it loads)
    window = model.context_window
    if window < MIN_NUM_CTX:
        add("context", False, Message("num_ctx is {window}; courtroom prompts need {MIN_NUM_CTX} or more",
                                      window, MIN_NUM_CTX),
            Message("raise num_ctx to {MIN_NUM_CTX} or more under [models.{role}] (or [models.default])",
                    MIN_NUM_CTX, role))
    else:
        add("context", True, Message("num_ctx {window}", window))

    # server (or file) and model presence
    deadline = spec.connect_timeout_s + min(spec.read_timeout_s, 30.0) + 5.0
    try:
        available = await _bounded(list_models(spec, data_dir=data_dir), deadline)
        where = spec.base_url or ("http://localhost:11434" if spec.provider == "ollama" else "local file")
        add("server", True, Message("{where}: {len(available)} model(s)", where, len(available)))
    except (CourtroomError, TimeoutError) as exc:
        reason, fix = _describe(exc) if not isinstance(exc, TimeoutError) else (
            f"no answer within {deadline:g}s", "check that the server is not stuck")
        add("server", False, reason, fix)
        return skip_rest("model")

    if spec.provider == "embedded":
        try:
            await _bounded(cast(_Loads, model).load(), max(spec.read_timeout_s, 60.0))
            described = model.describe() if hasattr(model, "describe") else ""
            add("model", True, f"loaded {label}" + (f": {described}" if described else ""))
        except (CourtroomError, TimeoutError) as exc:
            add("model", False, *_describe(exc))
            return skip_rest("one-token call")
    else:
        from courtroom_desktop.core.llm.ollama import same_model

        match = (lambda a, b: same_model(a, b)) if spec.provider == "ollama" else (lambda a, b: a == b)
        if any(match(spec.model, name) for name in available):
            add("model", True, Message("{spec.model} is available", spec.model))
        else:
            shown = ", ".join(available[:8]) + (" ..." if len(available) > 8 else "") or "none"
            fix = Message("ollama pull {spec.model}", spec.model) if spec.provider == "ollama" else (
                Message("set model to one the server lists"))
            add("model", False, Message("{spec.model} is not on the server (it has: {shown})", spec.model, shown), fix)
            return skip_rest("one-token call")

    if not calls or failed:
        return rows if not calls else skip_rest("one-token call")

    budget = spec.read_timeout_s + spec.connect_timeout_s + 5.0
    try:
        text, usage = await _bounded(
            model.complete([{"role": "user", "content": "Reply with the single word: OK"}], max_tokens=1), budget)
        add(Message("one-token call"), True, Message("{usage.tokens_out} token in {usage.seconds}s: {text.strip()[:20]}",
                                            usage.tokens_out, f'{usage.seconds:.2f}', f'{text.strip()[:20]!r}'))
    except (CourtroomError, TimeoutError) as exc:
        if isinstance(exc, TimeoutError):
            add(Message("one-token call"), False, Message("no answer within {budget}s", f'{budget:g}'),
                Message("check the server, or raise read_timeout_s"))
        else:
            add(Message("one-token call"), False, *_describe(exc))
        return skip_rest("structured call")

    try:
        messages = [
            {"role": "system", "content": "You answer with JSON only."},
            {"role": "user", "content": 'Answer {"ok": true, "word": "<any word>"}.'},
        ]
        ping, usage = await _bounded(model.structured(messages, DoctorPing, max_tokens=48), budget * 2)
        add(Message("structured call"), True, Message("valid JSON in {usage.seconds}s: {ping.model_dump_json()}",
                                             f'{usage.seconds:.2f}', ping.model_dump_json()))
    except (CourtroomError, TimeoutError) as exc:
        if isinstance(exc, TimeoutError):
            add(Message("structured call"), False, Message("no answer within {budget * 2}s", f'{budget * 2:g}'),
                Message("check the server, or raise read_timeout_s"))
        else:
            reason, fix = _describe(exc)
            add(Message("structured call"), False, reason, fix or Message("use a model that follows JSON instructions"))
    return rows


async def _probe(name: str, coro: Awaitable[tuple[bool, str]], budget: float) -> tuple[bool, str]:
    try:
        return await _bounded(coro, budget)
    except TimeoutError:
        return False, Message("no answer within {budget}s", f'{budget:g}')
    except CourtroomError as exc:
        return False, _describe(exc)[0][:200]


async def _probe_json(model: ChatModel) -> tuple[bool, str]:
    messages = [{"role": "system", "content": PROBE_SYSTEM}, {"role": "user", "content": FACTS_PROMPT}]
    facts, _usage = await model.structured(messages, ProbeFacts, max_tokens=64, retry=False)
    right = "paris" in facts.city.lower() and "france" in facts.country.lower() and facts.year == 1889
    shown = facts.model_dump_json()
    return right, (Message("valid and right: {shown}", shown) if right else Message("valid JSON but wrong facts: {shown}", shown))


async def _probe_citations(model: ChatModel) -> tuple[bool, str]:
    messages = [{"role": "system", "content": PROBE_SYSTEM}, {"role": "user", "content": CITATION_PROMPT}]
    text, _usage = await model.complete(messages, max_tokens=120)
    cited = [i for group in CITATION.findall(text) for i in re.findall(r"E\d+", group)]
    unknown = sorted({i for i in cited if i not in CITATION_POOL})
    if not cited:
        return False, Message("cited no passage: {' '.join(text.split())[:100]}", f"{' '.join(text.split())[:100]!r}")
    if unknown:
        return False, Message("cited {', '.join(unknown)}, which it was not given (given: E1, E2, E3)",
                              ', '.join(unknown))
    return True, Message("cited only given passages: {', '.join(sorted(set(cited)))}", ', '.join(sorted(set(cited))))


async def _probe_claim(model: ChatModel) -> tuple[bool, str]:
    messages = [{"role": "system", "content": PROBE_SYSTEM}, {"role": "user", "content": CLAIM_PROMPT}]
    answer, _usage = await model.structured(messages, ProbeClaim, max_tokens=48, retry=False)
    ids = {re.sub(r"[^A-Z0-9]", "", e.upper()) for e in answer.evidence}
    said = Message("{answer.verdict}, citing {', '.join(sorted(ids)) or 'nothing'}",
                   answer.verdict, ', '.join(sorted(ids)) or 'nothing')
    if answer.verdict != "supported":
        return False, Message("said {said} (expected supported, citing E2)", said)
    if "E2" not in ids or "E1" in ids:
        return False, Message("said {said} (expected E2 only: E1 is irrelevant)", said)
    return True, Message("said {said}", said)


def rate(passed: int, demo: bool) -> str:
    """good (three probes), usable (two), demo only (fewer; and always the bundled demo model)."""
    if demo:
        return "demo only"
    return "good" if passed >= len(PROBES) else "usable" if passed == len(PROBES) - 1 else "demo only"


async def probe_model(model: ChatModel, spec: ModelSpec, role: str) -> list[DoctorRow]:
    """The three probes (one short call each) and the rating, as rows."""
    from courtroom_desktop.core.llm.demo import is_demo_spec

    label = _model_label(spec)
    budget = spec.read_timeout_s + spec.connect_timeout_s + 5.0
    rows: list[DoctorRow] = []
    for name, probe in zip(PROBES, (_probe_json, _probe_citations, _probe_claim), strict=True):
        ok, detail = await _probe(name, probe(model), budget)
        rows.append(DoctorRow(role, spec.provider, label, name, ok, detail, "" if ok else
                              Message("a model that misses this may cite wrongly or misjudge evidence in a trial"),
                              kind="probe", result="pass" if ok else "miss"))
    passed = sum(1 for r in rows if r.ok)
    demo = is_demo_spec(spec)
    rating = rate(passed, demo)
    detail = (Message("{passed} of {len(PROBES)} probes passed; the bundled SmolLM2-135M is for trying the app, not "
                      "for verdicts",
                      passed, len(PROBES))
              if demo else Message("{passed} of {len(PROBES)} probes passed", passed, len(PROBES)))
    fix = "" if rating == "good" else RATING_FIX
    rows.append(DoctorRow(role, spec.provider, label, "rating", rating != "demo only", detail, fix, kind="rating",
                          result=rating))
    return rows


async def run_doctor(models: ModelSettings | AppConfig, *, roles: list[str] | None = None, calls: bool = True,
                     data_dir: Any = None, overrides: dict[str, ChatModel] | None = None,
                     probes: bool = True) -> list[DoctorRow]:
    """Rows for every role (in ROLES order); roles with identical specs share one set of checks (and probes)."""
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
        result = await check_spec(spec, role, calls=calls, data_dir=data_dir, model=override, probes=probes)
        if override is None:
            done[key] = result
        rows.extend(result)
    return rows


def failed(rows: list[DoctorRow]) -> bool:
    """A check failed (a missed probe or a low rating is reported, not a failure)."""
    return any(r.ok is False and r.kind == "check" for r in rows)


def ratings(rows: list[DoctorRow]) -> dict[str, str]:
    """role -> its rating ("good", "usable", "demo only", "not rated")."""
    return {r.role: r.result for r in rows if r.kind == "rating"}

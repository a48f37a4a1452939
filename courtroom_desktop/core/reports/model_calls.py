"""A trial's model calls written out, only when asked (``courtroom export --with-prompts``): each call's exact prompt
and raw answer, in prompts.json (for tools) and prompts.md (to read). They hold the documents' text, so no report
includes them by default."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from courtroom_desktop.core.errors import ReportError
from courtroom_desktop.core.records import ModelCall

STEP_WORDS = {"turn": "counsel's turn", "assessment": "the judge's assessment", "ruling": "the judge's ruling",
              "verdict": "the verdict"}


def call_title(call: ModelCall) -> str:
    """'Round 2, counsel's turn 3 (defense): Argument' and the like."""
    where = STEP_WORDS.get(call.step, call.step or "call")
    if call.step == "turn":
        where += f" {call.index + 1}"
    head = f"Round {call.round}, {where}" if call.step != "verdict" else "The verdict"
    what = call.schema_name or "free text"
    return f"{head} ({call.role}): {what}"


def calls_markdown(calls: Sequence[ModelCall]) -> str:
    lines = ["# The model calls of the trial", "",
             "Each call's exact prompt (every message, as the model saw it) and the model's raw answer.", ""]
    fence = "````"
    for n, call in enumerate(calls, 1):
        lines += [f"## {n}. {call_title(call)}", "",
                  f"{call.model} · {call.usage.tokens_in} tokens in, {call.usage.tokens_out} out", ""]
        for message in call.messages:
            lines += [f"**{message.get('role', '')}**", "", fence, message.get("content", ""), fence, ""]
        lines += ["**raw answer**", "", fence, call.answer, fence, ""]
    return "\n".join(lines)


def write_prompts(calls: Sequence[ModelCall], out_dir: Path) -> list[Path]:
    """prompts.json and prompts.md in ``out_dir``; returns their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [out_dir / "prompts.json", out_dir / "prompts.md"]
    try:
        paths[0].write_text(json.dumps({"format": "courtroom-prompts/1",
                                        "calls": [c.model_dump(mode="json") for c in calls]},
                                       ensure_ascii=False, indent=1), encoding="utf-8")
        paths[1].write_text(calls_markdown(calls), encoding="utf-8")
    except OSError as exc:
        raise ReportError(f"cannot write the prompts into {out_dir} ({exc.strerror})") from exc
    return paths

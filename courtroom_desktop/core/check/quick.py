"""The quick check of one claim: one retrieval pass and one judged verdict with citations, held to its record.

The judge's model sees the claim and the retrieved passages (delimited, escaped: data, never instructions) and
answers in a schema whose citations can only be the ids shown. What comes back is held to the record, as a trial's
verdict is (docs/check.md):

- a cited id that was not shown (a model without constrained output may still invent one) is dropped and said;
- a verdict of supported, refuted or mixed that cites no passage is not grounded: it becomes "insufficient evidence"
  with its confidence capped, and a warning says so;
- with no passage found at all, no model is asked: the verdict is "insufficient evidence".
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Sequence
from typing import Annotated, Any

from pydantic import Field, create_model

from courtroom_desktop.core.check.records import QuickResult
from courtroom_desktop.core.court import prompts
from courtroom_desktop.core.court.bench import ChatModel, Retriever
from courtroom_desktop.core.court.records import Bounded, Cap, VerdictLabel
from courtroom_desktop.core.privacy import TrialPolicy
from courtroom_desktop.core.records import Evidence

UNGROUNDED_MAX_CONFIDENCE = 0.3  # an uncited verdict of supported/refuted/mixed becomes insufficient, at most this sure
EXCERPT_WORDS = 90
ID = re.compile(r"^E(\d+)$")

SYSTEM = ("You check one claim from a draft against passages from the user's documents. Decide whether the passages "
          "support the claim, refute it, are mixed (some support, some refute), or are insufficient evidence (they do "
          "not decide it). Cite the ids of the passages your verdict rests on. Give a confidence from 0 to 1 and one "
          "sentence of reason. " + prompts.DATA_RULE)


def verdict_schema(ids: Sequence[str]) -> type[Any]:
    """The quick verdict: citations first (at least one, and only ids shown: a small model under constrained decoding
    then always rests its answer on a passage, as counsel's structured argument does), a label, a confidence, one
    sentence."""
    citations: Any = (prompts.list_of(prompts.one_of(ids)), Field(..., min_length=1, max_length=4,
                                                                       description="Ids of the passages it rests on."))
    return create_model(
        "QuickVerdict", __base__=Bounded,
        citations=citations if ids else (list[str], Field(default_factory=list, max_length=0)),
        label=(VerdictLabel, Field(description="supported, refuted, mixed, or insufficient evidence.")),
        confidence=(float, Field(description="How sure: 0 to 1.")),  # clamped after, never refused for it
        reason=(Annotated[str, Cap(400)], Field("", description="One sentence.")))


def messages(claim: str, passages: Sequence[Evidence], words: int = EXCERPT_WORDS) -> prompts.Messages:
    block = "\n".join(
        f'<evidence id="E{i}" doc="{prompts.attribute(e.doc_title)[:80]}">'
        f"{prompts.escape(prompts.excerpt(e.chunk.text, words))}</evidence>" for i, e in enumerate(passages, start=1))
    return [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": f"<claim>{prompts.escape(claim)}</claim>\n\nPassages:\n{block or '(none found)'}\n\n"
                                    "Is the claim supported, refuted, mixed, or is the evidence insufficient?"},
    ]


async def quick_check(claim: str, retriever: Retriever, model: ChatModel, *, k: int = 6, scope: Any = None,
                      policy: TrialPolicy | None = None, max_tokens: int = 200) -> QuickResult:
    """Retrieve once with the claim and ask ``model`` once; the verdict held to what it cites. ``policy``: while
    text goes to another machine, the search leaves private documents out and the call is refused (TrialError)
    when one is in scope."""
    started = time.monotonic()
    if policy is not None and policy.sends_away:
        scope = policy.scope(scope)
    found = await retriever.asearch([claim], k=k, scope=scope)
    if not found:
        return QuickResult(label=VerdictLabel.insufficient, confidence=0.0, reason="No passage of the library "
                           "matches the claim.", seconds=time.monotonic() - started)
    if policy is not None and policy.sends_away:
        await asyncio.to_thread(policy.check, {e.chunk.doc_id for e in found})
    ids = [f"E{i}" for i in range(1, len(found) + 1)]
    answer, usage = await model.structured(messages(claim, found), verdict_schema(ids), max_tokens=max_tokens)
    return held_to_record(answer.label, answer.confidence, list(answer.citations), answer.reason, found,
                          tokens=usage.tokens_in + usage.tokens_out, seconds=time.monotonic() - started)


def held_to_record(label: VerdictLabel, confidence: float, citations: Sequence[str], reason: str,
                   passages: Sequence[Evidence], tokens: int = 0, seconds: float = 0.0) -> QuickResult:
    """A model's quick verdict made to rest on the passages it was shown (see the module's docstring)."""
    warnings: list[str] = []
    kept: list[str] = []
    for cid in dict.fromkeys(c.strip().upper() for c in citations):
        match = ID.match(cid)
        if match and 1 <= int(match.group(1)) <= len(passages):
            kept.append(cid)
        else:
            warnings.append(f"the verdict cited {cid!r}, which is not among the {len(passages)} passages shown: dropped")
    label = VerdictLabel(label)
    confidence = min(1.0, max(0.0, float(confidence)))
    if label is not VerdictLabel.insufficient and not kept:
        warnings.append(f"the verdict '{label.value}' cited no passage it was shown, so it is not grounded: "
                        f"recorded as insufficient evidence")
        label, confidence = VerdictLabel.insufficient, min(confidence, UNGROUNDED_MAX_CONFIDENCE)
    return QuickResult(label=label, confidence=round(confidence, 3), reason=" ".join(reason.split())[:400],
                       passages=tuple(passages), citations=tuple(kept), warnings=tuple(warnings), tokens=tokens,
                       seconds=round(seconds, 3))

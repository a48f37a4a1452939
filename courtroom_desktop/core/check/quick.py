"""The quick check of one claim: one retrieval pass, every passage scored by the claim verifier, the label decided
by the label rule over those scores (``core.court.scored``), and one sentence of reason.

The chat model explains; it cannot overrule the rule (docs/check.md):

- the label, its confidence and the passages it rests on come from the verifier's calibrated scores: a label with no
  passage scored for it cannot come out, and a claim whose numbers no passage states is at best insufficient
  evidence, with the missing quantities named;
- the judge's model is then shown the claim, the passages (delimited, escaped: data, never instructions) and the
  label, and asked for one sentence of reason; a reason that contradicts the label ("no evidence is provided" beside
  supported) is set aside for the rule's own sentence, and a warning says so;
- with no passage found at all, neither the verifier nor a model is asked: the verdict is "insufficient evidence".
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import Field

from courtroom_desktop.core.check.records import QuickResult
from courtroom_desktop.core.court import prompts
from courtroom_desktop.core.court.bench import ChatModel, Retriever, Verifier
from courtroom_desktop.core.court.records import Bounded, Cap, VerdictLabel
from courtroom_desktop.core.court.scored import RULE_PASSAGES, Ruled, contradicts, decide, numbered
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.privacy import TrialPolicy
from courtroom_desktop.core.records import Evidence
from courtroom_desktop.core.text import language_of

EXCERPT_WORDS = 80
SHOWN = 3  # passages the explanation's prompt shows

SYSTEM = ("You explain, in one sentence, why passages from the user's documents give a claim the verdict stated. The "
          "verdict is already decided from scored evidence: do not change it, explain it, naming the passage ids it "
          "rests on. " + prompts.DATA_RULE)


class Explanation(Bounded):
    reason: Annotated[str, Cap(300)] = Field("", description="One sentence: why the passages give this verdict.")


def messages(claim: str, passages: Sequence[Evidence], ruled: Ruled, words: int = EXCERPT_WORDS) -> prompts.Messages:
    """The explanation's prompt: the claim, the label, and the passages it rests on (at most ``SHOWN``, under their
    ids; with none, the first ``SHOWN`` retrieved), so a small model reads little and cannot wander."""
    ids = list(ruled.backing[:SHOWN]) or [f"E{i}" for i in range(1, min(SHOWN, len(passages)) + 1)]
    block = "\n".join(
        f'<evidence id="{cid}" doc="{prompts.attribute(passages[int(cid[1:]) - 1].doc_title)[:80]}">'
        f"{prompts.escape(prompts.excerpt(passages[int(cid[1:]) - 1].chunk.text, words))}</evidence>" for cid in ids)
    rests = f" It rests on {', '.join(ruled.backing)}." if ruled.backing else ""
    return [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": f"<claim>{prompts.escape(claim)}</claim>\n\nPassages:\n{block}\n\n"
                                    f"Verdict: {ruled.label.value}.{rests} {ruled.reason('en')}\n"
                                    "In one sentence, why?"},
    ]


#: What a cited source's own passages say of a claim, by the label the rule gives over them alone
SAYS: dict[VerdictLabel, Literal["supports", "refutes", "does not address"]] = {
    VerdictLabel.supported: "supports", VerdictLabel.refuted: "refutes"}


async def quick_check(claim: str, retriever: Retriever, model: ChatModel | None, verifier: Verifier, *, k: int = 6,
                      scope: Any = None, policy: TrialPolicy | None = None, max_tokens: int = 80,
                      insufficient_cap: float = 0.5, cited: Any = None) -> QuickResult:
    """Retrieve once with the claim, score every passage, decide by the rule, and ask ``model`` (None: no model) for
    the reason. ``policy``: while text goes to another machine, the search leaves private documents out and the call
    is refused (TrialError) when one is in scope. ``cited``: the scope of the sources the claim cites (None: it cites
    none the library has): they are searched first, what they alone say is ``cited_says``, and their passages come
    first, before those of the rest of the library."""
    started = time.monotonic()
    if policy is not None and policy.sends_away:
        scope = policy.scope(scope)
        cited = policy.scope(cited) if cited is not None else None
    first: list[Evidence] = []
    cited_says: Literal["supports", "refutes", "does not address", ""] = ""
    if cited is not None:
        first = list(await retriever.asearch([claim], k=k, scope=cited))
        cited_says = "does not address"
        if first:
            own = await asyncio.to_thread(verifier.score, [(claim, e.chunk.text) for e in first])
            cited_says = SAYS.get(decide(claim, numbered([e.chunk.text for e in first], own,
                                                         [e.retracted for e in first]), insufficient_cap).label,
                                  "does not address")
    rest = await retriever.asearch([claim], k=k, scope=scope)
    seen = {e.chunk.id for e in first}
    found = first + [e for e in rest if e.chunk.id not in seen]
    if not found:
        return QuickResult(label=VerdictLabel.insufficient, confidence=0.0,
                           reason=Message("No passage of the library matches the claim."), cited_says=cited_says,
                           seconds=time.monotonic() - started)
    readings = await asyncio.to_thread(verifier.score, [(claim, e.chunk.text) for e in found])
    shown = numbered([e.chunk.text for e in found], readings, [e.retracted for e in found])
    # the rule reads the search's best RULE_PASSAGES: those of the cited sources' search, then those of the library's
    deciding = shown[:min(len(first), RULE_PASSAGES)] + shown[len(first):len(first) + RULE_PASSAGES]
    ruled = decide(claim, deciding, insufficient_cap, top=len(deciding))
    reason, warnings, tokens = ruled.reason(language_of(claim)), [], 0
    by: Literal["rule", "model"] = "rule"
    if model is not None:
        if policy is not None and policy.sends_away:
            await asyncio.to_thread(policy.check, {e.chunk.doc_id for e in found})
        answer, usage = await model.structured(messages(claim, found, ruled), Explanation, max_tokens=max_tokens)
        tokens = usage.tokens_in + usage.tokens_out
        said = " ".join(answer.reason.split())
        problem = contradicts(ruled.label, said)
        if problem:
            warnings.append(f"the chat model's reason was set aside ({problem}): the rule's reason stands")
        elif said:
            reason, by = said, "model"
    return QuickResult(label=ruled.label, confidence=ruled.confidence, reason=reason[:400], reason_by=by,
                       passages=tuple(found), readings=tuple(readings), citations=ruled.backing,
                       missing=ruled.missing, warnings=tuple(warnings), tokens=tokens, cited_says=cited_says,
                       seconds=round(time.monotonic() - started, 3))

"""Courtroom records and the typed event stream of a trial.

Every event is frozen and carries the trial id, a sequence number and a ``kind``; the trial store appends
each as it happens (token deltas excepted: their text is in the turn they belong to), and a trial's state can be
rebuilt from its events alone.
"""

from __future__ import annotations

import time
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter, field_validator, model_validator

from courtroom_desktop.core.court.decisions import DecisionOutcome, DecisionSpec, Hearing
from courtroom_desktop.core.court.reasons import Code as Code  # the court's reasons are records too
from courtroom_desktop.core.court.reasons import Reason as Reason
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.records import Evidence, Frozen, Said, Usage, VerifierReading


class CaseType(StrEnum):
    claim = "claim"        # verify a claim: is it true?
    decision = "decision"  # inner court: should I do this?


class Stance(StrEnum):
    for_ = "for"           # the claim is true / the decision is right
    against = "against"    # the claim is false, misleading or unsupported / the decision is wrong


class Seat(StrEnum):
    """The two counsel, named by the stance each starts with (A opens against the claim, B for it). Each keeps its
    model (A the prosecution's, B the defense's); its stance, and with it its role, changes at a switch."""

    starts_against = "A"
    starts_for = "B"


class Tendency(StrEnum):
    support = "support"
    refute = "refute"
    unclear = "unclear"


class VerdictLabel(StrEnum):
    supported = "supported"
    refuted = "refuted"
    mixed = "mixed"
    insufficient = "insufficient evidence"


class Assessed(StrEnum):
    """What a passage says about the claim (or for the decision), as the judge's model assessed it; not who found it."""

    supports = "supports"
    refutes = "refutes"
    mixed = "mixed"
    irrelevant = "irrelevant"


class ChallengeStatus(StrEnum):
    open = "open"                          # raised, not yet ruled on
    answered = "answered"
    partly = "partly answered"
    unanswered = "unanswered"


def role_name(case: CaseType, stance: Stance) -> str:
    if case == CaseType.decision:
        return "Counsel for" if stance == Stance.for_ else "Counsel against"
    return "Defense" if stance == Stance.for_ else "Prosecution"


class PoolEntry(Frozen):
    """A passage in the trial's evidence pool: a snapshot that survives the document's removal."""

    id: str = Field(description="E1, E2, ... in order of entry.")
    evidence: Evidence
    round: int
    found_by: Seat | Literal["judge"]
    stance: Stance | None = Field(None, description="Stance of the side whose search found it.")
    query: str
    level: str = Field("other", description="Evidence-hierarchy tag detected from the passage and document.")
    novelty: float = Field(1.0, description="1 - max cosine similarity to passages already in the pool.")
    injection: bool = Field(False, description="The passage reads like instructions to a model (flagged, never obeyed).")
    verifier: VerifierReading | None = Field(None, description="The claim verifier's reading of the passage against "
                                             "the claim (None: admitted before the court had a verifier).")
    at: float = Field(default_factory=time.time)


class Assessment(Frozen):
    """The judge's model's reading of one passage: its stance toward the claim and how relevant it is."""

    evidence_id: str
    stance: Assessed
    relevance: float = Field(ge=0.0, le=1.0, description="0: off the point; 1: decides it.")
    round: int = Field(description="The round after which it was assessed.")


class Challenge(Frozen):
    """An open question of the judge or a direct challenge of counsel, with an id (Q1, Q2, ...) the answering side
    can name and the judge marks."""

    id: str = Field(description="Q1, Q2, ... in order of raising.")
    text: str
    round: int
    raised_by: str = Field(description="'Judge', or the role of the counsel who raised it.")
    addressed_to: str = Field(description="The role that must answer it, or 'both sides' for the judge's questions.")


class ChallengeMark(Frozen):
    id: str
    status: ChallengeStatus


class Citation(Frozen):
    evidence_id: str
    quote: str = ""
    valid: bool = True
    problem: Reason | None = Field(None, description="Why the citation is not valid (None when it is).")

    @field_validator("problem", mode="before")
    @classmethod
    def _no_problem(cls, value: object) -> object:
        return None if value == "" else value  # an earlier version stored '' for none


class Turn(Frozen):
    round: int
    index: int = Field(description="Position of the turn in the trial (0-based).")
    seat: Seat
    stance: Stance
    role: str
    text: str
    citations: tuple[Citation, ...] = ()
    queries: tuple[str, ...] = ()
    evidence_added: tuple[str, ...] = ()
    usage: Usage = Usage()
    regenerated: bool = False
    flags: tuple[Reason, ...] = ()
    challenges: tuple[Challenge, ...] = Field((), description="Direct challenges this turn raised for the other side.")
    answers: tuple[str, ...] = Field((), description="Ids of the challenges the turn declares it answers.")


class Cap:
    """A length cap on a string field of model output. Unlike ``max_length`` it is not written into the JSON
    schema: llama.cpp turns a long maxLength into a grammar so large that it refuses it (or crashes)."""

    def __init__(self, chars: int):
        self.chars = chars


class Bounded(BaseModel):
    """A schema for model output: strings longer than their ``Cap`` are cut, lists longer than their
    ``max_length`` are cut (short list caps stay in the schema, where constrained decoding enforces them)."""

    @model_validator(mode="before")
    @classmethod
    def _cut_to_caps(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        for name, info in cls.model_fields.items():
            value = data.get(name)
            cap = next((m.chars for m in info.metadata if isinstance(m, Cap)), None)
            items = next((m.max_length for m in info.metadata if type(m).__name__ == "MaxLen"), None)
            if isinstance(value, str) and cap:
                data[name] = value[:cap]
            elif isinstance(value, list):
                value = value[:items] if items else value
                data[name] = [v[:ITEM_CHARS] if isinstance(v, str) else v for v in value]
        return data


ITEM_CHARS = 240
INSTRUCTION_CHARS = 300  # the judge's instruction to one side for the next round
class JudgeRuling(Bounded):
    """What the judge model is asked for after each round (the structured-output schema). Short fields come first,
    so that a model cut off by its token limit has already given the decisive ones."""

    tendency: Tendency = Field(description="support: the claim looks true; refute: false; unclear.")
    confidence: float = Field(ge=0.0, le=1.0, description="How sure the court is of the tendency, 0 to 1.")
    switch_request: bool = Field(False, description="True if counsel should swap sides to break a stall.")
    ready_for_verdict: bool = Field(False, description="True if the evidence is enough to decide.")
    key_controversy: Annotated[str, Cap(240)] = Field(description="The single point the sides disagree on most.")
    summary: Annotated[str, Cap(500)] = Field(description="Two or three sentences: where the debate stands.")
    evidence_assessment: Annotated[str, Cap(500)] = Field(
        "", description="Which evidence carries weight and why, citing ids like [E2].")
    open_questions: list[str] = Field(default_factory=list, max_length=3, description="Challenges nobody has answered yet.")
    ready_reason: Annotated[str, Cap(400)] = Field(
        "", description="Why the case is (not) ready, naming the argument or evidence that decides it.")
    to_prosecution: Annotated[str, Cap(INSTRUCTION_CHARS)] = Field(
        "", description="One short instruction to the side arguing against (the Prosecution) for the next round: "
        "what to answer, which evidence to test.")
    to_defense: Annotated[str, Cap(INSTRUCTION_CHARS)] = Field(
        "", description="One short instruction to the side arguing for (the Defense) for the next round: what to "
        "answer, which evidence to test.")

    def instruction_to(self, stance: Stance) -> str:
        """The judge's instruction for the next round to the side of ``stance`` ('' when it wrote none)."""
        return (self.to_defense if stance == Stance.for_ else self.to_prosecution).strip()


class ChallengeMarkDraft(Bounded):
    id: str
    status: Literal["answered", "partly answered", "unanswered"]


class Ruling(Frozen):
    round: int
    ruling: JudgeRuling
    overruled: tuple[Reason, ...] = Field((), description="Why a 'ready for verdict', or a confidence at the stopping "
                                          "threshold, could not end the trial (rules.overrule_reasons).")
    usage: Usage = Usage()
    questions: tuple[Challenge, ...] = Field((), description="The ruling's open questions, with their ids.")
    marks: tuple[ChallengeMark, ...] = Field((), description="How the judge marked the challenges open before it.")
    hearing: Hearing | None = Field(None, description="Decision cases: the option heard this round, scored on each "
                                    "criterion.")


class FindingDraft(Bounded):
    text: Annotated[str, Cap(400)] = Field(description="One finding in one or two sentences.")
    citations: list[str] = Field(default_factory=list, max_length=6, description="Evidence ids supporting it, e.g. E3.")


class VerdictDraft(Bounded):
    """The judge's verdict (the structured-output schema)."""

    label: VerdictLabel = Field(description="supported, refuted, mixed, or insufficient evidence.")
    confidence: float = Field(ge=0.0, le=1.0)
    summary: Annotated[str, Cap(700)] = Field(description="A plain-language summary for a general reader.")
    findings: list[FindingDraft] = Field(default_factory=list, max_length=5)
    open_questions: list[str] = Field(default_factory=list, max_length=4)
    conditions: list[str] = Field(default_factory=list, max_length=4,
                                  description="Decision cases: conditions for the recommendation.")
    risks: list[str] = Field(default_factory=list, max_length=4, description="Decision cases: risks of the recommendation.")


class DecisionDraft(Bounded):
    """The judge's account of a decision whose recommendation the court's table has set (the structured schema)."""

    summary: Annotated[str, Cap(700)] = Field(description="For the user: the recommendation and why, citing evidence.")
    findings: list[FindingDraft] = Field(default_factory=list, max_length=5)
    risks: list[str] = Field(default_factory=list, max_length=4, description="Risks of the recommended option.")
    open_questions: list[str] = Field(default_factory=list, max_length=3)


class Finding(Frozen):
    text: str
    citations: tuple[str, ...] = ()


class WeighedEvidence(Frozen):
    id: str
    level: str
    weight: float = Field(description="The level's weight in the evidence hierarchy (1 for the strongest).")
    cited_by: tuple[str, ...] = ()
    stance: Stance | None = Field(None, description="The side that cited it; None when both sides did.")
    assessed: Assessed | None = Field(None, description="What the passage says, as assessed (None: not assessed).")
    relevance: float | None = None
    both_sides: bool = Field(False, description="Cited by both sides.")


class BasisRow(Frozen):
    """How many cited passages of one evidence level support, refute or are mixed on the claim."""

    level: str
    supports: int = 0
    refutes: int = 0
    mixed: int = 0


class TrackedChallenge(Frozen):
    """A challenge with the judge's last mark of it (unanswered when the judge never marked it)."""

    challenge: Challenge
    status: ChallengeStatus


class QualityScore(Frozen):
    """The quality guard's score of one side's turns, or of the whole debate's (``side`` 'trial'): each component is
    the share of the turns at fault on that count; ``score`` is 1 minus their weighted sum (checks.quality_scores)."""

    side: str = Field(description="The role (Prosecution, Defense, ...) whose turns these are, or 'trial' for all.")
    turns: int
    score: float = Field(description="0..1: 1 when no turn was at fault on any count.")
    no_evidence: float = Field(0.0, description="Share of turns that cite no passage validly.")
    weak_challenge: float = Field(0.0, description="Share of turns that repeat the other side without new points.")
    monologue: float = Field(0.0, description="Share of turns that do not engage the other side's argument.")
    rejected: float = Field(0.0, description="Share of turns rejected twice, then cut and flagged (copies, the wrong "
                                             "side, echoed instructions, bad citations).")
    no_question: float = Field(0.0, description="Share of turns that put no question to the other side.")


class Verdict(Frozen):
    label: VerdictLabel
    confidence: float
    findings: tuple[Finding, ...] = ()
    open_questions: tuple[str, ...] = ()
    summary: str = ""
    conditions: tuple[str, ...] = ()
    risks: tuple[str, ...] = ()
    evidence: tuple[WeighedEvidence, ...] = ()
    quality_flags: tuple[Reason, ...] = ()
    stopped_because: Reason | None = None
    rounds: int = 0
    switches: int = 0
    usage: Usage = Usage()
    basis: tuple[BasisRow, ...] = Field((), description="What the confidence rests on: cited passages by level and "
                                        "assessed stance.")
    open_challenges: tuple[TrackedChallenge, ...] = Field((), description="Challenges never answered: open lines of "
                                                       "argument.")
    quality: tuple[QualityScore, ...] = Field((), description="The quality guard's scores: one per side, then the "
                                              "trial's ('trial').")
    draft_label: VerdictLabel | None = Field(None, description="The judge's own label when the rule changed it.")
    draft_confidence: float | None = Field(None, description="The judge's own confidence when the rule changed it.")
    rule_notes: tuple[Reason, ...] = Field((), description="What the verdict rule and the text checks changed, and why.")
    decision: DecisionOutcome | None = Field(None, description="Decision cases with options: the weighted table, the "
                                             "recommendation and what would change it.")
    evidence_confidence: float | None = Field(None, description="The confidence the weighed evidence alone gives "
                                              "(rules.evidence_confidence), beside the judge's; None when no assessed "
                                              "passage was cited, and for decisions with options.")
    evidence_label: VerdictLabel | None = Field(None, description="The label the weighed evidence alone points to.")

    @property
    def corrected(self) -> bool:
        """The rule had to set the label or the confidence."""
        return self.draft_label is not None or self.draft_confidence is not None

    @field_validator("stopped_because", mode="before")
    @classmethod
    def _not_stopped(cls, value: object) -> object:
        return None if value == "" else value  # an earlier version stored '' for none


class TrialSpec(Frozen):
    """What was put on trial and with which settings: enough to resume it."""

    claim: str
    case: CaseType = CaseType.claim
    documents: tuple[str, ...] = Field((), description="Document ids in scope; empty: the whole library.")
    sections: tuple[str, ...] = ()
    settings: dict[str, Any] = Field(default_factory=dict, description="DebateSettings as a dict.")
    models: dict[str, str] = Field(default_factory=dict, description="role -> provider:model, for the record.")
    background: str = Field("", description="Free text every role sees (as data, delimited): the situation, what the "
                            "user already knows.")
    decision: DecisionSpec | None = Field(None, description="A decision's options, weighted criteria and hard "
                                          "constraints (decision cases only; without it a decision is go / no-go).")

    @model_validator(mode="after")
    def _decision_needs_case(self) -> TrialSpec:
        if self.decision is not None and self.case != CaseType.decision:
            raise ValueError(Message("options and criteria belong to a decision: use case 'decision'"))
        return self

    def option_of(self, round_number: int) -> str | None:
        """The option heard in a round of a decision with options (one round each, in order), else None."""
        if self.decision is None or not 1 <= round_number <= len(self.decision.options):
            return None
        return self.decision.options[round_number - 1]


# ---------------------------------------------------------------- events

class _Event(Frozen):
    trial_id: str = ""
    seq: int = 0
    at: float = Field(default_factory=time.time)


class TrialStarted(_Event):
    kind: Literal["trial_started"] = "trial_started"
    spec: TrialSpec
    assignments: dict[str, Stance] = Field(description="seat -> stance at the start.")


class TrialResumed(_Event):
    kind: Literal["trial_resumed"] = "trial_resumed"
    from_round: int
    discarded: str = Field("", description="What was in flight when the trial stopped and is redone.")


class TurnStarted(_Event):
    kind: Literal["turn_started"] = "turn_started"
    round: int
    index: int
    seat: Seat
    stance: Stance
    role: str


class TokenDelta(_Event):
    kind: Literal["token"] = "token"
    index: int = Field(description="The turn the token belongs to.")
    attempt: int = Field(0, description="1 when the turn is being regenerated after a rejected answer.")
    text: str


class EvidenceAdded(_Event):
    kind: Literal["evidence_added"] = "evidence_added"
    entry: PoolEntry


class TurnedAway(Frozen):
    """A passage a counsel's search found that did not enter the pool, and why (``turned_away_*`` reasons)."""

    evidence: Evidence
    reason: Reason


class EvidenceTurnedAway(_Event):
    """The passages of one search that did not enter the pool (the coverage panel's 'turned away')."""

    kind: Literal["evidence_turned_away"] = "evidence_turned_away"
    round: int
    found_by: Seat
    passages: tuple[TurnedAway, ...]


class EvidenceAssessed(_Event):
    kind: Literal["evidence_assessed"] = "evidence_assessed"
    round: int
    assessments: tuple[Assessment, ...]
    usage: Usage = Usage()


class TurnFinished(_Event):
    kind: Literal["turn_finished"] = "turn_finished"
    turn: Turn


class RulingIssued(_Event):
    kind: Literal["ruling"] = "ruling"
    ruling: Ruling


class RolesSwitched(_Event):
    """Counsel swapped sides after ``round``'s ruling. ``reasons``: every trigger that called for it (rules.
    switch_reasons), each a code with the numbers behind it, e.g. ``switch_confidence_stalled`` ``{moved: 0.03,
    rounds: 2, delta: 0.05, values: '0.50, 0.52, 0.53'}``; ``assignments``: each seat's stance from now on."""

    kind: Literal["switch"] = "switch"
    round: int
    reasons: tuple[Reason, ...] = Field(description="The triggers, each with its numbers (core.court.reasons.Code "
                                        "switch_*).")
    assignments: dict[str, Stance]


class VerdictReached(_Event):
    kind: Literal["verdict"] = "verdict"
    verdict: Verdict


class TrialWarning(_Event):
    kind: Literal["warning"] = "warning"
    reason: Reason
    round: int = 0

    @model_validator(mode="before")
    @classmethod
    def _message(cls, data: Any) -> Any:
        """An earlier version stored the warning as an English ``message``: it reads as a reason shown as stored."""
        if isinstance(data, dict) and "message" in data and "reason" not in data:
            data = {**data, "reason": data["message"]}
            del data["message"]
        return data


class ErrorEvent(_Event):
    kind: Literal["error"] = "error"
    message: Said
    fix: Said = ""
    resumable: bool = True


TrialEvent = Annotated[
    TrialStarted | TrialResumed | TurnStarted | TokenDelta | EvidenceAdded | EvidenceAssessed | TurnFinished | RulingIssued
    | RolesSwitched | VerdictReached | TrialWarning | ErrorEvent | EvidenceTurnedAway,
    Field(discriminator="kind"),
]
EVENT_ADAPTER: TypeAdapter[TrialEvent] = TypeAdapter(TrialEvent)

"""The state of a trial: a pure function of its stored events (``TrialState.from_events``). The engine's next step is
a pure function of this state, so a trial killed at any point resumes where it stopped."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from courtroom_desktop.core.court.records import (
    Assessment,
    CaseType,
    Challenge,
    ChallengeStatus,
    EvidenceAdded,
    EvidenceAssessed,
    PoolEntry,
    RolesSwitched,
    Ruling,
    RulingIssued,
    Seat,
    Stance,
    TrialEvent,
    TrialSpec,
    TrialStarted,
    Turn,
    TurnFinished,
    TurnStarted,
    Verdict,
    VerdictReached,
)
from courtroom_desktop.core.records import Usage

OPENING = {Seat.starts_against: Stance.against, Seat.starts_for: Stance.for_}


@dataclass
class TrialState:
    trial_id: str
    spec: TrialSpec
    assignments: dict[Seat, Stance] = field(default_factory=lambda: dict(OPENING))
    pool: list[PoolEntry] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    rulings: list[Ruling] = field(default_factory=list)
    switches: list[RolesSwitched] = field(default_factory=list)
    verdict: Verdict | None = None
    in_flight: str = ""
    assessments: dict[str, Assessment] = field(default_factory=dict)
    assessing: list[Usage] = field(default_factory=list)  # what each of the judge's assessment calls cost

    @classmethod
    def from_events(cls, trial_id: str, spec: TrialSpec, events: Sequence[TrialEvent]) -> TrialState:
        state = cls(trial_id, spec)
        open_turn: TurnStarted | None = None
        for event in events:
            if isinstance(event, TrialStarted):
                state.assignments = {Seat(k): Stance(v) for k, v in event.assignments.items()}
            elif isinstance(event, TurnStarted):
                open_turn = event
            elif isinstance(event, EvidenceAdded):
                if all(e.id != event.entry.id for e in state.pool):
                    state.pool.append(event.entry)
            elif isinstance(event, EvidenceAssessed):
                state.assessments.update((a.evidence_id, a) for a in event.assessments)
                state.assessing.append(event.usage)
            elif isinstance(event, TurnFinished):
                state.turns.append(event.turn)
                open_turn = None
            elif isinstance(event, RulingIssued):
                state.rulings.append(event.ruling)
            elif isinstance(event, RolesSwitched):
                state.switches.append(event)
                state.assignments = {Seat(k): Stance(v) for k, v in event.assignments.items()}
            elif isinstance(event, VerdictReached):
                state.verdict = event.verdict
        if open_turn is not None:
            state.in_flight = f"turn {open_turn.index + 1} ({open_turn.role}, round {open_turn.round})"
        return state

    @property
    def round(self) -> int:
        """The round in progress (1-based): one more than the rounds already ruled on."""
        return len(self.rulings) + 1

    def usage(self) -> Usage:
        """What the trial's model calls cost: counsel's turns, the judge's assessments, rulings and verdict."""
        parts = [t.usage for t in self.turns] + self.assessing + [r.usage for r in self.rulings]
        if self.verdict:
            parts.append(self.verdict.usage)
        total = sum(parts, Usage())
        return Usage(tokens_in=total.tokens_in, tokens_out=total.tokens_out, seconds=total.seconds)

    def unassessed(self) -> list[PoolEntry]:
        return [e for e in self.pool if e.id not in self.assessments]

    def challenges(self) -> list[Challenge]:
        """Every challenge raised so far, in order: counsel's direct challenges and the judge's open questions."""
        raised: list[Challenge] = []
        for number in sorted({t.round for t in self.turns} | {r.round for r in self.rulings}):
            raised.extend(c for t in self.turns if t.round == number for c in t.challenges)
            raised.extend(q for r in self.rulings if r.round == number for q in r.questions)
        return raised

    def challenge_status(self) -> dict[str, ChallengeStatus]:
        """Each challenge's latest mark by the judge (open until the judge marks it)."""
        status = {c.id: ChallengeStatus.open for c in self.challenges()}
        for ruling in self.rulings:
            status.update((m.id, m.status) for m in ruling.marks if m.id in status)
        return status

    def open_challenges(self) -> list[Challenge]:
        """Challenges not (yet) marked answered."""
        status = self.challenge_status()
        return [c for c in self.challenges() if status[c.id] != ChallengeStatus.answered]

    def speaking_order(self) -> list[Seat]:
        first = Stance.for_ if self.spec.case == CaseType.decision else Stance.against
        return sorted(self.assignments, key=lambda seat: self.assignments[seat] != first)

    def opponent_of(self, seat: Seat) -> Turn | None:
        """The other seat's latest turn."""
        return next((t for t in reversed(self.turns) if t.seat != seat), None)

    def switched_assignments(self) -> dict[Seat, Stance]:
        return {seat: (Stance.for_ if stance == Stance.against else Stance.against)
                for seat, stance in self.assignments.items()}

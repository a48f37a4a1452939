"""A decision with options and criteria: what the user asks (``DecisionSpec``), what the judge found for each option
(``Hearing``: a score per criterion with citations, each hard constraint met, violated or unknown), and the outcome the
court computes from the hearings alone (``outcome``): the weighted table, the recommended option, the conditions
under which the recommendation would change, the risks, and the one thing worth finding out next.

The arithmetic is deterministic and documented (docs/decisions.md): the model scores, the table decides.

- A cell's score is 0 (very bad) to 10 (excellent), and counts only with a citation (``counted``: a score without
  one is unknown here, whatever stored it; in a trial the citation must also be of the option's own evidence,
  ``hearing.hearing_of``); a cell the evidence does not establish is *unknown* and enters the total at the midpoint
  (5), with its range (0 to 10) kept.
- An option's total is the weighted mean of its cells; an option with a hard constraint *violated* (with a citation)
  is out of the running.
- The recommendation is the best total among the options still running; the margin is its lead over the runner-up.
- Conditions: the weight at which a criterion would hand the lead to another option (within 0.25x to 4x of the
  user's weight); a score change of at most 3 points, or an unknown cell turning out at either end, that would; an
  unknown constraint of the recommended option turning out violated.
- The next thing to find out: the unknown cell (or constraint) that could change the recommendation and weighs most;
  when none could, the known cell closest to changing it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import Field, field_validator, model_validator

from courtroom_desktop.core import lexicon
from courtroom_desktop.core.court.reasons import Reason
from courtroom_desktop.core.lexicon.message import Message, joined, of_validation
from courtroom_desktop.core.records import Frozen
from courtroom_desktop.core.text import language_of

MIDPOINT = 5.0
MAX_OPTIONS, MAX_CRITERIA, MAX_CONSTRAINTS = 5, 8, 5
WEIGHT_RANGE = (0.25, 4.0)  # weight changes within this factor of the user's weight count as plausible
SCORE_REACH = 3.0           # a known score that would have to move more than this does not make a condition
CLOSE_MARGIN = 0.5          # a lead under half a point (of 10) is too close to call


def problem_of(exc: Exception) -> str:
    """A validation error as one line for the user: the messages without pydantic's decoration."""
    errors = getattr(exc, "errors", None)
    if callable(errors):
        return joined(of_validation(e) for e in errors())
    return str(exc)


OutcomeLabel = Literal["recommended", "too close to call", "not enough evidence", "no option passes"]

class Criterion(Frozen):
    name: str = Field(min_length=1, max_length=60)
    weight: float = Field(1.0, gt=0, le=100, description="Relative importance; the table divides by the sum.")

    @field_validator("name")
    @classmethod
    def _strip(cls, value: str) -> str:
        if not value.strip():
            raise ValueError(Message("a criterion needs a name"))
        return value.strip()

    @classmethod
    def parse(cls, text: str) -> Criterion:
        """'cost=3' or 'cost' (weight 1); a clear error for anything else."""
        name, _, weight = text.rpartition("=") if "=" in text else (text, "", "")
        try:
            return cls(name=name, weight=float(weight) if weight.strip() else 1.0)
        except ValueError as exc:
            raise ValueError(Message("criterion {text}: write NAME or NAME=WEIGHT with a positive weight, e.g. "
                                     "'cost=3' ({problem_of(exc)})",
                                     f'{text!r}', problem_of(exc))) from None


class DecisionSpec(Frozen):
    """Two to five options, one to eight weighted criteria, up to five hard constraints."""

    options: tuple[str, ...]
    criteria: tuple[Criterion, ...]
    constraints: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _check(self) -> DecisionSpec:
        options = [o.strip() for o in self.options]
        if not 2 <= len(options) <= MAX_OPTIONS or not all(options):
            raise ValueError(Message("a decision needs 2 to {MAX_OPTIONS} options, each named (got {len(options)})",
                                     MAX_OPTIONS, len(options)))
        if len({o.casefold() for o in options}) != len(options):
            raise ValueError(Message("two options have the same name: name each option differently"))
        if not 1 <= len(self.criteria) <= MAX_CRITERIA:
            raise ValueError(Message("a decision needs 1 to {MAX_CRITERIA} criteria (got {len(self.criteria)})",
                                     MAX_CRITERIA, len(self.criteria)))
        if len({c.name.casefold() for c in self.criteria}) != len(self.criteria):
            raise ValueError(Message("two criteria have the same name: name each criterion differently"))
        if len(self.constraints) > MAX_CONSTRAINTS or not all(c.strip() for c in self.constraints):
            raise ValueError(Message("up to {MAX_CONSTRAINTS} hard constraints, each written out", MAX_CONSTRAINTS))
        return self

    def constraint_id(self, index: int) -> str:
        return f"K{index + 1}"


class CriterionScore(Frozen):
    criterion: str
    score: float | None = Field(None, ge=0, le=10, description="0 very bad .. 10 excellent; None: not established.")
    citations: tuple[str, ...] = ()
    reason: str = ""


class ConstraintCheck(Frozen):
    constraint: str
    status: Literal["met", "violated", "unknown"] = "unknown"
    citations: tuple[str, ...] = ()
    reason: str = ""


class Hearing(Frozen):
    """What the judge found for one option after its round."""

    option: str
    scores: tuple[CriterionScore, ...] = ()
    constraints: tuple[ConstraintCheck, ...] = ()
    flags: tuple[Reason, ...] = Field((), description="Scores set aside (no citation, unknown evidence) and why.")


class OptionRow(Frozen):
    option: str
    scores: tuple[CriterionScore, ...]
    total: float = Field(description="Weighted mean, 0-10, unknown cells at the midpoint.")
    low: float = Field(description="The total if every unknown cell turned out 0.")
    high: float = Field(description="The total if every unknown cell turned out 10.")
    known: float = Field(description="Share of the weight whose cell is established by cited evidence.")
    excluded: str = Field("", description="The hard constraint it violates, with its citations ('' when running).")
    heard: bool = True


class DecisionOutcome(Frozen):
    rows: tuple[OptionRow, ...]
    criteria: tuple[Criterion, ...]
    recommended: str | None = None
    runner_up: str | None = None
    margin: float = 0.0
    conditions: tuple[str, ...] = ()
    risks: tuple[str, ...] = ()
    next_question: str = ""
    next_reason: str = ""
    label: OutcomeLabel = "not enough evidence"
    confidence: float = 0.0

    def standing(self, row: OptionRow) -> str:
        """Where ``row`` stands: 'out' (it breaks a constraint), 'recommended', 'leads' (first, but the court does not
        recommend it: too close or too little known), 'runner_up', or '' (the rest). Every table words this key."""
        if row.excluded:
            return "out"
        if row.option == self.recommended:
            return "recommended" if self.label == "recommended" else "leads"
        return "runner_up" if row.option == self.runner_up else ""


# ---------------------------------------------------------------- wording (the claim's language)
def _words(question: str) -> Mapping[str, str]:
    """The decision sentences (core.lexicon, ``decision.``) in the question's language; Japanese reads the Chinese."""
    lang = language_of(question)
    return lexicon.section("zh" if lang == "ja" else lang, "decision.")


def _cites(ids: Sequence[str]) -> str:
    return " ".join(f"[{i}]" for i in ids)


def plain_summary(question: str, result: DecisionOutcome) -> str:
    """The recommendation in one sentence from the table alone, citing the recommended option's evidence: what the
    verdict says when the judge's own summary could not stand."""
    words = _words(question)
    rows = {r.option: r for r in result.rows}
    best, runner = rows.get(result.recommended or ""), rows.get(result.runner_up or "")
    if best is None:
        return words["plain/no option passes"]
    ids = list(dict.fromkeys(c for s in best.scores for c in s.citations))[:4]
    return words[f"plain/{result.label}"].format(r=best.option, t=best.total, u=runner.option if runner else "-",
                                                 t2=runner.total if runner else 0.0,
                                                 cites=(" " + _cites(ids)) if ids else "")


# ---------------------------------------------------------------- the table
def counted(hearing: Hearing) -> Hearing:
    """``hearing`` as the table counts it: a score without a citation is unknown, and so is a hard constraint met or
    violated without one, wherever the hearing comes from (a trial's judge sets them aside already; an older record
    or an evaluation may not have)."""
    scores = tuple(s if s.score is None or s.citations else s.model_copy(update={"score": None})
                   for s in hearing.scores)
    checks = tuple(k if k.status == "unknown" or k.citations else k.model_copy(update={"status": "unknown"})
                   for k in hearing.constraints)
    return hearing.model_copy(update={"scores": scores, "constraints": checks})


def _cell(row_scores: Sequence[CriterionScore], criterion: str) -> CriterionScore:
    return next((s for s in row_scores if s.criterion == criterion), CriterionScore(criterion=criterion))


def _total(values: dict[str, float], weights: dict[str, float]) -> float:
    return sum(weights[c] * values[c] for c in weights) / sum(weights.values())


def _values(row: OptionRow, fill: float = MIDPOINT, **override: float) -> dict[str, float]:
    values = {s.criterion: (s.score if s.score is not None else fill) for s in row.scores}
    values.update(override)
    return values


def table(spec: DecisionSpec, hearings: Sequence[Hearing]) -> list[OptionRow]:
    """One row per option, in the spec's order (an option not yet heard has every cell unknown); a score counts only
    with a citation (``counted``)."""
    weights = {c.name: c.weight for c in spec.criteria}
    found = {h.option: counted(h) for h in hearings}
    rows = []
    for option in spec.options:
        hearing = found.get(option)
        scores = tuple(_cell(hearing.scores if hearing else (), c.name) for c in spec.criteria)
        values = {s.criterion: s.score for s in scores}
        known = sum(weights[c] for c, v in values.items() if v is not None) / sum(weights.values())
        broken = [k for k in (hearing.constraints if hearing else ()) if k.status == "violated"]
        excluded = "; ".join(f"{k.constraint} {_cites(k.citations)}".strip() for k in broken)
        rows.append(OptionRow(
            option=option, scores=scores, known=round(known, 3), excluded=excluded, heard=hearing is not None,
            total=round(_total({c: v if v is not None else MIDPOINT for c, v in values.items()}, weights), 2),
            low=round(_total({c: v if v is not None else 0.0 for c, v in values.items()}, weights), 2),
            high=round(_total({c: v if v is not None else 10.0 for c, v in values.items()}, weights), 2)))
    return rows


def outcome(question: str, spec: DecisionSpec, hearings: Sequence[Hearing]) -> DecisionOutcome:
    hearings = [counted(h) for h in hearings]
    rows = table(spec, hearings)
    words = _words(question)
    running = sorted((r for r in rows if not r.excluded), key=lambda r: -r.total)
    if not running:
        return DecisionOutcome(rows=tuple(rows), criteria=spec.criteria, label="no option passes",
                               risks=tuple(f"{r.option}: {r.excluded}" for r in rows))
    best = running[0]
    runner = running[1] if len(running) > 1 else None
    margin = round(best.total - runner.total, 2) if runner else best.total
    known = (best.known + (runner.known if runner else best.known)) / 2
    label: OutcomeLabel
    if best.known < 0.5:
        label = "not enough evidence"
    elif runner is not None and margin < CLOSE_MARGIN:
        label = "too close to call"
    else:
        label = "recommended"
    confidence = round(min(0.95, 0.5 + margin / 5) * known, 2) if runner else round(0.5 * known, 2)
    weights = {c.name: c.weight for c in spec.criteria}
    if label == "not enough evidence":  # a lead that rests on midpoints: no condition means anything yet
        conditions = []
        open_cells = [(weights[s.criterion], s.criterion) for s in best.scores if s.score is None]
        weight, name = max(open_cells)
        question_text = words["q_cell"].format(o=best.option, c=name)
        reason = words["why_weight"]
    else:
        conditions = _conditions(best, running[1:], spec, weights, words)
        question_text, reason = _next_question(best, running[1:], rows, hearings, spec, weights, words)
    return DecisionOutcome(
        rows=tuple(rows), criteria=spec.criteria, recommended=best.option, runner_up=runner.option if runner else None,
        margin=margin, conditions=tuple(conditions[:6]), risks=tuple(_risks(best, hearings, words)[:5]),
        next_question=question_text, next_reason=reason, label=label, confidence=confidence)


def _leader(rows: Sequence[OptionRow], weights: dict[str, float], values: dict[str, dict[str, float]]) -> str:
    return max(rows, key=lambda r: _total(values[r.option], weights)).option


def _conditions(best: OptionRow, others: Sequence[OptionRow], spec: DecisionSpec, weights: dict[str, float],
                words: Mapping[str, str]) -> list[str]:
    if not others:
        return []
    rows = [best, *others]
    base = {r.option: _values(r) for r in rows}
    found: list[tuple[float, str]] = []  # (how far the change is, text): the nearest first
    for criterion in spec.criteria:
        name, w0 = criterion.name, criterion.weight
        for direction in _grid():  # the nearest change of this weight, up and down, that hands the lead over
            for factor in direction:
                winner = _leader(rows, dict(weights, **{name: w0 * factor}), base)
                if winner == best.option:
                    continue
                key = "weight_up" if factor > 1 else "weight_down"
                threshold = _flip_weight(rows, weights, base, name, best.option, factor)
                found.append((max(factor, 1 / factor) - 1.0,
                              words[key].format(c=name, f=threshold / w0, w=threshold, w0=w0, u=winner, r=best.option)))
                break
    for row in rows:
        for cell in row.scores:
            name = cell.criterion
            if cell.score is None:
                for end, key in ((0.0, "unknown_low"), (10.0, "unknown_high")):
                    values = dict(base, **{row.option: _values(row, **{name: end})})
                    winner = _leader(rows, weights, values)
                    if winner != best.option and (key == "unknown_low") == (row.option == best.option):
                        x = _flip_score(rows, weights, base, row, name, best.option, end)
                        if x is None:  # never: the lead changes at ``end``
                            continue
                        winner = _leader(rows, weights, dict(base, **{row.option: _values(row, **{name: x})}))
                        found.append((abs(x - MIDPOINT) / 10, words[key].format(o=row.option, c=name, x=x, u=winner,
                                                                               r=best.option)))
                continue
            end = 0.0 if row.option == best.option else 10.0
            x = _flip_score(rows, weights, base, row, name, best.option, end)
            if x is not None and abs(x - cell.score) <= SCORE_REACH:
                values = dict(base, **{row.option: _values(row, **{name: x})})
                found.append((abs(x - cell.score) / 10, words["score_down" if x < cell.score else "score_up"].format(
                    o=row.option, c=name, x=x, s=cell.score, cites=_cites(cell.citations),
                    u=_leader(rows, weights, values), r=best.option)))
    return [text for _, text in sorted(found, key=lambda item: item[0])]


def _grid() -> tuple[list[float], list[float]]:
    """Weight factors to try, nearest first: up to 4x, and down to 0.25x."""
    low, high = WEIGHT_RANGE
    up = [1 + 0.05 * n for n in range(1, int(round((high - 1) / 0.05)) + 1)]
    return up, [1 / f for f in up if 1 / f >= low - 1e-9]


def _flip_weight(rows: Sequence[OptionRow], weights: dict[str, float], base: dict[str, dict[str, float]], name: str,
                 best: str, factor: float) -> float:
    """The weight of ``name`` at which the lead changes, found by bisection between the user's and ``factor`` x."""
    lo, hi = weights[name], weights[name] * factor
    for _ in range(30):
        mid = (lo + hi) / 2
        if _leader(rows, dict(weights, **{name: mid}), base) == best:
            lo = mid
        else:
            hi = mid
    return hi


def _flip_score(rows: Sequence[OptionRow], weights: dict[str, float], base: dict[str, dict[str, float]], row: OptionRow,
                name: str, best: str, end: float) -> float | None:
    """The score of ``row``'s cell ``name`` at which the lead changes (moving it toward ``end``), or None."""
    values = dict(base, **{row.option: _values(row, **{name: end})})
    if _leader(rows, weights, values) == best:
        return None
    lo, hi = base[row.option][name], end
    for _ in range(30):
        mid = (lo + hi) / 2
        values = dict(base, **{row.option: _values(row, **{name: mid})})
        if _leader(rows, weights, values) == best:
            lo = mid
        else:
            hi = mid
    return hi


def _risks(best: OptionRow, hearings: Sequence[Hearing], words: Mapping[str, str]) -> list[str]:
    risks = [words["weak"].format(r=best.option, c=s.criterion, s=s.score, cites=_cites(s.citations))
             for s in sorted(best.scores, key=lambda s: s.score if s.score is not None else 99)
             if s.score is not None and s.score <= 4]
    risks += [words["unknown_risk"].format(r=best.option, c=s.criterion) for s in best.scores if s.score is None]
    hearing = next((h for h in hearings if h.option == best.option), None)
    risks += [words["unknown_constraint_risk"].format(r=best.option, k=k.constraint)
              for k in (hearing.constraints if hearing else ()) if k.status == "unknown"]
    return risks


def _next_question(best: OptionRow, others: Sequence[OptionRow], rows: Sequence[OptionRow],
                   hearings: Sequence[Hearing], spec: DecisionSpec, weights: dict[str, float],
                   words: Mapping[str, str]) -> tuple[str, str]:
    """The open question whose answer would most change the recommendation."""
    total_weight = sum(weights.values())
    contenders = [best, *others]
    base = {r.option: _values(r) for r in contenders}
    candidates: list[tuple[tuple[bool, float], str, str]] = []  # (sort key, question, reason)
    for row in contenders:
        for cell in row.scores:
            if cell.score is not None:
                continue
            share = weights[cell.criterion] / total_weight
            end = 0.0 if row.option == best.option else 10.0
            flips = _flip_score(contenders, weights, base, row, cell.criterion, best.option, end) is not None
            candidates.append(((not flips, -share), words["q_cell"].format(o=row.option, c=cell.criterion),
                               words["why_flip" if flips else "why_open"].format(share=share)))
    hearing = next((h for h in hearings if h.option == best.option), None)
    for check in (hearing.constraints if hearing else ()):
        if check.status == "unknown" and others:
            candidates.append(((False, -1.0), words["q_constraint"].format(o=best.option, k=check.constraint),
                               words["constraint"].format(r=best.option, k=check.constraint, u=others[0].option)))
    if candidates:
        _, text, reason = min(candidates, key=lambda item: item[0])
        return text, reason
    closest: tuple[float, str] | None = None
    for row in contenders:
        for cell in row.scores:
            end = 0.0 if row.option == best.option else 10.0
            x = _flip_score(contenders, weights, base, row, cell.criterion, best.option, end)
            if x is not None and cell.score is not None and (closest is None or abs(x - cell.score) < closest[0]):
                closest = (abs(x - cell.score), words["q_cell"].format(o=row.option, c=cell.criterion))
    if closest is None:
        return "", ""
    return closest[1], words["why_close"].format(d=closest[0])

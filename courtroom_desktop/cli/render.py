"""Print trial events to a terminal as they arrive."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape

from courtroom_desktop.cli import words

if TYPE_CHECKING:
    from courtroom_desktop.core.court.records import Reason, TrialEvent
    from courtroom_desktop.core.services.trials import DecisionOutcome


def said(reason: Reason | None) -> str:
    """A reason the court stored, in words in the command line's language (the reports' wording:
    core.reports.wording)."""
    from courtroom_desktop.core.services.export import wording

    return "" if reason is None else wording.say_reason(reason, words.language())


def said_all(reasons: Iterable[Reason]) -> str:
    from courtroom_desktop.core.services.export import wording

    return wording.say_reasons(reasons, words.language())


class TranscriptPrinter:
    def __init__(self, console: Console | None = None, show_tokens: bool = True, demo_note: str = ""):
        self.console = console or Console(highlight=False)
        self.show_tokens = show_tokens and self.console.is_terminal
        self._streaming = False
        self.demo_note = demo_note  # printed next to the verdict (core.llm.demo); else taken from the trial's spec
        self.case = "claim"  # the trial's case, for role names (set when the trial starts)

    def _end_stream(self) -> None:
        if self._streaming:
            sys.stdout.write("\n")
            sys.stdout.flush()
            self._streaming = False

    def __call__(self, event: TrialEvent) -> None:
        c = self.console
        if event.kind == "token":
            if self.show_tokens:
                sys.stdout.write(event.text)
                sys.stdout.flush()
                self._streaming = True
            return
        self._end_stream()
        if event.kind == "trial_started":
            if not self.demo_note:
                from courtroom_desktop.core.services.models import demo_line

                self.demo_note = demo_line(event.spec.models)
            c.rule(f"[bold]Trial {event.trial_id}[/]")
            self.case = event.spec.case.value
            c.print(f"[bold]{'Decision' if event.spec.case.value == 'decision' else 'Claim'}:[/] "
                    f"{escape(event.spec.claim)}")
        elif event.kind == "trial_resumed":
            c.rule(f"[bold]Trial {event.trial_id} resumed at round {event.from_round}[/]")
            if event.discarded:
                c.print(f"[dim]redoing {event.discarded}, which was in flight when the trial stopped[/]")
        elif event.kind == "turn_started":
            c.print(f"\n[bold]{event.role}[/] [dim](counsel {event.seat.value}, round {event.round})[/]")
        elif event.kind == "evidence_added":
            e = event.entry
            chunk = e.evidence.chunk
            page = f", p.{chunk.page_start + 1}" if chunk.page_start >= 0 else ""  # a text document has no pages (-1)
            c.print(f"  [cyan]+ {e.id}[/] {escape(e.evidence.doc_title[:60])}{page}"
                    f"{', ' + escape(chunk.section_path[:50]) if chunk.section_path else ''} [dim]({e.level})[/]")
        elif event.kind == "evidence_assessed":
            assessed = ", ".join(f"{a.evidence_id} {a.stance.value} ({a.relevance:.1f})" for a in event.assessments)
            c.print(f"  [dim]the judge assessed the new evidence: {assessed}[/]")
        elif event.kind == "turn_finished":
            turn = event.turn
            if not self.show_tokens:
                c.print(escape(turn.text))
            cited = ", ".join(f"{x.evidence_id}{'' if x.valid else ' (invalid)'}" for x in turn.citations) or "none"
            c.print(f"  [dim]cites: {cited}; {turn.usage.tokens_out} tokens in {turn.usage.seconds:.1f} s[/]")
            for flag in turn.flags:
                c.print(f"  [yellow]{escape(words.label('flag'))}[/]{escape(said(flag))}")
            for challenge in turn.challenges:
                c.print(f"  [cyan]{challenge.id}[/] to {escape(challenge.addressed_to)}: {escape(challenge.text)}")
        elif event.kind == "ruling":
            r = event.ruling
            c.print(f"\n[bold magenta]Judge, round {r.round}:[/] {r.ruling.tendency.value} "
                    f"(confidence {r.ruling.confidence:.2f}) — {escape(r.ruling.summary)}")
            if r.ruling.key_controversy:
                c.print(f"  key controversy: {escape(r.ruling.key_controversy)}")
            roles = ("Counsel against", "Counsel for") if self.case == "decision" else ("Prosecution", "Defense")
            for role, text in zip(roles, (r.ruling.to_prosecution, r.ruling.to_defense)):
                if text.strip():  # the judge's instruction to each side for the next round
                    c.print(f"  [magenta]to the {role}:[/] {escape(text.strip())}")
            for reason in r.overruled:
                what = "'ready for verdict'" if r.ruling.ready_for_verdict else "confidence stop"
                c.print(f"  [yellow]{what} overruled:[/] {escape(said(reason))}")
            if r.marks:
                c.print("  challenges: " + "; ".join(f"{m.id} {m.status.value}" for m in r.marks))
            for question in r.questions:
                c.print(f"  [cyan]{question.id}[/] to both sides: {escape(question.text)}")
            if r.hearing is not None:
                cells = [f"{s.criterion} {s.score:g}" + (f" [{', '.join(s.citations)}]" if s.citations else "")
                         if s.score is not None else f"{s.criterion} ?" for s in r.hearing.scores]
                cells += [f"{k.constraint}: {k.status}" for k in r.hearing.constraints]
                c.print(f"  scores for {escape(r.hearing.option)}: {escape('; '.join(cells))}")
        elif event.kind == "switch":
            c.rule(f"[bold yellow]Sides switched after round {event.round}[/]")
            for reason in event.reasons:  # each trigger with the numbers behind it, whole (a rule's title is cut)
                c.print(f"  [yellow]{escape(words.label('trigger'))}[/]{escape(said(reason))}")
        elif event.kind == "warning":
            c.print(f"  [yellow]{escape(words.label('warning'))}[/]{escape(said(event.reason))}")
        elif event.kind == "error":
            c.print(f"[red]{escape(words.label('error'))}[/]{escape(words.say(event.message))}")
            if event.fix:
                c.print(f"  {escape(words.label('fix'))}{escape(words.say(event.fix))}")
            if event.resumable:
                c.print(f"  {escape(words.word('trial_paused', trial_id=event.trial_id))}")
        elif event.kind == "verdict":
            v = event.verdict
            c.rule("[bold]Verdict[/]")
            weighed = (f"; weighed evidence: {v.evidence_label.value} {v.evidence_confidence:.2f}"
                       if v.evidence_confidence is not None and v.evidence_label is not None else "")
            c.print(f"[bold]{v.label.value.upper()}[/] (confidence {v.confidence:.2f}{weighed}) after {v.rounds} rounds, "
                    f"{v.switches} switch(es); stopped because {escape(said(v.stopped_because))}")
            if self.demo_note:
                c.print(f"[bold yellow]{escape(self.demo_note)}[/]")
            from courtroom_desktop.core.services.export import wording

            for note in (wording.rests_on(v, "en"), wording.evidence_confidence(v, "en"), wording.correction(v, "en")):
                if note:
                    c.print(f"[dim]{escape(note)}[/]")
            if v.decision is not None:
                self._decision_table(v.decision)
            c.print(escape(v.summary))
            for finding in v.findings:
                c.print(f"  • {escape(finding.text)} [cyan]{' '.join('[' + x + ']' for x in finding.citations)}[/]")
            for open_question in v.open_questions:
                c.print(f"  ? {escape(open_question)}")
            for line in v.open_challenges:
                c.print(f"  open line of argument {line.challenge.id} ({escape(line.challenge.raised_by)}, round "
                        f"{line.challenge.round}; {line.status.value}): {escape(line.challenge.text)}")
            for flag in v.quality_flags:
                c.print(f"  [yellow]{escape(words.label('quality'))}[/]{escape(said(flag))}")
            if getattr(v, "quality", ()):
                from courtroom_desktop.core.services.export import wording
                c.print("  [dim]quality scores: " + escape("; ".join(wording.quality_score(q) for q in v.quality))
                        + "[/]")

    def _decision_table(self, result: DecisionOutcome) -> None:
        """A decision's options by criteria: scores with citations, the weighted total, recommended or out."""
        from rich.table import Table

        from courtroom_desktop.core.services.export import memo

        table = Table(title="Options by criteria (0-10; ? = not established by your notes, counted at 5)")
        table.add_column("Option")
        for criterion in result.criteria:
            table.add_column(escape(f"{criterion.name} ({criterion.weight:g})"), justify="right")
        table.add_column("Score", justify="right")
        table.add_column("Standing")
        for row in result.rows:
            standing = memo.standing(result, row)
            table.add_row(escape(row.option), *[
                escape(f"{s.score:g}" + (f" [{', '.join(s.citations)}]" if s.citations else "")) if s.score is not None
                else "?" for s in row.scores],
                f"{row.total:.1f}" + (f" ({row.low:.1f}-{row.high:.1f})" if row.low != row.high else ""),
                escape(standing))
        self.console.print(table)
        for condition in result.conditions:
            self.console.print(f"  if: {escape(condition)}")
        if result.next_question:
            self.console.print(f"  [bold]worth finding out next:[/] {escape(result.next_question)} "
                               f"[dim]{escape(result.next_reason)}[/]")

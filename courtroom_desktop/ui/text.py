"""Wording shared by the window's models and cards: stances, citations as links, the verdict as Markdown.
Pure functions (no widgets), so they are tested without a display."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr, wording_language

if TYPE_CHECKING:
    from courtroom_desktop.core.config import ModelSettings
    from courtroom_desktop.core.court.records import Reason, Verdict
    from courtroom_desktop.core.records import Chunk
    from courtroom_desktop.core.services.trials import DecisionOutcome

CITE_SCHEME = "cite"
#: A notice on a work (records.Notice.kind), shown beside its title wherever it appears (through tr)
NOTICE_WORDS = {"retraction": QT_TRANSLATE_NOOP("", "retracted"), "correction": QT_TRANSLATE_NOOP("", "corrected"),
                "expression of concern": QT_TRANSLATE_NOOP("", "expression of concern")}
#: The roles (and the embedder) by their stored names, shown through tr (where each one's text goes)
ROLE_WORDS = (QT_TRANSLATE_NOOP("", "prosecution"), QT_TRANSLATE_NOOP("", "defense"), QT_TRANSLATE_NOOP("", "judge"),
              QT_TRANSLATE_NOOP("", "embedder"))
#: The default evidence levels (config.DebateSettings.evidence_hierarchy), for lupdate: shown through tr
LEVELS = (QT_TRANSLATE_NOOP("", "systematic review"), QT_TRANSLATE_NOOP("", "randomised trial"),
          QT_TRANSLATE_NOOP("", "cohort"), QT_TRANSLATE_NOOP("", "case report"),
          QT_TRANSLATE_NOOP("", "expert opinion"), QT_TRANSLATE_NOOP("", "other"))

#: Shown through tr (the trials and checks tables, the verdict card)
VERDICT_WORDS = {
    "supported": QT_TRANSLATE_NOOP("", "Supported"),
    "refuted": QT_TRANSLATE_NOOP("", "Refuted"),
    "mixed": QT_TRANSLATE_NOOP("", "Mixed"),
    "insufficient evidence": QT_TRANSLATE_NOOP("", "Insufficient evidence"),
}
#: A challenge's status (core.court.records.ChallengeStatus) and who raises one, shown through tr
CHALLENGE_WORDS = (QT_TRANSLATE_NOOP("", "open"), QT_TRANSLATE_NOOP("", "answered"),
                   QT_TRANSLATE_NOOP("", "partly answered"), QT_TRANSLATE_NOOP("", "unanswered"),
                   QT_TRANSLATE_NOOP("", "Judge"))
#: Shown through tr (the judge's cards)
TENDENCY_WORDS = {"support": QT_TRANSLATE_NOOP("", "leans towards support"),
                  "refute": QT_TRANSLATE_NOOP("", "leans towards refuting"),
                  "unclear": QT_TRANSLATE_NOOP("", "is undecided")}


def demo_words(models: ModelSettings | Mapping[str, str] | None) -> str:
    """The demo-model note of core.llm.demo.demo_line in the window's language ('' when no role runs the bundled
    model): the note, the roles on it, and where the model setup is."""
    from courtroom_desktop.core.config import ROLES
    from courtroom_desktop.core.services.models import DEMO_NOTE, demo_roles

    roles = demo_roles(models)
    if not roles:
        return ""
    who = tr("every role") if len(roles) == len(ROLES) else tr(", ").join(tr(role) for role in roles)
    return tr("{note} ({who} on the bundled {model}; set up a model in Settings \u2192 Models (Find models on this "
              "computer))").format(note=tr(DEMO_NOTE), who=who, model="SmolLM2-135M")


def _value(x: str | None) -> str:
    return getattr(x, "value", x) or ""


def stance_words(case: str | None, stance: str | None) -> str:
    """'argues the claim is false' etc., for the case type."""
    case, stance = _value(case), _value(stance)
    if case == "decision":
        return tr("argues for doing it") if stance == "for" else tr("argues against doing it")
    return tr("argues the claim is true") if stance == "for" else tr("argues the claim is false")


def assessed_words(case: str | None, stance: str | None) -> str:
    """An assessed stance as the evidence table shows it: supports/refutes a claim, for/against a decision."""
    stance = _value(stance)
    if _value(case) == "decision":
        return {"supports": "for", "refutes": "against"}.get(stance, stance)
    return stance


def said(reason: Reason | None, lang: str | None = None) -> str:
    """A reason the court stored (a stop or switch reason, a flag, a warning), in words: the reports' wording
    (core.reports.wording, through the export service), in ``lang`` or the window's; '' for none."""
    if reason is None:
        return ""
    from courtroom_desktop.core.services.export import wording

    return wording.say_reason(reason, lang or wording_language())


def said_all(reasons: Iterable[Reason], lang: str | None = None) -> str:
    """Several reasons on one line (the language's semicolon between them)."""
    from courtroom_desktop.core.services.export import wording

    return wording.say_reasons(reasons, lang or wording_language())


def cite_href(evidence_id: str) -> str:
    return f"{CITE_SCHEME}:{evidence_id}"


def evidence_of_href(href: str) -> str | None:
    scheme, _, rest = href.partition(":")
    return rest if scheme == CITE_SCHEME and re.fullmatch(r"E\d+", rest) else None


def citations_html(text: str) -> str:
    """Plain text -> HTML with every [E3] (or [E1, E2]) turned into links that open the evidence (the court's
    citation pattern, through the export service)."""
    from courtroom_desktop.core.services.export import CITATION

    out: list[str] = []
    position = 0
    for match in CITATION.finditer(text):
        out.append(html.escape(text[position:match.start()]))
        ids = re.findall(r"E\d+", match.group(1))
        out.append("[" + ", ".join(f'<a href="{cite_href(i)}">{i}</a>' for i in ids) + "]")
        position = match.end()
    out.append(html.escape(text[position:]))
    return "".join(out).replace("\n", "<br>")


def _md(text: str) -> str:
    """Escape Markdown's special characters in model-written text (it is data, not markup)."""
    return re.sub(r"([\\`*_{}\[\]()#+!|<>])", r"\\\1", " ".join(str(text).split()))


def _md_cites(ids: Iterable[str]) -> str:
    return " ".join(f"[\\[{i}\\]]({cite_href(i)})" for i in ids)


def verdict_markdown(verdict: Verdict, case: str | None = "claim", claim: str = "", demo: str = "",
                     lang: str | None = None) -> str:
    """The final verdict card, as Markdown (rendered by Qt's Markdown support). ``demo``: the demo-model note
    (core.llm.demo), shown right under the heading when a role ran the bundled model. What the card shares with the
    reports (the court's reasons, what the confidence rests on, the rule's correction, the section headings) is worded
    by the reports' wording (core.reports.wording) in ``lang``."""
    from courtroom_desktop.core.services.export import wording

    lang = lang or wording_language()
    label = tr(VERDICT_WORDS.get(_value(verdict.label), str(_value(verdict.label)).capitalize()))
    result = getattr(verdict, "decision", None)  # a decision with options: the table's outcome
    if result is not None:
        label = result.label.capitalize() + (f": {_md(result.recommended)}" if result.recommended else "")
    lines = [tr("## Verdict: {label}").format(label=label), ""]
    if demo:
        lines += [f"**\u26a0 {_md(demo)}**", ""]
    if claim:
        lines += [(tr("*Decision:* {text}") if _value(case) == "decision" else tr("*Claim:* {text}")).format(
            text=_md(claim)), ""]
    weighed = getattr(verdict, "evidence_confidence", None)
    beside = (" \u00b7 " + tr("weighed evidence {percent} ({label})").format(
        percent=f"{weighed:.0%}", label=tr(VERDICT_WORDS.get(_value(verdict.evidence_label),
                                                             str(_value(verdict.evidence_label)))))
              if weighed is not None and verdict.evidence_label is not None else "")
    rounds = tr("{n} round") if verdict.rounds == 1 else tr("{n} rounds")
    switches = tr("{n} switch") if verdict.switches == 1 else tr("{n} switches")
    lines += [tr("**Confidence {percent}**").format(percent=f"{verdict.confidence:.0%}") + beside
              + " \u00b7 " + rounds.format(n=verdict.rounds) + " \u00b7 " + switches.format(n=verdict.switches), ""]
    for note in (wording.rests_on(verdict, lang), wording.evidence_confidence(verdict, lang),
                 wording.correction(verdict, lang)):
        if note:
            lines += [f"*{_md(note)}*", ""]
    if verdict.summary:
        lines += [_md(verdict.summary), ""]
    if result is not None:
        lines += decision_markdown(result)
    if verdict.findings:
        lines += [f"### {wording.word('findings', lang)}", ""]
        for number, finding in enumerate(verdict.findings, 1):
            cites = f" {_md_cites(finding.citations)}" if finding.citations else ""
            lines.append(f"{number}. {_md(finding.text)}{cites}")
        lines.append("")
    for title, items in ((tr("What would change the recommendation") if result is not None
                          else wording.word("conditions", lang), verdict.conditions),
                         (wording.word("risks", lang), verdict.risks),
                         (wording.word("open_questions", lang), verdict.open_questions)):
        if items:
            lines += [f"### {title}", ""] + [f"- {_md(item)}" for item in items] + [""]
    if verdict.open_challenges:
        lines += ["### " + tr("Open lines of argument"), ""] + [
            "- " + tr("{id} ({by}, round {round}; {status}): {text}").format(
                id=t.challenge.id, by=_md(tr(t.challenge.raised_by)), round=t.challenge.round,
                status=tr(t.status.value), text=_md(t.challenge.text)) for t in verdict.open_challenges] + [""]
    if verdict.evidence:
        lines += ["### " + tr("Evidence weighed"), ""]
        for weighed in verdict.evidence:
            says = tr(", says: {stance}").format(stance=tr(weighed.assessed.value)) if weighed.assessed else ""
            both = tr(", cited by both sides") if weighed.both_sides else ""
            by = (tr(", cited by {who}").format(who=_md(", ".join(tr(w) for w in weighed.cited_by)))
                  if weighed.cited_by else "")
            lines.append(f"- {_md_cites([weighed.id])} " + tr("{level}, weight {weight}").format(
                level=_md(tr(weighed.level)), weight=f"{weighed.weight:.2f}") + says + both + by)
        lines.append("")
    if verdict.stopped_because is not None:
        lines += [tr("*Stopped because:* {reason}").format(reason=_md(said(verdict.stopped_because, lang))), ""]
    if verdict.quality_flags:
        lines += [f"### {wording.word('quality_flags', lang)}", ""] + [
            f"- {_md(said(flag, lang))}" for flag in verdict.quality_flags] + [""]
    if getattr(verdict, "quality", ()):
        lines += [f"### {wording.word('quality_scores', lang)}", ""] + [
            f"- {_md(wording.quality_score(q, lang))}" for q in verdict.quality] + [""]
    return "\n".join(lines).strip() + "\n"


def decision_markdown(result: DecisionOutcome) -> list[str]:
    """A decision's options by criteria (core.court.decisions.DecisionOutcome) as a Markdown table, scores with
    their citations as links, and what is worth finding out next."""
    from courtroom_desktop.core.services.export import memo

    head = [tr("Option"), *(f"{_md(c.name)} ({c.weight:g})" for c in result.criteria), tr("Score"), tr("Standing")]
    lines = ["### " + tr("Options by criteria"), "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in result.rows:
        cells = [(f"{s.score:g}" + (f" {_md_cites(s.citations)}" if s.citations else "")) if s.score is not None
                 else "?" for s in row.scores]
        standing = _md(memo.standing(result, row))
        total = f"{row.total:.1f}" + (f" ({row.low:.1f}\u2013{row.high:.1f})" if row.low != row.high else "")
        lines.append("| " + " | ".join([_md(row.option), *cells, total, standing]) + " |")
    lines += ["", "*" + tr("Scores 0\u201310 by the judge, counted only with a citation; ? = not established by your "
                           "notes (counted at 5).") + "*", ""]
    if result.next_question:
        lines += ["**" + tr("Worth finding out next:") + f"** {_md(result.next_question)} {_md(result.next_reason)}",
                  ""]
    return lines


def pages_label(chunk: Chunk) -> str:
    """'p. 3' or 'pp. 3\u20134': the chunk's own pages (core.records.Chunk.pages) with the prefix; '' for a passage of
    a text document, which has no pages."""
    pages = chunk.pages
    if not pages:
        return ""
    return tr("pp. {pages}").format(pages=pages) if "\u2013" in pages else tr("p. {pages}").format(pages=pages)


def clock(timestamp: float | None) -> str:
    if not timestamp:
        return ""
    return time.strftime("%H:%M:%S", time.localtime(timestamp))


def date_time(timestamp: float | None) -> str:
    if not timestamp:
        return ""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(timestamp))

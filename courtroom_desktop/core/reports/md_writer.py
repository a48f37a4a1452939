"""The report as Markdown, with the chart beside it as an SVG file.

Text from documents and models is escaped (``md_escape``): Markdown punctuation gets a backslash, ``<``, ``>`` and
``&`` become entities, so no passage can open a tag, a link, an image or a block of its own in any renderer.
The only links are ours: ``sources/E3-p4.pdf#page=1``, the page images, and anchors.
"""

from __future__ import annotations

import re
from pathlib import Path

from courtroom_desktop.core.court.records import Ruling, Turn
from courtroom_desktop.core.reports import view
from courtroom_desktop.core.reports.chart import confidence_svg
from courtroom_desktop.core.reports.record import Audience, TrialRecord

INLINE = re.compile(r"([\\`*_\[\]|~$])")
ORDERED = re.compile(r"^(\d+)([.)])")


def md_escape(text: str) -> str:
    """One line of untrusted text, inert in Markdown (CommonMark, GFM and Python-Markdown alike)."""
    flat = view.one_line(text)
    flat = flat.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    flat = INLINE.sub(r"\\\1", flat)
    if flat[:1] in ("#", "-", "+", "="):  # would open a heading, list or rule at the start of a line
        flat = "\\" + flat
    return ORDERED.sub(r"\1\\\2", flat)


def _part(text: str) -> str:
    """A stretch of text between citations, keeping one space at either end where it had some."""
    core = md_escape(text)
    if not core:
        return " " if text else ""
    return (" " if text[:1].isspace() else "") + core + (" " if text[-1:].isspace() else "")


def _rich(record: TrialRecord, text: str) -> str:
    out = []
    for part in view.split_citations(view.clean(text)):
        out.append(_part(part) if isinstance(part, str) else _cite(record, part))
    return "".join(out)


def _cite(record: TrialRecord, ids: list[str]) -> str:
    links = []
    for evidence_id in ids:
        target = view.citation_target(record, evidence_id)
        links.append(f"[{evidence_id}]({target})" if target else evidence_id)
    return "\\[" + ", ".join(links) + "\\]"


def _cell(text: str) -> str:
    return md_escape(text) or " "


def _row(cells) -> str:
    return "| " + " | ".join(cells) + " |"


def render_markdown(record: TrialRecord, audience: Audience = "general", chart_file: str = "") -> str:
    if audience not in view.AUDIENCES:
        raise ValueError(f"audience must be one of {view.AUDIENCES}, not {audience!r}")
    r = record
    sections = [_header(r, audience), _summary(r, audience), _confidence(r, chart_file), _findings(r),
                _open_questions(r), _quality(r), _passages(r), _evidence(r, audience)]
    if audience == "expert":
        sections += [_rounds_in_detail(r), _discovery(r)]
    sections += [_settings(r), _transcript(r)]
    return "\n".join(line for section in sections for line in section).rstrip() + "\n"


# Each section is a list of lines (a line may end in "\n" for a blank line after it); render_markdown joins them.
def _header(r: TrialRecord, audience: Audience) -> list[str]:
    out = ["# Verdict report\n",
           f"**{view.case_word(r)}:** {md_escape(r.spec.claim)}\n",
           f"Trial `{r.trial_id}` · started {md_escape(r.started_at or 'unknown')} · report made {md_escape(r.generated_at)} "
           f"· summary for {'an expert' if audience == 'expert' else 'a general'} reader · Courtroom Desktop {r.app_version}\n"]
    verdict = r.verdict
    if verdict is None:
        out.append(f"**NO VERDICT**: the trial is {md_escape(r.status or 'unfinished')}; `courtroom trials resume {r.trial_id}` "
                   "continues it.\n")
    else:
        out.append(f"**Verdict: {verdict.label.value.upper()}**, confidence {verdict.confidence:.2f} "
                   f"({view.confidence_words(verdict.confidence)}); {verdict.rounds} round(s), {verdict.switches} role switch(es); "
                   f"stopped because {md_escape(verdict.stopped_because) or 'n/a'}.\n")
    return out


def _summary(r: TrialRecord, audience: Audience) -> list[str]:
    out = ["## Summary\n"]
    out.extend(_rich(r, paragraph) + "\n" for paragraph in view.summary_paragraphs(r, audience))
    verdict = r.verdict
    if verdict and verdict.conditions:
        out += ["### Conditions\n", *(f"- {_rich(r, c)}" for c in verdict.conditions), ""]
    if verdict and verdict.risks:
        out += ["### Risks\n", *(f"- {_rich(r, c)}" for c in verdict.risks), ""]
    return out


def _confidence(r: TrialRecord, chart_file: str) -> list[str]:
    out = ["## The Judge's confidence per round\n"]
    if chart_file:
        out.append(f"![The Judge's confidence and tendency per round; dashed orange: sides switched]({chart_file})\n")
    out += ["| Round | Tendency | Confidence | Ready for verdict | Note |", "|---|---|---|---|---|"]
    for ruling in r.rulings:
        note = " ".join(f"**{label}**: {md_escape(detail)}" if stands_out else md_escape(f"{label}: {detail}")
                        for label, detail, stands_out in view.ruling_notes(r, ruling))
        out.append(f"| {ruling.round} | {ruling.ruling.tendency.value} | {ruling.ruling.confidence:.2f} | "
                   f"{'yes' if ruling.ruling.ready_for_verdict else 'no'} | {note or ' '} |")
    out.append("")
    return out


def _findings(r: TrialRecord) -> list[str]:
    verdict = r.verdict
    if not verdict or not verdict.findings:
        return ["## Findings\n", "No findings.\n"]
    out = ["## Findings\n"]
    for number, finding in enumerate(verdict.findings, 1):
        cited = [c for c in finding.citations if f"[{c}]" not in finding.text]
        line = f"{number}. {_rich(r, finding.text)}" + (f" {_cite(r, cited)}" if cited else "")
        details = view.finding_sources(r, finding, md_escape)
        out.append(line + ("  \n   " + "; ".join(details) if details else ""))
    out.append("")
    return out


def _open_questions(r: TrialRecord) -> list[str]:
    questions = list(r.verdict.open_questions) if r.verdict else []
    lines = view.challenge_lines(r)
    return ["## Open questions\n", *(_list(r, questions) if questions else ["None."]), "",
            "### Open lines of argument: challenges never answered\n",
            *([f"- {md_escape(line)}" for line in lines] if lines else ["None."]), ""]


def _list(r: TrialRecord, items) -> list[str]:
    return [f"- {_rich(r, item)}" for item in items]


def _quality(r: TrialRecord) -> list[str]:
    flags = view.quality_flags(r)
    out = ["## Quality flags\n", *([f"- {md_escape(f)}" for f in flags] if flags else ["None."]), ""]
    notes = view.trial_notes(r)
    if notes:
        out += ["### Notes from the trial\n", *(f"- {md_escape(n)}" for n in notes), ""]
    return out


def _passages(r: TrialRecord) -> list[str]:
    out = ["## Cited passages\n"]
    cited_ids = r.cited_ids()
    if not cited_ids:
        out.append("No passage was cited.\n")
    for evidence_id in cited_ids:
        out += _passage(r, evidence_id)
    return out


def _passage(r: TrialRecord, evidence_id: str) -> list[str]:
    entry = r.entry(evidence_id)
    source = r.source(evidence_id)
    who = view.cited_by_text(r, entry) or "nobody"
    out = [f'### <a id="{evidence_id}"></a>\\[{evidence_id}\\] {view.passage_label(entry, md_escape)}\n',
           f"Evidence level: {md_escape(entry.level)} · says: {md_escape(view.assessed_text(r, entry))} · cited by "
           f"{md_escape(who)} · found by "
           f"{md_escape(view.found_by_text(r, entry))}" + (" · **reads like instructions to a model: quoted only**"
                                                           if entry.injection else "") + "\n",
           "\n>\n".join(f"> {md_escape(p)}" for p in view.paragraphs(entry.evidence.chunk.text)) + "\n"]
    quotes = r.quotes(evidence_id)
    if quotes:
        out.append("Quoted by counsel: " + "; ".join(f"\u201c{md_escape(q)}\u201d" for q in quotes) + "\n")
    if source is not None and source.pdf:
        out.append(f"[Open page {source.original_page} with the passage highlighted]({source.href}) ({source.pdf}, page "
                   f"{source.page})\n")
        out.extend(f"![{evidence_id} highlighted on page {source.original_page + offset}]({image})\n"
                   for offset, image in enumerate(source.images))
    if source is not None and source.note:
        out.append(f"*{md_escape(source.note)}. The passage above is the text the trial kept.*\n")
    elif source is None:
        out.append("*No highlighted copy was made for this report.*\n")
    return out


def _evidence(r: TrialRecord, audience: Audience) -> list[str]:
    if not r.pool:
        return ["## Evidence\n", "The evidence pool is empty.\n"]
    head = view.evidence_head(audience)
    out = ["## Evidence\n", _row(head), "|" + "---|" * len(head)]
    cited = set(r.cited_ids())
    for entry in r.pool:
        target = view.citation_target(r, entry.id) if entry.id in cited else ""
        ident = f'<a id="row-{entry.id}"></a>' + (f"[{entry.id}]({target})" if target else entry.id)
        cells = [ident, *(_cell(c) for c in view.evidence_cells(r, entry))]
        if audience == "expert":
            cells.append(view.weight_text(r, entry) or " ")
        out.append(_row(cells))
    out.append("")
    return out


def _rounds_in_detail(r: TrialRecord) -> list[str]:
    out = ["## Rounds in detail\n"]
    for ruling in r.rulings:
        j = ruling.ruling
        out += [f"### Round {ruling.round}: {j.tendency.value}, confidence {j.confidence:.2f}\n",
                f"**Summary:** {_rich(r, j.summary)}\n",
                f"**Evidence assessment:** {_rich(r, j.evidence_assessment)}\n",
                f"**Key controversy:** {_rich(r, j.key_controversy)}\n"]
        if j.open_questions:
            out += ["**Open questions:**\n", *_list(r, j.open_questions), ""]
        if j.ready_for_verdict:
            out.append(f"**Ready for verdict:** {_rich(r, j.ready_reason)}"
                       + (f" — overruled: {md_escape('; '.join(ruling.overruled))}" if ruling.overruled else "") + "\n")
    return out


def _discovery(r: TrialRecord) -> list[str]:
    head = view.DISCOVERY_HEAD
    out = ["### How the evidence was found\n", _row(head), "|" + "---|" * len(head)]
    out.extend(_row([entry.id, *(_cell(c) for c in view.discovery_text(r, entry)), *view.discovery_figures(entry)])
               for entry in r.pool)
    out.append("")
    return out


def _settings(r: TrialRecord) -> list[str]:
    out = ["## Models and settings\n", "| Role | Model |", "|---|---|"]
    out.extend(f"| {_cell(role)} | {_cell(model)} |" for role, model in (r.spec.models or {"(not recorded)": ""}).items())
    out += ["",
            f"Case type: {r.spec.case.value} · scope: {md_escape(view.scope_text(r))} · usage: {md_escape(view.usage_text(r))}\n",
            "| Debate setting | Value |", "|---|---|",
            *(f"| {_cell(k)} | {_cell(v)} |" for k, v in view.settings_rows(r)), "",
            f"Report made {md_escape(r.generated_at)}; trial started {md_escape(r.started_at or 'unknown')}, verdict "
            f"{md_escape(r.finished_at or 'not reached')}.\n"]
    return out


def _transcript(r: TrialRecord) -> list[str]:
    out = ["## Appendix: transcript\n"]
    if not r.turns and not r.rulings:
        out.append("Nothing was said yet.\n")
    for number in view.rounds(r):
        out.append(f"### Round {number}\n")
        for turn in (t for t in r.turns if t.round == number):
            out += _turn(r, turn)
        for ruling in (x for x in r.rulings if x.round == number):
            out += _judge(r, ruling)
        switch = r.switched_after(number)
        if switch:
            out.append(f"---\n\n**⇄ Sides switched after round {number}:** {md_escape('; '.join(switch.reasons))} "
                       f"({md_escape(view.switch_roles(r, switch))})\n\n---\n")
    return out


def _turn(r: TrialRecord, turn: Turn) -> list[str]:
    text = view.paragraphs(turn.text)
    out = [f"**{md_escape(turn.role)}** ({view.turn_seat(turn)})\n",
           "\n\n".join(_rich(r, p) for p in text) + "\n" if text else "(empty)\n"]
    notes = view.turn_notes(turn)
    if notes:
        out.append(f"*{md_escape(' · '.join(notes))}*\n")
    return out


def _judge(r: TrialRecord, ruling: Ruling) -> list[str]:
    j = ruling.ruling
    out = [f"**Judge** — {j.tendency.value}, confidence {j.confidence:.2f}: {_rich(r, j.summary)}\n"]
    if j.key_controversy.strip():
        out.append(f"Key controversy: {_rich(r, j.key_controversy)}\n")
    if j.open_questions:
        out.append("Open questions: " + "; ".join(_rich(r, q) for q in j.open_questions) + "\n")
    if ruling.overruled:
        out.append(f"'Ready for verdict' overruled: {md_escape('; '.join(ruling.overruled))}\n")
    return out


def write_markdown(record: TrialRecord, path: Path, audience: Audience = "general") -> Path:
    """``path`` and, beside it, the chart as ``<stem>-chart.svg``; links point into ``path.parent / 'sources'``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    chart = path.with_name(f"{path.stem}-chart.svg")
    chart.write_text(confidence_svg(record), encoding="utf-8")
    path.write_text(render_markdown(record, audience, chart.name), encoding="utf-8")
    return path

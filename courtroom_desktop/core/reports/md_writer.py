"""The report as Markdown, with the chart beside it as an SVG file.

Text from documents and models is escaped (``md_escape``): Markdown punctuation gets a backslash, ``<``, ``>`` and
``&`` become entities, so no passage can open a tag, a link, an image or a block of its own in any renderer.
The only links are ours: ``sources/E3-p4.pdf#page=1``, the page images, and anchors.
"""

from __future__ import annotations

import re
from pathlib import Path

from courtroom_desktop.core.court.records import role_name
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


def render_markdown(record: TrialRecord, audience: Audience = "general", chart_file: str = "") -> str:
    if audience not in view.AUDIENCES:
        raise ValueError(f"audience must be one of {view.AUDIENCES}, not {audience!r}")
    r = record
    out: list[str] = []
    add = out.append
    add("# Verdict report\n")
    add(f"**{view.case_word(r)}:** {md_escape(r.spec.claim)}\n")
    add(f"Trial `{r.trial_id}` · started {md_escape(r.started_at or 'unknown')} · report made {md_escape(r.generated_at)} "
        f"· summary for {'an expert' if audience == 'expert' else 'a general'} reader · Courtroom Desktop {r.app_version}\n")
    verdict = r.verdict
    if verdict is None:
        add(f"**NO VERDICT**: the trial is {md_escape(r.status or 'unfinished')}; `courtroom trials resume {r.trial_id}` "
            "continues it.\n")
    else:
        add(f"**Verdict: {verdict.label.value.upper()}**, confidence {verdict.confidence:.2f} "
            f"({view.confidence_words(verdict.confidence)}); {verdict.rounds} round(s), {verdict.switches} role switch(es); "
            f"stopped because {md_escape(verdict.stopped_because) or 'n/a'}.\n")

    add("## Summary\n")
    for paragraph in view.summary_paragraphs(r, audience):
        add(_rich(r, paragraph) + "\n")
    if verdict and verdict.conditions:
        add("### Conditions\n")
        out.extend(f"- {_rich(r, c)}" for c in verdict.conditions)
        add("")
    if verdict and verdict.risks:
        add("### Risks\n")
        out.extend(f"- {_rich(r, c)}" for c in verdict.risks)
        add("")

    add("## The Judge's confidence per round\n")
    if chart_file:
        add(f"![The Judge's confidence and tendency per round; dashed orange: sides switched]({chart_file})\n")
    add("| Round | Tendency | Confidence | Ready for verdict | Note |")
    add("|---|---|---|---|---|")
    for ruling in r.rulings:
        notes = []
        if ruling.overruled:
            notes.append("'ready' overruled: " + "; ".join(ruling.overruled))
        switch = r.switched_after(ruling.round)
        if switch:
            notes.append("**sides switched after this round**: " + md_escape("; ".join(switch.reasons)))
        note = " ".join(n if n.startswith("**") else md_escape(n) for n in notes)
        add(f"| {ruling.round} | {ruling.ruling.tendency.value} | {ruling.ruling.confidence:.2f} | "
            f"{'yes' if ruling.ruling.ready_for_verdict else 'no'} | {note or ' '} |")
    add("")

    add("## Findings\n")
    if not verdict or not verdict.findings:
        add("No findings.\n")
    else:
        for number, finding in enumerate(verdict.findings, 1):
            cited = [c for c in finding.citations if f"[{c}]" not in finding.text]
            line = f"{number}. {_rich(r, finding.text)}" + (f" {_cite(r, cited)}" if cited else "")
            details = []
            for evidence_id in finding.citations:
                entry = r.entry(evidence_id)
                if entry:
                    section = entry.evidence.chunk.section_path
                    details.append(f"{evidence_id}: {md_escape(view.doc_label(entry))}, page {view.pages_label(entry)}"
                                   + (f", {md_escape(section)}" if section.strip() else ""))
            add(line + ("  \n   " + "; ".join(details) if details else ""))
        add("")
    add("## Open questions\n")
    questions = list(verdict.open_questions) if verdict else []
    out.extend(f"- {_rich(r, q)}" for q in questions) if questions else add("None.")
    add("")

    add("## Quality flags\n")
    flags = view.quality_flags(r)
    out.extend(f"- {md_escape(f)}" for f in flags) if flags else add("None.")
    add("")
    notes = view.trial_notes(r)
    if notes:
        add("### Notes from the trial\n")
        out.extend(f"- {md_escape(n)}" for n in notes)
        add("")

    add("## Cited passages\n")
    cited_ids = r.cited_ids()
    if not cited_ids:
        add("No passage was cited.\n")
    for evidence_id in cited_ids:
        entry = r.entry(evidence_id)
        chunk = entry.evidence.chunk
        source = r.source(evidence_id)
        section = view.one_line(chunk.section_path)
        add(f'### <a id="{evidence_id}"></a>\\[{evidence_id}\\] {md_escape(view.doc_label(entry))}, page '
            f"{view.pages_label(entry)}" + (f", {md_escape(section)}" if section else "") + "\n")
        who = ", ".join(r.cited_by(evidence_id)) or "nobody"
        add(f"Evidence level: {md_escape(entry.level)} · cited by {md_escape(who)} · found by "
            f"{md_escape(view.found_by_text(r, entry))}" + (" · **reads like instructions to a model: quoted only**"
                                                            if entry.injection else "") + "\n")
        add("\n>\n".join(f"> {md_escape(p)}" for p in view.paragraphs(chunk.text)) + "\n")
        quotes = r.quotes(evidence_id)
        if quotes:
            add("Quoted by counsel: " + "; ".join(f"\u201c{md_escape(q)}\u201d" for q in quotes) + "\n")
        if source is not None and source.pdf:
            add(f"[Open page {source.original_page} with the passage highlighted]({source.href}) ({source.pdf}, page "
                f"{source.page})\n")
            for offset, image in enumerate(source.images):
                add(f"![{evidence_id} highlighted on page {source.original_page + offset}]({image})\n")
        if source is not None and source.note:
            add(f"*{md_escape(source.note)}. The passage above is the text the trial kept.*\n")
        elif source is None:
            add("*No highlighted copy was made for this report.*\n")

    add("## Evidence\n")
    if not r.pool:
        add("The evidence pool is empty.\n")
    else:
        head = ["ID", "Document", "Page", "Section", "Excerpt", "Stance", "Cited by", "Evidence level"]
        if audience == "expert":
            head.append("Weight")
        add("| " + " | ".join(head) + " |")
        add("|" + "---|" * len(head))
        cited = set(cited_ids)
        for entry in r.pool:
            chunk = entry.evidence.chunk
            target = view.citation_target(r, entry.id) if entry.id in cited else ""
            ident = f'<a id="row-{entry.id}"></a>' + (f"[{entry.id}]({target})" if target else entry.id)
            cells = [ident, _cell(view.doc_label(entry)), view.pages_label(entry),
                     _cell(chunk.section_path), _cell(view.excerpt(chunk.text, 160)),
                     _cell(view.stance_text(r, r.citing_stance(entry.id)) or "not cited"),
                     _cell(", ".join(r.cited_by(entry.id))), _cell(entry.level)]
            if audience == "expert":
                weight = r.weight(entry.id)
                cells.append(" " if weight is None else f"{weight:.2f}")
            add("| " + " | ".join(cells) + " |")
        add("")

    if audience == "expert":
        add("## Rounds in detail\n")
        for ruling in r.rulings:
            j = ruling.ruling
            add(f"### Round {ruling.round}: {j.tendency.value}, confidence {j.confidence:.2f}\n")
            add(f"**Summary:** {_rich(r, j.summary)}\n")
            add(f"**Evidence assessment:** {_rich(r, j.evidence_assessment)}\n")
            add(f"**Key controversy:** {_rich(r, j.key_controversy)}\n")
            if j.open_questions:
                add("**Open questions:**\n")
                out.extend(f"- {_rich(r, q)}" for q in j.open_questions)
                add("")
            if j.ready_for_verdict:
                add(f"**Ready for verdict:** {_rich(r, j.ready_reason)}"
                    + (f" — overruled: {md_escape('; '.join(ruling.overruled))}" if ruling.overruled else "") + "\n")
        add("### How the evidence was found\n")
        add("| ID | Found by | Query | Fused score | BM25 rank | Vector rank | Novelty |")
        add("|---|---|---|---|---|---|---|")
        for entry in r.pool:
            ev = entry.evidence
            add(f"| {entry.id} | {_cell(view.found_by_text(r, entry))} | {_cell(entry.query)} | {ev.score:.4f} | "
                f"{'' if ev.bm25_rank is None else ev.bm25_rank} | {'' if ev.vector_rank is None else ev.vector_rank} | "
                f"{entry.novelty:.2f} |")
        add("")

    add("## Models and settings\n")
    add("| Role | Model |")
    add("|---|---|")
    for role, model in (r.spec.models or {"(not recorded)": ""}).items():
        add(f"| {_cell(role)} | {_cell(model)} |")
    add("")
    add(f"Case type: {r.spec.case.value} · scope: {md_escape(view.scope_text(r))} · usage: {md_escape(view.usage_text(r))}\n")
    add("| Debate setting | Value |")
    add("|---|---|")
    out.extend(f"| {_cell(k)} | {_cell(v)} |" for k, v in view.settings_rows(r))
    add("")
    add(f"Report made {md_escape(r.generated_at)}; trial started {md_escape(r.started_at or 'unknown')}, verdict "
        f"{md_escape(r.finished_at or 'not reached')}.\n")

    add("## Appendix: transcript\n")
    if not r.turns and not r.rulings:
        add("Nothing was said yet.\n")
    for number in view.rounds(r):
        add(f"### Round {number}\n")
        for turn in (t for t in r.turns if t.round == number):
            add(f"**{md_escape(turn.role)}** (counsel {turn.seat.value}, {turn.stance.value})\n")
            text = view.paragraphs(turn.text)
            add("\n\n".join(_rich(r, p) for p in text) + "\n" if text else "(empty)\n")
            meta = []
            if turn.queries:
                meta.append("searched: " + "; ".join(view.one_line(q) for q in turn.queries))
            if turn.evidence_added:
                meta.append("new evidence: " + ", ".join(turn.evidence_added))
            if turn.regenerated:
                meta.append("regenerated once after a rejected answer")
            meta.extend(f"flag: {f}" for f in turn.flags)
            meta.extend(f"invalid citation {c.evidence_id}: {c.problem}" for c in turn.citations if not c.valid)
            if meta:
                add(f"*{md_escape(' · '.join(meta))}*\n")
        for ruling in (x for x in r.rulings if x.round == number):
            j = ruling.ruling
            add(f"**Judge** — {j.tendency.value}, confidence {j.confidence:.2f}: {_rich(r, j.summary)}\n")
            if j.key_controversy.strip():
                add(f"Key controversy: {_rich(r, j.key_controversy)}\n")
            if j.open_questions:
                add("Open questions: " + "; ".join(_rich(r, q) for q in j.open_questions) + "\n")
            if ruling.overruled:
                add(f"'Ready for verdict' overruled: {md_escape('; '.join(ruling.overruled))}\n")
        switch = r.switched_after(number)
        if switch:
            roles = ", ".join(f"counsel {seat} is now {role_name(r.spec.case, stance)}"
                              for seat, stance in sorted(switch.assignments.items()))
            add(f"---\n\n**⇄ Sides switched after round {number}:** {md_escape('; '.join(switch.reasons))} "
                f"({md_escape(roles)})\n\n---\n")
    return "\n".join(out).rstrip() + "\n"


def write_markdown(record: TrialRecord, path: Path, audience: Audience = "general") -> Path:
    """``path`` and, beside it, the chart as ``<stem>-chart.svg``; links point into ``path.parent / 'sources'``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    chart = path.with_name(f"{path.stem}-chart.svg")
    chart.write_text(confidence_svg(record), encoding="utf-8")
    path.write_text(render_markdown(record, audience, chart.name), encoding="utf-8")
    return path

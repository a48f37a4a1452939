"""The report as Markdown, with the chart beside it as an SVG file.

Text from documents and models is escaped (``md_escape``): Markdown punctuation gets a backslash, ``<``, ``>`` and
``&`` become entities, so no passage can open a tag, a link, an image or a block of its own in any renderer.
The only links are ours: ``sources/E3-p4.pdf#page=1``, the page images, and anchors.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from courtroom_desktop.core.court.records import Ruling, Turn
from courtroom_desktop.core.reports import memo, view
from courtroom_desktop.core.reports.chart import confidence_svg
from courtroom_desktop.core.reports.record import Audience, TrialRecord
from courtroom_desktop.core.reports.view import reason_text, say, term

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


def _row(cells: Iterable[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def render_markdown(record: TrialRecord, audience: Audience = "general", chart_file: str = "") -> str:
    if audience not in view.AUDIENCES:
        raise ValueError(f"audience must be one of {view.AUDIENCES}, not {audience!r}")
    r = record
    sections = [_header(r, audience), _summary(r, audience), _decision(r), _confidence(r, chart_file), _findings(r),
                _open_questions(r), _quality(r), _passages(r), _evidence(r, audience), _coverage(r)]
    if audience == "expert":
        sections += [_rounds_in_detail(r), _discovery(r)]
    sections += [_settings(r), _transcript(r)]
    return "\n".join(line for section in sections for line in section).rstrip() + "\n"


# Each section is a list of lines (a line may end in "\n" for a blank line after it); render_markdown joins them.
# Every fixed wording comes from view's table through say(), in the claim's language.
def _header(r: TrialRecord, audience: Audience) -> list[str]:
    meta = [say(r, "meta_trial", id=f"`{r.trial_id}`"), say(r, "meta_started", at=md_escape(r.started_at or say(r, "unknown"))),
            say(r, "meta_made", at=md_escape(r.generated_at)), say(r, f"audience.{audience}"),
            f"Courtroom Desktop {r.app_version}"]
    out = [f"# {view.report_title(r)}\n",
           f"**{view.case_word(r)}{say(r, 'colon').rstrip()}** {md_escape(r.spec.claim)}\n",
           " · ".join(meta) + "\n"]
    verdict = r.verdict
    if verdict is None:
        out.append(f"**{say(r, 'no_verdict')}**{say(r, 'colon')}"
                   f"{say(r, 'resume_hint', status=md_escape(view.status_text(r)), id=r.trial_id)}\n")
    else:
        confidence = say(r, "confidence_is", value=f"{verdict.confidence:.2f}", words=view.confidence_words(r, verdict.confidence))
        why = say(r, "stopped_because", why=md_escape(reason_text(r, verdict.stopped_because)) or say(r, "n/a"))
        out.append(f"**{say(r, 'verdict_label', label=md_escape(view.verdict_name(r)))}**{say(r, 'comma')}{confidence}{say(r, 'semi')}"
                   f"{say(r, 'rounds_switches', rounds=verdict.rounds, switches=verdict.switches)}{say(r, 'semi')}"
                   f"{why}{say(r, 'stop')}\n")
        if view.demo_note(r):
            out.append(f"> **\u26a0 {md_escape(view.demo_note(r))}**\n")
    return out


def _summary(r: TrialRecord, audience: Audience) -> list[str]:
    out = [f"## {say(r, 'summary')}\n"]
    out.extend(_rich(r, paragraph) + "\n" for paragraph in view.summary_paragraphs(r, audience))
    verdict = r.verdict
    if verdict and verdict.conditions:
        out += [f"### {view.conditions_title(r)}\n", *(f"- {_rich(r, c)}" for c in verdict.conditions), ""]
    if verdict and verdict.risks:
        out += [f"### {say(r, 'risks')}\n", *(f"- {_rich(r, c)}" for c in verdict.risks), ""]
    return out


def _decision(r: TrialRecord) -> list[str]:
    """A decision with options: the table of options by criteria (scores with their citations) and what is worth
    finding out next."""
    result = memo.outcome(r)
    if result is None:
        return []
    head = memo.head(r, result)
    out = [f"## {memo.memo_say(r, 'table')}\n", _row(_cell(h) for h in head), "|" + "---|" * len(head)]
    for row in memo.rows(r, result):
        cells = [md_escape(c.text) + (" " + _cite(r, list(c.citations)) if c.citations else "") for c in row.cells]
        out.append(_row([_cell(row.option), *cells, _cell(row.total), _cell(row.status)]))
    out += ["", f"*{md_escape(memo.memo_say(r, 'table_note'))}*\n"]
    lines = memo.next_lines(r, result)
    if lines:
        out += [f"### {memo.memo_say(r, 'next')}\n", " ".join(_rich(r, line) for line in lines) + "\n"]
    return out


def _confidence(r: TrialRecord, chart_file: str) -> list[str]:
    out = [f"## {say(r, 'confidence_per_round')}\n"]
    if chart_file:
        out.append(f"![{say(r, 'chart_alt')}]({chart_file})\n")
    out += [_row(say(r, f"col.{key}") for key in ("round", "tendency", "confidence", "ready", "note")), "|---|---|---|---|---|"]
    colon = say(r, "colon")
    for ruling in r.rulings:
        note = " ".join(f"**{label}**{colon}{md_escape(detail)}" if stands_out else md_escape(f"{label}{colon}{detail}")
                        for label, detail, stands_out in view.ruling_notes(r, ruling))
        out.append(f"| {ruling.round} | {term(r, ruling.ruling.tendency.value)} | {ruling.ruling.confidence:.2f} | "
                   f"{say(r, 'yes') if ruling.ruling.ready_for_verdict else say(r, 'no')} | {note or ' '} |")
    out.append("")
    return out


def _findings(r: TrialRecord) -> list[str]:
    verdict = r.verdict
    if not verdict or not verdict.findings:
        return [f"## {say(r, 'findings')}\n", f"{say(r, 'no_findings')}\n"]
    out = [f"## {say(r, 'findings')}\n"]
    for number, finding in enumerate(verdict.findings, 1):
        cited = [c for c in finding.citations if f"[{c}]" not in finding.text]
        line = f"{number}. {_rich(r, finding.text)}" + (f" {_cite(r, cited)}" if cited else "")
        details = view.finding_sources(r, finding, md_escape)
        out.append(line + ("  \n   " + say(r, "semi").join(details) if details else ""))
    out.append("")
    return out


def _open_questions(r: TrialRecord) -> list[str]:
    questions = list(r.verdict.open_questions) if r.verdict else []
    lines = view.challenge_lines(r)
    return [f"## {say(r, 'open_questions')}\n", *(_list(r, questions) if questions else [say(r, "none")]), "",
            f"### {say(r, 'open_lines')}\n",
            *([f"- {md_escape(line)}" for line in lines] if lines else [say(r, "none")]), ""]


def _list(r: TrialRecord, items: Iterable[str]) -> list[str]:
    return [f"- {_rich(r, item)}" for item in items]


def _quality(r: TrialRecord) -> list[str]:
    flags = view.quality_flags(r)
    out = [f"## {say(r, 'quality_flags')}\n", *([f"- {md_escape(f)}" for f in flags] if flags else [say(r, "none")]), ""]
    scores = view.quality_scores(r)
    if scores:
        out += [f"{say(r, 'quality_scores')}: " + "; ".join(md_escape(q) for q in scores), ""]
    notes = view.trial_notes(r)
    if notes:
        out += [f"### {say(r, 'trial_notes')}\n", *(f"- {md_escape(n)}" for n in notes), ""]
    return out


def _passages(r: TrialRecord) -> list[str]:
    out = [f"## {say(r, 'cited_passages')}\n"]
    cited_ids = r.cited_ids()
    if not cited_ids:
        out.append(f"{say(r, 'no_passage')}\n")
    for evidence_id in cited_ids:
        out += _passage(r, evidence_id)
    return out


def _passage(r: TrialRecord, evidence_id: str) -> list[str]:
    entry = r.entry(evidence_id)
    assert entry is not None  # cited_ids() names only passages of the pool
    source = r.source(evidence_id)
    who = view.cited_by_text(r, entry) or say(r, "nobody")
    card = [say(r, "card.level", level=md_escape(entry.level)), say(r, "card.says", says=md_escape(view.assessed_text(r, entry))),
            say(r, "card.cited_by", who=md_escape(who)), say(r, "card.found_by", who=md_escape(view.found_by_text(r, entry)))]
    if entry.injection:
        card.append(f"**{say(r, 'card.injection')}**")
    out = [f'### <a id="{evidence_id}"></a>\\[{evidence_id}\\] {view.passage_label(r, entry, md_escape)}\n',
           " · ".join(card) + "\n",
           "\n>\n".join(f"> {md_escape(p)}" for p in view.paragraphs(entry.evidence.chunk.text)) + "\n"]
    if view.reference_link(entry):
        out.append(f"[{say(r, 'in_zotero')}]({view.reference_link(entry)})\n")
    quotes = r.quotes(evidence_id)
    if quotes:
        out.append(say(r, "quoted_by_counsel") + say(r, "semi").join(f"\u201c{md_escape(q)}\u201d" for q in quotes) + "\n")
    if source is not None and source.pdf:
        out.append(f"[{say(r, 'open_page', page=source.original_page)}]({source.href}) "
                   f"{say(r, 'file_page', file=source.pdf, page=source.page)}\n")
        out.extend(f"![{say(r, 'highlighted_on', id=evidence_id, page=source.original_page + offset)}]({image})\n"
                   for offset, image in enumerate(source.images))
    if source is not None and source.excerpt:  # a text document: its excerpt, the passage marked
        out.append(f"[{say(r, 'open_excerpt')}]({source.href}) ({source.excerpt})\n")
    if source is not None and source.note:
        out.append(f"*{say(r, 'kept_text', note=md_escape(source.note))}*\n")
    elif source is None:
        out.append(f"*{say(r, 'no_copy')}*\n")
    return out


def _evidence(r: TrialRecord, audience: Audience) -> list[str]:
    if not r.pool:
        return [f"## {say(r, 'evidence')}\n", f"{say(r, 'pool_empty')}\n"]
    head = view.evidence_head(r, audience)
    out = [f"## {say(r, 'evidence')}\n", _row(head), "|" + "---|" * len(head)]
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


def _bold(r: TrialRecord, key: str) -> str:
    """'**Summary:** ': a bold label of the table (its colon inside the bold) and a space."""
    return f"**{say(r, key).rstrip()}** "


def _rounds_in_detail(r: TrialRecord) -> list[str]:
    out = [f"## {say(r, 'rounds_in_detail')}\n"]
    for ruling in r.rulings:
        j = ruling.ruling
        out += [f"### {say(r, 'round', round=ruling.round)}{say(r, 'colon')}"
                f"{say(r, 'tendency_confidence', tendency=term(r, j.tendency.value), value=f'{j.confidence:.2f}')}\n",
                f"{_bold(r, 'summary:')}{_rich(r, j.summary)}\n",
                f"{_bold(r, 'assessment:')}{_rich(r, j.evidence_assessment)}\n",
                f"{_bold(r, 'controversy:')}{_rich(r, j.key_controversy)}\n"]
        if j.open_questions:
            out += [f"**{say(r, 'open_questions:').rstrip()}**\n", *_list(r, j.open_questions), ""]
        if j.ready_for_verdict:
            why = md_escape(view.reasons(r, ruling.overruled))
            out.append(f"{_bold(r, 'ready:')}{_rich(r, j.ready_reason)}"
                       + (say(r, "overruled_tail", dash="—", why=why) if ruling.overruled else "") + "\n")
        elif ruling.overruled:  # a confidence at the threshold without grounds
            out.append(f"{_bold(r, 'stop_overruled:')}{md_escape(view.reasons(r, ruling.overruled))}\n")
    return out


def _coverage(r: TrialRecord) -> list[str]:
    """What the searches covered: the counts, the queries, per document found / admitted / turned away / cited and why,
    and the documents in scope never retrieved (a reviewer's question: what did the court not look at?)."""
    if r.coverage is None:
        return []
    out = [f"## {say(r, 'coverage')}\n", md_escape(view.coverage_intro(r)) + "\n"]
    if r.coverage.queries:
        out.append(say(r, "coverage_queries:") + say(r, "semi").join(md_escape(view.one_line(q))
                                                                     for q in r.coverage.queries) + "\n")
    rows = view.coverage_rows(r)
    if rows:
        head = view.coverage_head(r)
        out += [_row(head), "|" + "---|" * len(head)]
        out += [_row([_cell(title), *figures, _cell(why)]) for title, figures, why in rows]
        out.append("")
    never = view.never_retrieved(r)
    out.append((say(r, "coverage_never:") + say(r, "semi").join(md_escape(t) for t in never)) if never
               else say(r, "coverage_all_reached"))
    out.append("")
    return out


def _discovery(r: TrialRecord) -> list[str]:
    head = view.discovery_head(r)
    out = [f"### {say(r, 'discovery')}\n", _row(head), "|" + "---|" * len(head)]
    out.extend(_row([entry.id, *(_cell(c) for c in view.discovery_text(r, entry)), *view.discovery_figures(entry)])
               for entry in r.pool)
    out.append("")
    return out


def _settings(r: TrialRecord) -> list[str]:
    models = r.spec.models or {say(r, "paren", text=say(r, "not_recorded")).strip(): ""}
    out = [f"## {say(r, 'settings')}\n", _row([say(r, "col.role"), say(r, "col.model")]), "|---|---|"]
    out.extend(f"| {_cell(role)} | {_cell(model)} |" for role, model in models.items())
    out += ["",
            say(r, "case_line", case=term(r, r.spec.case.value), scope=md_escape(view.scope_text(r)),
                usage=md_escape(view.usage_text(r)), dot=" · ") + "\n",
            _row([say(r, "col.setting"), say(r, "col.value")]), "|---|---|",
            *(f"| {_cell(k)} | {_cell(v)} |" for k, v in view.settings_rows(r)), "",
            say(r, "dates", made=md_escape(r.generated_at), started=md_escape(r.started_at or say(r, "unknown")),
                finished=md_escape(r.finished_at or say(r, "not_reached"))) + "\n"]
    return out


def _transcript(r: TrialRecord) -> list[str]:
    out = [f"## {say(r, 'transcript')}\n"]
    if not r.turns and not r.rulings:
        out.append(f"{say(r, 'nothing_said')}\n")
    for number in view.rounds(r):
        out.append(f"### {say(r, 'round', round=number)}\n")
        for turn in (t for t in r.turns if t.round == number):
            out += _turn(r, turn)
        for ruling in (x for x in r.rulings if x.round == number):
            out += _judge(r, ruling)
        switch = r.switched_after(number)
        if switch:
            out.append(f"---\n\n**⇄ {say(r, 'switched_after', round=number)}** {md_escape(view.reasons(r, switch.reasons))}"
                       f"{say(r, 'paren', text=md_escape(view.switch_roles(r, switch)))}\n\n---\n")
    return out


def _turn(r: TrialRecord, turn: Turn) -> list[str]:
    text = view.paragraphs(turn.text)
    out = [f"**{md_escape(term(r, turn.role))}**{say(r, 'paren', text=view.turn_seat(r, turn))}\n",
           "\n\n".join(_rich(r, p) for p in text) + "\n" if text else f"{say(r, 'empty')}\n"]
    notes = view.turn_notes(r, turn)
    if notes:
        out.append(f"*{md_escape(' · '.join(notes))}*\n")
    return out


def _judge(r: TrialRecord, ruling: Ruling) -> list[str]:
    j = ruling.ruling
    judged = say(r, "tendency_confidence", tendency=term(r, j.tendency.value), value=f"{j.confidence:.2f}")
    out = [f"**{say(r, 'judge')}** — {judged}{say(r, 'colon')}{_rich(r, j.summary)}\n"]
    if j.key_controversy.strip():
        out.append(f"{say(r, 'controversy:')}{_rich(r, j.key_controversy)}\n")
    if j.open_questions:
        out.append(say(r, "open_questions:") + say(r, "semi").join(_rich(r, q) for q in j.open_questions) + "\n")
    out.extend(f"{label}{_rich(r, text)}\n" for label, text in view.instructions(r, ruling))  # label: our wording
    if ruling.overruled:
        overruled = "ready_overruled:" if j.ready_for_verdict else "stop_overruled:"
        out.append(f"{say(r, overruled)}{md_escape(view.reasons(r, ruling.overruled))}\n")
    return out


def write_markdown(record: TrialRecord, path: Path, audience: Audience = "general") -> Path:
    """``path`` and, beside it, the chart as ``<stem>-chart.svg``; links point into ``path.parent / 'sources'``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    chart = path.with_name(f"{path.stem}-chart.svg")
    chart.write_text(confidence_svg(record), encoding="utf-8")
    path.write_text(render_markdown(record, audience, chart.name), encoding="utf-8")
    return path

"""The report as HTML: a self-contained web page (styles, chart and highlighted page images embedded; links to the
annotated source PDFs beside it), and the same content in the subset of HTML that the PDF layout understands.

All text from documents and models goes through ``html.escape``; the only markup is ours, and the only links are
to files this export wrote (``sources/E3-p4.pdf#page=1``) or to anchors in the report.
"""

from __future__ import annotations

import base64
from html import escape
from pathlib import Path
from typing import Literal

from courtroom_desktop.core.court.records import Ruling, Turn
from courtroom_desktop.core.reports import memo, view
from courtroom_desktop.core.reports.chart import confidence_svg
from courtroom_desktop.core.reports.record import Audience, TrialRecord
from courtroom_desktop.core.reports.view import reason_text, say, term

Mode = Literal["web", "pdf"]

WEB_CSS = """
:root { color-scheme: light; }
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; font-size: 15px; line-height: 1.5;
       color: #212121; max-width: 60rem; margin: 2rem auto; padding: 0 1.25rem; }
h1 { font-size: 1.7rem; margin-bottom: .2rem; }
h2 { font-size: 1.25rem; border-bottom: 1px solid #ddd; padding-bottom: .2rem; margin-top: 2rem; }
h3 { font-size: 1.05rem; margin-bottom: .3rem; }
.claim { font-size: 1.1rem; }
.meta, .small { color: #616161; font-size: .85rem; }
.verdict { border-radius: 6px; padding: .7rem 1rem; margin: 1rem 0; border: 1px solid #ccc; background: #fafafa; }
.verdict .label { font-weight: 700; font-size: 1.2rem; letter-spacing: .03em; }
.v-supported { border-color: #2e7d32; background: #e8f5e9; } .v-refuted { border-color: #c62828; background: #ffebee; }
.v-mixed { border-color: #ef6c00; background: #fff3e0; } .v-insufficient { border-color: #757575; background: #f5f5f5; }
table { border-collapse: collapse; width: 100%; font-size: .85rem; margin: .5rem 0; }
th, td { border: 1px solid #ddd; padding: .3rem .45rem; text-align: left; vertical-align: top; }
th { background: #f5f5f5; }
a.cite { text-decoration: none; font-weight: 600; }
.passage { border: 1px solid #e0e0e0; border-radius: 6px; padding: .6rem .9rem; margin: 1rem 0; }
.passage blockquote { margin: .4rem 0; padding: .2rem .8rem; border-left: 3px solid #fbc02d; background: #fffde7; }
.passage img { max-width: 100%; border: 1px solid #ccc; margin-top: .4rem; }
.note { color: #b71c1c; }
.turn { margin: .8rem 0; padding-left: .8rem; border-left: 3px solid #90caf9; }
.turn.against { border-left-color: #ef9a9a; }
.ruling { margin: .8rem 0; padding: .5rem .8rem; background: #f3e5f5; border-radius: 4px; }
.switch { margin: 1rem 0; padding: .4rem .8rem; background: #fff3e0; border: 1px dashed #ef6c00; font-weight: 600; }
figure { margin: .5rem 0; }
@media print { body { margin: 0; max-width: none; } .passage, .turn, .ruling { break-inside: avoid; } }
"""

# MuPDF's layout repeats a box's background at the top of every later page when the box also has padding, so in
# the PDF no element has both: boxes are drawn with borders, and colour goes into text and rules.
PDF_CSS = """
body { font-family: sans-serif; font-size: 9.5pt; line-height: 1.3; color: #212121; }
h1 { font-size: 18pt; margin-bottom: 2pt; }
h2 { font-size: 13pt; margin-top: 14pt; margin-bottom: 4pt; color: #0d47a1; }
h3 { font-size: 10.5pt; margin-top: 8pt; margin-bottom: 2pt; }
p { margin-top: 2pt; margin-bottom: 3pt; }
.claim { font-size: 11.5pt; }
.meta, .small { font-size: 8pt; color: #616161; }
.verdict { border: 1pt solid #9e9e9e; padding: 5pt; margin-top: 6pt; margin-bottom: 6pt; }
.verdict .label { font-weight: bold; font-size: 13pt; }
.v-supported { border-color: #2e7d32; } .v-supported .label { color: #2e7d32; }
.v-refuted { border-color: #c62828; } .v-refuted .label { color: #c62828; }
.v-mixed { border-color: #ef6c00; } .v-mixed .label { color: #ef6c00; }
.v-insufficient { border-color: #757575; } .v-insufficient .label { color: #616161; }
table { border-collapse: collapse; width: 100%; font-size: 7.5pt; margin-top: 3pt; }
th, td { border: 0.5pt solid #bdbdbd; padding: 2pt; text-align: left; vertical-align: top; }
th { font-weight: bold; border-bottom: 1pt solid #616161; }
a { color: #0d47a1; text-decoration: underline; }
.passage { margin-top: 6pt; margin-bottom: 6pt; }
blockquote { margin-left: 4pt; margin-right: 0; padding-left: 6pt; font-size: 9pt; border-left: 3pt solid #fbc02d; }
.note { color: #b71c1c; }
.turn { margin-top: 5pt; margin-bottom: 5pt; padding-left: 5pt; border-left: 2pt solid #90caf9; }
.turn.against { border-left: 2pt solid #ef9a9a; }
.ruling { margin-top: 5pt; margin-bottom: 5pt; padding-left: 5pt; border-left: 2pt solid #8e24aa; }
.switch { margin-top: 6pt; margin-bottom: 6pt; padding: 3pt; border: 1pt dashed #ef6c00; color: #e65100; font-weight: bold; }
img { display: block; }
.page-image { margin-top: 4pt; }
"""
# the web page's fonts for a claim in Chinese, Japanese or Korean: the system's CJK fonts after the Latin ones (a
# browser takes each character from the first font in the list that has it)
_LATIN = '-apple-system, "Segoe UI", Helvetica, Arial'
CJK_FONTS = {
    "zh": f'{_LATIN}, "Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei", sans-serif',
    "ja": f'{_LATIN}, "Noto Sans CJK JP", "Source Han Sans JP", "Hiragino Sans", "Yu Gothic", Meiryo, sans-serif',
    "ko": f'{_LATIN}, "Noto Sans CJK KR", "Source Han Sans KR", "Apple SD Gothic Neo", "Malgun Gothic", sans-serif',
}
CHART_NAME = "chart.png"  # the chart's name in the PDF layout's archive


def esc(text: object) -> str:
    """Any value as HTML text (attribute-safe), without the control characters no format can carry."""
    return escape(view.clean(str(text)), quote=True)


class _Html:
    def __init__(self, record: TrialRecord, audience: Audience, mode: Mode, base: Path | None):
        self.r = record
        self.audience = audience
        self.mode = mode
        self.base = base
        self.out: list[str] = []
        self.images: dict[str, bytes] = {}  # pdf mode: archive name -> PNG bytes

    def add(self, *parts: str) -> None:
        self.out.extend(parts)

    # ---------------------------------------------------------------- pieces
    def cite(self, ids: list[str]) -> str:
        links = []
        for evidence_id in ids:
            target = view.citation_target(self.r, evidence_id)
            entry = self.r.entry(evidence_id)
            title = view.doc_where(self.r, entry) if entry else say(self.r, "not_in_pool")
            if target:
                links.append(f'<a class="cite" href="{esc(target)}" title="{esc(title)}">{esc(evidence_id)}</a>')
            else:
                links.append(esc(evidence_id))
        return "[" + ", ".join(links) + "]"

    def rich(self, text: str) -> str:
        """Escaped text with its [E#] citations as links."""
        return "".join(esc(part) if isinstance(part, str) else self.cite(part) for part in view.split_citations(view.clean(text)))

    def image(self, relative: str, alt: str) -> str:
        if self.base is None:
            return ""
        path = self.base / relative
        if not path.is_file():
            return ""
        data = path.read_bytes()
        if self.mode == "web":
            return f'<img src="data:image/png;base64,{base64.b64encode(data).decode()}" alt="{esc(alt)}"/>'
        name = f"img{len(self.images)}.png"
        self.images[name] = data
        import pymupdf

        pix = pymupdf.Pixmap(data)
        width = 470.0
        height = width * pix.height / max(pix.width, 1)
        return f'<img src="{name}" width="{width:.0f}" height="{height:.0f}"/>'

    def ul(self, items: list[str], rich: bool = False) -> str:
        if not items:
            return f"<p>{say(self.r, 'none')}</p>"
        return "<ul>" + "".join(f"<li>{self.rich(i) if rich else esc(i)}</li>" for i in items) + "</ul>"

    def bold(self, key: str) -> str:
        """'<b>Summary:</b> ': a bold label of the table (its colon inside the bold) and a space."""
        return f"<b>{say(self.r, key).rstrip()}</b> "

    # ---------------------------------------------------------------- sections
    def header(self) -> None:
        r = self.r
        meta = [say(r, "meta_trial", id=esc(r.trial_id)), say(r, "meta_started", at=esc(r.started_at or say(r, "unknown"))),
                say(r, "meta_made", at=esc(r.generated_at)), say(r, f"audience.{self.audience}"),
                esc("Courtroom Desktop " + r.app_version)]
        self.add(f"<h1>{esc(view.report_title(r))}</h1>",
                 f'<p class="claim"><b>{esc(view.case_word(r))}{say(r, "colon").rstrip()}</b> {esc(view.one_line(r.spec.claim))}</p>',
                 f'<p class="meta">{" &#183; ".join(meta)}</p>')
        verdict = r.verdict
        if verdict is None:
            hint = say(r, "resume_hint", status=esc(view.status_text(r)), id=esc(r.trial_id))
            self.add(f'<div class="verdict v-insufficient"><span class="label">{say(r, "no_verdict")}</span> '
                     f"<p>{hint[:1].upper() + hint[1:]}</p></div>")
            return
        css = "v-" + verdict.label.value.split()[0]
        confidence = say(r, "confidence_is", value=f"{verdict.confidence:.2f}",
                         words=esc(view.confidence_words(r, verdict.confidence)))
        why = say(r, "stopped_because", why=esc(view.one_line(reason_text(r, verdict.stopped_because)) or say(r, "n/a")))
        self.add(f'<div class="verdict {css}"><p><span class="label">{esc(view.verdict_name(r))}</span> '
                 f"&#160; {confidence}</p>"
                 f'<p class="small">{say(r, "rounds_switches", rounds=verdict.rounds, switches=verdict.switches)}'
                 f"{say(r, 'semi')}{why}</p>"
                 + (f'<p class="demo"><b>&#9888; {esc(view.demo_note(r))}</b></p>' if view.demo_note(r) else "")
                 + "</div>")

    def summary(self) -> None:
        self.add(f"<h2>{say(self.r, 'summary')}</h2>")
        for paragraph in view.summary_paragraphs(self.r, self.audience):
            self.add(f"<p>{self.rich(paragraph)}</p>")
        verdict = self.r.verdict
        if verdict and verdict.conditions:
            self.add(f"<h3>{esc(view.conditions_title(self.r))}</h3>", self.ul(list(verdict.conditions), rich=True))
        if verdict and verdict.risks:
            self.add(f"<h3>{say(self.r, 'risks')}</h3>", self.ul(list(verdict.risks), rich=True))

    def decision(self) -> None:
        """A decision with options: the table of options by criteria, scores with citations; what to find out next."""
        r, result = self.r, memo.outcome(self.r)
        if result is None:
            return
        self.add(f"<h2>{esc(memo.memo_say(r, 'table'))}</h2>", "<table><tr>" + "".join(
            f"<th>{esc(h)}</th>" for h in memo.head(r, result)) + "</tr>")
        for row in memo.rows(r, result):
            cells = "".join(f"<td>{esc(c.text)}{' ' + self.cite(list(c.citations)) if c.citations else ''}</td>"
                            for c in row.cells)
            self.add(f"<tr><td>{esc(row.option)}</td>{cells}<td>{esc(row.total)}</td><td>{esc(row.status)}</td></tr>")
        self.add("</table>", f'<p class="small">{esc(memo.memo_say(r, "table_note"))}</p>')
        lines = memo.next_lines(r, result)
        if lines:
            self.add(f"<h3>{esc(memo.memo_say(r, 'next'))}</h3>", f"<p>{' '.join(self.rich(x) for x in lines)}</p>")

    def chart(self) -> None:
        r = self.r
        self.add(f"<h2>{say(r, 'confidence_per_round')}</h2>")
        svg = confidence_svg(r)
        if self.mode == "web":
            self.add(f"<figure>{svg}</figure>")
        else:
            from courtroom_desktop.core.reports.chart import svg_to_png

            self.images[CHART_NAME] = svg_to_png(svg)
            self.add(f'<div><img src="{CHART_NAME}" width="420" height="172"/></div>')
        self.add("<table><tr>" + "".join(f"<th>{say(r, f'col.{key}')}</th>"
                                         for key in ("round", "tendency", "confidence", "ready", "note")) + "</tr>")
        for ruling in r.rulings:
            notes = [label + say(r, "colon") + detail for label, detail, _ in view.ruling_notes(r, ruling)]
            self.add(f"<tr><td>{ruling.round}</td><td>{esc(term(r, ruling.ruling.tendency.value))}</td>"
                     f"<td>{ruling.ruling.confidence:.2f}</td><td>{say(r, 'yes' if ruling.ruling.ready_for_verdict else 'no')}</td>"
                     f"<td>{esc(view.one_line(' '.join(notes)))}</td></tr>")
        self.add("</table>")

    def findings(self) -> None:
        verdict = self.r.verdict
        self.add(f"<h2>{say(self.r, 'findings')}</h2>")
        if not verdict or not verdict.findings:
            self.add(f"<p>{say(self.r, 'no_findings')}</p>")
        else:
            self.add("<ol>")
            for finding in verdict.findings:
                cited = [c for c in finding.citations if f"[{c}]" not in finding.text]
                tail = " " + self.cite(cited) if cited else ""
                sources = view.finding_sources(self.r, finding)
                detail = f'<br/><span class="small">{esc(say(self.r, "semi").join(sources))}</span>' if sources else ""
                self.add(f"<li>{self.rich(finding.text)}{tail}{detail}</li>")
            self.add("</ol>")
        self.add(f"<h2>{say(self.r, 'open_questions')}</h2>",
                 self.ul(list(verdict.open_questions) if verdict else [], rich=True))
        self.add(f"<h3>{say(self.r, 'open_lines')}</h3>", self.ul(view.challenge_lines(self.r)))

    def quality(self) -> None:
        self.add(f"<h2>{say(self.r, 'quality_flags')}</h2>", self.ul(view.quality_flags(self.r)))
        scores = view.quality_scores(self.r)
        if scores:
            self.add(f"<h3>{say(self.r, 'quality_scores')}</h3>", self.ul(scores))
        notes = view.trial_notes(self.r)
        if notes:
            self.add(f"<h3>{say(self.r, 'trial_notes')}</h3>", self.ul(notes))

    def passages(self) -> None:
        r = self.r
        cited = r.cited_ids()
        self.add(f"<h2>{say(r, 'cited_passages')}</h2>")
        if not cited:
            self.add(f"<p>{say(r, 'no_passage')}</p>")
            return
        self.add(f'<p class="small">{say(r, "passages_intro")}</p>')
        for evidence_id in cited:
            self.passage(evidence_id)

    def passage(self, evidence_id: str) -> None:
        r = self.r
        entry = r.entry(evidence_id)
        assert entry is not None  # cited_ids() names only passages of the pool
        source = r.source(evidence_id)
        card = [say(r, "card.level", level=esc(entry.level)), say(r, "card.says", says=esc(view.assessed_text(r, entry))),
                say(r, "card.cited_by", who=esc(view.cited_by_text(r, entry) or say(r, "nobody"))),
                say(r, "card.found_by", who=esc(view.found_by_text(r, entry)))]
        if entry.injection:
            card.append(f"<b>{say(r, 'card.injection')}</b>")
        self.add(f'<div class="passage" id="{esc(evidence_id)}">',
                 f"<h3>[{esc(evidence_id)}] {view.passage_label(r, entry, esc)}</h3>",
                 f'<p class="small">{" &#183; ".join(card)}</p>',
                 "<blockquote>" + "".join(f"<p>{esc(p)}</p>" for p in view.paragraphs(entry.evidence.chunk.text))
                 + "</blockquote>")
        if view.reference_link(entry):
            self.add(f'<p class="small"><a href="{esc(view.reference_link(entry))}">{say(r, "in_zotero")}</a></p>')
        quotes = r.quotes(evidence_id)
        if quotes:
            quoted = say(r, "semi").join(chr(8220) + q + chr(8221) for q in quotes)
            self.add(f'<p class="small">{say(r, "quoted_by_counsel")}{esc(quoted)}</p>')
        if source is not None and source.pdf:
            self.add(f'<p><a href="{esc(source.href)}">{say(r, "open_page", page=source.original_page)}</a> '
                     f'<span class="small">{say(r, "file_page", file=esc(source.pdf), page=source.page)}</span></p>')
            for offset, image in enumerate(source.images):
                number = source.original_page + offset
                tag = self.image(image, say(r, "highlighted_on", id=evidence_id, page=number))
                if tag:
                    caption = say(r, "source_page", page=number) + (say(r, "continued") if offset else "")
                    self.add(f'<div class="page-image">{tag}<p class="small">{esc(caption)}</p></div>')
        if source is not None and source.excerpt:  # a text document: its excerpt, the passage marked
            self.add(f'<p><a href="{esc(source.href)}">{say(r, "open_excerpt")}</a> '
                     f'<span class="small">({esc(source.excerpt)})</span></p>')
        if source is not None and source.note:
            self.add(f'<p class="note">{say(r, "kept_text", note=esc(source.note))}</p>')
        elif source is None:
            self.add(f'<p class="note">{say(r, "no_copy")}</p>')
        self.add("</div>")

    def evidence_table(self) -> None:
        r = self.r
        self.add(f"<h2>{say(r, 'evidence')}</h2>", f'<p class="small">{say(r, "evidence_intro")}</p>')
        if not r.pool:
            self.add(f"<p>{say(r, 'pool_empty')}</p>")
            return
        self.add("<table><tr>" + "".join(f"<th>{h}</th>" for h in view.evidence_head(r, self.audience)) + "</tr>")
        cited = set(r.cited_ids())
        for entry in r.pool:
            target = view.citation_target(r, entry.id) if entry.id in cited else ""
            ident = f'<a href="{esc(target)}">{esc(entry.id)}</a>' if target else esc(entry.id)
            cells = [ident, *(esc(c) for c in view.evidence_cells(r, entry))]
            if self.audience == "expert":
                cells.append(view.weight_text(r, entry))
            self.add(f'<tr id="row-{esc(entry.id)}">' + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        self.add("</table>")

    def expert_detail(self) -> None:
        r = self.r
        self.add(f"<h2>{say(r, 'rounds_in_detail')}</h2>")
        for ruling in r.rulings:
            j = ruling.ruling
            judged = say(r, "tendency_confidence", tendency=esc(term(r, j.tendency.value)), value=f"{j.confidence:.2f}")
            self.add(f"<h3>{say(r, 'round', round=ruling.round)}{say(r, 'colon')}{judged}</h3>",
                     f"<p>{self.bold('summary:')}{self.rich(j.summary)}</p>",
                     f"<p>{self.bold('assessment:')}{self.rich(j.evidence_assessment)}</p>",
                     f"<p>{self.bold('controversy:')}{self.rich(j.key_controversy)}</p>")
            if j.open_questions:
                self.add(f"<p><b>{say(r, 'open_questions:').rstrip()}</b></p>", self.ul(list(j.open_questions), rich=True))
            if j.ready_for_verdict:
                why = esc(view.reasons(r, ruling.overruled))
                self.add(f"<p>{self.bold('ready:')}{self.rich(j.ready_reason)}"
                         + (say(r, "overruled_tail", dash="&#8212;", why=why) if ruling.overruled else "") + "</p>")
            elif ruling.overruled:  # a confidence at the threshold without grounds
                self.add(f"<p>{self.bold('stop_overruled:')}{esc(view.reasons(r, ruling.overruled))}</p>")
        self.add(f"<h3>{say(r, 'discovery')}</h3>",
                 "<table><tr>" + "".join(f"<th>{h}</th>" for h in view.discovery_head(r)) + "</tr>")
        for entry in r.pool:
            cells = [esc(entry.id), *(esc(c) for c in view.discovery_text(r, entry)), *view.discovery_figures(entry)]
            self.add("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        self.add("</table>")

    def coverage(self) -> None:
        """What the searches covered (md_writer._coverage, the same content)."""
        r = self.r
        if r.coverage is None:
            return
        self.add(f"<h2>{say(r, 'coverage')}</h2>", f"<p>{esc(view.coverage_intro(r))}</p>")
        if r.coverage.queries:
            self.add(f"<p>{say(r, 'coverage_queries:')}"
                     + say(r, "semi").join(esc(view.one_line(q)) for q in r.coverage.queries) + "</p>")
        rows = view.coverage_rows(r)
        if rows:
            self.add("<table><tr>" + "".join(f"<th>{h}</th>" for h in view.coverage_head(r)) + "</tr>")
            for title, figures, why in rows:
                self.add("<tr>" + "".join(f"<td>{c}</td>" for c in (esc(title), *figures, esc(why))) + "</tr>")
            self.add("</table>")
        never = view.never_retrieved(r)
        self.add(f"<p>{say(r, 'coverage_never:')}" + say(r, "semi").join(esc(t) for t in never) + "</p>" if never
                 else f"<p>{say(r, 'coverage_all_reached')}</p>")

    def settings(self) -> None:
        r = self.r
        self.add(f"<h2>{say(r, 'settings')}</h2>", f"<table><tr><th>{say(r, 'col.role')}</th><th>{say(r, 'col.model')}</th></tr>")
        for role, model in (r.spec.models or {}).items():
            self.add(f"<tr><td>{esc(role)}</td><td>{esc(model)}</td></tr>")
        if not r.spec.models:
            self.add(f'<tr><td colspan="2">{say(r, "not_recorded")}</td></tr>')
        case_line = say(r, "case_line", case=esc(term(r, r.spec.case.value)), scope=esc(view.scope_text(r)),
                        usage=esc(view.usage_text(r)), dot=" &#183; ")
        dates = say(r, "dates", made=esc(r.generated_at), started=esc(r.started_at or say(r, "unknown")),
                    finished=esc(r.finished_at or say(r, "not_reached")))
        self.add("</table>", f"<p>{case_line}</p>",
                 f"<table><tr><th>{say(r, 'col.setting')}</th><th>{say(r, 'col.value')}</th></tr>"
                 + "".join(f"<tr><td>{esc(k)}</td><td>{esc(v)}</td></tr>" for k, v in view.settings_rows(r)) + "</table>",
                 f'<p class="small">{dates}</p>')

    def transcript(self) -> None:
        r = self.r
        self.add(f"<h2>{say(r, 'transcript')}</h2>")
        if not r.turns and not r.rulings:
            self.add(f"<p>{say(r, 'nothing_said')}</p>")
        for number in view.rounds(r):
            self.add(f"<h3>{say(r, 'round', round=number)}</h3>")
            for turn in (t for t in r.turns if t.round == number):
                self.turn(turn)
            for ruling in (x for x in r.rulings if x.round == number):
                self.judge(ruling)
            switch = r.switched_after(number)
            if switch:
                self.add(f'<div class="switch"><p>{say(r, "switched_after", round=number)} '
                         f'{esc(view.reasons(r, switch.reasons))}'
                         f"{say(r, 'paren', text=esc(view.switch_roles(r, switch)))}</p></div>")

    def turn(self, turn: Turn) -> None:
        r = self.r
        notes = [view.turn_seat(r, turn), *view.turn_notes(r, turn)]
        texts = view.paragraphs(turn.text) or [say(r, "empty")]
        self.add(f'<div class="turn {esc(turn.stance.value)}"><p><b>{esc(term(r, turn.role))}{say(r, "colon").rstrip()}</b> '
                 f"{self.rich(texts[0])}</p>",
                 "".join(f"<p>{self.rich(t)}</p>" for t in texts[1:]),
                 f'<p class="small">{esc(" · ".join(notes))}</p></div>')

    def judge(self, ruling: Ruling) -> None:
        r, j = self.r, ruling.ruling
        semi = say(r, "semi")
        extra = f"<br/>{say(r, 'controversy:')}{self.rich(j.key_controversy)}" if j.key_controversy.strip() else ""
        if j.open_questions:
            extra += "<br/>" + say(r, "open_questions:") + semi.join(self.rich(q) for q in j.open_questions)
        extra += "".join(f"<br/>{esc(label)}{self.rich(text)}" for label, text in view.instructions(r, ruling))
        if ruling.overruled:
            overruled = "ready_overruled:" if j.ready_for_verdict else "stop_overruled:"
            extra += "<br/>" + say(r, overruled) + esc(view.reasons(r, ruling.overruled))
        judged = say(r, "tendency_confidence", tendency=esc(term(r, j.tendency.value)), value=f"{j.confidence:.2f}")
        self.add(f'<div class="ruling"><p><b>{say(r, "judge")}</b> &#8212; {judged}{say(r, "colon")}'
                 f"{self.rich(j.summary)}{extra}</p></div>")

    # ---------------------------------------------------------------- whole
    def body(self) -> str:
        self.header()
        self.summary()
        self.decision()
        self.chart()
        self.findings()
        self.quality()
        self.passages()
        self.evidence_table()
        self.coverage()
        if self.audience == "expert":
            self.expert_detail()
        self.settings()
        self.transcript()
        return "\n".join(self.out)


def render_html(record: TrialRecord, audience: Audience = "general", mode: Mode = "web",
                base: Path | None = None) -> tuple[str, dict[str, bytes]]:
    """The report's HTML and, in pdf mode, the images it refers to by name. ``base``: the report folder (where
    ``sources/`` lies); without it, highlighted page images are left out."""
    if audience not in view.AUDIENCES:
        raise ValueError(f"audience must be one of {view.AUDIENCES}, not {audience!r}")
    builder = _Html(record, audience, mode, base)
    body = builder.body()
    if mode == "pdf":
        return body, builder.images
    title = view.report_title(record) + say(record, "colon") + view.excerpt(record.spec.claim, 80)
    lang = view.language(record)
    css = WEB_CSS + (f"body {{ font-family: {CJK_FONTS[lang]}; }}\n" if lang in CJK_FONTS else "")
    page = (f"<!DOCTYPE html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\"/>"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; "
            "style-src 'unsafe-inline'\"/>"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>"
            f"<meta name=\"generator\" content=\"Courtroom Desktop {esc(record.app_version)}\"/>"
            f"<title>{esc(title)}</title><style>{css}</style></head>\n<body>\n{body}\n</body></html>\n")
    return page, {}


def write_html(record: TrialRecord, path: Path, audience: Audience = "general") -> Path:
    """A self-contained HTML report at ``path``; its links point into ``path.parent / 'sources'``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    page, _ = render_html(record, audience, "web", path.parent)
    path.write_text(page, encoding="utf-8")
    return path

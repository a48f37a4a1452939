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
from courtroom_desktop.core.reports import view
from courtroom_desktop.core.reports.chart import confidence_svg
from courtroom_desktop.core.reports.record import Audience, TrialRecord

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
CHART_NAME = "chart.png"  # the chart's name in the PDF layout's archive


def esc(text) -> str:
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
            title = f"{view.doc_label(entry)}, page {view.pages_label(entry)}" if entry else "not in the evidence pool"
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
            return "<p>None.</p>"
        return "<ul>" + "".join(f"<li>{self.rich(i) if rich else esc(i)}</li>" for i in items) + "</ul>"

    # ---------------------------------------------------------------- sections
    def header(self) -> None:
        r = self.r
        self.add("<h1>Verdict report</h1>",
                 f'<p class="claim"><b>{esc(view.case_word(r))}:</b> {esc(view.one_line(r.spec.claim))}</p>',
                 f'<p class="meta">Trial {esc(r.trial_id)} &#183; started {esc(r.started_at or "unknown")} &#183; '
                 f'report made {esc(r.generated_at)} &#183; summary for {"an expert" if self.audience == "expert" else "a general"} '
                 f'reader &#183; {esc("Courtroom Desktop " + r.app_version)}</p>')
        verdict = r.verdict
        if verdict is None:
            self.add(f'<div class="verdict v-insufficient"><span class="label">NO VERDICT</span> '
                     f'<p>The trial is {esc(r.status or "unfinished")}; `courtroom trials resume {esc(r.trial_id)}` '
                     "continues it.</p></div>")
            return
        css = "v-" + verdict.label.value.split()[0]
        self.add(f'<div class="verdict {css}"><p><span class="label">{esc(verdict.label.value.upper())}</span> '
                 f"&#160; confidence {verdict.confidence:.2f} ({esc(view.confidence_words(verdict.confidence))})</p>"
                 f'<p class="small">{verdict.rounds} round(s), {verdict.switches} role switch(es); stopped because '
                 f"{esc(view.one_line(verdict.stopped_because) or 'n/a')}</p></div>")

    def summary(self) -> None:
        self.add("<h2>Summary</h2>")
        for paragraph in view.summary_paragraphs(self.r, self.audience):
            self.add(f"<p>{self.rich(paragraph)}</p>")
        verdict = self.r.verdict
        if verdict and verdict.conditions:
            self.add("<h3>Conditions</h3>", self.ul(list(verdict.conditions), rich=True))
        if verdict and verdict.risks:
            self.add("<h3>Risks</h3>", self.ul(list(verdict.risks), rich=True))

    def chart(self) -> None:
        r = self.r
        self.add("<h2>The Judge's confidence per round</h2>")
        svg = confidence_svg(r)
        if self.mode == "web":
            self.add(f"<figure>{svg}</figure>")
        else:
            from courtroom_desktop.core.reports.chart import svg_to_png

            self.images[CHART_NAME] = svg_to_png(svg)
            self.add(f'<div><img src="{CHART_NAME}" width="420" height="172"/></div>')
        self.add('<table><tr><th>Round</th><th>Tendency</th><th>Confidence</th><th>Ready for verdict</th><th>Note</th></tr>')
        for ruling in r.rulings:
            notes = [f"{label}: {detail}" for label, detail, _ in view.ruling_notes(r, ruling)]
            self.add(f"<tr><td>{ruling.round}</td><td>{esc(ruling.ruling.tendency.value)}</td>"
                     f"<td>{ruling.ruling.confidence:.2f}</td><td>{'yes' if ruling.ruling.ready_for_verdict else 'no'}</td>"
                     f"<td>{esc(view.one_line(' '.join(notes)))}</td></tr>")
        self.add("</table>")

    def findings(self) -> None:
        verdict = self.r.verdict
        self.add("<h2>Findings</h2>")
        if not verdict or not verdict.findings:
            self.add("<p>No findings.</p>")
        else:
            self.add("<ol>")
            for finding in verdict.findings:
                cited = [c for c in finding.citations if f"[{c}]" not in finding.text]
                tail = " " + self.cite(cited) if cited else ""
                sources = view.finding_sources(self.r, finding)
                detail = f'<br/><span class="small">{esc("; ".join(sources))}</span>' if sources else ""
                self.add(f"<li>{self.rich(finding.text)}{tail}{detail}</li>")
            self.add("</ol>")
        self.add("<h2>Open questions</h2>", self.ul(list(verdict.open_questions) if verdict else [], rich=True))
        self.add("<h3>Open lines of argument: challenges never answered</h3>", self.ul(view.challenge_lines(self.r)))

    def quality(self) -> None:
        self.add("<h2>Quality flags</h2>", self.ul(view.quality_flags(self.r)))
        notes = view.trial_notes(self.r)
        if notes:
            self.add("<h3>Notes from the trial</h3>", self.ul(notes))

    def passages(self) -> None:
        r = self.r
        cited = r.cited_ids()
        self.add("<h2>Cited passages</h2>")
        if not cited:
            self.add("<p>No passage was cited.</p>")
            return
        self.add('<p class="small">Each passage as the trial saw it; the link opens a copy of the source page with '
                 "the passage highlighted (yellow; quotations in orange).</p>")
        for evidence_id in cited:
            self.passage(evidence_id)

    def passage(self, evidence_id: str) -> None:
        r = self.r
        entry = r.entry(evidence_id)
        source = r.source(evidence_id)
        self.add(f'<div class="passage" id="{esc(evidence_id)}">',
                 f"<h3>[{esc(evidence_id)}] {view.passage_label(entry, esc)}</h3>",
                 f'<p class="small">Evidence level: {esc(entry.level)} &#183; says: {esc(view.assessed_text(r, entry))} '
                 f"&#183; cited by {esc(view.cited_by_text(r, entry) or 'nobody')} &#183; found by "
                 f"{esc(view.found_by_text(r, entry))}"
                 + (" &#183; <b>reads like instructions to a model: quoted only</b>" if entry.injection else "") + "</p>",
                 "<blockquote>" + "".join(f"<p>{esc(p)}</p>" for p in view.paragraphs(entry.evidence.chunk.text))
                 + "</blockquote>")
        quotes = r.quotes(evidence_id)
        if quotes:
            self.add(f'<p class="small">Quoted by counsel: {esc("; ".join(chr(8220) + q + chr(8221) for q in quotes))}</p>')
        if source is not None and source.pdf:
            self.add(f'<p><a href="{esc(source.href)}">Open page {source.original_page} with the passage highlighted</a> '
                     f'<span class="small">({esc(source.pdf)}, page {source.page})</span></p>')
            for offset, image in enumerate(source.images):
                number = source.original_page + offset
                tag = self.image(image, f"{evidence_id} highlighted on page {number}")
                if tag:
                    caption = f"Page {number} of the source, passage highlighted" + (", continued" if offset else "")
                    self.add(f'<div class="page-image">{tag}<p class="small">{esc(caption)}</p></div>')
        if source is not None and source.note:
            self.add(f'<p class="note">{esc(source.note)}. The passage above is the text the trial kept.</p>')
        elif source is None:
            self.add('<p class="note">No highlighted copy was made for this report.</p>')
        self.add("</div>")

    def evidence_table(self) -> None:
        r = self.r
        self.add("<h2>Evidence</h2>", '<p class="small">Every passage that entered the evidence pool. Stance: the side '
                 "that cited it.</p>")
        if not r.pool:
            self.add("<p>The evidence pool is empty.</p>")
            return
        self.add("<table><tr>" + "".join(f"<th>{h}</th>" for h in view.evidence_head(self.audience)) + "</tr>")
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
        self.add("<h2>Rounds in detail</h2>")
        for ruling in r.rulings:
            j = ruling.ruling
            self.add(f"<h3>Round {ruling.round}: {esc(j.tendency.value)}, confidence {j.confidence:.2f}</h3>",
                     f"<p><b>Summary:</b> {self.rich(j.summary)}</p>",
                     f"<p><b>Evidence assessment:</b> {self.rich(j.evidence_assessment)}</p>",
                     f"<p><b>Key controversy:</b> {self.rich(j.key_controversy)}</p>")
            if j.open_questions:
                self.add("<p><b>Open questions:</b></p>", self.ul(list(j.open_questions), rich=True))
            if j.ready_for_verdict:
                self.add(f"<p><b>Ready for verdict:</b> {self.rich(j.ready_reason)}"
                         + (f" &#8212; overruled: {esc('; '.join(ruling.overruled))}" if ruling.overruled else "") + "</p>")
        self.add("<h3>How the evidence was found</h3>",
                 "<table><tr>" + "".join(f"<th>{h}</th>" for h in view.DISCOVERY_HEAD) + "</tr>")
        for entry in r.pool:
            cells = [esc(entry.id), *(esc(c) for c in view.discovery_text(r, entry)), *view.discovery_figures(entry)]
            self.add("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        self.add("</table>")

    def settings(self) -> None:
        r = self.r
        self.add("<h2>Models and settings</h2>", "<table><tr><th>Role</th><th>Model</th></tr>")
        for role, model in (r.spec.models or {}).items():
            self.add(f"<tr><td>{esc(role)}</td><td>{esc(model)}</td></tr>")
        if not r.spec.models:
            self.add('<tr><td colspan="2">not recorded</td></tr>')
        self.add("</table>",
                 f"<p>Case type: {esc(r.spec.case.value)} &#183; scope: {esc(view.scope_text(r))} &#183; "
                 f"usage: {esc(view.usage_text(r))}</p>",
                 "<table><tr><th>Debate setting</th><th>Value</th></tr>"
                 + "".join(f"<tr><td>{esc(k)}</td><td>{esc(v)}</td></tr>" for k, v in view.settings_rows(r)) + "</table>",
                 f'<p class="small">Report made {esc(r.generated_at)}; trial started {esc(r.started_at or "unknown")}, '
                 f'verdict {esc(r.finished_at or "not reached")}.</p>')

    def transcript(self) -> None:
        r = self.r
        self.add("<h2>Appendix: transcript</h2>")
        if not r.turns and not r.rulings:
            self.add("<p>Nothing was said yet.</p>")
        for number in view.rounds(r):
            self.add(f"<h3>Round {number}</h3>")
            for turn in (t for t in r.turns if t.round == number):
                self.turn(turn)
            for ruling in (x for x in r.rulings if x.round == number):
                self.judge(ruling)
            switch = r.switched_after(number)
            if switch:
                self.add(f'<div class="switch"><p>Sides switched after round {number}: {esc("; ".join(switch.reasons))} '
                         f"({esc(view.switch_roles(r, switch))})</p></div>")

    def turn(self, turn: Turn) -> None:
        notes = [view.turn_seat(turn), *view.turn_notes(turn)]
        texts = view.paragraphs(turn.text) or ["(empty)"]
        self.add(f'<div class="turn {esc(turn.stance.value)}"><p><b>{esc(turn.role)}:</b> {self.rich(texts[0])}</p>',
                 "".join(f"<p>{self.rich(t)}</p>" for t in texts[1:]),
                 f'<p class="small">{esc(" · ".join(notes))}</p></div>')

    def judge(self, ruling: Ruling) -> None:
        j = ruling.ruling
        extra = f"<br/>Key controversy: {self.rich(j.key_controversy)}" if j.key_controversy.strip() else ""
        if j.open_questions:
            extra += "<br/>Open questions: " + "; ".join(self.rich(q) for q in j.open_questions)
        if ruling.overruled:
            extra += "<br/>'Ready for verdict' overruled: " + esc("; ".join(ruling.overruled))
        self.add(f'<div class="ruling"><p><b>Judge</b> &#8212; {esc(j.tendency.value)}, confidence '
                 f"{j.confidence:.2f}: {self.rich(j.summary)}{extra}</p></div>")

    # ---------------------------------------------------------------- whole
    def body(self) -> str:
        self.header()
        self.summary()
        self.chart()
        self.findings()
        self.quality()
        self.passages()
        self.evidence_table()
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
    title = f"Verdict report: {view.excerpt(record.spec.claim, 80)}"
    page = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; "
            "style-src 'unsafe-inline'\"/>"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>"
            f"<meta name=\"generator\" content=\"Courtroom Desktop {esc(record.app_version)}\"/>"
            f"<title>{esc(title)}</title><style>{WEB_CSS}</style></head>\n<body>\n{body}\n</body></html>\n")
    return page, {}


def write_html(record: TrialRecord, path: Path, audience: Audience = "general") -> Path:
    """A self-contained HTML report at ``path``; its links point into ``path.parent / 'sources'``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    page, _ = render_html(record, audience, "web", path.parent)
    path.write_text(page, encoding="utf-8")
    return path

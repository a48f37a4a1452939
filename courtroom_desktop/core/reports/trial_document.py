"""A trial's report, and a decision's memo, as a ``Document``: the one description of what the report says and in
which order, from which every format is written (``md_writer``, ``html_writer``, ``pdf_writer``).

    header (the claim, the verdict box)   summary   the decision table (decisions)   confidence per round
    findings   open questions   quality   cited passages   evidence   what the searches covered
    [expert: rounds in detail, how the evidence was found]   models and settings   transcript

Every fixed wording comes from ``view`` (``say``, in the claim's language); every text from a document or a model is
a ``Text`` span (the writers escape it), and its '[E3]' citations become links to the highlighted copies.
"""

from __future__ import annotations

from courtroom_desktop.core.court.records import Ruling, Turn
from courtroom_desktop.core.reports import memo, view
from courtroom_desktop.core.reports.chart import confidence_svg
from courtroom_desktop.core.reports.document import (
    Box,
    Break,
    Chart,
    Document,
    Heading,
    Image,
    Items,
    Link,
    Para,
    Quote,
    Row,
    Span,
    Spans,
    Table,
    Text,
    citation,
    cited,
    text,
)
from courtroom_desktop.core.reports.record import Audience, TrialRecord
from courtroom_desktop.core.reports.view import reason_text, say, term


def trial_document(record: TrialRecord, audience: Audience = "general") -> Document:
    """The whole report for ``audience`` ('general' or 'expert')."""
    if audience not in view.AUDIENCES:
        raise ValueError(f"audience must be one of {view.AUDIENCES}, not {audience!r}")
    return _Builder(record, audience).document()


class _Builder:
    def __init__(self, record: TrialRecord, audience: Audience):
        self.r = record
        self.audience = audience
        title = view.report_title(record)
        self.doc = Document(
            title=title + say(record, "colon") + view.excerpt(record.spec.claim, 80), lang=view.language(record),
            footer=say(record, "footer", title=title if view.language(record) != "en" else title.lower(),
                       id=record.trial_id),
            page_of=lambda page, pages: say(record, "page_of", page=page, pages=pages),
            pdf_meta={"title": title + say(record, "colon") + view.excerpt(record.spec.claim, 100),
                      "creator": f"Courtroom Desktop {record.app_version}", "subject": f"trial {record.trial_id}",
                      "keywords": record.verdict.label.value if record.verdict else say(record, "no_verdict_kw")})

    def document(self) -> Document:
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
            self.rounds_in_detail()
            self.discovery()
        self.settings()
        self.transcript()
        return self.doc

    # ---------------------------------------------------------------- pieces
    def cite(self, ids: list[str] | tuple[str, ...]) -> Spans:
        return citation(ids, self.target, self.where)

    def rich(self, value: str) -> Spans:
        """Text with its [E#] citations as links."""
        return cited(view.clean(value), self.target, self.where)

    def target(self, evidence_id: str) -> str:
        return view.citation_target(self.r, evidence_id)

    def where(self, evidence_id: str) -> str:
        entry = self.r.entry(evidence_id)
        return view.doc_where(self.r, entry) if entry else say(self.r, "not_in_pool")

    def h(self, level: int, key: str, **fields: object) -> Heading:
        return Heading(level, text(say(self.r, key, **fields)))

    def label(self, key: str) -> Spans:
        """'Summary:' in bold, then a space (a label's colon inside the bold)."""
        return Text(say(self.r, key).rstrip(), bold=True), Text(" ")

    # ---------------------------------------------------------------- sections
    def header(self) -> None:
        r = self.r
        meta = [say(r, "meta_trial", id=r.trial_id), say(r, "meta_started", at=r.started_at or say(r, "unknown")),
                say(r, "meta_made", at=r.generated_at), say(r, f"audience.{self.audience}"),
                f"Courtroom Desktop {r.app_version}"]
        self.doc.add(Heading(1, text(view.report_title(r))),
                     Para((Text(view.case_word(r) + say(r, "colon").rstrip(), bold=True),
                           Text(" " + view.one_line(r.spec.claim))), "claim"),
                     Para(text(" \u00b7 ".join(meta)), "meta"))
        verdict = r.verdict
        if verdict is None:
            hint = say(r, "resume_hint", status=view.status_text(r), id=r.trial_id)
            self.doc.add(Box((Para(text(say(r, "no_verdict"), bold=True, css="label")),
                              Para(text(hint[:1].upper() + hint[1:]))), "verdict v-insufficient"))
            return
        confidence = say(r, "confidence_is", value=f"{verdict.confidence:.2f}",
                         words=view.confidence_words(r, verdict.confidence))
        why = say(r, "stopped_because", why=view.one_line(reason_text(r, verdict.stopped_because)) or say(r, "n/a"))
        blocks = [Para((Text(say(r, "verdict_label", label=view.verdict_name(r)), bold=True, css="label"),
                        Text(say(r, "comma") + confidence)))]
        if view.demo_note(r):  # right under the verdict: a bundled model's verdict is a demonstration
            blocks.append(Para(text("\u26a0 " + view.demo_note(r), bold=True), "warning"))
        blocks.append(Para(text(say(r, "rounds_switches", rounds=verdict.rounds, switches=verdict.switches)
                                + say(r, "semi") + why + say(r, "stop")), "small"))
        self.doc.add(Box(tuple(blocks), "verdict v-" + verdict.label.value.split()[0]))

    def summary(self) -> None:
        r = self.r
        self.doc.add(self.h(2, "summary"), *(Para(self.rich(p)) for p in view.summary_paragraphs(r, self.audience)))
        verdict = r.verdict
        if verdict and verdict.conditions:
            self.doc.add(Heading(3, text(view.conditions_title(r))), Items(tuple(self.rich(c) for c in verdict.conditions)))
        if verdict and verdict.risks:
            self.doc.add(self.h(3, "risks"), Items(tuple(self.rich(c) for c in verdict.risks)))

    def decision(self) -> None:
        """A decision with options: the table of options by criteria (scores with their citations) and what is worth
        finding out next."""
        r, result = self.r, memo.outcome(self.r)
        if result is None:
            return
        rows = []
        for row in memo.rows(r, result):
            cells = [text(c.text) + ((Text(" "), *self.cite(list(c.citations))) if c.citations else ())
                     for c in row.cells]
            rows.append(Row((text(row.option), *cells, text(row.total), text(row.status))))
        self.doc.add(Heading(2, text(memo.memo_say(r, "table"))), Table(tuple(memo.head(r, result)), tuple(rows)),
                     Para(text(memo.memo_say(r, "table_note"), italic=True), "small"))
        lines = memo.next_lines(r, result)
        if lines:
            spans: list[Span] = []
            for n, line in enumerate(lines):
                spans += ([Text(" ")] if n else []) + list(self.rich(line))
            self.doc.add(Heading(3, text(memo.memo_say(r, "next"))), Para(tuple(spans)))

    def chart(self) -> None:
        r = self.r
        rows = []
        colon = say(r, "colon")
        for ruling in r.rulings:
            note: list[Span] = []
            for label, detail, stands_out in view.ruling_notes(r, ruling):
                note += ([Text(" ")] if note else []) + [Text(label, bold=stands_out), Text(colon + detail)]
            rows.append(Row((text(str(ruling.round)), text(term(r, ruling.ruling.tendency.value)),
                             text(f"{ruling.ruling.confidence:.2f}"),
                             text(say(r, "yes" if ruling.ruling.ready_for_verdict else "no")), tuple(note))))
        head = tuple(say(r, f"col.{key}") for key in ("round", "tendency", "confidence", "ready", "note"))
        self.doc.add(self.h(2, "confidence_per_round"), Chart(confidence_svg(r), say(r, "chart_alt")),
                     Table(head, tuple(rows)))

    def findings(self) -> None:
        r, verdict = self.r, self.r.verdict
        self.doc.add(self.h(2, "findings"))
        if not verdict or not verdict.findings:
            self.doc.add(Para(text(say(r, "no_findings"))))
        else:
            items = []
            for finding in verdict.findings:
                uncited = [c for c in finding.citations if f"[{c}]" not in finding.text]
                spans = list(self.rich(finding.text)) + ([Text(" "), *self.cite(uncited)] if uncited else [])
                sources = view.finding_sources(r, finding)
                if sources:
                    spans += [Break(), Text(say(r, "semi").join(sources), css="small")]
                items.append(tuple(spans))
            self.doc.add(Items(tuple(items), ordered=True))
        questions = list(verdict.open_questions) if verdict else []
        self.doc.add(self.h(2, "open_questions"), Items(tuple(self.rich(q) for q in questions), empty=say(r, "none")),
                     self.h(3, "open_lines"),
                     Items(tuple(text(line) for line in view.challenge_lines(r)), empty=say(r, "none")))

    def quality(self) -> None:
        r = self.r
        self.doc.add(self.h(2, "quality_flags"),
                     Items(tuple(text(f) for f in view.quality_flags(r)), empty=say(r, "none")))
        scores = view.quality_scores(r)
        if scores:
            self.doc.add(self.h(3, "quality_scores"), Items(tuple(text(s) for s in scores)))
        notes = view.trial_notes(r)
        if notes:
            self.doc.add(self.h(3, "trial_notes"), Items(tuple(text(n) for n in notes)))

    def passages(self) -> None:
        r = self.r
        ids = r.cited_ids()
        self.doc.add(self.h(2, "cited_passages"))
        if not ids:
            self.doc.add(Para(text(say(r, "no_passage"))))
            return
        self.doc.add(Para(text(say(r, "passages_intro")), "small"))
        for evidence_id in ids:
            self.doc.add(self.passage(evidence_id))

    def passage(self, evidence_id: str) -> Box:
        r = self.r
        entry = r.entry(evidence_id)
        assert entry is not None  # cited_ids() names only passages of the pool
        source = r.source(evidence_id)
        card = [say(r, "card.level", level=entry.level), say(r, "card.says", says=view.assessed_text(r, entry)),
                say(r, "card.cited_by", who=view.cited_by_text(r, entry) or say(r, "nobody")),
                say(r, "card.found_by", who=view.found_by_text(r, entry))]
        card_spans: Spans = text(" \u00b7 ".join(card))
        if entry.injection:
            card_spans += (Text(" \u00b7 "), Text(say(r, "card.injection"), bold=True))
        blocks: list[Heading | Para | Quote | Image] = [
            Heading(3, text(f"[{evidence_id}] {view.passage_label(r, entry)}")), Para(card_spans, "small"),
            Quote(tuple(view.paragraphs(entry.evidence.chunk.text)))]
        if view.reference_link(entry):
            blocks.append(Para((Link(say(r, "in_zotero"), view.reference_link(entry)),), "small"))
        quotes = r.quotes(evidence_id)
        if quotes:
            quoted = say(r, "semi").join("\u201c" + q + "\u201d" for q in quotes)
            blocks.append(Para(text(say(r, "quoted_by_counsel") + quoted), "small"))
        if source is not None and source.pdf:
            blocks.append(Para((Link(say(r, "open_page", page=source.original_page), source.href), Text(" "),
                                Text(say(r, "file_page", file=source.pdf, page=source.page), css="small"))))
            for offset, image in enumerate(source.images):
                number = source.original_page + offset
                blocks.append(Image(image, say(r, "highlighted_on", id=evidence_id, page=number),
                                    say(r, "source_page", page=number) + (say(r, "continued") if offset else "")))
        if source is not None and source.excerpt:  # a text document: its excerpt, the passage marked
            blocks.append(Para((Link(say(r, "open_excerpt"), source.href), Text(" "),
                                Text(f"({source.excerpt})", css="small"))))
        if source is not None and source.note:
            blocks.append(Para(text(say(r, "kept_text", note=source.note)), "note"))
        elif source is None:
            blocks.append(Para(text(say(r, "no_copy")), "note"))
        return Box(tuple(blocks), "passage", evidence_id)

    def evidence_table(self) -> None:
        r = self.r
        self.doc.add(self.h(2, "evidence"), Para(text(say(r, "evidence_intro")), "small"))
        if not r.pool:
            self.doc.add(Para(text(say(r, "pool_empty"))))
            return
        cited_ids = set(r.cited_ids())
        rows = []
        for entry in r.pool:
            target = view.citation_target(r, entry.id) if entry.id in cited_ids else ""
            ident: Spans = (Link(entry.id, target),) if target else text(entry.id)
            cells = [ident, *(text(c) for c in view.evidence_cells(r, entry))]
            if self.audience == "expert":
                cells.append(text(view.weight_text(r, entry)))
            rows.append(Row(tuple(cells), id=f"row-{entry.id}"))
        self.doc.add(Table(tuple(view.evidence_head(r, self.audience)), tuple(rows)))

    def coverage(self) -> None:
        """What the searches covered: the counts, the queries, per document found / admitted / turned away / cited
        and why, and the documents in scope never retrieved (a reviewer's question: what did the court not see?)."""
        r = self.r
        if r.coverage is None:
            return
        self.doc.add(self.h(2, "coverage"), Para(text(view.coverage_intro(r))))
        if r.coverage.queries:
            self.doc.add(Para(text(say(r, "coverage_queries:")
                                   + say(r, "semi").join(view.one_line(q) for q in r.coverage.queries))))
        rows = view.coverage_rows(r)
        if rows:
            self.doc.add(Table(tuple(view.coverage_head(r)),
                               tuple(Row((text(title), *(text(f) for f in figures), text(why)))
                                     for title, figures, why in rows)))
        never = view.never_retrieved(r)
        self.doc.add(Para(text(say(r, "coverage_never:") + say(r, "semi").join(never) if never
                               else say(r, "coverage_all_reached"))))

    def rounds_in_detail(self) -> None:
        r = self.r
        self.doc.add(self.h(2, "rounds_in_detail"))
        for ruling in r.rulings:
            j = ruling.ruling
            judged = say(r, "tendency_confidence", tendency=term(r, j.tendency.value), value=f"{j.confidence:.2f}")
            self.doc.add(Heading(3, text(say(r, "round", round=ruling.round) + say(r, "colon") + judged)),
                         Para(self.label("summary:") + self.rich(j.summary)),
                         Para(self.label("assessment:") + self.rich(j.evidence_assessment)),
                         Para(self.label("controversy:") + self.rich(j.key_controversy)))
            if j.open_questions:
                self.doc.add(Para(text(say(r, "open_questions:").rstrip(), bold=True)),
                             Items(tuple(self.rich(q) for q in j.open_questions)))
            if j.ready_for_verdict:
                tail = say(r, "overruled_tail", dash="\u2014", why=view.reasons(r, ruling.overruled))
                self.doc.add(Para(self.label("ready:") + self.rich(j.ready_reason)
                                  + (text(tail) if ruling.overruled else ())))
            elif ruling.overruled:  # a confidence at the threshold without grounds
                self.doc.add(Para(self.label("stop_overruled:") + text(view.reasons(r, ruling.overruled))))

    def discovery(self) -> None:
        r = self.r
        rows = tuple(Row((text(entry.id), *(text(c) for c in view.discovery_text(r, entry)),
                          *(text(f) for f in view.discovery_figures(entry)))) for entry in r.pool)
        self.doc.add(self.h(3, "discovery"), Table(tuple(view.discovery_head(r)), rows))

    def settings(self) -> None:
        r = self.r
        models = tuple(Row((text(role), text(model))) for role, model in (r.spec.models or {}).items())
        case_line = say(r, "case_line", case=term(r, r.spec.case.value), scope=view.scope_text(r),
                        usage=view.usage_text(r), dot=" \u00b7 ")
        dates = say(r, "dates", made=r.generated_at, started=r.started_at or say(r, "unknown"),
                    finished=r.finished_at or say(r, "not_reached"))
        self.doc.add(self.h(2, "settings"),
                     Table((say(r, "col.role"), say(r, "col.model")),
                           models or (Row((text(say(r, "not_recorded")), text(""))),)),
                     Para(text(case_line)),
                     Table((say(r, "col.setting"), say(r, "col.value")),
                           tuple(Row((text(k), text(v))) for k, v in view.settings_rows(r))),
                     Para(text(dates), "small"))

    def transcript(self) -> None:
        r = self.r
        self.doc.add(self.h(2, "transcript"))
        if not r.turns and not r.rulings:
            self.doc.add(Para(text(say(r, "nothing_said"))))
        for number in view.rounds(r):
            self.doc.add(self.h(3, "round", round=number))
            for turn in (t for t in r.turns if t.round == number):
                self.doc.add(self.turn(turn))
            for ruling in (x for x in r.rulings if x.round == number):
                self.doc.add(self.judge(ruling))
            switch = r.switched_after(number)
            if switch:
                self.doc.add(Box((Para((Text("\u21c4 " + say(r, "switched_after", round=number), bold=True),
                                        Text(" " + view.reasons(r, switch.reasons)
                                             + say(r, "paren", text=view.switch_roles(r, switch))))),), "switch"))

    def turn(self, turn: Turn) -> Box:
        r = self.r
        texts = view.paragraphs(turn.text) or [say(r, "empty")]
        notes = view.turn_notes(r, turn)
        who = Para((Text(term(r, turn.role), bold=True), Text(say(r, "paren", text=view.turn_seat(r, turn)))))
        said = tuple(Para(self.rich(t)) for t in texts)
        return Box((who, *said, *([Para(text(" \u00b7 ".join(notes)), "small")] if notes else [])),
                   f"turn {turn.stance.value}")

    def judge(self, ruling: Ruling) -> Box:
        r, j = self.r, ruling.ruling
        semi = say(r, "semi")
        judged = say(r, "tendency_confidence", tendency=term(r, j.tendency.value), value=f"{j.confidence:.2f}")
        spans: list[Span] = [Text(say(r, "judge"), bold=True), Text(" \u2014 " + judged + say(r, "colon")),
                             *self.rich(j.summary)]
        if j.key_controversy.strip():
            spans += [Break(), Text(say(r, "controversy:")), *self.rich(j.key_controversy)]
        if j.open_questions:
            spans += [Break(), Text(say(r, "open_questions:"))]
            for n, question in enumerate(j.open_questions):
                spans += ([Text(semi)] if n else []) + list(self.rich(question))
        for label, instruction in view.instructions(r, ruling):
            spans += [Break(), Text(label), *self.rich(instruction)]
        if ruling.overruled:
            overruled = "ready_overruled:" if j.ready_for_verdict else "stop_overruled:"
            spans += [Break(), Text(say(r, overruled) + view.reasons(r, ruling.overruled))]
        return Box((Para(tuple(spans)),), "ruling")

"""The live transcript: one card per counsel turn (speaker, stance, streaming text, citation chips), the judge's
ruling cards, banners where the sides switched, notices, and the verdict card rendered from Markdown.

All cards live in one QTextBrowser: each card is a one-cell table of its document, filled from HTML built here, and
every [E3] or citation chip is a ``cite:E3`` link. Qt lays the document out and paints it without calling back into
Python, so a card that grows or appears costs the window no Python calls (and so no waits for the interpreter lock
while the embedded model and the retrieval threads hold it): a column of widgets per card (labels, buttons) did,
many per widget, and stalled the event loop by 50 to 70 ms at turn boundaries.

The view follows a TranscriptModel: rows inserted become cards, changed rows are redrawn at most every
``FLUSH_MS`` (tokens arrive faster than anyone reads), and the view keeps to the bottom while the user is there."""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QPoint, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QGuiApplication,
    QPainter,
    QPaintEvent,
    QPalette,
    QTextCursor,
    QTextDocumentFragment,
    QTextFrameFormat,
    QTextLength,
    QTextTable,
    QTextTableCellFormat,
    QTextTableFormat,
)
from PySide6.QtWidgets import QFrame, QTextBrowser, QWidget

from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr
from courtroom_desktop.ui.qt_models import RecordRole
from courtroom_desktop.ui.qt_models.transcript import (
    Item,
    NoticeItem,
    RulingItem,
    SwitchItem,
    TranscriptModel,
    TurnItem,
    VerdictItem,
)
from courtroom_desktop.ui.text import (
    NOTICE_WORDS,
    TENDENCY_WORDS,
    citations_html,
    cite_href,
    demo_words,
    evidence_of_href,
    said,
    said_all,
    stance_words,
    verdict_markdown,
)
from courtroom_desktop.ui.theme import accent, palette_watcher, role_color, tint

if TYPE_CHECKING:
    from courtroom_desktop.core.court.records import PoolEntry

#: An evidence id (E3) -> its entry in the trial's pool (None when the pool has none: a rejected citation)
Lookup = Callable[[str], "PoolEntry | None"]

FLUSH_MS = 60
MARKDOWN = "\x00markdown\x00"  # marks a card's content as Markdown (no HTML card starts with a NUL)
PLACEHOLDER = QT_TRANSLATE_NOOP("", "Put a claim on trial: the Prosecution and the Defense argue from your library, "
                                "the Judge rules after every round, and the verdict appears here.")


# -------------------------------------------------------------------- cards as HTML (pure: no widgets)
@dataclass(frozen=True)
class CardStyle:
    """How a card's table is drawn: its background, its border and the stripe on its left."""

    background: str
    border: str
    stripe: str
    stripe_width: int = 4
    border_width: int = 1
    padding: int = 8


def _dim(text: str, palette: QPalette) -> str:
    return f'<span style="color:{role_color(palette, "dim")}">{text}</span>'


def _small(text: str, top: int = 0) -> str:
    return f'<p style="font-size:small; margin-top:{top}px; margin-bottom:0">{text}</p>'


def chip_html(evidence_id: str, valid: bool, tip: str, palette: QPalette) -> str:
    """A citation chip: the evidence id as a shaded link with the passage as its tooltip; marked \u2717 if rejected."""
    name = "cite" if valid else "error"
    label = evidence_id if valid else f"{evidence_id} \u2717"
    return (f'<a href="{cite_href(evidence_id)}" title="{html.escape(tip, quote=True)}" style="text-decoration:none;'
            f' font-weight:600; color:{accent(name, palette).name()}; background-color:{tint(name, palette, 48).name()}">'
            f"&nbsp;{html.escape(label)}&nbsp;</a>")


def chip_tip(evidence_id: str, valid: bool, problem: str, lookup: Lookup) -> str:
    entry = lookup(evidence_id)
    tip = ""
    if entry is not None:
        chunk = entry.evidence.chunk
        where = f", p. {chunk.page_start + 1}" if chunk.page_start >= 0 else ""  # a text document has no pages (-1)
        notice = entry.evidence.doc_notice
        marked = f" [{tr(NOTICE_WORDS[notice.kind])}]" if notice is not None else ""
        tip = f"{entry.evidence.doc_title}{marked}{where}\n{chunk.text[:240]}"
    if not valid:
        tip = (tr("Rejected citation: {problem}").format(problem=problem) + f"\n{tip}").strip()
    return tip or evidence_id


def turn_html(item: TurnItem, case: str, lookup: Lookup, palette: QPalette) -> str:
    # lazily: core.court loads its engine (numpy)
    from courtroom_desktop.core.court.records import CaseType, Stance, role_name

    color = accent(item.stance, palette).name()
    role = tr(item.role or role_name(CaseType(case), Stance(item.stance)))
    parts = [f'<p style="margin:0"><b style="color:{color}">{html.escape(role)}</b> &middot; '
             f"{html.escape(stance_words(case, item.stance))} &middot; "
             + _dim(tr("Counsel {seat} &middot; round {round}").format(seat=html.escape(item.seat), round=item.round),
                    palette) + "</p>"]
    if item.status:
        parts.append(_small(_dim(html.escape(item.status), palette)))
    if item.text:
        parts.append(f'<p style="margin-top:4px; margin-bottom:0">{citations_html(item.text)}</p>')
    turn = item.turn
    if turn is not None and turn.citations:
        seen: set[str] = set()
        chips = []
        for citation in turn.citations:
            if citation.evidence_id in seen:
                continue
            seen.add(citation.evidence_id)
            tip = chip_tip(citation.evidence_id, citation.valid, said(citation.problem), lookup)
            chips.append(chip_html(citation.evidence_id, citation.valid, tip, palette))
        parts.append('<p style="margin-top:6px; margin-bottom:0">' + " ".join(chips) + "</p>")
    meta = []
    if turn is not None:
        if turn.queries:
            meta.append(tr("searched: ") + " &middot; ".join(f"<i>{html.escape(q)}</i>" for q in turn.queries[:4]))
        if turn.evidence_added:
            meta.append(tr("new evidence ") + ", ".join(f'<a href="{cite_href(i)}">{i}</a>' for i in turn.evidence_added))
        meta.append(tr("{tokens} tokens, {seconds} s").format(tokens=turn.usage.tokens_out,
                                                             seconds=f"{turn.usage.seconds:.1f}"))
        if turn.regenerated:
            meta.append(tr("regenerated once"))
        if turn.flags:
            meta.append(f'<span style="color:{accent("warning", palette).name()}">'
                        + html.escape(said_all(turn.flags)) + "</span>")
    elif item.evidence_added:
        meta.append(tr("new evidence ") + ", ".join(f'<a href="{cite_href(i)}">{i}</a>' for i in item.evidence_added))
    if meta:
        parts.append(_small(" &nbsp;|&nbsp; ".join(meta), top=4))
    return "".join(parts)


def _bar(confidence: float, tendency: str, palette: QPalette) -> str:
    """The ruling's confidence as a bar: a two-cell table whose first cell is as wide as the confidence."""
    percent = max(0, min(100, round(confidence * 100)))
    filled, empty = accent(tendency, palette).name(), role_color(palette, "mid")
    cells = []
    if percent:
        cells.append(f'<td width="{percent}%" style="background-color:{filled}">&nbsp;</td>')
    if percent < 100:
        cells.append(f'<td width="{100 - percent}%" style="background-color:{empty}">&nbsp;</td>')
    return ('<table width="100%" cellspacing="0" cellpadding="0" style="margin-top:4px; margin-bottom:2px;'
            ' font-size:4px"><tr>' + "".join(cells) + "</tr></table>")


def ruling_html(item: RulingItem, palette: QPalette, case: str = "claim") -> str:
    # lazily: core.court loads its engine (numpy)
    from courtroom_desktop.core.court.records import CaseType, Stance, role_name

    record = item.ruling
    ruling = record.ruling
    judge = accent("judge", palette).name()
    tendency = ruling.tendency.value
    parts = [f'<p style="margin:0"><b style="color:{judge}">' + tr("Judge") + "</b> &middot; "
             + tr("ruling after round {round}").format(round=record.round) + " &middot; "
             + tr("confidence <b>{percent}</b>").format(percent=f"{ruling.confidence:.0%}") + " &middot; "
             f'<span style="color:{accent(tendency, palette).name()}">'
             f"{html.escape(tr(TENDENCY_WORDS.get(tendency, tendency)))}</span></p>",
             _bar(ruling.confidence, tendency, palette)]
    body = []
    if ruling.key_controversy:
        body.append("<b>" + tr("Key controversy:") + f"</b> {citations_html(ruling.key_controversy)}")
    if ruling.summary:
        body.append(citations_html(ruling.summary))
    if ruling.evidence_assessment:
        body.append("<b>" + tr("Evidence:") + f"</b> {citations_html(ruling.evidence_assessment)}")
    parts += [f'<p style="margin-top:4px; margin-bottom:0">{text}</p>' for text in body]
    if ruling.open_questions:
        parts.append('<p style="margin-top:4px; margin-bottom:0"><b>' + tr("Open questions:") + '</b></p><ul style="margin:0">'
                     + "".join(f"<li>{citations_html(q)}</li>" for q in ruling.open_questions) + "</ul>")
    directions = [(stance, ruling.instruction_to(stance)) for stance in (Stance.against, Stance.for_)
                  if getattr(ruling, "instruction_to", None) and ruling.instruction_to(stance)]
    if directions:  # the judge's instruction to each side for the next round
        parts.append('<p style="margin-top:4px; margin-bottom:0"><b>' + tr("For the next round:") + "</b></p>"
                     '<ul style="margin:0">'
                     + "".join(f'<li><b style="color:{accent(stance.value, palette).name()}">'
                               + tr("To the {role}:").format(role=html.escape(tr(role_name(CaseType(case), stance))))
                               + f"</b> {citations_html(text)}</li>"
                               for stance, text in directions) + "</ul>")
    if ruling.ready_for_verdict and not record.overruled:
        parts.append('<p style="margin-top:4px; margin-bottom:0"><i>' + tr("Ready for a verdict: ")
                     + f"{citations_html(ruling.ready_reason)}</i></p>")
    if record.overruled:
        parts.append(f'<p style="margin-top:4px; margin-bottom:0"><i style="color:{accent("warning", palette).name()}">'
                     + html.escape(tr('"Ready" overruled: ') if ruling.ready_for_verdict
                                   else tr("Confidence stop overruled: "))
                     + html.escape(said_all(record.overruled)) + "</i></p>")
    if ruling.switch_request:
        parts.append('<p style="margin-top:4px; margin-bottom:0"><i>' + tr("The judge asked the sides to switch.")
                     + "</i></p>")
    return "".join(parts)


def switch_html(item: SwitchItem, case: str, palette: QPalette) -> str:
    from courtroom_desktop.core.court.records import CaseType, role_name  # lazily: core.court loads its engine

    switch = item.switch
    color = accent("switch", palette).name()
    sides = tr("; ").join(tr("Counsel {seat} now {stance} as the {role}").format(
        seat=seat, stance=stance_words(case, stance), role=tr(role_name(CaseType(case), stance)))
        for seat, stance in sorted(switch.assignments.items()))
    why = tr("Why (the trigger and the numbers behind it):") if len(switch.reasons) == 1 else tr(
        "Why (the triggers and the numbers behind them):")
    return (f'<p style="margin:0"><b style="color:{color}">\u21c4 '
            + tr("The sides switched after round {round}").format(round=switch.round) + "</b>"
            f"<br>{html.escape(sides)}" + tr(".") + "</p>"
            f'<p style="margin-top:4px; margin-bottom:0"><i>{html.escape(why)}</i></p><ul style="margin:0">'
            + "".join(f"<li>{html.escape(said(reason))}</li>" for reason in switch.reasons) + "</ul>")


def notice_html(item: NoticeItem) -> str:
    mark = {"error": "\u26d4", "warning": "\u26a0"}.get(item.level, "\u2139")
    text = f"{mark} {html.escape(item.text)}"
    if item.fix:
        text += "<br><b>" + tr("Fix:") + f"</b> {html.escape(item.fix)}"
    return _small(text)


def card_style(item: Item, palette: QPalette) -> CardStyle:
    base, mid = role_color(palette, "base"), role_color(palette, "mid")
    if isinstance(item, TurnItem):
        return CardStyle(base, mid, accent(item.stance, palette).name())
    if isinstance(item, RulingItem):
        return CardStyle(base, mid, accent("judge", palette).name())
    if isinstance(item, SwitchItem):
        color = accent("switch", palette).name()
        return CardStyle(tint("switch", palette, 40).name(), color, color, stripe_width=1)
    if isinstance(item, VerdictItem):
        color = accent("judge", palette).name()
        return CardStyle(tint("judge", palette, 22).name(), color, color, stripe_width=2, border_width=2, padding=10)
    name = {"error": "error", "warning": "warning"}.get(item.level, "unclear")
    background = tint(name, palette, 30).name()
    return CardStyle(background, background, accent(name, palette).name(), stripe_width=2, padding=5)


# -------------------------------------------------------------------- the view
PROMPT, FOLD = "prompt:", "fold:"  # links: prompt:turn:3, prompt:ruling:2, prompt:verdict:0; fold:2


def round_of(item: Item) -> int | None:
    """The round a card belongs to (a counsel turn, the judge's ruling); None for the others, which never fold."""
    if isinstance(item, TurnItem):
        return item.round
    if isinstance(item, RulingItem):
        return int(item.ruling.round)
    return None


def prompt_href(item: Item) -> str:
    """The card's 'Prompt…' link: the exact prompt and raw answer of its model calls ('' for a card without)."""
    if isinstance(item, TurnItem) and item.finished:
        return f"{PROMPT}turn:{item.index}"
    if isinstance(item, RulingItem):
        return f"{PROMPT}ruling:{item.ruling.round}"
    if isinstance(item, VerdictItem):
        return f"{PROMPT}verdict:0"
    return ""


def record_links(item: Item, folded: bool, palette: QPalette) -> str:
    """A card's links to its record: the prompt viewer, and folding its round."""
    links = []
    href = prompt_href(item)
    if href:
        links.append(f'<a href="{href}">' + tr("Prompt\u2026") + "</a>")
    number = round_of(item)
    if number is not None:
        word = tr("Unfold round {round}") if folded else tr("Fold round {round}")
        links.append(f'<a href="{FOLD}{number}">{word.format(round=number)}</a>')
    return _small(_dim(" &nbsp;&middot;&nbsp; ".join(links), palette), top=4) if links else ""


def folded_html(item: TurnItem | RulingItem, case: str, palette: QPalette) -> str:
    """A card of a folded round, on one line: who spoke (or the judge's tendency) and the start of what was said."""
    if isinstance(item, TurnItem):
        color = accent(item.stance, palette).name()
        head = (f'<b style="color:{color}">\u25b8 {html.escape(tr(item.role))}</b> &middot; '
                + tr("round {round}").format(round=item.round))
        text = " ".join(item.text.split())
    else:
        ruling = item.ruling.ruling
        head = (f'<b style="color:{accent("judge", palette).name()}">\u25b8 ' + tr("Judge") + "</b> &middot; "
                + tr("ruling after round {round}").format(round=item.ruling.round)
                + f" &middot; {ruling.confidence:.0%} "
                f"{html.escape(tr(TENDENCY_WORDS.get(ruling.tendency.value, ruling.tendency.value)))}")
        text = " ".join(ruling.summary.split())
    excerpt = html.escape(text[:90] + ("\u2026" if len(text) > 90 else ""))
    return f'<p style="margin:0">{head} &middot; {_dim(excerpt, palette)}</p>'


class TranscriptView(QTextBrowser):
    sig_citation = Signal(str)
    """An evidence id (E3) the user wants to see."""
    sig_prompt = Signal(str, int)
    """A card's model calls to show: ('turn', turn index), ('ruling', round) or ('verdict', 0)."""
    sig_folded = Signal()
    """The folded rounds changed."""

    def __init__(self, model: TranscriptModel, lookup: Lookup = lambda _id: None, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.lookup = lookup
        self.setObjectName("transcript")
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.placeholder = tr(PLACEHOLDER)  # drawn wrapped by paintEvent (Qt draws a placeholder on one line, cut short)
        self.document().setDocumentMargin(6)
        self.document().setUndoRedoEnabled(False)
        self.anchorClicked.connect(self._on_anchor)
        self.tables: list[QTextTable] = []
        """One table per model row: the cards."""
        self.folded: set[int] = set()
        """The rounds whose cards show one line each."""
        self._html: list[str] = []          # what each card shows now (an unchanged card is not touched)
        self._dirty: set[int] = set()
        self._follow = True
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.setInterval(FLUSH_MS)
        self._flush_timer.timeout.connect(self._flush)
        self.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        self.verticalScrollBar().rangeChanged.connect(self._on_range)
        model.rowsInserted.connect(self._on_inserted)
        model.dataChanged.connect(self._on_changed)
        model.modelReset.connect(self._rebuild)
        palette_watcher().sig_changed.connect(self._rebuild)
        self._rebuild()

    # ---------------------------------------------------------------- reading the cards (tests, screenshots)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        super().paintEvent(event)
        if self.document().isEmpty() and self.placeholder:
            painter = QPainter(self.viewport())
            painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
            margin = int(self.document().documentMargin())
            painter.drawText(self.viewport().rect().adjusted(margin, margin, -margin, -margin),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap),
                             self.placeholder)
            painter.end()
    def card_count(self) -> int:
        return len(self.tables)

    def card_cursor(self, row: int) -> QTextCursor:
        """A cursor selecting the whole of card ``row``'s text."""
        cell = self.tables[row].cellAt(0, 0)
        cursor = cell.firstCursorPosition()
        cursor.setPosition(cell.lastCursorPosition().position(), QTextCursor.MoveMode.KeepAnchor)
        return cursor

    def card_text(self, row: int) -> str:
        return self.card_cursor(row).selection().toPlainText()

    def card_html(self, row: int) -> str:
        """The HTML (or, for the verdict, MARKDOWN and the Markdown) the card was built from."""
        return self._html[row]

    def card_links(self, row: int) -> list[str]:
        """The hrefs of card ``row``'s links, in order."""
        return [href for href, _, _ in self._anchors(row)]

    def card_chips(self, row: int) -> list[tuple[str, str]]:
        """Card ``row``'s citation chips: (evidence id, tooltip) each."""
        return [(evidence_of_href(href) or href, tip) for href, _, tip in self._anchors(row) if tip]

    def link_point(self, row: int, href: str, chip: bool = False) -> QPoint:
        """Where on the viewport to click to follow ``href`` in card ``row`` (its first such link, or its chip);
        the card is scrolled into view first."""
        position = next(position for link, position, tip in self._anchors(row)
                        if link == href and (bool(tip) or not chip))
        cursor = QTextCursor(self.document())
        cursor.setPosition(position + 1)
        self.setTextCursor(cursor)
        self.ensureCursorVisible()
        return self.cursorRect(cursor).center()

    def _anchors(self, row: int) -> list[tuple[str, int, str]]:
        """(href, position, tooltip) of each link in card ``row``."""
        cell = self.tables[row].cellAt(0, 0)
        start, end = cell.firstPosition(), cell.lastPosition()
        out: list[tuple[str, int, str]] = []
        block = self.document().findBlock(start)
        while block.isValid() and block.position() <= end:
            iterator = block.begin()
            while not iterator.atEnd():
                fragment = iterator.fragment()
                char_format = fragment.charFormat()
                href = char_format.anchorHref() if fragment.isValid() else ""
                if href:
                    out.append((href, fragment.position(), char_format.toolTip()))
                iterator += 1
            block = block.next()
        return out

    # ---------------------------------------------------------------- model -> cards
    def _html_of(self, item: Item) -> str:
        """The card's content: HTML, or Markdown after MARKDOWN (the verdict); a card of a folded round on one line;
        under each card of a turn, a ruling or the verdict, its links to the record (its prompt, folding)."""
        palette = QGuiApplication.palette()
        folded = round_of(item) in self.folded  # only a turn or a ruling has a round
        if folded and isinstance(item, TurnItem | RulingItem):
            return folded_html(item, self.model.case, palette) + record_links(item, True, palette)
        text = self._card_of(item, palette)
        if isinstance(item, VerdictItem):
            return text + "\n\n[" + tr("Prompt\u2026") + f"]({prompt_href(item)})\n"
        return text + record_links(item, False, palette)

    # ---------------------------------------------------------------- rounds: folding, jumping
    def rounds(self) -> list[int]:
        """The rounds the transcript shows, in order."""
        found = (round_of(self._item(row)) for row in range(self.model.rowCount()))
        return sorted({r for r in found if r is not None})

    def set_folded(self, rounds: Iterable[int], folded: bool = True) -> None:
        """Fold (or unfold) the cards of ``rounds``: each shows one line, its full text one click away."""
        changed = set(rounds) - self.folded if folded else set(rounds) & self.folded
        if not changed:
            return
        self.folded = self.folded | changed if folded else self.folded - changed
        for row in range(len(self.tables)):
            item = self._item(row)
            if round_of(item) in changed:
                self._fill(row, item)
        self.sig_folded.emit()

    def toggle_round(self, number: int) -> None:
        self.set_folded([number], number not in self.folded)

    def first_row_of_round(self, number: int) -> int | None:
        return next((row for row in range(len(self.tables)) if round_of(self._item(row)) == number), None)

    def scroll_to_round(self, number: int) -> None:
        """Show round ``number`` from its first card (unfolded), at the top of the view."""
        self.set_folded([number], False)
        row = self.first_row_of_round(number)
        if row is None:
            return
        self._follow = False
        cursor = QTextCursor(self.document())
        cursor.setPosition(self.tables[row].firstPosition())
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())  # from the bottom, so the card lands at the top
        self.setTextCursor(cursor)
        self.ensureCursorVisible()
        top = self.document().documentLayout().blockBoundingRect(cursor.block()).top()
        bar.setValue(int(max(0, top - 8)))
        self._follow = bar.value() >= bar.maximum() - 24

    def _card_of(self, item: Item, palette: QPalette) -> str:
        case = self.model.case
        if isinstance(item, TurnItem):
            return turn_html(item, case, self.lookup, palette)
        if isinstance(item, RulingItem):
            return ruling_html(item, palette, case)
        if isinstance(item, SwitchItem):
            return switch_html(item, case, palette)
        if isinstance(item, VerdictItem):
            demo = demo_words(getattr(self.model, "models", None))
            return MARKDOWN + verdict_markdown(item.verdict, case, self.model.claim, demo)
        return notice_html(item)

    def _item(self, row: int) -> Item:
        item: Item = self.model.data(self.model.index(row, 0), RecordRole)
        return item

    def _rebuild(self) -> None:
        self._flush_timer.stop()
        self._dirty.clear()
        self.tables, self._html = [], []
        self.document().clear()
        palette = QGuiApplication.palette()
        self.document().setDefaultStyleSheet(
            f"a {{ color: {role_color(palette, 'link')}; }}")
        for row in range(self.model.rowCount()):
            self._append(row)
        self._follow = True

    def _append(self, row: int) -> None:
        item = self._item(row)
        style = card_style(item, QGuiApplication.palette())
        table_format = QTextTableFormat()
        table_format.setBorderCollapse(True)
        table_format.setBorder(style.border_width)
        table_format.setBorderBrush(QBrush(QColor(style.border)))
        table_format.setBorderStyle(QTextFrameFormat.BorderStyle.BorderStyle_Solid)
        table_format.setCellSpacing(0)
        table_format.setCellPadding(style.padding)
        table_format.setWidth(QTextLength(QTextLength.Type.PercentageLength, 100))
        table_format.setTopMargin(0 if row == 0 else 4)
        table_format.setBottomMargin(4)
        cursor = QTextCursor(self.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        table = cursor.insertTable(1, 1, table_format)
        cell_format = QTextTableCellFormat()
        cell_format.setBackground(QBrush(QColor(style.background)))
        cell_format.setLeftBorder(style.stripe_width + style.border_width)
        cell_format.setLeftBorderBrush(QBrush(QColor(style.stripe)))
        cell_format.setLeftBorderStyle(QTextFrameFormat.BorderStyle.BorderStyle_Solid)
        table.cellAt(0, 0).setFormat(cell_format)
        self.tables.append(table)
        self._html.append("")
        self._fill(row, item)

    def _fill(self, row: int, item: Item) -> None:
        text = self._html_of(item)
        if text == self._html[row]:
            return
        self._html[row] = text
        cursor = self.card_cursor(row)
        cursor.beginEditBlock()
        cursor.removeSelectedText()
        if text.startswith(MARKDOWN):
            cursor.insertFragment(QTextDocumentFragment.fromMarkdown(text[len(MARKDOWN):]))
        else:
            cursor.insertHtml(text)
        cursor.endEditBlock()

    def _on_inserted(self, parent: QModelIndex, first: int, last: int) -> None:
        if first != len(self.tables):        # the model only appends; anything else is drawn again
            self._rebuild()
            return
        for row in range(first, last + 1):
            self._append(row)

    def _on_changed(self, top: QModelIndex, bottom: QModelIndex, roles: Sequence[int] = ()) -> None:
        self._dirty.update(range(top.row(), bottom.row() + 1))
        if not self._flush_timer.isActive():
            self._flush_timer.start()

    def _flush(self) -> None:
        for row in sorted(self._dirty):
            if row < len(self.tables):
                self._fill(row, self._item(row))
        self._dirty.clear()

    def flush(self) -> None:
        """Apply pending updates now (tests, screenshots)."""
        self._flush_timer.stop()
        self._flush()

    def _on_anchor(self, url: QUrl) -> None:
        href = url.toString()
        if href.startswith(PROMPT):
            step, _, number = href[len(PROMPT):].partition(":")
            self.sig_prompt.emit(step, int(number or 0))
            return
        if href.startswith(FOLD):
            self.toggle_round(int(href[len(FOLD):]))
            return
        evidence_id = evidence_of_href(href)
        if evidence_id:
            self.sig_citation.emit(evidence_id)

    # ---------------------------------------------------------------- following the bottom
    def _on_scrolled(self, value: int) -> None:
        bar = self.verticalScrollBar()
        self._follow = value >= bar.maximum() - 24

    def _on_range(self, minimum: int, maximum: int) -> None:
        if self._follow:
            self.verticalScrollBar().setValue(maximum)

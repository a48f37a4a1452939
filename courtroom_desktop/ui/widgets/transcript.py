"""The live transcript: one card per counsel turn (speaker, stance, streaming text, citation chips), the judge's
ruling cards, banners where the sides switched, notices, and the verdict card rendered from Markdown.

The view follows a TranscriptModel: rows inserted become cards, changed rows are redrawn at most every
``FLUSH_MS`` (tokens arrive faster than anyone reads), and the view keeps to the bottom while the user is there."""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QGuiApplication, QPalette
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from courtroom_desktop.ui.models import RecordRole
from courtroom_desktop.ui.models.transcript import NoticeItem, RulingItem, SwitchItem, TurnItem, VerdictItem
from courtroom_desktop.ui.text import (
    TENDENCY_WORDS,
    citations_html,
    evidence_of_href,
    role_for,
    stance_words,
    verdict_markdown,
)
from courtroom_desktop.ui.theme import accent, palette_watcher, role_color, tint

FLUSH_MS = 60


def _label(text: str = "", rich: bool = True, selectable: bool = True) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    flags = Qt.TextInteractionFlag.LinksAccessibleByMouse | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
    if selectable:
        flags |= Qt.TextInteractionFlag.TextSelectableByMouse
    label.setTextInteractionFlags(flags)
    label.setOpenExternalLinks(False)
    label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
    return label


def _small(label: QLabel) -> QLabel:
    font = QFont(label.font())
    font.setPointSizeF(max(7.0, font.pointSizeF() * 0.9))
    label.setFont(font)
    return label


class Card(QFrame):
    sig_citation = Signal(str)
    """An evidence id (E3) whose chip or link was activated."""

    accent_name = "unclear"

    def __init__(self, case: str, lookup: Callable[[str], object | None], parent=None):
        super().__init__(parent)
        self.case = case
        self.lookup = lookup
        self.setObjectName("card")
        self.layout_ = QVBoxLayout(self)
        self.layout_.setContentsMargins(12, 8, 12, 10)
        self.layout_.setSpacing(4)

    def _link(self, href: str) -> None:
        evidence_id = evidence_of_href(href)
        if evidence_id:
            self.sig_citation.emit(evidence_id)

    def connect_links(self, *labels: QLabel) -> None:
        for label in labels:
            label.linkActivated.connect(self._link)

    def _links(self) -> None:
        """Links take the current palette's link colour (a label keeps the palette it was polished with)."""
        link = QGuiApplication.palette().color(QPalette.ColorRole.Link)
        for label in self.findChildren(QLabel):
            palette = label.palette()
            if palette.color(QPalette.ColorRole.Link) == link:
                continue
            palette.setColor(QPalette.ColorRole.Link, link)
            label.setPalette(palette)
            text = label.text()  # laid out again: a link's colour is fixed when its text is set
            label.clear()
            label.setText(text)

    def restyle(self) -> None:
        self._links()
        palette = QGuiApplication.palette()
        color = accent(self.accent_name, palette).name()
        self.setStyleSheet(
            f"QFrame#card {{ background: {role_color(palette, 'base')}; border: 1px solid {role_color(palette, 'mid')};"
            f" border-left: 4px solid {color}; border-radius: 6px; }}"
            f" QFrame#card QLabel {{ background: transparent; border: none; }}")

    def update_from(self, item) -> None:
        raise NotImplementedError


class TurnCard(Card):
    def __init__(self, item: TurnItem, case: str, lookup, parent=None):
        super().__init__(case, lookup, parent)
        self.accent_name = item.stance
        self.header = _label()
        self.body = _label()
        self.body.setObjectName("turnText")
        self.status = _small(_label(rich=False, selectable=False))
        self.meta = _small(_label())
        self.chips = QHBoxLayout()
        self.chips.setSpacing(4)
        self.chips.setContentsMargins(0, 0, 0, 0)
        self._chip_ids: tuple = ()
        for widget in (self.header, self.status, self.body):
            self.layout_.addWidget(widget)
        self.layout_.addLayout(self.chips)
        self.layout_.addWidget(self.meta)
        self.connect_links(self.body, self.meta)
        self.restyle()
        self.update_from(item)

    def update_from(self, item: TurnItem) -> None:
        palette = QGuiApplication.palette()
        color, dim = accent(item.stance, palette).name(), role_color(palette, "dim")
        role = item.role or role_for(self.case, item.stance)
        self.header.setText(
            f'<b style="color:{color}">{html.escape(role)}</b> &middot; {html.escape(stance_words(self.case, item.stance))}'
            f' &middot; <span style="color:{dim}">Counsel {item.seat} &middot; round {item.round}</span>')
        self.body.setText(citations_html(item.text) if item.text else "")
        self.body.setVisible(bool(item.text))
        self.status.setText(item.status)
        self.status.setVisible(bool(item.status))
        turn = item.turn
        citations = tuple((c.evidence_id, c.valid, c.problem) for c in turn.citations) if turn is not None else ()
        if citations != self._chip_ids:
            self._set_chips(citations)
        self.meta.setVisible(turn is not None or bool(item.evidence_added))
        if turn is not None:
            parts = []
            if turn.queries:
                parts.append("searched: " + " &middot; ".join(f"<i>{html.escape(q)}</i>" for q in turn.queries[:4]))
            if turn.evidence_added:
                ids = ", ".join(f'<a href="cite:{i}">{i}</a>' for i in turn.evidence_added)
                parts.append(f"new evidence {ids}")
            parts.append(f"{turn.usage.tokens_out} tokens, {turn.usage.seconds:.1f} s")
            if turn.regenerated:
                parts.append("regenerated once")
            if turn.flags:
                parts.append(f'<span style="color:{accent("warning", QGuiApplication.palette()).name()}">'
                             + html.escape("; ".join(turn.flags)) + "</span>")
            self.meta.setText(" &nbsp;|&nbsp; ".join(parts))
        elif item.evidence_added:
            self.meta.setText("new evidence " + ", ".join(f'<a href="cite:{i}">{i}</a>' for i in item.evidence_added))

    def _set_chips(self, citations: tuple) -> None:
        self._chip_ids = citations
        while self.chips.count():
            widget = self.chips.takeAt(0).widget()
            if widget is not None:
                widget.deleteLater()
        seen = set()
        for evidence_id, valid, problem in citations:
            if evidence_id in seen:
                continue
            seen.add(evidence_id)
            chip = QToolButton()
            chip.setObjectName("citationChip")
            chip.setText(evidence_id if valid else f"{evidence_id} \u2717")
            chip.setAutoRaise(False)
            chip.setCursor(Qt.CursorShape.PointingHandCursor)
            entry = self.lookup(evidence_id)
            tip = ""
            if entry is not None:
                chunk = entry.evidence.chunk
                tip = f"{entry.evidence.doc_title}, p. {chunk.page_start + 1}\n{chunk.text[:240]}"
            if not valid:
                tip = f"Rejected citation: {problem}\n{tip}".strip()
            chip.setToolTip(tip or evidence_id)
            chip.clicked.connect(lambda _=False, e=evidence_id: self.sig_citation.emit(e))
            self.chips.addWidget(chip)
        self.chips.addStretch(1)


class RulingCard(Card):
    accent_name = "judge"

    def __init__(self, item: RulingItem, case: str, lookup, parent=None):
        super().__init__(case, lookup, parent)
        self.header = _label()
        self.bar = QProgressBar()
        self.bar.setRange(0, 100)
        self.bar.setTextVisible(True)
        self.bar.setMaximumHeight(18)
        self.body = _label()
        for widget in (self.header, self.bar, self.body):
            self.layout_.addWidget(widget)
        self.connect_links(self.body)
        self.restyle()
        self.update_from(item)

    def update_from(self, item: RulingItem) -> None:
        record = item.ruling
        ruling = record.ruling
        palette = QGuiApplication.palette()
        judge = accent("judge", palette).name()
        tendency = ruling.tendency.value
        self.header.setText(f'<b style="color:{judge}">Judge</b> &middot; ruling after round {record.round}')
        self.bar.setValue(round(ruling.confidence * 100))
        self.bar.setFormat(f"confidence %p% \u00b7 {TENDENCY_WORDS.get(tendency, tendency)}")
        self.bar.setStyleSheet(f"QProgressBar::chunk {{ background: {accent(tendency, palette).name()}; }}"
                               f" QProgressBar {{ text-align: center; }}")
        parts = []
        if ruling.key_controversy:
            parts.append(f"<b>Key controversy:</b> {citations_html(ruling.key_controversy)}")
        if ruling.summary:
            parts.append(citations_html(ruling.summary))
        if ruling.evidence_assessment:
            parts.append(f"<b>Evidence:</b> {citations_html(ruling.evidence_assessment)}")
        if ruling.open_questions:
            parts.append("<b>Open questions:</b><ul style='margin:0'>"
                         + "".join(f"<li>{citations_html(q)}</li>" for q in ruling.open_questions) + "</ul>")
        if ruling.ready_for_verdict and not record.overruled:
            parts.append(f"<i>Ready for a verdict: {citations_html(ruling.ready_reason)}</i>")
        if record.overruled:
            parts.append(f'<i style="color:{accent("warning", palette).name()}">"Ready" overruled: '
                         + html.escape("; ".join(record.overruled)) + "</i>")
        if ruling.switch_request:
            parts.append("<i>The judge asked the sides to switch.</i>")
        self.body.setText("<br>".join(parts))


class SwitchBanner(Card):
    accent_name = "switch"

    def __init__(self, item: SwitchItem, case: str, lookup, parent=None):
        super().__init__(case, lookup, parent)
        self.text = _label()
        self.layout_.addWidget(self.text)
        self.restyle()
        self.update_from(item)

    def restyle(self) -> None:
        self._links()
        palette = QGuiApplication.palette()
        color = accent("switch", palette).name()
        self.setStyleSheet(f"QFrame#card {{ background: {tint('switch', palette, 40).name()}; border: 1px dashed {color};"
                           f" border-radius: 6px; }} QFrame#card QLabel {{ background: transparent; }}")

    def update_from(self, item: SwitchItem) -> None:
        switch = item.switch
        color = accent("switch", QGuiApplication.palette()).name()
        sides = "; ".join(f"Counsel {seat} now {stance_words(self.case, stance)} as the "
                          f"{role_for(self.case, stance)}" for seat, stance in sorted(switch.assignments.items()))
        self.text.setText(f'<b style="color:{color}">\u21c4 The sides switched after round {switch.round}</b><br>'
                          f"{html.escape(sides)}.<br><i>Why: {html.escape('; '.join(switch.reasons))}</i>")


class VerdictCard(Card):
    accent_name = "judge"

    def __init__(self, item: VerdictItem, case: str, lookup, claim: str = "", parent=None):
        super().__init__(case, lookup, parent)
        self.claim = claim
        self.text = QLabel()
        self.text.setObjectName("verdictText")
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.MarkdownText)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.text.setOpenExternalLinks(False)
        self.layout_.addWidget(self.text)
        self.connect_links(self.text)
        self.restyle()
        self.update_from(item)

    def restyle(self) -> None:
        self._links()
        palette = QGuiApplication.palette()
        self.setStyleSheet(
            f"QFrame#card {{ background: {tint('judge', palette, 22).name()}; border: 2px solid "
            f"{accent('judge', palette).name()}; border-radius: 8px; }} QFrame#card QLabel {{ background: transparent; }}")

    def update_from(self, item: VerdictItem) -> None:
        self.markdown = verdict_markdown(item.verdict, self.case, self.claim)
        self.text.setText(self.markdown)


class NoticeCard(Card):
    def __init__(self, item: NoticeItem, case: str, lookup, parent=None):
        super().__init__(case, lookup, parent)
        self.accent_name = {"error": "error", "warning": "warning"}.get(item.level, "unclear")
        self.text = _small(_label())
        self.layout_.setContentsMargins(10, 4, 10, 4)
        self.layout_.addWidget(self.text)
        self.restyle()
        self.update_from(item)

    def restyle(self) -> None:
        palette = QGuiApplication.palette()
        self.setStyleSheet(f"QFrame#card {{ background: {tint(self.accent_name, palette, 30).name()}; border: none;"
                           f" border-radius: 4px; }} QFrame#card QLabel {{ background: transparent; }}")

    def update_from(self, item: NoticeItem) -> None:
        mark = {"error": "\u26d4", "warning": "\u26a0"}.get(item.level, "\u2139")
        text = f"{mark} {html.escape(item.text)}"
        if item.fix:
            text += f"<br><b>Fix:</b> {html.escape(item.fix)}"
        self.text.setText(text)


class _Column(QWidget):
    """The cards' column. Its minimum height is left to height-for-width: a word-wrapped label's minimum size is
    computed as if it were very narrow, which made the scroll area add a screen of blank space under the cards."""

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(super().minimumSizeHint().width(), 0)


class TranscriptView(QScrollArea):
    sig_citation = Signal(str)
    """An evidence id (E3) the user wants to see."""

    def __init__(self, model, lookup: Callable[[str], object | None] = lambda _id: None, parent=None):
        super().__init__(parent)
        self.model = model
        self.lookup = lookup
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.container = _Column()
        self.container.setObjectName("transcript")
        self.column = QVBoxLayout(self.container)
        self.column.setContentsMargins(6, 6, 6, 6)
        self.column.setSpacing(8)
        self.placeholder = QLabel("Put a claim on trial: the Prosecution and the Defense argue from your library, "
                                  "the Judge rules after every round, and the verdict appears here.")
        self.placeholder.setWordWrap(True)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setEnabled(False)
        self.column.addWidget(self.placeholder)
        self.column.addStretch(1)
        self.setWidget(self.container)
        self.cards: list[Card] = []
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
        palette_watcher().sig_changed.connect(self.restyle)
        self._rebuild()

    # ---------------------------------------------------------------- model -> cards
    def _make(self, item) -> Card:
        case = self.model.case
        if isinstance(item, TurnItem):
            card = TurnCard(item, case, self.lookup)
        elif isinstance(item, RulingItem):
            card = RulingCard(item, case, self.lookup)
        elif isinstance(item, SwitchItem):
            card = SwitchBanner(item, case, self.lookup)
        elif isinstance(item, VerdictItem):
            card = VerdictCard(item, case, self.lookup, claim=self.model.claim)
        else:
            card = NoticeCard(item, case, self.lookup)
        card.sig_citation.connect(self.sig_citation)
        return card

    def _rebuild(self) -> None:
        for card in self.cards:
            self.column.removeWidget(card)
            card.deleteLater()
        self.cards = []
        self._dirty.clear()
        for row in range(self.model.rowCount()):
            self._insert(row)
        self.placeholder.setVisible(not self.cards)
        self._follow = True

    def _insert(self, row: int) -> None:
        card = self._make(self.model.data(self.model.index(row, 0), RecordRole))
        self.cards.insert(row, card)
        self.column.insertWidget(row + 1, card)  # after the placeholder

    def _on_inserted(self, parent: QModelIndex, first: int, last: int) -> None:
        for row in range(first, last + 1):
            self._insert(row)
        self.placeholder.setVisible(False)

    def _on_changed(self, top: QModelIndex, bottom: QModelIndex, roles=()) -> None:
        self._dirty.update(range(top.row(), bottom.row() + 1))
        if not self._flush_timer.isActive():
            self._flush_timer.start()

    def _flush(self) -> None:
        for row in sorted(self._dirty):
            if row < len(self.cards):
                self.cards[row].update_from(self.model.data(self.model.index(row, 0), RecordRole))
        self._dirty.clear()

    def flush(self) -> None:
        """Apply pending updates now (tests, screenshots)."""
        self._flush_timer.stop()
        self._flush()

    # ---------------------------------------------------------------- following the bottom
    def _on_scrolled(self, value: int) -> None:
        bar = self.verticalScrollBar()
        self._follow = value >= bar.maximum() - 24

    def _on_range(self, minimum: int, maximum: int) -> None:
        if self._follow:
            self.verticalScrollBar().setValue(maximum)

    def scroll_to_card(self, row: int) -> None:
        if 0 <= row < len(self.cards):
            self.ensureWidgetVisible(self.cards[row], 0, 20)

    # ---------------------------------------------------------------- palette
    def restyle(self) -> None:
        """The palette changed (light <-> dark): every card takes the new colours."""
        for row, card in enumerate(self.cards):
            card.restyle()
            card.update_from(self.model.data(self.model.index(row, 0), RecordRole))

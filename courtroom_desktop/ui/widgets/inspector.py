"""The evidence inspector: the trial's evidence pool, and the selected passage's page rendered with the passage
highlighted (page-relative rectangles painted over the rendered page, so the highlight survives zoom), with zoom,
previous and next page, and "open in the system viewer". A passage of a text document (Markdown, text, Word, a note)
is shown in the document's text instead, highlighted by its character span and scrolled into view."""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QLocale, QModelIndex, QPointF, QRectF, QSettings, QSize, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import (
    QColor,
    QDesktopServices,
    QImage,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QResizeEvent,
    QTextCharFormat,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QTextBrowser,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from courtroom_desktop.ui.controllers.pages import BASE_SCALE, PageRenderer, RenderedPage
from courtroom_desktop.ui.controls import named, record_table
from courtroom_desktop.ui.controls.flow import FlowLayout
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr
from courtroom_desktop.ui.qt_models import RecordRole
from courtroom_desktop.ui.qt_models.evidence import EvidenceModel
from courtroom_desktop.ui.text import clock, pages_label, stance_words
from courtroom_desktop.ui.theme import PASSAGE_TEXT, accent, passage_highlight

if TYPE_CHECKING:
    from courtroom_desktop.core.court.records import PoolEntry

#: (x0, y0, x1, y1) as fractions of the page (core.records.Highlight.rects)
Rect = tuple[float, float, float, float]

ZOOM_MIN, ZOOM_MAX, ZOOM_STEP = 0.4, 4.0, 1.25
PLACEHOLDER = QT_TRANSLATE_NOOP("", "The cited page appears here, the passage highlighted.")


class PageView(QWidget):
    """A rendered page with the passage's rectangles drawn on it."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.image: QImage | None = None
        self.rects: list[Rect] = []
        self.display_size = QSize(0, 0)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.setAccessibleName(tr("Page with the passage highlighted"))

    def show_page(self, image: QImage | None, rects: Iterable[Rect], size: QSize) -> None:
        self.image, self.rects, self.display_size = image, list(rects), size
        self.setFixedSize(size)
        self.update()

    def set_display_size(self, size: QSize) -> None:
        """Zoom at once with the old image scaled, until the sharper render arrives."""
        self.display_size = size
        self.setFixedSize(size)
        self.update()

    def highlight_bounds(self) -> QRectF | None:
        if not self.rects:
            return None
        w, h = self.display_size.width(), self.display_size.height()
        x0 = min(r[0] for r in self.rects) * w
        y0 = min(r[1] for r in self.rects) * h
        x1 = max(r[2] for r in self.rects) * w
        y1 = max(r[3] for r in self.rects) * h
        return QRectF(x0, y0, x1 - x0, y1 - y0)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        target = QRectF(0, 0, self.display_size.width(), self.display_size.height())
        painter.fillRect(target, QColor("white"))
        if self.image is not None:
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            painter.drawImage(target, self.image)
        if self.rects:
            fill = QColor(255, 214, 0, 90)
            edge = QColor(230, 140, 0, 220)
            painter.setPen(QPen(edge, 1.2))
            painter.setBrush(fill)
            w, h = target.width(), target.height()
            for x0, y0, x1, y1 in self.rects:
                painter.drawRect(QRectF(QPointF(x0 * w - 1, y0 * h - 1), QPointF(x1 * w + 1, y1 * h + 1)))
        painter.end()


class EvidenceInspector(QWidget):
    sig_message = Signal(str)
    """A short line for the status bar."""

    def __init__(self, model: EvidenceModel, renderer: PageRenderer, locate: Callable[[PoolEntry], str] | None = None,
                 settings: QSettings | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.renderer = renderer
        self.locate: Callable[[PoolEntry], str] = locate or (lambda entry: entry.evidence.doc_path)
        self.settings = settings
        self.entry: PoolEntry | None = None
        self.path = ""
        self.page = 0
        self.pages = 0
        # QSettings.value gives the type asked for (its stub says object)
        self.zoom = (float(cast(float, settings.value("inspector/zoom", 1.0, type=float))) if settings is not None
                     else 1.0)
        self.fit = bool(settings.value("inspector/fit", True, type=bool)) if settings is not None else True
        self._request = 0
        self._page_points = QSize(0, 0)  # the page's size in PDF points, once known

        self.table = named(record_table(model, "evidenceTable", (40, 62, 96, 170, 48, 150, 150), single=True),
                           tr("Evidence pool"), tr("The passages found in this trial, one a row: select one to see it "
                                                   "on its page"))
        # one line per row at a fixed height: measuring rows to their contents asked the model for every cell of every
        # row (each a call into Python) whenever a passage was added mid-trial
        rows = self.table.verticalHeader()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        self.table.selectionModel().currentRowChanged.connect(self._on_current)
        model.modelReset.connect(self._on_reset)

        self.info = QLabel(tr("Select a passage (or click a citation such as [E3]) to see it on its page."))
        self.info.setWordWrap(True)
        self.info.setTextFormat(Qt.TextFormat.RichText)
        self.info.setOpenExternalLinks(True)  # a Zotero item's zotero://select link opens Zotero
        self.passage = QTextBrowser()
        self.passage.setObjectName("passageText")
        self.passage.setOpenLinks(False)
        self.passage.setMaximumHeight(110)
        named(self.passage, tr("Passage text"))

        self.prev_button = named(self._tool("\u25c0", tr("Previous page (PgUp)"), self.previous_page),
                                 tr("Previous page"))  # its symbol is no name to read out
        self.next_button = named(self._tool("\u25b6", tr("Next page (PgDown)"), self.next_page), tr("Next page"))
        self.page_label = QLabel("")
        self.zoom_out_button = named(self._tool("\u2212", tr("Zoom out (Ctrl+-)"), self.zoom_out), tr("Zoom out"))
        self.zoom_label = QLabel(f"{self.zoom:.0%}")
        self.zoom_in_button = named(self._tool("+", tr("Zoom in (Ctrl+=)"), self.zoom_in), tr("Zoom in"))
        self.fit_button = self._tool(tr("Fit"), tr("Fit the page width"), self.fit_width)
        self.highlight_button = self._tool(tr("Passage"), tr("Go to the passage's page"), self.go_to_passage)
        self.open_button = self._tool(tr("Open in viewer"), tr("Open the PDF in the system's viewer"), self.open_external)
        bar = FlowLayout()  # wraps when the inspector is narrow
        for widget in (self.prev_button, self.page_label, self.next_button, self.zoom_out_button, self.zoom_label,
                       self.zoom_in_button, self.fit_button, self.highlight_button, self.open_button):
            bar.addWidget(widget)

        self.page_view = PageView()
        self.page_scroll = QScrollArea()
        self.page_scroll.setObjectName("pageScroll")
        named(self.page_scroll, tr("Cited page"), tr("The page the passage is on; arrow keys scroll it"))
        self.page_scroll.setWidget(self.page_view)
        self.page_scroll.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.page_scroll.setBackgroundRole(QPalette.ColorRole.Dark)
        self.unavailable = QLabel(tr(PLACEHOLDER))
        self.unavailable.setObjectName("pagePlaceholder")
        self.unavailable.setWordWrap(True)
        self.unavailable.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.unavailable.setEnabled(False)
        self.page_stack = QStackedWidget()
        self.page_stack.addWidget(self.unavailable)
        self.page_stack.addWidget(self.page_scroll)
        self.text_view = QTextBrowser()  # a text document: its text, the passage highlighted
        self.text_view.setObjectName("documentText")
        self.text_view.setOpenLinks(False)
        self.text_view.setAccessibleName(tr("Document text with the passage highlighted"))
        self.page_stack.addWidget(self.text_view)
        self.text_mode = False
        self.span: tuple[int, int] | None = None  # the passage in text_view, in Qt's (UTF-16) positions
        self._fit_timer = QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(150)
        self._fit_timer.timeout.connect(self._refit)

        detail = QWidget()
        column = QVBoxLayout(detail)
        column.setContentsMargins(0, 4, 0, 0)
        column.addWidget(self.info)
        column.addWidget(self.passage)
        column.addLayout(bar)
        column.addWidget(self.page_stack, 1)

        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setObjectName("inspectorSplitter")
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(detail)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)

        renderer.sig_rendered.connect(self._on_rendered)
        renderer.sig_failed.connect(self._on_failed)
        renderer.sig_text.connect(self._on_text)
        self._update_controls()

    def _tool(self, text: str, tip: str, slot: Callable[[], object]) -> QToolButton:
        button = QToolButton()
        button.setText(text)
        button.setToolTip(tip)
        button.clicked.connect(slot)
        return button

    # ---------------------------------------------------------------- selection
    def show_evidence(self, evidence_id: str) -> bool:
        row = self.model.row_of(evidence_id)
        if row < 0:
            self.sig_message.emit(tr("{id} is not in this trial's evidence pool").format(id=evidence_id))
            return False
        self.table.selectRow(row)
        self.table.scrollTo(self.model.index(row, 0))
        if self.entry is None or self.entry.id != evidence_id:
            self._show(self.model.entry(evidence_id))
        return True

    def _on_current(self, current: QModelIndex, previous: QModelIndex) -> None:
        if current.isValid():
            self._show(self.model.data(current, RecordRole))

    def _on_reset(self) -> None:
        self.entry, self.path, self.pages = None, "", 0
        self.text_mode, self.span = False, None
        self.text_view.clear()
        self.info.setText(tr("Select a passage (or click a citation such as [E3]) to see it on its page."))
        self.passage.clear()
        self.page_view.show_page(None, [], QSize(0, 0))
        self.page_view.setAccessibleDescription("")
        self.unavailable.setText(tr(PLACEHOLDER))
        self.page_stack.setCurrentWidget(self.unavailable)
        self._update_controls()

    def _show(self, entry: PoolEntry | None) -> None:
        # lazily: core.court loads its engine (numpy)
        from courtroom_desktop.core.court.records import CaseType, Stance, role_name

        if entry is None:
            return
        self.entry = entry
        evidence, chunk = entry.evidence, entry.evidence.chunk
        case = self.model.case
        stance = entry.stance.value if entry.stance is not None else ""
        color = accent(stance or "unclear", self.palette()).name()
        # no stance: the side role_name names for any stance but 'for'
        side = entry.stance if entry.stance is not None else Stance.against
        finder = tr("the Judge") if entry.found_by == "judge" else tr(role_name(CaseType(case), side))
        cited = tr(", ").join(self.model.cited_by(entry.id)) or tr("not cited yet")
        who = html.escape(finder) + (" (" + html.escape(tr(stance_words(case, stance))) + ")" if stance else "")
        self.info.setText(
            f"<b>{entry.id}</b> &middot; {html.escape(evidence.doc_title or evidence.doc_path)}"
            + (f" ({html.escape(evidence.doc_cite)})" if evidence.doc_cite else "")
            + (f' &middot; <a href="{html.escape(evidence.doc_link)}">Zotero</a>'
               if evidence.doc_link.startswith("zotero://select/") else "")
            + f" &middot; {html.escape(chunk.section_path or tr('no section'))}"
            + (" &middot; " + html.escape(pages_label(chunk)) if chunk.on_pages else "") + "<br>"
            + tr("{who} found it in round {round} at {time} by the query {query}").format(
                who=f'<span style="color:{color}">{who}</span>', round=entry.round, time=clock(entry.at),
                query=f"<i>{html.escape(entry.query)}</i>") + "<br>"
            + tr("level: {level} \u00b7 cited by: {cited}").format(level=html.escape(tr(entry.level)),
                                                                 cited=html.escape(cited))
            + (" &middot; <b>" + tr("reads like instructions to a model: treated as a quotation only") + "</b>"
               if entry.injection else ""))
        self.passage.setPlainText(chunk.text)
        self.path = self.locate(entry) or evidence.doc_path
        self.page = chunk.highlights[0].page if chunk.highlights else chunk.page_start
        self.text_mode = not chunk.on_pages
        if self.text_mode:  # a text document: no page to render, its text instead
            self.pages, self.span = 0, None
            self._request = self.renderer.load_text(self.path) if self.path else 0
            self._update_controls()
            return
        self._render()

    # ---------------------------------------------------------------- text documents
    def _on_text(self, request: int, text: str) -> None:
        if request != self._request or self.entry is None:
            return
        chunk = self.entry.evidence.chunk
        start, end = chunk.char_start, chunk.char_end
        if text[start:end] != chunk.text:  # the file changed since it was ingested: find the passage, else show it alone
            found = text.find(chunk.text)
            if found >= 0:
                start, end = found, found + len(chunk.text)
            else:
                text = (tr("(The document has changed since it was added: this is the passage the trial kept.)")
                        + "\n\n" + chunk.text)
                start, end = len(text) - len(chunk.text), len(text)
        self.text_view.setPlainText(text)
        self.span = (_utf16(text, start), _utf16(text, end))
        selection = QTextEdit.ExtraSelection()
        selection.cursor = self._cursor(*self.span)
        selection.format = QTextCharFormat()
        selection.format.setBackground(passage_highlight())
        selection.format.setForeground(QColor(PASSAGE_TEXT))  # black on the yellow in every palette
        self.text_view.setExtraSelections([selection])
        self.page_stack.setCurrentWidget(self.text_view)
        self.scroll_to_passage()
        self._update_controls()

    def _cursor(self, start: int, end: int) -> QTextCursor:
        cursor = QTextCursor(self.text_view.document())
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        return cursor

    def scroll_to_passage(self) -> None:
        """Bring the highlighted passage into view: its end first, then its start, so a long one shows from the top."""
        if self.span is None:
            return
        for position in (self.span[1], self.span[0]):
            cursor = QTextCursor(self.text_view.document())
            cursor.setPosition(position)
            self.text_view.setTextCursor(cursor)
            self.text_view.ensureCursorVisible()

    # ---------------------------------------------------------------- pages
    def _rects(self) -> list[Rect]:
        if self.entry is None:
            return []
        return [r for h in self.entry.evidence.chunk.highlights if h.page == self.page for r in h.rects]

    def _fit_zoom(self) -> float | None:
        if self._page_points.width() <= 0:
            return None
        available = max(100, self.page_stack.width() - self.page_scroll.verticalScrollBar().sizeHint().width() - 6)
        return max(ZOOM_MIN, min(ZOOM_MAX, available / (self._page_points.width() * BASE_SCALE)))

    def _render(self) -> None:
        if not self.path or self.text_mode:
            return
        if self.fit:
            zoom = self._fit_zoom()
            if zoom is not None:
                self.zoom = zoom
        ratio = self.devicePixelRatioF() if self.isVisible() else 1.0
        self._request = self.renderer.render(self.path, self.page, self.zoom, ratio)
        self._update_controls()

    def _on_rendered(self, request: int, rendered: RenderedPage) -> None:
        if request != self._request:
            return  # a newer page or zoom was asked for meanwhile
        self.page_stack.setCurrentWidget(self.page_scroll)
        self.page, self.pages = rendered.page, rendered.pages
        ratio = rendered.image.devicePixelRatio() or 1.0
        size = QSize(round(rendered.image.width() / ratio), round(rendered.image.height() / ratio))
        scale = BASE_SCALE * rendered.zoom
        known = self._page_points.width() > 0
        self._page_points = QSize(round(size.width() / scale), round(size.height() / scale))
        if self.fit and not known:  # the first page seen: now its width is known, fit it
            fitted = self._fit_zoom()
            if fitted is not None and abs(fitted - rendered.zoom) > 0.02:
                self._render()
        self.page_view.show_page(rendered.image, self._rects(), size)
        chunk = self.entry.evidence.chunk if self.entry is not None else None
        # a page is a picture: a screen reader reads the highlighted passage's text through its description
        self.page_view.setAccessibleDescription(
            tr("Highlighted: {text}").format(text=chunk.text) if chunk is not None and self._rects() else "")
        bounds = self.page_view.highlight_bounds()
        if bounds is not None:
            self.page_scroll.ensureVisible(int(bounds.center().x()), int(bounds.top()), 40, min(200, int(bounds.height()) + 40))
        self._update_controls()

    def _on_failed(self, request: int, reason: str) -> None:
        if request != self._request:
            return
        self.unavailable.setText(tr("The page cannot be shown: {reason}. The passage text above is what the trial "
                                    "kept.").format(reason=html.escape(reason)))
        self.page_stack.setCurrentWidget(self.unavailable)
        self.pages = 0
        self._update_controls()

    def previous_page(self) -> None:
        if self.entry is not None and self.page > 0:
            self.page -= 1
            self._render()

    def next_page(self) -> None:
        if self.entry is not None and self.page < self.pages - 1:
            self.page += 1
            self._render()

    def go_to_passage(self) -> None:
        if self.text_mode:
            self.scroll_to_passage()
            return
        if self.entry is not None:
            chunk = self.entry.evidence.chunk
            self.page = chunk.highlights[0].page if chunk.highlights else chunk.page_start
            self._render()

    def _set_fit(self, fit: bool) -> None:
        self.fit = fit
        if self.settings is not None:
            self.settings.setValue("inspector/fit", fit)

    def _refit(self) -> None:
        if self.fit and self.page_view.image is not None:
            zoom = self._fit_zoom()
            if zoom is not None and abs(zoom - self.zoom) > 0.02:
                self._render()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if self.fit:
            self._fit_timer.start()

    def set_zoom(self, zoom: float, fit: bool = False) -> None:
        self._set_fit(fit)
        zoom = max(ZOOM_MIN, min(ZOOM_MAX, zoom))
        if abs(zoom - self.zoom) < 1e-3:
            return
        old = self.zoom
        self.zoom = zoom
        if self.settings is not None:
            self.settings.setValue("inspector/zoom", zoom)
        if self.page_view.image is not None:
            size = self.page_view.display_size
            self.page_view.set_display_size(QSize(round(size.width() * zoom / old), round(size.height() * zoom / old)))
        self._render()

    def zoom_in(self) -> None:
        self.set_zoom(self.zoom * ZOOM_STEP)

    def zoom_out(self) -> None:
        self.set_zoom(self.zoom / ZOOM_STEP)

    def fit_width(self) -> None:
        """Fit the page to the panel's width, now and whenever the panel is resized (until zoomed by hand)."""
        zoom = self._fit_zoom()
        if zoom is None:
            self._set_fit(True)
            return
        self.set_zoom(zoom, fit=True)

    def open_external(self) -> bool:
        if not self.path:
            return False
        return QDesktopServices.openUrl(QUrl.fromLocalFile(self.path))

    def _update_controls(self) -> None:
        has = self.entry is not None and bool(self.path)
        self.prev_button.setEnabled(has and self.page > 0)
        self.next_button.setEnabled(has and self.page < self.pages - 1)
        self.page_label.setText(tr("page {page} / {pages}").format(page=self.page + 1, pages=self.pages)
                                if has and self.pages else "")
        zoom = QLocale().toString(round(self.zoom * 100)) + "%"  # the locale's digits
        self.zoom_label.setText(tr("{zoom} (fit)").format(zoom=zoom) if self.fit else zoom)
        for button in (self.zoom_in_button, self.zoom_out_button, self.fit_button, self.highlight_button,
                       self.open_button):
            button.setEnabled(has and (button in (self.highlight_button, self.open_button) or not self.text_mode))


def _utf16(text: str, index: int) -> int:
    """A position in ``text`` as Qt counts it (UTF-16 code units: a character beyond the BMP counts two)."""
    return len(text[:index].encode("utf-16-le")) // 2

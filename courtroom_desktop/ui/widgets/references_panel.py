"""The check window's References tab: what the draft cites (core.check.references), each entry with the sentences
that cite it and the library document it was matched to, how and how surely, or "cited, not in your library", and
a retraction, correction or expression of concern on that document."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, say, tr
from courtroom_desktop.ui.text import NOTICE_WORDS
from courtroom_desktop.ui.theme import accent

if TYPE_CHECKING:
    from courtroom_desktop.core.services.check import CitedReferences

COLUMNS = (QT_TRANSLATE_NOOP("", "#"), QT_TRANSLATE_NOOP("", "Reference"), QT_TRANSLATE_NOOP("", "Cited in sentences"),
           QT_TRANSLATE_NOOP("", "In your library"), QT_TRANSLATE_NOOP("", "Notice"))
#: How a reference was matched, shown through tr
HOW = {"zotero key": QT_TRANSLATE_NOOP("", "by Zotero item key"), "doi": QT_TRANSLATE_NOOP("", "by DOI"),
       "title": QT_TRANSLATE_NOOP("", "by title"), "author and year": QT_TRANSLATE_NOOP("", "by first author and year")}


class ReferencesPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel(tr("The references of the draft appear here once a check is open."))
        self.summary.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setTabKeyNavigation(False)
        self.table.setHorizontalHeaderLabels([tr(c) for c in COLUMNS])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.setAccessibleName(tr("References of the draft"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)

    def set_references(self, cited: CitedReferences) -> None:
        from courtroom_desktop.core.services.check import NOT_IN_LIBRARY

        references = cited.references
        found = sum(m.found for m in cited.matches)
        self.summary.setText(tr("{count} references, {found} of them in your library.").format(
            count=len(references), found=found) if references else
            tr("No reference list found in the draft (a heading 'References', 'Bibliography' or '参考文献')."))
        self.table.setRowCount(len(references))
        for row, (ref, match) in enumerate(zip(references, cited.matches, strict=True)):
            where = ", ".join(str(i + 1) for i in cited.cited_by(ref.index)) or "\u2014"
            library = (f"{match.title} ({tr(HOW.get(match.how, match.how))}, {match.score:.2f})" if match.found
                       else say(NOT_IN_LIBRARY))
            notice = tr(NOTICE_WORDS[match.notice]) if match.notice in NOTICE_WORDS else ""
            for column, text in enumerate((str(ref.number or ref.index + 1), " ".join(ref.text.split()), where,
                                           library, notice)):
                item = QTableWidgetItem(text)
                if column == 3 and not match.found or column == 4 and notice:
                    item.setForeground(accent("error" if match.notice == "retraction" else "warning"))
                self.table.setItem(row, column, item)
        self.table.resizeColumnToContents(0)

"""A check's results: the table of its claims (sortable, filtered by verdict) with the queue's progress and its
Pause / Resume / Cancel buttons, and the pane of the claim chosen in it: the verdict and its reason, warnings, each
cited passage as a link that opens its page (in the check window's evidence inspector), its full trial, and the
reviewer's sign-off kept beside the court's verdict. Text from the drafts and the documents is data: escaped."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, QUrl, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from courtroom_desktop.ui.announce import announce
from courtroom_desktop.ui.controls import named, push_button, record_table
from courtroom_desktop.ui.i18n import say, tr
from courtroom_desktop.ui.qt_models import RecordRole
from courtroom_desktop.ui.qt_models.checks import (
    BY,
    CLAIM,
    CONFIDENCE,
    FILTERS,
    NUMBER,
    PASSAGES,
    SIGNOFF,
    STATUS,
    VERDICT,
    VERDICT_ACCENT,
    CheckRowsModel,
    VerdictFilter,
    passage_label,
    signoff_words,
    status_words,
    verdict_key,
    verdict_words,
)
from courtroom_desktop.ui.text import cite_href, evidence_of_href
from courtroom_desktop.ui.theme import accent, palette_watcher, tint

if TYPE_CHECKING:
    from courtroom_desktop.core.services.check import CheckRecord, ClaimRow, Progress

EXCERPT_CHARS = 360
LABELS = ("supported", "refuted", "mixed", "insufficient evidence")


class ElideMiddle(QStyledItemDelegate):
    """Cells elided in the middle: a passage's document title keeps its end (the page) in view."""

    def initStyleOption(self, option: QStyleOptionViewItem,  # noqa: N802 - Qt's name
                        index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideMiddle


def duration_words(seconds: float) -> str:
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60} min"


class CheckTablePanel(QWidget):
    """The claims table with its filter, the queue's progress and its buttons."""

    sig_pause = Signal()
    sig_resume = Signal()
    sig_cancel = Signal()
    sig_export = Signal()
    sig_new = Signal()
    sig_current = Signal(object)
    """The ClaimRow chosen in the table (None when none)."""

    def __init__(self, model: CheckRowsModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self._announced = -1  # the claims-done count last said to a screen reader
        self.proxy = VerdictFilter(self)
        self.proxy.setSourceModel(model)

        self.title = QLabel("")
        self.title.setObjectName("checkTitle")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.counts = QLabel("")
        self.counts.setObjectName("checkCounts")
        self.export_button = push_button(self.tr("Export\u2026"), self.tr("Write the check's report and the annotated "
                                         "draft"), self.sig_export.emit, "checkExport")
        self.new_button = push_button(self.tr("New check\u2026"), self.tr("Check another draft"), self.sig_new.emit,
                                      "checkNew")
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.counts)
        top.addSpacing(12)
        top.addWidget(self.new_button)
        top.addWidget(self.export_button)

        self.notice = QLabel("")
        self.notice.setObjectName("checkPausedNotice")
        self.notice.setWordWrap(True)
        self.notice.setTextFormat(Qt.TextFormat.PlainText)
        self.notice.setVisible(False)

        self.progress = QProgressBar()
        self.progress.setObjectName("checkProgress")
        self.progress.setTextVisible(True)
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setFormat("")
        self.pause_button = push_button(self.tr("Pause"), self.tr("Stop taking claims; those in flight run again on "
                                        "resume"), self.sig_pause.emit, "checkPause")
        self.resume_button = push_button(self.tr("Resume"), self.tr("Go on with the claims left"),
                                         self.sig_resume.emit, "checkResume")
        self.cancel_button = push_button(self.tr("Cancel"), self.tr("Stop the check (finished claims are kept)"),
                                         self.sig_cancel.emit, "checkCancel")
        bar = QHBoxLayout()
        bar.addWidget(self.progress, 1)
        for button in (self.pause_button, self.resume_button, self.cancel_button):
            bar.addWidget(button)

        self.filter = QComboBox()
        self.filter.setObjectName("checkVerdictFilter")
        for value, label in FILTERS:
            self.filter.addItem(tr(label), value)
        self.filter.currentIndexChanged.connect(lambda _i: self.proxy.set_verdict(self.filter.currentData()))
        filter_row = QHBoxLayout()
        filter_row.addWidget(QLabel(self.tr("Show:")))
        filter_row.addWidget(self.filter)
        filter_row.addStretch(1)
        hint = QLabel(self.tr("Click a claim to see its evidence and sign it off; click a column to sort."))
        hint.setEnabled(False)
        hint.setWordWrap(True)  # on two lines rather than widen the window past a laptop's screen at 2x text
        filter_row.addWidget(hint, 1)

        self.table = named(record_table(self.proxy, "checkTable", single=True), tr("Claims checked"),
                           tr("One claim of the draft a row, with its verdict and sign-off: select one to see its "
                              "evidence"))
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(NUMBER, Qt.SortOrder.AscendingOrder)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        rows = self.table.verticalHeader()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(self.table.fontMetrics().height() + 10)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(CLAIM, QHeaderView.ResizeMode.Stretch)
        for column, width in ((NUMBER, 40), (VERDICT, 150), (CONFIDENCE, 90), (BY, 90), (PASSAGES, 300),
                              (STATUS, 110), (SIGNOFF, 190)):
            self.table.setColumnWidth(column, width)
        self.elide_middle = ElideMiddle(self.table)
        self.table.setItemDelegateForColumn(PASSAGES, self.elide_middle)
        self.table.selectionModel().currentRowChanged.connect(self._on_current)
        model.dataChanged.connect(self._on_data_changed)
        model.modelReset.connect(self._update_counts)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.notice)
        layout.addLayout(bar)
        layout.addLayout(filter_row)
        layout.addWidget(self.table, 1)
        palette_watcher().sig_changed.connect(self._restyle)
        self._restyle()
        self.set_state("idle")

    def _restyle(self) -> None:
        palette = QGuiApplication.palette()
        self.notice.setStyleSheet(f"QLabel#checkPausedNotice {{ background: {tint('warning', palette, 40).name()}; "
                                  f"border: 1px solid {accent('warning', palette).name()}; border-radius: 4px; "
                                  "padding: 6px; }")

    # ---------------------------------------------------------------- state
    def set_record(self, record: CheckRecord) -> None:
        self.title.setText(record.spec.title or record.spec.draft)
        self.model.set_rows(record.rows)
        self.filter.setCurrentIndex(0)
        self.show_progress(sum(str(getattr(r.status, "value", r.status)) in ("done", "failed") for r in record.rows),
                           len(record.rows), None)
        self.notice.setVisible(False)
        if record.problem and str(getattr(record.status, "value", record.status)) == "paused":
            self.show_paused(record.problem)

    def set_state(self, state: str) -> None:
        running = state == "running"
        self.pause_button.setEnabled(running)
        self.cancel_button.setEnabled(running)
        self.resume_button.setEnabled(state in ("paused", "cancelled") and self.model.rowCount() > 0)
        self.new_button.setEnabled(not running)
        self.export_button.setEnabled(self.model.rowCount() > 0)
        if running:
            self.notice.setVisible(False)

    def show_paused(self, reason: str) -> None:
        self.notice.setText(self.tr("Paused: {reason}. Resume goes on with the claims left.").format(
            reason=say(reason).rstrip(".")))
        self.notice.setVisible(True)

    def show_progress(self, done: int, total: int, eta_s: float | None, trials_left: int = 0) -> None:
        self.progress.setRange(0, max(1, total))
        self.progress.setValue(done)
        text = self.tr("{done} of {total} done").format(done=done, total=total)
        if done < total and eta_s is not None:
            text += self.tr(", about {left} left").format(left=duration_words(eta_s))
        if trials_left:
            text += self.tr(" ({n} for a full trial)").format(n=trials_left)
        self.progress.setFormat(text)

    def on_progress(self, progress: Progress) -> None:
        self.model.set_running(progress.running)
        self.show_progress(progress.done, progress.total, progress.eta_s, progress.trials_left)
        if progress.done != self._announced and progress.total:  # each claim finished, said once
            self._announced = progress.done
            announce(self, tr("All {total} claims checked").format(total=progress.total)
                     if progress.done >= progress.total else
                     tr("{done} of {total} claims checked").format(done=progress.done, total=progress.total))

    def _update_counts(self, *args: object) -> None:
        counts: dict[str, int] = {}
        for row in self.model.rows():
            key = verdict_key(row)
            counts[key] = counts.get(key, 0) + 1
        parts = [f"{counts[value]} {tr(label).lower()}" for value, label in FILTERS if value and counts.get(value)]
        self.counts.setText(" \u00b7 ".join(parts))

    def _on_data_changed(self, top: QModelIndex, bottom: QModelIndex, roles: Sequence[int] = ()) -> None:
        self._update_counts()
        current = self.current_row()
        if current is not None and top.row() <= current.index <= bottom.row():
            self.sig_current.emit(current)

    # ---------------------------------------------------------------- selection
    def current_row(self) -> ClaimRow | None:
        index = self.table.currentIndex()
        row: ClaimRow | None = self.proxy.data(index, RecordRole) if index.isValid() else None
        return row

    def select_claim(self, claim_index: int) -> bool:
        """Choose the row of claim ``claim_index`` (from 0) in the table, as a click on it does."""
        source = self.model.index(claim_index, 0)
        index = self.proxy.mapFromSource(source)
        if not index.isValid():
            return False
        self.table.setCurrentIndex(index)
        self.table.scrollTo(index)
        return True

    def _on_current(self, current: QModelIndex, previous: QModelIndex) -> None:
        self.sig_current.emit(self.proxy.data(current, RecordRole) if current.isValid() else None)

class ClaimPane(QWidget):
    """The chosen claim: its verdict, reason, warnings and cited passages (links to their pages), its full trial, and
    the sign-off form."""

    sig_passage = Signal(str)
    """An evidence id (E3) of the claim's quick check: show it on its page."""
    sig_open_trial = Signal(str)
    sig_send_to_trial = Signal(int)
    """The claim (from 1)."""
    sig_sign_off = Signal(int, str, object, str, str)
    """(claim from 1, 'accepted' | 'overridden' | 'withdrawn', the reviewer's label or None, note, reviewer)."""

    def __init__(self, reviewer: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self.row: ClaimRow | None = None
        self.detail = QTextBrowser()
        self.detail.setObjectName("claimDetail")
        named(self.detail, tr("The claim's verdict and evidence"))
        self.detail.setOpenLinks(False)
        self.detail.anchorClicked.connect(self._on_link)
        self.open_trial_button = push_button(self.tr("Open its trial"), self.tr("Show the claim's full trial in the "
                                             "main window"), self._open_trial, "openClaimTrial")
        self.send_button = push_button(self.tr("Send to full trial"), self.tr("Put this claim through a full trial "
                                       "(prosecution, defence, judge); the check goes on with it"), self._send,
                                       "sendToTrial")
        actions = QHBoxLayout()
        actions.addWidget(self.open_trial_button)
        actions.addWidget(self.send_button)
        actions.addStretch(1)

        self.signoff_box = QGroupBox(self.tr("Sign-off"))
        self.signoff_state = QLabel("")
        self.signoff_state.setObjectName("signoffState")
        self.signoff_state.setWordWrap(True)
        self.signoff_state.setTextFormat(Qt.TextFormat.PlainText)
        self.reviewer = QLineEdit(reviewer)
        self.reviewer.setObjectName("reviewerName")
        self.reviewer.setPlaceholderText(self.tr("Your name"))
        self.note = QLineEdit()
        self.note.setObjectName("signoffNote")
        self.note.setPlaceholderText(self.tr("Why (optional; shown in the report)"))
        self.override_label = QComboBox()
        self.override_label.setObjectName("overrideVerdict")
        for label in LABELS:
            self.override_label.addItem(verdict_words(label), label)
        self.accept_button = push_button(self.tr("Accept"), self.tr("The court's verdict stands"), self._accept,
                                         "acceptVerdict")
        self.override_button = push_button(self.tr("Override"), self.tr("Your verdict, kept beside the court's"),
                                           self._override, "overrideVerdictButton")
        self.withdraw_button = push_button(self.tr("Withdraw"), self.tr("Remove the sign-off"), self._withdraw,
                                           "withdrawSignoff")
        form = QFormLayout(self.signoff_box)
        form.addRow(self.signoff_state)
        form.addRow(self.tr("Reviewer:"), self.reviewer)
        form.addRow(self.tr("Note:"), self.note)
        override_row = QHBoxLayout()
        override_row.addWidget(self.accept_button)
        override_row.addSpacing(12)
        override_row.addWidget(self.override_label, 1)
        override_row.addWidget(self.override_button)
        override_row.addSpacing(12)
        override_row.addWidget(self.withdraw_button)
        form.addRow(override_row)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.detail, 1)
        layout.addLayout(actions)
        layout.addWidget(self.signoff_box)
        self.show_row(None)

    # ---------------------------------------------------------------- showing a claim
    def show_row(self, row: ClaimRow | None) -> None:
        if row is None or self.row is None or row.index != self.row.index:
            self.note.clear()  # a note is for the claim it was typed for
        self.row = row
        has = row is not None
        self.detail.setHtml(self.row_html(row) if row is not None else
                            "<p>" + html.escape(self.tr("Choose a claim in the table to see its evidence.")) + "</p>")
        self.open_trial_button.setEnabled(row is not None and row.trial is not None)
        self.send_button.setEnabled(row is not None and row.trial is None and not row.sent_to_trial)
        self.signoff_box.setEnabled(has)
        self.accept_button.setEnabled(row is not None and row.label is not None)
        self.withdraw_button.setEnabled(row is not None and row.signoff is not None)
        if row is not None and row.signoff is not None:
            words = signoff_words(row.signoff)
            self.signoff_state.setText(self.tr("Signed off: {words}, {when}").format(words=words,
                                                                                     when=row.signoff.when())
                                       + (f" \u2014 {row.signoff.note}" if row.signoff.note else ""))
        else:
            self.signoff_state.setText(self.tr("Not signed off yet.") if has else "")

    def row_html(self, row: ClaimRow) -> str:
        e = html.escape
        label = str(getattr(row.label, "value", row.label) or "")
        color = accent(VERDICT_ACCENT.get(label, "unclear"), self.palette()).name()
        where = "; ".join(say(loc.describe()) for loc in row.claim.locations)
        parts = [f"<p><b>{e(self.tr('Claim {n}').format(n=row.index + 1))}:</b> {e(row.claim.text)}</p>"]
        facts = []
        if where:
            facts.append(e(self.tr("in the draft at {where}").format(where=where)))
        if row.claim.why:
            facts.append(e(self.tr("checked because: {why}").format(why=", ".join(row.claim.why))))
        if facts:
            parts.append(f"<p><small>{' &middot; '.join(facts)}</small></p>")
        if row.label is not None:
            verdict = f'<span style="color:{color}"><b>{e(verdict_words(row.label))}</b></span>'
            confidence = f", {row.confidence:.0%}" if row.confidence is not None else ""
            parts.append(f"<p>{e(self.tr('Verdict:'))} {verdict}{e(confidence)} "
                         f"({e(self.tr('by the {step}').format(step=self.tr(row.by)))})</p>")
        else:
            parts.append(f"<p>{e(self.tr('Verdict:'))} {e(status_words(row))}</p>")
        if row.signoff is not None:
            parts.append(f"<p>{e(self.tr('Reviewer:'))} <b>{e(signoff_words(row.signoff))}</b>"
                         + (f" &mdash; {e(row.signoff.note)}" if row.signoff.note else "") + "</p>")
        if row.quick is not None and row.quick.reason:
            parts.append(f"<p><i>{e(self.tr('Why:'))}</i> {e(row.quick.reason)}</p>")
        if row.trial is not None:
            trial = self.tr("Full trial {id}: {status}").format(id=row.trial.trial_id[:8], status=row.trial.status)
            if row.trial.summary:
                trial += f". {row.trial.summary}"
            parts.append(f"<p>{e(trial)}</p>")
        elif row.sent_to_trial:
            parts.append(f"<p>{e(self.tr('Sent to a full trial: it runs after the quick checks.'))}</p>")
        warnings = list(row.quick.warnings) if row.quick is not None else []
        if row.problem:
            warnings.insert(0, row.problem)
        if warnings:
            warn = accent("warning", self.palette()).name()
            parts.append(f'<p style="color:{warn}"><b>{e(self.tr("Warnings:"))}</b></p><ul>'
                         + "".join(f"<li>{e(w)}</li>" for w in warnings) + "</ul>")
        cited = row.quick.cited() if row.quick is not None else []
        if cited:
            parts.append(f"<p><b>{e(self.tr('Passages the verdict rests on'))}</b></p>")
            for cid, evidence in cited:
                text = " ".join(evidence.chunk.text.split())
                excerpt = text if len(text) <= EXCERPT_CHARS else text[:EXCERPT_CHARS - 1] + "\u2026"
                parts.append(f'<p><a href="{cite_href(cid)}">[{e(cid)}] {e(passage_label(evidence))}</a><br>'
                             f"<small>{e(excerpt)}</small></p>")
        elif row.quick is not None:
            parts.append(f"<p>{e(self.tr('The verdict cites no passage.'))}</p>")
        if row.quick is not None and row.quick.passages:
            retrieved = self.tr("{n} passages were retrieved: all are listed in the inspector.")
            parts.append(f"<p><small>{e(retrieved.format(n=len(row.quick.passages)))}</small></p>")
        return "".join(parts)

    def _on_link(self, url: QUrl) -> None:
        evidence_id = evidence_of_href(url.toString())
        if evidence_id is not None:
            self.sig_passage.emit(evidence_id)

    # ---------------------------------------------------------------- actions
    def _open_trial(self) -> None:
        if self.row is not None and self.row.trial is not None:
            self.sig_open_trial.emit(self.row.trial.trial_id)

    def _send(self) -> None:
        if self.row is not None:
            self.send_button.setEnabled(False)
            self.sig_send_to_trial.emit(self.row.index + 1)

    def _accept(self) -> None:
        if self.row is not None:
            self.sig_sign_off.emit(self.row.index + 1, "accepted", None, self.note.text(), self.reviewer.text().strip())

    def _override(self) -> None:
        if self.row is not None:
            self.sig_sign_off.emit(self.row.index + 1, "overridden", self.override_label.currentData(),
                                   self.note.text(), self.reviewer.text().strip())

    def _withdraw(self) -> None:
        if self.row is not None:
            self.sig_sign_off.emit(self.row.index + 1, "withdrawn", None, "", self.reviewer.text().strip())


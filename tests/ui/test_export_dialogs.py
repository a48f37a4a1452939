"""The trial's and the check's export dialogs are one dialog (ui.dialogs.export.FolderExportDialog) with their own
rows: both start the export with what was chosen, list what was written with the controller's notes, and show an
error's message as plain text (a message may hold a document's words)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal


class TrialExporter(QObject):
    sig_busy = Signal(bool)
    sig_exported = Signal(list)
    sig_error = Signal(str, str, str)

    def __init__(self):
        super().__init__()
        self.asked: list[tuple] = []

    def export(self, *args):
        self.asked.append(args)


class CheckExporter(TrialExporter):
    sig_exported = Signal(list, list)


def test_both_export_dialogs_share_the_flow_and_show_errors_as_plain_text(qtbot, tmp_path):
    """Break: set the message back to rich text, and the markup in a message is rendered, not shown."""
    from courtroom_desktop.ui.check_window import CheckExportDialog
    from courtroom_desktop.ui.dialogs.export import ExportDialog

    trial, check = TrialExporter(), CheckExporter()
    dialogs = [ExportDialog(trial, "trial-1", "Vitamin D <b>raises</b> birth weight."),
               CheckExportDialog(check, "abcdef123456", "Review notes")]
    for dialog in dialogs:
        qtbot.addWidget(dialog)
        dialog.folder.setText(str(tmp_path / "out"))
    dialogs[0].formats["pdf"].setChecked(False)
    for dialog in dialogs:
        dialog.export_button.click()
    assert trial.asked == [("trial-1", ["md", "html", "json"], tmp_path / "out", "general")]
    assert check.asked == [(["md", "html", "json", "csv"], tmp_path / "out", True)]  # PDF off by default there

    trial.sig_exported.emit([str(tmp_path / "out" / "report.md"), str(tmp_path / "out" / "sources" / "E1-p1.pdf")])
    assert dialogs[0].written == [tmp_path / "out" / "report.md", tmp_path / "out" / "sources" / "E1-p1.pdf"]
    assert "1 report files and 1 highlighted source page files" in dialogs[0].message.text()
    check.sig_exported.emit([str(tmp_path / "out" / "check.md")], ["the annotated copy could not be made"])
    assert dialogs[1].message.text().splitlines() == ["Wrote 1 files. Double-click one to open it.",
                                                      "the annotated copy could not be made"]
    for exporter, dialog in zip((trial, check), dialogs):
        exporter.sig_error.emit("Export", "cannot write <i>report.md</i>", "free some space")
        assert dialog.message.textFormat() == Qt.TextFormat.PlainText
        assert dialog.message.text() == "Export failed: cannot write <i>report.md</i>\nfree some space"
        assert Path(dialog.folder.text()) == tmp_path / "out"

"""The case details: for a decision, its options (2 to 5), criteria with weights, hard constraints; for any trial, the
background every role sees (as data). OK is enabled only for a decision the court can weigh; the problem is named."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from courtroom_desktop.core.services.trials import (
    BACKGROUND_CHARS,
    MAX_CONSTRAINTS,
    MAX_CRITERIA,
    MAX_OPTIONS,
    Criterion,
    DecisionSpec,
    problem_of,
)
from courtroom_desktop.ui.controls import named
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, say, tr
from courtroom_desktop.ui.window_layout import fit_to_screen

BACKGROUND_TIP = QT_TRANSLATE_NOOP("", "Your situation in a few lines: every role reads it, as data (it is not "
                                       "evidence and is never cited). Evidence comes from your notes and documents.")


class DecisionDialog(QDialog):
    """``decision``: a DecisionSpec to edit (None: a new one, or none for a claim); ``with_options``: show the options,
    criteria and constraints (a decision case) or only the background (a claim)."""

    def __init__(self, decision: DecisionSpec | None = None, background: str = "", with_options: bool = True,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("decisionDialog")
        self.setWindowTitle(tr("Options and criteria") if with_options else tr("Background"))
        self.with_options = with_options
        outer = QVBoxLayout(self)
        # the form scrolls inside the dialog: at twice the font size it is taller and wider than a laptop's screen
        self.form_scroll = QScrollArea()
        self.form_scroll.setWidgetResizable(True)
        self.form_scroll.setFrameShape(QFrame.Shape.NoFrame)
        named(self.form_scroll, tr("Options and criteria") if with_options else tr("Background"))
        form = QWidget()
        self.form_scroll.setWidget(form)
        layout = QVBoxLayout(form)
        layout.setContentsMargins(0, 0, 0, 0)
        self.option_edits: list[QLineEdit] = []
        options = list(decision.options) if decision else []
        grid = QGridLayout()
        for n in range(MAX_OPTIONS):
            edit = QLineEdit(options[n] if n < len(options) else "")
            edit.setObjectName(f"option{n + 1}")
            named(edit, tr("Option {number}").format(number=n + 1))
            edit.setPlaceholderText(tr("e.g. Move to Lisbon") if n == 0 else (tr("e.g. Stay where I am") if n == 1 else
                                                                              tr("(optional)")))
            edit.textChanged.connect(self._check)
            self.option_edits.append(edit)
            grid.addWidget(QLabel(tr("Option {number}").format(number=n + 1)), n, 0)
            grid.addWidget(edit, n, 1)
        self.criteria = QTableWidget(0, 2)
        self.criteria.setObjectName("criteriaTable")
        named(self.criteria, tr("Criteria"), tr("A criterion a row, with its weight"))
        self.criteria.setHorizontalHeaderLabels([tr("Criterion"), tr("Weight")])
        self.criteria.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.criteria.verticalHeader().setVisible(False)
        self.criteria.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.criteria.itemChanged.connect(self._check)
        for criterion in (decision.criteria if decision else ()):
            self.add_criterion(criterion.name, criterion.weight)
        add, remove = QPushButton(tr("Add criterion")), QPushButton(tr("Remove"))
        add.setObjectName("addCriterion")
        add.clicked.connect(lambda: self.add_criterion("", 1.0))
        remove.clicked.connect(self._remove_criterion)
        buttons_row = QHBoxLayout()
        buttons_row.addWidget(add)
        buttons_row.addWidget(remove)
        buttons_row.addStretch(1)
        self.constraints = QPlainTextEdit("\n".join(decision.constraints) if decision else "")
        self.constraints.setTabChangesFocus(True)
        self.constraints.setObjectName("constraintsEdit")
        named(self.constraints, tr("Hard constraints"), tr("One a line"))
        self.constraints.setPlaceholderText(tr("One per line, e.g. rent under 1,500 euros a month"))
        self.constraints.setMaximumHeight(80)
        self.constraints.textChanged.connect(self._check)
        self.background = QPlainTextEdit(background)
        self.background.setTabChangesFocus(True)
        self.background.setObjectName("backgroundEdit")
        named(self.background, tr("Background"))
        self.background.setPlaceholderText(tr("e.g. I am 31, my contract ends in June, my parents live an hour away."))
        self.background.setToolTip(tr(BACKGROUND_TIP))
        self.background.textChanged.connect(self._count_background)
        self.background_count = QLabel("")  # the limit, live: the court reads the first BACKGROUND_CHARS characters
        self.background_count.setObjectName("backgroundCount")
        self.background_count.setWordWrap(True)
        self.problem = QLabel("")
        self.problem.setObjectName("decisionProblem")
        self.problem.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.option_section = [
            QLabel(tr("<b>Options</b> (2 to {most}): each is heard in turn, counsel for and against it").format(
                most=MAX_OPTIONS)),
            QLabel(tr("<b>Criteria</b> (1 to {most}) and how much each matters: the judge scores every option on each, "
                      "0 to 10, with citations").format(most=MAX_CRITERIA)),
            QLabel(tr("<b>Hard constraints</b> (up to {most}): an option shown to break one is out").format(
                most=MAX_CONSTRAINTS))]
        if with_options:
            layout.addWidget(self.option_section[0])
            layout.addLayout(grid)
            layout.addWidget(self.option_section[1])
            layout.addWidget(self.criteria)
            layout.addLayout(buttons_row)
            layout.addWidget(self.option_section[2])
            layout.addWidget(self.constraints)
        layout.addWidget(QLabel(tr("<b>Background</b> (optional): what every role should know about your situation")))
        layout.addWidget(self.background, 1)
        layout.addWidget(self.background_count)
        outer.addWidget(self.form_scroll, 1)
        outer.addWidget(self.problem)
        outer.addWidget(self.buttons)
        if with_options and not decision:
            self.add_criterion("", 1.0)
        fit_to_screen(self, 560, 640 if with_options else 320)
        self._check()
        self._count_background()

    # ---------------------------------------------------------------- criteria rows
    def add_criterion(self, name: str, weight: float) -> None:
        if self.criteria.rowCount() >= MAX_CRITERIA:
            return
        row = self.criteria.rowCount()
        self.criteria.insertRow(row)
        self.criteria.setItem(row, 0, QTableWidgetItem(name))
        spin = QDoubleSpinBox()
        spin.setRange(0.1, 100.0)
        spin.setDecimals(1)
        spin.setValue(weight)
        spin.setAlignment(Qt.AlignmentFlag.AlignRight)
        spin.valueChanged.connect(self._check)
        self.criteria.setCellWidget(row, 1, spin)
        self._check()

    def _remove_criterion(self) -> None:
        row = self.criteria.currentRow()
        if row >= 0:
            self.criteria.removeRow(row)
            self._check()

    # ---------------------------------------------------------------- values
    def decision(self) -> DecisionSpec:
        """The decision as entered; ValueError naming the problem when it cannot be weighed."""
        options = tuple(e.text().strip() for e in self.option_edits if e.text().strip())
        criteria = []
        for row in range(self.criteria.rowCount()):
            item = self.criteria.item(row, 0)
            name = item.text().strip() if item else ""
            if name:
                spin = self.criteria.cellWidget(row, 1)  # a QDoubleSpinBox; None while a row is being added
                criteria.append(Criterion(name=name, weight=spin.value() if isinstance(spin, QDoubleSpinBox) else 1.0))
        constraints = tuple(line.strip() for line in self.constraints.toPlainText().splitlines() if line.strip())
        return DecisionSpec(options=options, criteria=tuple(criteria), constraints=constraints)

    def decision_or_none(self) -> DecisionSpec | None:
        """The decision, or None when no option and no criterion is entered (a decision put as one question)."""
        if not self.with_options or not self._entered():
            return None
        return self.decision()

    def _entered(self) -> bool:
        names = [self.criteria.item(r, 0) for r in range(self.criteria.rowCount())]
        return (any(e.text().strip() for e in self.option_edits) or any(i and i.text().strip() for i in names)
                or bool(self.constraints.toPlainText().strip()))

    def background_text(self) -> str:
        return self.background.toPlainText().strip()

    def _count_background(self) -> None:
        """'120 / 2,000 characters', or, over the limit, how much the court will read of it."""
        count = len(self.background_text())
        if count > BACKGROUND_CHARS:
            self.background_count.setText(tr("<b>{count} / {most} characters: too long.</b> The court reads only the "
                                             "first {most}; shorten it to keep what matters.").format(
                count=f"{count:,}", most=f"{BACKGROUND_CHARS:,}"))
        else:
            self.background_count.setText(tr("{count} / {most} characters").format(count=f"{count:,}",
                                                                                    most=f"{BACKGROUND_CHARS:,}"))

    def _check(self, *args: object) -> None:
        if not hasattr(self, "ok_button"):
            return
        problem = ""
        if self.with_options and self._entered():
            try:
                self.decision()
            except ValueError as exc:
                problem = say(problem_of(exc))
        self.problem.setText(problem)
        self.ok_button.setEnabled(not problem)

"""Form fields made from the settings' own pydantic fields: the widget follows the annotation, its range the field's
bounds (ge, gt, le, lt), its tooltip the description, and its label, unit, step, decimals, choices and suggestions the
hints ``shown(...)`` leaves in ``json_schema_extra`` (core/config.py). A setting shown in a dialog is then one entry
of its field table, loaded and saved by the same loop as every other.

    int        QSpinBox          float      QDoubleSpinBox      Literal    QComboBox of the choices
    bool       QCheckBox         list[str]  QLineEdit, ';'      str        QLineEdit, or an editable QComboBox of
                                                                           the suggestions when there are some

A text left empty stands for the field's default."""

from __future__ import annotations

import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import annotated_types
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QLineEdit, QSpinBox, QWidget

from courtroom_desktop.ui.controls import named
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr

INT_LIMIT = 2**31 - 1   # what a QSpinBox holds
FLOAT_LIMIT = 1e12
FLOAT_DECIMALS = 2

#: the hints ``shown(...)`` leaves in a field's ``json_schema_extra``: JSON values (label, unit, step, choices, ...)
Hints = dict[str, Any]
#: a field's widget, what loads a value into it, and what reads its value
_Parts = tuple[QWidget, Callable[[Any], None], Callable[[], Any]]


#: The labels and units core/config.py gives its fields (``shown``), for lupdate: shown through tr
FIELD_WORDS = (
    QT_TRANSLATE_NOOP("", "Argument format"), QT_TRANSLATE_NOOP("", "BM25 weight"),
    QT_TRANSLATE_NOOP("", "CPU threads"), QT_TRANSLATE_NOOP("", "Calls at once"),
    QT_TRANSLATE_NOOP("", "Candidates per method"), QT_TRANSLATE_NOOP("", "Claim finder"),
    QT_TRANSLATE_NOOP("", "Confidence stall below"), QT_TRANSLATE_NOOP("", "Confidence stall over"),
    QT_TRANSLATE_NOOP("", "Context"), QT_TRANSLATE_NOOP("", "Embedder"), QT_TRANSLATE_NOOP("", "Embedding batch"),
    QT_TRANSLATE_NOOP("", "Evidence hierarchy"), QT_TRANSLATE_NOOP("", "Flag judge vs evidence gap over"),
    QT_TRANSLATE_NOOP("", "Full trials"), QT_TRANSLATE_NOOP("", "Fusion"), QT_TRANSLATE_NOOP("", "GPU layers"),
    QT_TRANSLATE_NOOP("", "Library location"), QT_TRANSLATE_NOOP("", "Longest answer"),
    QT_TRANSLATE_NOOP("", "Minimum rounds"), QT_TRANSLATE_NOOP("", "Model queries per turn"),
    QT_TRANSLATE_NOOP("", "Near-duplicate similarity"), QT_TRANSLATE_NOOP("", "New cited passages over"),
    QT_TRANSLATE_NOOP("", "Novelty of new evidence"), QT_TRANSLATE_NOOP("", "OCR of scanned pages"),
    QT_TRANSLATE_NOOP("", "OCR resolution"), QT_TRANSLATE_NOOP("", "OCR time per page"),
    QT_TRANSLATE_NOOP("", "Object-storage endpoint"), QT_TRANSLATE_NOOP("", "Open the shared library read-only"),
    QT_TRANSLATE_NOOP("", "Overlap"), QT_TRANSLATE_NOOP("", "Passage size"),
    QT_TRANSLATE_NOOP("", "Passages per claim"), QT_TRANSLATE_NOOP("", "Passages per search"),
    QT_TRANSLATE_NOOP("", "Passages per turn"), QT_TRANSLATE_NOOP("", "Read timeout"),
    QT_TRANSLATE_NOOP("", "Reranker"), QT_TRANSLATE_NOOP("", "Role switches at most"),
    QT_TRANSLATE_NOOP("", "Round limit"), QT_TRANSLATE_NOOP("", "Switch after a steady tendency of"),
    QT_TRANSLATE_NOOP("", "Switch after the same controversy for"),
    QT_TRANSLATE_NOOP("", "Switch below new cited passages"), QT_TRANSLATE_NOOP("", "Temperature"),
    QT_TRANSLATE_NOOP("", "Trial below confidence"), QT_TRANSLATE_NOOP("", "Vector weight"),
    QT_TRANSLATE_NOOP("", "Verdict at confidence"), QT_TRANSLATE_NOOP("", "calls"), QT_TRANSLATE_NOOP("", "dpi"),
    QT_TRANSLATE_NOOP("", "layers"), QT_TRANSLATE_NOOP("", "passages"), QT_TRANSLATE_NOOP("", "rounds"),
    QT_TRANSLATE_NOOP("", "s"), QT_TRANSLATE_NOOP("", "threads"), QT_TRANSLATE_NOOP("", "tokens"),
    QT_TRANSLATE_NOOP("", "Hide claims worth less than"), QT_TRANSLATE_NOOP("", "Keep a local replica of a shared library"),
    QT_TRANSLATE_NOOP("", "Local replica size limit"), QT_TRANSLATE_NOOP("", "GB"),
    QT_TRANSLATE_NOOP("", "Ingest engine"), QT_TRANSLATE_NOOP("", "Ray cluster address"),
    QT_TRANSLATE_NOOP("", "Ray workers"),
)


@dataclass
class FieldEditor:
    """One model field in a form: its widget, its label, and its value in (``load``) and out (``value``)."""

    name: str
    label: str
    widget: QWidget
    load: Callable[[Any], None]
    value: Callable[[], Any]


def field_editor(model: type[BaseModel], name: str, object_name: str = "") -> FieldEditor:
    """The editor of ``model``'s field ``name`` (a TypeError for a type no widget is made for)."""
    info = model.model_fields[name]
    hints: Hints = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    annotation = info.annotation
    default = info.get_default(call_default_factory=True)
    if typing.get_origin(annotation) is Literal:
        widget, load, value = _choice(typing.get_args(annotation), hints.get("choices") or {})
    elif annotation is bool:
        widget, load, value = _check()
    elif annotation is int:
        widget, load, value = _int_spin(info, hints)
    elif annotation is float:
        widget, load, value = _float_spin(info, hints)
    elif typing.get_origin(annotation) is list and typing.get_args(annotation) == (str,):
        widget, load, value = _list_line(default)
    elif annotation is str:
        widget, load, value = _text(hints.get("suggestions") or [], default)
    else:
        raise TypeError(f"{model.__name__}.{name}: no settings widget for {annotation!r}")
    widget.setToolTip(tr(info.description or ""))  # the descriptions are in ui/config_words.py for lupdate
    if object_name:
        widget.setObjectName(object_name)
    label = tr(str(hints.get("label") or name.replace("_", " ").capitalize()))
    named(widget, label)  # an editable combo box's text field too (the form's label names only the box)
    return FieldEditor(name, label, widget, load, value)


def bounds(info: FieldInfo, smallest_step: float, limit: float) -> tuple[float, float]:
    """The field's range from its ge/gt/le/lt constraints; a strict bound moves in by ``smallest_step``."""
    low, high = -limit, limit
    for constraint in info.metadata:
        if isinstance(constraint, annotated_types.Ge):
            low = max(low, _number(constraint.ge))
        elif isinstance(constraint, annotated_types.Gt):
            low = max(low, _number(constraint.gt) + smallest_step)
        elif isinstance(constraint, annotated_types.Le):
            high = min(high, _number(constraint.le))
        elif isinstance(constraint, annotated_types.Lt):
            high = min(high, _number(constraint.lt) - smallest_step)
    return low, high


def _number(bound: object) -> float:
    """A ge/gt/le/lt bound of a settings field: a number (annotated_types types it only as comparable)."""
    assert isinstance(bound, int | float)
    return bound


def _suffix(hints: Hints) -> str:
    return f" {tr(str(hints['unit']))}" if hints.get("unit") else ""


def _int_spin(info: FieldInfo, hints: Hints) -> _Parts:
    box = QSpinBox()
    low, high = bounds(info, 1, INT_LIMIT)
    box.setRange(int(low), int(high))
    box.setSingleStep(int(hints.get("step") or 1))
    box.setSuffix(_suffix(hints))
    return box, lambda value: box.setValue(int(value)), box.value


def _float_spin(info: FieldInfo, hints: Hints) -> _Parts:
    box = QDoubleSpinBox()
    decimals = int(hints.get("decimals", FLOAT_DECIMALS))
    box.setDecimals(decimals)  # before the range, which is rounded to the decimals
    low, high = bounds(info, 10.0 ** -decimals, FLOAT_LIMIT)
    box.setRange(low, high)
    box.setSingleStep(float(hints.get("step") or 10.0 ** -decimals))
    box.setSuffix(_suffix(hints))
    return box, lambda value: box.setValue(float(value)), lambda: float(round(box.value(), decimals))


def _choice(values: tuple[Any, ...], labels: dict[Any, Any]) -> _Parts:
    box = QComboBox()
    for value in values:
        box.addItem(str(labels.get(value, value)), value)

    def load(value: Any) -> None:
        box.setCurrentIndex(max(0, box.findData(value)))

    return box, load, box.currentData


def _check() -> _Parts:
    box = QCheckBox()
    return box, lambda value: box.setChecked(bool(value)), box.isChecked


def _list_line(default: list[str]) -> _Parts:
    line = QLineEdit()

    def value() -> list[str]:
        return [item.strip() for item in line.text().split(";") if item.strip()] or list(default)

    return line, lambda items: line.setText("; ".join(items)), value


def _text(suggestions: list[Any], default: str) -> _Parts:
    if not suggestions:
        line = QLineEdit()
        return line, lambda text: line.setText(str(text)), lambda: line.text().strip() or default
    box = QComboBox()
    box.setEditable(True)
    box.addItems([str(s) for s in suggestions])
    return box, lambda text: box.setCurrentText(str(text)), lambda: box.currentText().strip() or default

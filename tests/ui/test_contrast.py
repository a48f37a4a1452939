"""Colour contrast, measured (WCAG 2.2 AA: at least 4.5:1 for text) in the light and dark palettes the app sets and in
a black and a white high-contrast palette such as Windows gives: every accent drawn as text (stances, verdicts,
sides, citations, warnings) on the backgrounds it is drawn on, the verdict cells' tinted background, the selection,
and the passage's highlight in a text document. Meaning is never colour alone: a verdict cell also says its label."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QPalette

from courtroom_desktop.ui import theme

#: accents drawn as text: the stances and verdicts, the sides and the judge, citation chips, warnings and errors
TEXT_ACCENTS = ("support", "refute", "unclear", "switch", "for", "against", "judge", "cite", "warning", "error", "ok")


def high_contrast(dark: bool) -> QPalette:
    """A high-contrast palette as Windows' "High Contrast Black" / "High Contrast White" give it."""
    fg, bg = ("#ffffff", "#000000") if dark else ("#000000", "#ffffff")
    palette = QPalette()
    for role, color in ((QPalette.ColorRole.Window, bg), (QPalette.ColorRole.Base, bg),
                        (QPalette.ColorRole.AlternateBase, bg), (QPalette.ColorRole.Text, fg),
                        (QPalette.ColorRole.WindowText, fg), (QPalette.ColorRole.Highlight, "#1aebff" if dark else
                                                             "#37006e"),
                        (QPalette.ColorRole.HighlightedText, "#000000" if dark else "#ffffff")):
        palette.setColor(role, QColor(color))
    return palette


@pytest.fixture(params=["light", "dark", "high-contrast-black", "high-contrast-white"])
def palette(request, qapp):
    if request.param.startswith("high-contrast"):
        return high_contrast(request.param.endswith("black"))
    return theme._fusion_palette(request.param == "dark")


BACKGROUNDS = (QPalette.ColorRole.Base, QPalette.ColorRole.Window, QPalette.ColorRole.AlternateBase)


def test_every_accent_drawn_as_text_reads_on_its_backgrounds(palette):
    low = [(name, role.name, round(theme.contrast_ratio(theme.accent(name, palette), palette.color(role)), 2))
           for name in TEXT_ACCENTS for role in BACKGROUNDS
           if theme.contrast_ratio(theme.accent(name, palette), palette.color(role)) < theme.MIN_CONTRAST]
    assert not low, low


def test_a_verdict_cell_reads_on_its_tint(palette):
    """The check table's verdict cell: the verdict's accent on a wash of itself (tint, alpha 40). Break: the light
    'support' green back at #1e7b45, and it read 4.25 on its tint."""
    from courtroom_desktop.ui.qt_models.checks import VERDICT_ACCENT

    low = []
    for accent in VERDICT_ACCENT.values():
        ratio = theme.contrast_ratio(theme.accent(accent, palette), theme.tint(accent, palette, alpha=40))
        if ratio < theme.MIN_CONTRAST:
            low.append((accent, round(ratio, 2)))
    assert not low, low


def test_the_selection_and_the_passage_highlight_read(palette):
    """The inspector writes the passage black on the yellow (asserted in tests/ui/test_notes.py): the dark
    palette's own light text there reads 4.5 at best, and a black high-contrast palette's white 1.5."""
    assert theme.contrast_ratio(palette.color(QPalette.ColorRole.Highlight),
                                palette.color(QPalette.ColorRole.HighlightedText)) >= theme.MIN_CONTRAST
    highlight = theme.passage_highlight()
    seen = theme.over(highlight, palette.color(QPalette.ColorRole.Base), highlight.alpha())
    assert theme.contrast_ratio(QColor(theme.PASSAGE_TEXT), seen) >= theme.MIN_CONTRAST

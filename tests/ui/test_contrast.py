"""Colour contrast, measured (WCAG 2.2 AA: at least 4.5:1 for text) in the light and dark palettes the app sets and in
its black and white high-contrast palettes (View > Appearance > High contrast, or set when the system asks for high
contrast and its own palette does not give it): every accent drawn as text (stances, verdicts,
sides, citations, warnings) on the backgrounds it is drawn on, the verdict cells' tinted background, the selection,
and the passage's highlight in a text document. Meaning is never colour alone: a verdict cell also says its label."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QPalette

from courtroom_desktop.ui import theme

#: accents drawn as text: the stances and verdicts, the sides and the judge, citation chips, warnings and errors
TEXT_ACCENTS = ("support", "refute", "unclear", "switch", "for", "against", "judge", "cite", "warning", "error", "ok")


@pytest.fixture(params=["light", "dark", "high-contrast-black", "high-contrast-white"])
def palette(request, qapp):
    if request.param.startswith("high-contrast"):  # View > Appearance > High contrast, or the system asking for it
        return theme.high_contrast_palette(request.param.endswith("black"))
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


def test_high_contrast_is_set_when_chosen_and_when_the_system_asks(qapp, monkeypatch):
    """View > Appearance > High contrast sets the high-contrast palette; 'Follow the system' sets it when the system
    asks for high contrast and its own palette is not (here: a plain grey-on-white palette), and leaves the system's
    palette otherwise. Break: the 'system' appearance ignoring the contrast preference."""
    from PySide6.QtGui import QPalette as Palette

    high = {theme.high_contrast_palette(dark).color(Palette.ColorRole.Highlight).name() for dark in (False, True)}

    class PlainPlatform(Palette):  # what a desktop without high contrast hands Qt: QPalette() with no argument
        def __init__(self, *args: object) -> None:
            super().__init__(*args)
            if not args:
                self.setColor(Palette.ColorRole.Text, QColor("#333333"))
                self.setColor(Palette.ColorRole.Base, QColor("#ffffff"))

    monkeypatch.setattr(theme, "QPalette", PlainPlatform)
    try:
        theme.apply_appearance(qapp, "high-contrast")
        assert qapp.palette().color(Palette.ColorRole.Highlight).name() in high
        monkeypatch.setattr(theme, "wants_high_contrast", lambda app: True)
        theme.apply_appearance(qapp, "system")
        assert qapp.palette().color(Palette.ColorRole.Highlight).name() in high
        assert theme.contrast_ratio(qapp.palette().color(Palette.ColorRole.Text),
                                    qapp.palette().color(Palette.ColorRole.Base)) == pytest.approx(21.0)
        monkeypatch.setattr(theme, "wants_high_contrast", lambda app: False)
        theme.apply_appearance(qapp, "system")
        assert qapp.palette().color(Palette.ColorRole.Text).name() == "#333333"
    finally:
        monkeypatch.undo()
        theme.apply_appearance(qapp, "system")

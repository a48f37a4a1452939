"""Colours that follow the palette: the window uses the system's light or dark palette, and every accent here has a
light and a dark variant chosen by the palette's window lightness, so nothing is hard-coded to a light theme.

Appearance: 'system' leaves the platform's palette alone (it follows the desktop's light or dark mode), unless the
system asks for high contrast (Qt's contrast preference) and its palette does not give it, when the high-contrast
palette below is set; 'light', 'dark' and 'high-contrast' set a Fusion palette, for desktops whose theme Qt cannot
read. Every accent reads at 4.5:1 or more in each (tests/ui/test_contrast.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QWidget

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

APPEARANCES = ("system", "light", "dark", "high-contrast")

# (light palette, dark palette)
_ACCENTS = {
    "against": ("#b03a2e", "#ff8a80"),   # the side arguing the claim is false (or the decision wrong)
    "for": ("#1f5f8b", "#8ab4f8"),       # the side arguing the claim is true (or the decision right)
    "judge": ("#7a5200", "#ffd166"),
    "support": ("#1a6e3d", "#7ddc9a"),   # every light one reads at least 4.5:1 on white and on its own tint
    "refute": ("#b03a2e", "#ff8a80"),     # (tests/ui/test_contrast.py)
    "unclear": ("#5f5f5f", "#b0b0b0"),
    "switch": ("#8a4d00", "#ffb74d"),
    "warning": ("#8a4d00", "#ffb74d"),
    "error": ("#a4262c", "#ff8a80"),
    "ok": ("#1a6e3d", "#7ddc9a"),
    "cite": ("#1a5fb4", "#8ab4f8"),      # citation chips
}


#: The passage's highlight in a text document (the inspector): a highlighter's yellow, written over in black whatever
#: the palette (white text on yellow would be unreadable in a dark palette)
PASSAGE_HIGHLIGHT = "#ffd600"
PASSAGE_HIGHLIGHT_ALPHA = 140
PASSAGE_TEXT = "#000000"
MIN_CONTRAST = 4.5  # WCAG 2.2 AA for normal text


def contrast_ratio(a: QColor, b: QColor) -> float:
    """WCAG's contrast ratio of two opaque colours, from 1 (the same) to 21 (black on white)."""
    def luminance(color: QColor) -> float:
        def channel(value: float) -> float:
            return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

        return 0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF()) + 0.0722 * channel(color.blueF())

    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def over(top: QColor, base: QColor, alpha: int) -> QColor:
    """``top`` laid over ``base`` at ``alpha`` (0-255): the opaque colour a reader sees."""
    mix = alpha / 255
    return QColor(round(base.red() * (1 - mix) + top.red() * mix), round(base.green() * (1 - mix) + top.green() * mix),
                  round(base.blue() * (1 - mix) + top.blue() * mix))


def passage_highlight() -> QColor:
    color = QColor(PASSAGE_HIGHLIGHT)
    color.setAlpha(PASSAGE_HIGHLIGHT_ALPHA)
    return color


def is_dark(palette: QPalette | None = None) -> bool:
    palette = palette or QGuiApplication.palette()
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def accent(name: str, palette: QPalette | None = None) -> QColor:
    light, dark = _ACCENTS.get(name, _ACCENTS["unclear"])
    return QColor(dark if is_dark(palette) else light)


def tint(name: str, palette: QPalette | None = None, alpha: int = 28) -> QColor:
    """A faint wash of an accent over the base colour (banners, badges), readable in either palette."""
    palette = palette or QGuiApplication.palette()
    return over(accent(name, palette), palette.color(QPalette.ColorRole.Base), alpha)


def role_color(palette: QPalette, name: str) -> str:
    """A palette role by name ('base', 'mid', 'text', ...) as #rrggbb, for style sheets."""
    role = {"base": QPalette.ColorRole.Base, "alternate": QPalette.ColorRole.AlternateBase,
            "window": QPalette.ColorRole.Window, "mid": QPalette.ColorRole.Mid, "text": QPalette.ColorRole.Text,
            "dim": QPalette.ColorRole.PlaceholderText, "highlight": QPalette.ColorRole.Highlight,
            "button": QPalette.ColorRole.Button, "link": QPalette.ColorRole.Link}[name]
    return palette.color(role).name()


def _fusion_palette(dark: bool) -> QPalette:
    p = QPalette()
    if dark:
        colors = {
            QPalette.ColorRole.Window: "#2b2d30", QPalette.ColorRole.WindowText: "#e6e6e6",
            QPalette.ColorRole.Base: "#1f2023", QPalette.ColorRole.AlternateBase: "#2a2c2f",
            QPalette.ColorRole.Text: "#e6e6e6", QPalette.ColorRole.Button: "#34363a",
            QPalette.ColorRole.ButtonText: "#e6e6e6", QPalette.ColorRole.Highlight: "#2f6bc4",
            QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.ToolTipBase: "#34363a",
            QPalette.ColorRole.ToolTipText: "#e6e6e6", QPalette.ColorRole.PlaceholderText: "#9a9a9a",
            QPalette.ColorRole.Link: "#8ab4f8", QPalette.ColorRole.LinkVisited: "#c58af9",
            QPalette.ColorRole.Mid: "#4a4c50", QPalette.ColorRole.Dark: "#18191b",
            QPalette.ColorRole.Light: "#45474b", QPalette.ColorRole.Midlight: "#3a3c40",
            QPalette.ColorRole.Shadow: "#000000", QPalette.ColorRole.BrightText: "#ff8a80",
        }
        for role, value in colors.items():
            p.setColor(role, QColor(value))
        for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
            p.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7a7a7a"))
        return p
    from PySide6.QtWidgets import QApplication, QStyleFactory

    style = QStyleFactory.create("Fusion") or QApplication.style()
    palette = style.standardPalette()
    palette.setColor(QPalette.ColorRole.Highlight, QColor("#2566a8"))  # Fusion's own blue gives white text 3.7:1
    return palette


def high_contrast_palette(dark: bool) -> QPalette:
    """Black on white, or white on black, as Windows' "High Contrast White" / "High Contrast Black" give them: the
    text and its ground at 21:1, a selection at 8:1 or more, links and disabled text readable."""
    fg, bg = ("#ffffff", "#000000") if dark else ("#000000", "#ffffff")
    palette = QPalette()
    for role, color in ((QPalette.ColorRole.Window, bg), (QPalette.ColorRole.Base, bg),
                        (QPalette.ColorRole.AlternateBase, bg), (QPalette.ColorRole.Button, bg),
                        (QPalette.ColorRole.ToolTipBase, bg), (QPalette.ColorRole.Text, fg),
                        (QPalette.ColorRole.WindowText, fg), (QPalette.ColorRole.ButtonText, fg),
                        (QPalette.ColorRole.ToolTipText, fg), (QPalette.ColorRole.BrightText, fg),
                        (QPalette.ColorRole.Highlight, "#1aebff" if dark else "#37006e"),
                        (QPalette.ColorRole.HighlightedText, "#000000" if dark else "#ffffff"),
                        (QPalette.ColorRole.Link, "#ffff00" if dark else "#00009f"),
                        (QPalette.ColorRole.PlaceholderText, "#c0c0c0" if dark else "#404040"),
                        (QPalette.ColorRole.Mid, fg), (QPalette.ColorRole.Dark, fg), (QPalette.ColorRole.Light, bg)):
        palette.setColor(role, QColor(color))
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#3ff23f" if dark else "#600000"))
    return palette


def wants_high_contrast(app: QApplication) -> bool:
    """Whether the system asks for high contrast (Qt's contrast preference; False where Qt cannot tell)."""
    hints = app.styleHints()
    accessibility = getattr(hints, "accessibility", None)
    if accessibility is None:
        return False
    return bool(accessibility().contrastPreference() == Qt.ContrastPreference.HighContrast)


def apply_appearance(app: QApplication, appearance: str) -> None:
    """'system': the platform's palette (its light/dark mode, and high contrast when it asks for it);
    'light'/'dark'/'high-contrast': a Fusion palette."""
    if appearance not in APPEARANCES:
        appearance = "system"
    hints = app.styleHints()
    if appearance == "system":
        if hasattr(hints, "unsetColorScheme"):
            hints.unsetColorScheme()
        app.setPalette(QPalette())
        if wants_high_contrast(app) and contrast_ratio(app.palette().color(QPalette.ColorRole.Text),
                                                       app.palette().color(QPalette.ColorRole.Base)) < 15:
            app.setPalette(high_contrast_palette(is_dark(app.palette())))  # asked for, and not given by the platform
        return
    if appearance == "high-contrast":
        dark = hints.colorScheme() != Qt.ColorScheme.Light  # black unless the desktop is in light mode
        app.setStyle("Fusion")
        app.setPalette(high_contrast_palette(dark))
        return
    if hasattr(hints, "setColorScheme"):
        hints.setColorScheme(Qt.ColorScheme.Dark if appearance == "dark" else Qt.ColorScheme.Light)
    app.setStyle("Fusion")
    app.setPalette(_fusion_palette(appearance == "dark"))


class PaletteWatcher(QObject):
    """Tells widgets with palette-derived style sheets that the application's palette changed (the system switched
    between light and dark, or View > Appearance did). Widgets themselves only see a PaletteChange, which their own
    style sheets also cause; a hidden sentinel widget without a style sheet sees ApplicationPaletteChange alone.
    (Not an event filter on the application: that would call into Python for every event of every object, each call
    waiting for the GIL behind busy worker threads; measured, it tripled the cost of updating a transcript card.)"""

    sig_changed = Signal()
    """The application palette changed; restyle (emitted once the new palette has propagated)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._sentinel = _PaletteSentinel(self)


class _PaletteSentinel(QWidget):
    def __init__(self, watcher: PaletteWatcher) -> None:
        super().__init__()
        self._watcher = watcher

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ApplicationPaletteChange:
            QTimer.singleShot(0, self._watcher.sig_changed.emit)
        return super().event(event)


_watcher: PaletteWatcher | None = None


def palette_watcher() -> PaletteWatcher:
    global _watcher
    if _watcher is None:
        _watcher = PaletteWatcher(QGuiApplication.instance())
    return _watcher

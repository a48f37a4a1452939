"""The Judge's confidence per round as a small self-contained SVG: one marker per ruling, its shape and colour the
tendency (support: green triangle up, refute: red triangle down, unclear: grey circle), the confidence threshold as
a dashed line, and a dashed vertical line where counsel switched sides."""

from __future__ import annotations

import re
from html import escape

from courtroom_desktop.core.reports.record import TrialRecord
from courtroom_desktop.core.reports.words import say
from courtroom_desktop.core.text import CJK, CJK_PUNCT

TENDENCY_COLOUR = {"support": "#2e7d32", "refute": "#c62828", "unclear": "#757575"}
FONT = "Helvetica, Arial, sans-serif"  # CJK characters come from the renderer's fallback (MuPDF: Droid Sans Fallback)
WIDTH, HEIGHT = 560, 230
LEFT, RIGHT, TOP, BOTTOM = 46, 16, 14, 62
WIDE = re.compile(f"[{CJK}{CJK_PUNCT}]")  # characters as wide as they are high


def _marker(tendency: str, x: float, y: float) -> str:
    colour = TENDENCY_COLOUR.get(tendency, "#757575")
    if tendency == "support":
        return f'<polygon points="{x:.1f},{y - 6:.1f} {x - 6:.1f},{y + 5:.1f} {x + 6:.1f},{y + 5:.1f}" fill="{colour}"/>'
    if tendency == "refute":
        return f'<polygon points="{x:.1f},{y + 6:.1f} {x - 6:.1f},{y - 5:.1f} {x + 6:.1f},{y - 5:.1f}" fill="{colour}"/>'
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{colour}"/>'


def _width(label: str) -> float:
    """About how wide a label is at font-size 11."""
    wide = len(WIDE.findall(label))
    return 6.2 * (len(label) - wide) + 11.0 * wide


def confidence_svg(record: TrialRecord) -> str:
    rulings = sorted(record.rulings, key=lambda r: r.round)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    rounds = max([r.round for r in rulings] + [1])
    step = plot_w / rounds

    def x_of(round_number: float) -> float:
        return LEFT + step * (round_number - 0.5)

    def y_of(confidence: float) -> float:
        return TOP + plot_h * (1.0 - max(0.0, min(1.0, confidence)))

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
             'font-size="11" role="img" '
             f'aria-label="{escape(say(record, "chart.aria"), quote=False).replace(chr(34), "&quot;")}">',
             f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>']
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = y_of(tick)
        parts.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="#e0e0e0"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" fill="#555555">{tick:.2f}</text>')
    threshold = record.spec.settings.get("confidence_threshold")
    if isinstance(threshold, int | float):
        y = y_of(float(threshold))
        parts.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="#1565c0" '
                     'stroke-dasharray="6 4"/>')
        parts.append(f'<text x="{WIDTH - RIGHT - 2}" y="{y - 4:.1f}" text-anchor="end" fill="#1565c0">'
                     f'{escape(say(record, "chart.threshold", value=f"{float(threshold):.2f}"))}</text>')
    for number in range(1, rounds + 1):
        parts.append(f'<text x="{x_of(number):.1f}" y="{TOP + plot_h + 16}" text-anchor="middle" fill="#333333">'
                     f'{number}</text>')
    parts.append(f'<text x="{LEFT + plot_w / 2:.1f}" y="{TOP + plot_h + 30}" text-anchor="middle" fill="#333333">'
                 f'{escape(say(record, "chart.round"))}</text>')
    parts.append(f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}" stroke="#333333"/>')
    parts.append(f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{WIDTH - RIGHT}" y2="{TOP + plot_h}" stroke="#333333"/>')
    for switch in record.switches:
        x = LEFT + step * switch.round
        parts.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + plot_h}" stroke="#ef6c00" '
                     'stroke-width="1.5" stroke-dasharray="4 3"/>')
        parts.append(f'<text x="{x + 4:.1f}" y="{TOP + 11}" fill="#ef6c00">{escape(say(record, "chart.switched"))}</text>')
    if rulings:
        points = " ".join(f"{x_of(r.round):.1f},{y_of(r.ruling.confidence):.1f}" for r in rulings)
        parts.append(f'<polyline points="{points}" fill="none" stroke="#424242" stroke-width="1.5"/>')
        for ruling in rulings:
            x, y = x_of(ruling.round), y_of(ruling.ruling.confidence)
            parts.append(_marker(ruling.ruling.tendency.value, x, y))
            label_y = y - 9 if ruling.ruling.tendency.value != "refute" else y + 16
            label_y = min(max(label_y, TOP + 9), TOP + plot_h - 3)
            parts.append(f'<text x="{x + 8:.1f}" y="{label_y:.1f}" fill="#212121">{ruling.ruling.confidence:.2f}</text>')
    else:
        parts.append(f'<text x="{LEFT + plot_w / 2:.1f}" y="{TOP + plot_h / 2:.1f}" text-anchor="middle" '
                     f'fill="#757575">{escape(say(record, "chart.none"))}</text>')
    legend_y = HEIGHT - 12
    x = LEFT
    for tendency in ("support", "refute", "unclear"):
        label = say(record, f"chart.{tendency}")
        parts.append(_marker(tendency, x + 6, legend_y - 4))
        parts.append(f'<text x="{x + 16}" y="{legend_y}" fill="#333333">{escape(label)}</text>')
        x += 30 + _width(label)
    parts.append(f'<line x1="{x}" y1="{legend_y - 4}" x2="{x + 22}" y2="{legend_y - 4}" stroke="#ef6c00" '
                 'stroke-width="1.5" stroke-dasharray="4 3"/>')
    parts.append(f'<text x="{x + 28}" y="{legend_y}" fill="#333333">{escape(say(record, "chart.switch"))}</text>')
    parts.append("</svg>")
    # every text element names its font: some renderers (MuPDF among them) do not inherit it from the root
    return "".join(parts).replace("<text ", f'<text font-family="{FONT}" ')


def svg_to_png(svg: str, dpi: int = 200) -> bytes:
    """Raster copy of an SVG (the PDF report embeds the chart as an image)."""
    import pymupdf

    doc = pymupdf.open(stream=svg.encode("utf-8"), filetype="svg")
    try:
        png: bytes = doc[0].get_pixmap(dpi=dpi, alpha=False).tobytes("png")
        return png
    finally:
        doc.close()

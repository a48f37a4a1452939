"""Render the app icon (resources/icons/courtroom.svg) to the formats each platform's installer wants, with Qt alone
(PySide6's QSvgRenderer on an offscreen platform: no display, no Pillow, no Inkscape).

    python installer/icons.py OUT_DIR [png] [ico] [icns]

writes OUT_DIR/<app id>.png (256 px), .ico (256 px) and .icns (1024 px). The spec and build.py call
``render_icons`` below, which runs this file in a child process so that Qt never starts inside PyInstaller.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SVG = HERE.parent / "resources" / "icons" / "courtroom.svg"
PNG_SIZE = 256
SIZES = {"png": 256, "ico": 256, "icns": 1024}  # Qt's ICO and ICNS writers store one image; the OS scales it down


def render_icons(out_dir: Path, formats: tuple[str, ...] = ("png",), app_id: str = "courtroom-desktop") -> dict[str, Path]:
    """Render the icon into ``out_dir``; returns {format: path}. Raises RuntimeError when Qt could not do it."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", COURTROOM_ICON_ID=app_id)
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), str(out_dir), *formats], env=env,
                          capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f"rendering the icon failed: {(done.stderr or done.stdout).strip()[-2000:]}")
    paths = {fmt: out_dir / f"{app_id}.{fmt}" for fmt in formats}
    missing = [str(p) for p in paths.values() if not p.is_file()]
    if missing:
        raise RuntimeError(f"rendering the icon wrote no {', '.join(missing)}")
    return paths


def _main(argv: list[str]) -> int:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QImageWriter, QPainter
    from PySide6.QtSvg import QSvgRenderer

    out_dir = Path(argv[0])
    formats = argv[1:] or ["png"]
    app_id = os.environ.get("COURTROOM_ICON_ID", "courtroom-desktop")
    _app = QGuiApplication(["icons"])  # noqa: F841 - fonts and image plugins need an application object
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        print(f"not a valid SVG: {SVG}", file=sys.stderr)
        return 1

    def image(size: int) -> QImage:
        img = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        img.fill(Qt.GlobalColor.transparent)
        painter = QPainter(img)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        renderer.render(painter)
        painter.end()
        return img

    supported = {bytes(f).decode() for f in QImageWriter.supportedImageFormats()}
    for fmt in formats:
        if fmt not in SIZES:
            print(f"unknown icon format {fmt!r} (png, ico, icns)", file=sys.stderr)
            return 2
        if fmt not in supported:
            print(f"this Qt cannot write {fmt} (image format plugins: {sorted(supported)})", file=sys.stderr)
            return 1
        target = out_dir / f"{app_id}.{fmt}"
        if not image(SIZES[fmt]).save(str(target), fmt.upper()):
            print(f"could not write {target}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))

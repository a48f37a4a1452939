"""Write installer/smoke_scan.pdf, the scanned sample the installer's smoke test ingests (installer/smoke.py, step 4):
`python installer/make_smoke_scan.py [TARGET]`.

Two A6 pages, English then Chinese, laid out by testkit.pdfgen and scanned by testkit.scans (200 dpi, grey, skewed
by 1 and -1.5 degrees, noise and dust, JPEG): image-only pages with no text layer, so the bundle finds their text only
if its OCR (rapidocr-onnxruntime's models and onnxruntime, collected by courtroom.spec) works. The file is committed
(257 kB) so that the smoke test needs nothing but the bundle and a Python; this script remakes it, the same
every time (fixed seeds). What the smoke test searches for is ``SCAN_QUERIES`` below: a phrase of each page.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGET = HERE / "smoke_scan.pdf"

#: (query, words the passage found must hold, page) for each page of the scan; smoke.py reads these.
SCAN_QUERIES = (
    ("amlodipine ankle swelling", ("amlodipine", "swelling"), 1),
    ("纯净水 矿物质流失", ("纯净水", "矿物质"), 2),
)
EN_TITLE = "Amlodipine Trial"
EN_SECTIONS = [
    ("1 Methods", "Nurses measured blood pressure in forty adults every week. Each patient took amlodipine or a "
                  "placebo tablet for twelve weeks."),
    ("2 Results", "Systolic pressure fell by nine points with amlodipine. Ankle swelling was the most common "
                  "adverse event, in six of the forty adults."),
]
ZH_TITLE = "纯净水与矿物质"
ZH_SECTIONS = [
    ("一、引言", "长期饮用纯净水会导致人体矿物质流失吗？这是一个常见的说法。我们检索了十二项研究。"),
    ("二、结论", "人体所需的矿物质主要来自食物，而不是饮用水；饮用水只提供很少一部分。"),
]


def make(target: Path = TARGET) -> Path:
    sys.path.insert(0, str(HERE.parent))
    import pymupdf

    from testkit.pdfgen import DocSpec, SectionSpec, render_pdf
    from testkit.scans import scan_pdf

    with tempfile.TemporaryDirectory() as tmp:
        parts = []
        for name, title, sections, skew in (("en", EN_TITLE, EN_SECTIONS, 1.0), ("zh", ZH_TITLE, ZH_SECTIONS, -1.5)):
            digital, scanned = Path(tmp) / f"{name}-digital.pdf", Path(tmp) / f"{name}.pdf"
            render_pdf(DocSpec(title=title, sections=[SectionSpec(1, h, [p]) for h, p in sections]), digital,
                       outline=False, paper="a6")
            scan_pdf(digital, scanned, dpi=200, skew=skew, noise=6.0, seed=3)
            parts.append(scanned)
        with pymupdf.open() as out:
            for part in parts:
                with pymupdf.open(str(part)) as doc:
                    out.insert_pdf(doc)
            out.set_metadata({"title": "Scanned sample (smoke test)", "producer": "installer/make_smoke_scan.py",
                              "creator": "testkit.scans", "creationDate": "", "modDate": ""})
            out.save(str(target), garbage=4, deflate=True, no_new_id=True)
    return target


if __name__ == "__main__":
    path = make(Path(sys.argv[1]) if len(sys.argv) > 1 else TARGET)
    print(f"{path}: {path.stat().st_size / 1000:.0f} kB")

"""The sample library that ships with the app: six short PDFs and claims worth putting on trial against them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import courtroom_desktop

SAMPLES_DIR = Path(courtroom_desktop.__file__).resolve().parents[1] / "resources" / "samples"


@dataclass(frozen=True)
class SuggestedClaim:
    claim: str
    expected: str = ""


def sample_files(folder: Path = SAMPLES_DIR) -> list[Path]:
    try:
        listed = json.loads((folder / "samples.json").read_text(encoding="utf-8"))["documents"]
        files = [folder / d["file"] for d in listed]
    except (OSError, ValueError, KeyError, TypeError):
        files = sorted(folder.glob("*.pdf"))
    return [f for f in files if f.is_file()]


def suggested_claims(folder: Path = SAMPLES_DIR) -> list[SuggestedClaim]:
    try:
        claims = json.loads((folder / "samples.json").read_text(encoding="utf-8"))["claims"]
        return [SuggestedClaim(str(c["claim"]), str(c.get("expected", ""))) for c in claims]
    except (OSError, ValueError, KeyError, TypeError):
        return []

"""The sample library that ships with the app: six short PDFs and claims worth putting on trial against them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import courtroom_desktop

if TYPE_CHECKING:
    from courtroom_desktop.core.services.trials import DecisionSpec

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


DECISION_DIR = SAMPLES_DIR.parent / "samples-decision"


@dataclass(frozen=True)
class SampleDecision:
    question: str
    decision: DecisionSpec    # core.court.decisions.DecisionSpec
    background: str
    files: list[Path]         # the notes the decision is argued from


def sample_decision(folder: Path = DECISION_DIR) -> SampleDecision | None:
    """The sample decision (resources/samples-decision/decision.json: where to live next year, three options, four
    weighted criteria, one hard constraint, a background and four notes); None when it is missing or broken."""
    from courtroom_desktop.core.services.trials import Criterion, DecisionSpec

    try:
        data = json.loads((folder / "decision.json").read_text(encoding="utf-8"))
        decision = DecisionSpec(options=tuple(data["options"]), constraints=tuple(data.get("constraints", ())),
                                criteria=tuple(Criterion(name=c["name"], weight=float(c["weight"]))
                                               for c in data["criteria"]))
        background = (folder / data["background"]).read_text(encoding="utf-8").strip() if data.get("background") else ""
        files = sorted(p for p in (folder / data.get("notes", "notes")).glob("*.md") if p.is_file())
        return SampleDecision(str(data["question"]), decision, background, files) if files else None
    except (OSError, ValueError, KeyError, TypeError):
        return None

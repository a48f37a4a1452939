"""Retraction Watch's list, read from its public CSV (nothing is fetched at run time): which works were retracted,
corrected or put under an expression of concern, by the DOI and PubMed id of the original paper.

    courtroom library retractions import retraction_watch.csv

The CSV's columns used: ``OriginalPaperDOI``, ``OriginalPaperPubMedID``, ``RetractionNature`` ("Retraction",
"Correction", "Expression of concern"; a reinstatement is no notice), ``RetractionDate`` and ``Reason``. A
library document is matched by its DOI (a Zotero item's, or the first DOI its opening passages print) and by the
PubMed id its opening passages print ("PMID: 12345678")."""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

from courtroom_desktop.core.errors import LibraryError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.records import Notice

PMID = re.compile(r"\bPMID:?\s*(\d{5,9})\b", re.IGNORECASE)
KINDS = {"retraction": "retraction", "correction": "correction", "expression of concern": "expression of concern"}
NEEDED = ("OriginalPaperDOI", "RetractionNature")


@dataclass(frozen=True)
class Listed:
    """One row of the list: the original paper's DOI (lower-cased) and PubMed id, and its notice."""

    doi: str
    pmid: str
    notice: Notice


def read_retraction_watch(path: Path) -> list[Listed]:
    """The rows of a Retraction Watch CSV that are notices (LibraryError naming the file when it is not one)."""
    try:
        with open(path, encoding="utf-8-sig", errors="replace", newline="") as fh:
            reader = csv.DictReader(fh)
            missing = [c for c in NEEDED if c not in (reader.fieldnames or [])]
            if missing:
                raise LibraryError(Message("{path}: not a Retraction Watch CSV (no column {columns})", path,
                                           ", ".join(missing)),
                                   fix=Message("give the CSV of the Retraction Watch database, as downloaded"))
            rows = list(reader)
    except OSError as exc:
        raise LibraryError(Message("{path}: cannot be read ({exc})", path, exc.strerror or exc),
                           fix=Message("check the path")) from None
    listed: list[Listed] = []
    for row in rows:
        nature = (row.get("RetractionNature") or "").strip().lower()
        kind = KINDS.get(nature)
        doi = (row.get("OriginalPaperDOI") or "").strip().lower()
        pmid = (row.get("OriginalPaperPubMedID") or "").strip()
        if kind is None or (not doi.startswith("10.") and not pmid.strip("0")):
            continue
        listed.append(Listed(doi=doi if doi.startswith("10.") else "", pmid=pmid if pmid.strip("0") else "",
                             notice=Notice(kind=kind, date=(row.get("RetractionDate") or "").strip()[:32],  # type: ignore[arg-type]
                                           reason=" ".join((row.get("Reason") or "").replace("+", " ").split())[:300],
                                           source="retraction watch")))
    return listed

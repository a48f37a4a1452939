"""What the court takes from a Zotero library: items with their PDF attachments and the metadata a citation needs
(title, authors, year, DOI, tags, collections), and the link back to the item in Zotero. Both readers (the local API
in ``local_api``, the data folder in ``data_folder``) produce these."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from courtroom_desktop.core.records import Notice

YEAR = re.compile(r"\b(1[5-9]\d\d|2\d\d\d)\b")
PDF = "application/pdf"


@dataclass(frozen=True)
class Attachment:
    key: str
    path: Path | None  # on this computer; None when the file is not here (a link, a file never synced)
    content_type: str = ""

    @property
    def is_pdf(self) -> bool:
        return self.content_type == PDF or (self.path is not None and self.path.suffix.lower() == ".pdf")


@dataclass(frozen=True)
class ZoteroItem:
    key: str
    title: str
    creators: tuple[str, ...] = ()  # "Last, First" (or an institution's one name), in Zotero's order
    year: int | None = None
    doi: str = ""
    tags: tuple[str, ...] = ()
    collections: tuple[str, ...] = ()  # collection names
    attachments: tuple[Attachment, ...] = ()
    group: int | None = None  # a group library's id; None for the user's own library
    retraction: Notice | None = None  # Zotero's Retraction Watch flag (the data folder's retractedItems table)

    @property
    def link(self) -> str:
        """Opens the item in Zotero (zotero://select)."""
        where = f"groups/{self.group}" if self.group is not None else "library"
        return f"zotero://select/{where}/items/{self.key}"

    @property
    def pdfs(self) -> list[Attachment]:
        return [a for a in self.attachments if a.is_pdf]

    @property
    def authors(self) -> str:
        return "; ".join(self.creators)

    @property
    def cite(self) -> str:
        """'Smith 2020', 'Smith & Doe 2020', 'Smith et al. 2020' ('n.d.' without a year)."""
        return citation(self.creators, self.year)


def surname(creator: str, last_word: bool = False) -> str:
    """'Smith, Jane' -> 'Smith'; a one-field name (an institution, or 王小明) whole; with ``last_word`` (names as a
    PDF's metadata writes them, 'Jane Smith'), the last word."""
    if "," in creator:
        return creator.split(",", 1)[0].strip()
    return creator.split()[-1] if last_word and creator.split() else creator.strip()


def citation(creators: tuple[str, ...] | list[str], year: int | None, last_word: bool = False) -> str:
    names = [surname(c, last_word) for c in creators if c.strip()]
    when = str(year) if year else "n.d."
    if not names:
        return when
    if len(names) == 1:
        who = names[0]
    elif len(names) == 2:
        who = f"{names[0]} & {names[1]}"
    else:
        who = f"{names[0]} et al."
    return f"{who} {when}"


def year_of(date: str | None) -> int | None:
    found = YEAR.search(date or "")
    return int(found.group(1)) if found else None


@dataclass(frozen=True)
class SourceRecord:
    """What the catalog keeps of a document's Zotero item (``Catalog.set_source``): enough to cite it, link to it,
    and keep it in step (the scopes it was imported under: the whole library or a collection)."""

    item_key: str
    attachment_key: str
    title: str
    authors: str
    year: int | None
    cite: str
    link: str
    doi: str = ""
    tags: tuple[str, ...] = ()
    collections: tuple[str, ...] = ()
    scopes: tuple[str, ...] = field(default=())
    system: str = "zotero"

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> SourceRecord:
        data = json.loads(text)
        for name in ("tags", "collections", "scopes"):
            data[name] = tuple(data.get(name) or ())
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})

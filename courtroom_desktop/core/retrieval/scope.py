"""What a search may return: all documents, a chosen set of documents, and/or sections."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


def _sql_string(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


@dataclass(frozen=True)
class Scope:
    """``doc_ids``: only these documents (None: all). ``sections``: only chunks whose section path starts with
    one of these prefixes, compared case-insensitively ("3 results" matches "3 Results > 3.2 Adverse events").
    Both together: the sections within those documents. An empty ``doc_ids`` set matches nothing. ``private``
    False: private documents are left out whatever else the scope says (a trial whose text goes to another machine,
    core.privacy); the retriever reads the flags at each search, so a document marked private mid-trial is left out
    from the next search on."""

    doc_ids: frozenset[str] | None = None
    sections: tuple[str, ...] = ()
    private: bool = True

    @classmethod
    def all(cls) -> Scope:
        return cls()

    @classmethod
    def documents(cls, doc_ids: Iterable[str]) -> Scope:
        return cls(doc_ids=frozenset(doc_ids))

    @classmethod
    def in_sections(cls, prefixes: Iterable[str], doc_ids: Iterable[str] | None = None) -> Scope:
        return cls(doc_ids=frozenset(doc_ids) if doc_ids is not None else None,
                   sections=tuple(p.strip() for p in prefixes if p and p.strip()))

    def without_private(self) -> Scope:
        return Scope(self.doc_ids, self.sections, private=False)

    @property
    def is_all(self) -> bool:
        return self.doc_ids is None and not self.sections and self.private

    def allows_doc(self, doc_id: str) -> bool:
        return self.doc_ids is None or doc_id in self.doc_ids

    def allows_section(self, section_path: str) -> bool:
        if not self.sections:
            return True
        path = (section_path or "").casefold()
        return any(path.startswith(p.casefold()) for p in self.sections)

    def sql(self) -> str | None:
        """The same scope as a LanceDB filter over the chunk table (None: everything)."""
        parts = []
        if self.doc_ids is not None:
            if not self.doc_ids:
                return "false"
            parts.append(f"doc_id IN ({', '.join(_sql_string(d) for d in sorted(self.doc_ids))})")
        if self.sections:
            parts.append("(" + " OR ".join(f"starts_with(lower(section_path), {_sql_string(p.lower())})"
                                           for p in self.sections) + ")")
        return " AND ".join(parts) or None

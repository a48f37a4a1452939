"""A passage whose document came from Zotero is cited with its author and year, and its card links back to the item
(zotero://select/...); a link of any other scheme in a document's record is never written into a report."""

from __future__ import annotations

from courtroom_desktop.core.reports import export

from .helpers import Tags


def _with_reference(record, cite: str, link: str):
    first = record.pool[0]
    evidence = first.evidence.model_copy(update={"doc_cite": cite, "doc_link": link})
    pool = (first.model_copy(update={"evidence": evidence}), *record.pool[1:])
    return record.model_copy(update={"pool": pool}), first.id


def test_cards_cite_author_year_and_link_to_zotero(record, tmp_path):
    changed, evidence_id = _with_reference(record, "Okafor & Lindqvist 2019",
                                           "zotero://select/library/items/VITDAAAA")
    export(changed, ("html", "md"), tmp_path, audience="general")
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "(Okafor &amp; Lindqvist 2019)" in html
    assert "zotero://select/library/items/VITDAAAA" in Tags(html).attr("href")
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "(zotero://select/library/items/VITDAAAA)" in md and "Lindqvist 2019" in md
    assert record.pool[0].evidence.doc_cite == ""  # the fixture's own record is untouched


def test_a_hostile_link_is_not_written(record, tmp_path):
    changed, _ = _with_reference(record, "Smith 2020", "javascript:alert(31)")
    export(changed, ("html", "md"), tmp_path, audience="general")
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "(Smith 2020)" in html and "alert(31)" not in html
    assert "alert(31)" not in (tmp_path / "report.md").read_text(encoding="utf-8")

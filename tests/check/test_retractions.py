"""Sound sources (core/library/retractions.py, Zotero's retractedItems): a retracted, corrected or concerned work is
flagged where it appears: in the library (`courtroom library retractions`), as a cited source in a check (its CSV
and JSON), as evidence in a trial (the judge's prompt, the report's evidence table), and a retracted passage never
carries a verdict alone (the label rule)."""

from __future__ import annotations

import csv
import json

import pymupdf

from courtroom_desktop.core.court.scored import decide, numbered
from courtroom_desktop.core.records import VerifierReading
from testkit.zotero import ZItem, write_data_folder

RW_COLUMNS = ["Record ID", "Title", "Journal", "Author", "RetractionDate", "RetractionDOI", "RetractionPubMedID",
              "OriginalPaperDate", "OriginalPaperDOI", "OriginalPaperPubMedID", "RetractionNature", "Reason"]


def _paper(path, title: str, body: str) -> None:
    document = pymupdf.open()
    document.new_page().insert_textbox(pymupdf.Rect(72, 72, 520, 770), body, fontsize=11)
    document.set_metadata({"title": title, "author": "A. Author"})
    document.save(str(path))
    document.close()


def _retraction_watch(path) -> None:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, RW_COLUMNS)
        writer.writeheader()
        writer.writerow({"Record ID": "1", "Title": "Iron and anaemia", "RetractionDate": "3/1/2021 0:00",
                         "OriginalPaperDOI": "10.1016/S2214-109X(19)30012-4", "RetractionNature": "Retraction",
                         "Reason": "+Falsification/Fabrication of Data;+Investigation by Company/Institution;"})
        writer.writerow({"Record ID": "2", "Title": "Gestational length", "OriginalPaperDOI": "unavailable",
                         "OriginalPaperPubMedID": "27001234", "RetractionNature": "Expression of concern",
                         "Reason": "+Concerns/Issues About Data;"})
        writer.writerow({"Record ID": "3", "Title": "Not in the library", "OriginalPaperDOI": "10.9999/none",
                         "RetractionNature": "Correction"})


def _library(tmp_path):
    papers = tmp_path / "papers"
    papers.mkdir()
    _paper(papers / "okafor.pdf", "Iron Supplementation in Late Pregnancy and Maternal Anaemia",
           "https://doi.org/10.1016/S2214-109X(19)30012-4\n\nIron supplements given in the third trimester reduced "
           "anaemia at delivery by a third compared with placebo, in a trial of 1,200 pregnant women.")
    _paper(papers / "lindqvist.pdf", "Prophylactic iron and gestational length",
           "PMID: 27001234\n\nGestational length did not differ between women who took prophylactic iron and those "
           "who did not, across 12,000 births in Sweden.")
    _paper(papers / "other.pdf", "Folic acid and neural tube defects",
           "Folic acid before conception lowered the rate of neural tube defects by 70 percent.")
    return papers


def test_a_retraction_watch_csv_flags_the_library_by_doi_and_pubmed_id(tmp_path, capsys):
    from courtroom_desktop.cli import main

    base = ["--config-dir", str(tmp_path / "config"), "--data-dir", str(tmp_path / "data")]
    assert main([*base, "ingest", str(_library(tmp_path))]) == 0
    _retraction_watch(tmp_path / "rw.csv")
    capsys.readouterr()
    assert main([*base, "library", "retractions", "import", str(tmp_path / "rw.csv")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "3 notices in the file; 2 documents of the library flagged" in out
    assert "retraction 3/1/2021" in out and "Falsification/Fabrication of Data" in out
    assert "expression of concern" in out and "Folic acid" not in out
    (tmp_path / "bad.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    assert main([*base, "library", "retractions", "import", str(tmp_path / "bad.csv")]) == 2
    err = capsys.readouterr().err
    assert "bad.csv" in err and "not a Retraction Watch CSV" in err


def test_zoteros_retraction_flags_come_in_with_the_import(tmp_path):
    from courtroom_desktop.core.config import AppConfig
    from courtroom_desktop.core.workspace import Workspace

    papers = _library(tmp_path)
    folder = write_data_folder(tmp_path / "Zotero", [
        ZItem(key="AAAA1111", title="Iron Supplementation in Late Pregnancy", creators=[("Okafor", "Chidi")],
              date="2019", pdf=papers / "okafor.pdf",
              retracted={"date": "2021-03-01", "reasons": ["Falsification/Fabrication of Data"]}),
        ZItem(key="BBBB2222", title="Folic acid and neural tube defects", date="2018", pdf=papers / "other.pdf")])
    workspace = Workspace(tmp_path / "config", tmp_path / "data", AppConfig())
    try:
        workspace.library.import_zotero(folder=str(folder))
        notices = workspace.library.notices()
        titles = {d.id: d.title for d in workspace.library.documents()}
        assert {titles[i]: (n.kind, n.source, n.date) for i, n in notices.items()} == {
            "Iron Supplementation in Late Pregnancy": ("retraction", "zotero", "2021-03-01")}
    finally:
        workspace.close()


def test_a_retracted_passage_never_carries_a_verdict_alone():
    backs = VerifierReading(supports=0.95, refutes=0.02, neither=0.03)
    alone = decide("Iron cut anaemia by a third.", numbered(["Iron cut anaemia by a third."], [backs], [True]))
    assert alone.label.value == "insufficient evidence"
    beside = decide("Iron cut anaemia by a third.", numbered(["Iron cut anaemia by a third."] * 2, [backs, backs],
                                                             [True, False]))
    assert beside.label.value == "supported"
    # break: the rule ignoring the flag gives 'supported' from the retracted passage alone
    assert decide("Iron cut anaemia by a third.", numbered(["Iron cut anaemia by a third."], [backs])).label.value \
        == "supported"


def test_a_retracted_source_is_flagged_in_a_check_in_a_trial_and_in_the_reports(tmp_path, capsys):
    """One library, one retracted paper (from the Retraction Watch CSV): the check's CSV and JSON say the cited
    source is retracted; a search returns the passage with its notice; the judge's prompt marks it; the trial
    report's evidence table says so."""
    from courtroom_desktop.cli import main
    from courtroom_desktop.core.config import AppConfig
    from courtroom_desktop.core.court.prompts import evidence_block
    from courtroom_desktop.core.court.records import PoolEntry
    from courtroom_desktop.core.workspace import Workspace

    base = ["--config-dir", str(tmp_path / "config"), "--data-dir", str(tmp_path / "data")]
    assert main([*base, "ingest", str(_library(tmp_path))]) == 0
    _retraction_watch(tmp_path / "rw.csv")
    assert main([*base, "library", "retractions", "import", str(tmp_path / "rw.csv")]) == 0
    draft = tmp_path / "memo.md"
    draft.write_text("# Iron\n\nIron supplements in the third trimester reduced anaemia at delivery by a third [1].\n\n"
                     "## References\n\n1. Okafor CN, Mensah A. Iron supplementation in late pregnancy and maternal "
                     "anaemia. Lancet Glob Health. 2019;7:e345. doi:10.1016/S2214-109X(19)30012-4\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main([*base, "check", str(draft), "--trials", "never", "--report", str(out), "--formats", "json,csv"]) == 0
    claim = json.loads((out / "check.json").read_text(encoding="utf-8"))["claims"][0]
    assert claim["retracted"] is True and claim["cited_in_library"] is True
    # the retracted paper's passage carries no verdict alone: a label needs another passage beside it
    retracted_ids = {c["id"] for c in claim["citations"] if c["doc_title"].startswith("Iron Supplementation")}
    others = [c for c in claim["citations"] if c["id"] not in retracted_ids]
    assert claim["court"]["label"] == "insufficient evidence" or others, claim
    row = next(csv.DictReader((out / "check.csv").read_text(encoding="utf-8-sig").splitlines()))
    assert row["retracted"] == "True"
    capsys.readouterr()
    assert main([*base, "check", str(draft), "--references-only", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["references"][0]["retracted"] is True

    workspace = Workspace(tmp_path / "config", tmp_path / "data", AppConfig())
    try:
        found = workspace.library.search("iron anaemia third trimester", k=3)
        okafor = next(e for e in found if e.doc_title.startswith("Iron Supplementation"))
        assert okafor.retracted and okafor.doc_notice is not None and okafor.doc_notice.source == "retraction watch"
        block = evidence_block([PoolEntry(id="E1", evidence=okafor, round=1, found_by="judge", query="iron")], 60)
        assert 'notice="retraction"' in block and "never rest a conclusion on it alone" in block
    finally:
        workspace.close()


def test_a_trial_reports_evidence_table_marks_a_retracted_work(tmp_path):
    """Every report format's evidence table names a retracted work as such, in the report's language (break: the
    table using the bare document label)."""
    from courtroom_desktop.core.court.records import PoolEntry, Seat, TrialSpec
    from courtroom_desktop.core.records import Chunk, Evidence, Notice
    from courtroom_desktop.core.reports.record import TrialRecord
    from courtroom_desktop.core.reports.view import evidence_cells

    chunk = Chunk(id="d-0000", doc_id="d", ordinal=0, section_path="", page_start=0, page_end=0, char_start=0,
                  char_end=10, text="Iron cut anaemia by a third.")
    evidence = Evidence(chunk=chunk, doc_title="Iron trial", doc_notice=Notice(kind="retraction", source="zotero"))
    entry = PoolEntry(id="E1", evidence=evidence, round=1, found_by=Seat.starts_against, query="q")
    for claim, expected in (("Iron cuts anaemia.", "Iron trial [retraction]"), ("补铁可降低贫血。", "已撤稿")):
        record = TrialRecord(trial_id="t", generated_at="now", spec=TrialSpec(claim=claim), pool=(entry,), turns=())
        assert expected in evidence_cells(record, entry)[0]


def test_the_library_panel_marks_a_flagged_document(qapp, monkeypatch):
    """The documents table shows a retracted work as such beside its title, in the window's language, with the
    notice in its tooltip (break: the title column leaving the notice out, and it fails)."""
    from PySide6.QtCore import Qt

    from courtroom_desktop.core.records import DocStatus, Document, Notice
    from courtroom_desktop.ui import i18n
    from courtroom_desktop.ui.qt_models.documents import DOCUMENT, DocumentsModel

    doc = Document(id="d1", path="/p/iron.pdf", sha256="0" * 64, title="Iron trial", status=DocStatus.ready)
    model = DocumentsModel()
    model.set_documents([doc], [])
    model.set_notices({"d1": Notice(kind="retraction", date="2021-03-01", reason="fabricated data", source="zotero")})
    index = model.index(0, DOCUMENT)
    assert model.data(index, Qt.ItemDataRole.DisplayRole) == "Iron trial \u2014 retracted"
    assert "fabricated data" in model.data(index, Qt.ItemDataRole.ToolTipRole)
    monkeypatch.setenv("COURTROOM_LANGUAGE", "zh_CN")
    i18n.install(qapp)
    try:
        assert "已撤稿" in model.data(index, Qt.ItemDataRole.DisplayRole)
    finally:
        monkeypatch.setenv("COURTROOM_LANGUAGE", "en")
        i18n.install(qapp)


def test_the_trials_evidence_table_marks_a_retracted_work(qapp):
    """The courtroom's evidence table (and the citation chips' tooltips) name a retracted work as such, in red
    (break: the document column showing the bare title, and it fails)."""
    from PySide6.QtCore import Qt

    from courtroom_desktop.core.court.records import PoolEntry, Seat
    from courtroom_desktop.core.records import Chunk, Evidence, Notice
    from courtroom_desktop.ui.qt_models.evidence import DOCUMENT, EvidenceModel
    from courtroom_desktop.ui.theme import accent
    from courtroom_desktop.ui.widgets.transcript import chip_tip

    chunk = Chunk(id="d-0000", doc_id="d", ordinal=0, section_path="", page_start=0, page_end=0, char_start=0,
                  char_end=10, text="Iron cut anaemia by a third.")
    entry = PoolEntry(id="E1", evidence=Evidence(chunk=chunk, doc_title="Iron trial",
                                                 doc_notice=Notice(kind="retraction", source="zotero")),
                      round=1, found_by=Seat.starts_against, query="q")
    model = EvidenceModel()
    model.add(entry)
    index = model.index(0, DOCUMENT)
    assert model.data(index, Qt.ItemDataRole.DisplayRole) == "Iron trial [retracted]"
    assert model.data(index, Qt.ItemDataRole.ForegroundRole) == accent("error")
    assert "Iron trial [retracted]" in chip_tip("E1", True, "", lambda _id: entry)

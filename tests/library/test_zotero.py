"""A Zotero library as the court's library (issue #32): its PDFs with their metadata, through Zotero 7's local API (a
fake over real HTTP, testkit.zotero) and through a Zotero data folder the test writes with Zotero's own tables; kept
in step when the library changes; citations with author, year and a zotero://select link; the command line.

Real PDFs (the English and Chinese samples), a real LanceDB table and tantivy index, the real MiniLM."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from courtroom_desktop.cli import main
from courtroom_desktop.core.config import LibrarySettings
from courtroom_desktop.core.errors import LibraryError
from courtroom_desktop.core.library import Library
from courtroom_desktop.core.library.zotero import (
    SourceRecord,
    ZoteroUnavailable,
    import_items,
    imported_scopes,
    library_version,
    read_folder,
    read_zotero,
    scope_of,
)
from courtroom_desktop.core.retrieval import Retriever
from testkit.loopback import free_port
from testkit.zotero import FakeZotero, ZCollection, ZItem, write_data_folder

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "resources" / "samples"
SAMPLES_ZH = ROOT / "resources" / "samples-zh"
COLLECTIONS = [ZCollection("COLLVITD", "Vitamin D"), ZCollection("COLLSUB1", "Trials", parent="COLLVITD"),
               ZCollection("COLLOBES", "Obesity")]


def _items(tmp_path: Path) -> list[ZItem]:
    """Four items with a PDF (one Chinese), one without: in the collection tree Vitamin D > Trials, and Obesity."""
    store = tmp_path / "zotero-files"
    store.mkdir(exist_ok=True)

    def pdf(source: Path) -> Path:
        return Path(shutil.copy(source, store / source.name))

    return [
        ZItem("VITDAAAA", "Vitamin D in pregnancy: a cohort", [("Okafor", "Ada"), ("Lindqvist", "Per")], "2019-05-02",
              doi="10.1000/vitd.a", tags=["vitamin D", "pregnancy"], collections=["COLLVITD"],
              pdf=pdf(SAMPLES / "vitamin-d-a.pdf")),
        ZItem("VITDBBBB", "Supplementation trial", [("Moreau", "Claire"), ("Ito", "Ken"), ("Brandt", "Lena")],
              "March 2021", collections=["COLLSUB1"], pdf=pdf(SAMPLES / "vitamin-d-b.pdf")),
        ZItem("OBESAAAA", "Obesity drugs and side effects", [("World Health Organization", "")], "2022",
              collections=["COLLOBES"], pdf=pdf(SAMPLES / "obesity-a.pdf")),
        ZItem("ZHPANEL1", "辩论式检索的证据池", [("王", "小明")], "2024-01-10", tags=["检索"],
              pdf=pdf(SAMPLES_ZH / "debate-panel-evidence-pool.pdf")),
        ZItem("NOPDF001", "A book with no file", [("Nobody", "A.")], "2001", item_type="book"),
    ]


@pytest.fixture
def library(tmp_path, embedder):
    lib = Library.open(tmp_path / "library", LibrarySettings(), embedder)
    yield lib
    lib.close()


def _records(library) -> dict[str, SourceRecord]:
    return {r.item_key: r for r in (SourceRecord.from_json(t) for t in library.catalog.sources().values())}


def test_the_local_api_brings_pdfs_with_their_metadata(tmp_path, library):
    items = _items(tmp_path)
    with FakeZotero(items, COLLECTIONS, page=2) as zotero:  # pages of two: the client must follow Total-Results
        read, where = read_zotero(url=zotero.url)
        assert "local API" in where
        assert {i.key for i in read} == {i.key for i in items}
        by_key = {i.key: i for i in read}
        assert by_key["VITDAAAA"].creators == ("Okafor, Ada", "Lindqvist, Per")
        assert by_key["VITDAAAA"].year == 2019 and by_key["VITDBBBB"].year == 2021
        assert by_key["VITDAAAA"].collections == ("Vitamin D",)
        assert all(by_key[k].pdfs and by_key[k].pdfs[0].path.is_file() for k in ("VITDAAAA", "VITDBBBB", "ZHPANEL1"))
        result = import_items(library, read, scope_of(None))
    assert (result.items, result.pdfs, result.added, result.linked, result.removed) == (5, 4, 4, 4, 0)
    assert result.missing == ["A book with no file: no PDF attachment"]
    records = _records(library)
    assert records["VITDAAAA"].cite == "Okafor & Lindqvist 2019"
    assert records["VITDBBBB"].cite == "Moreau et al. 2021"
    assert records["OBESAAAA"].cite == "World Health Organization 2022"
    assert records["ZHPANEL1"].cite == "王 2024" and records["ZHPANEL1"].tags == ("检索",)
    assert records["VITDAAAA"].link == "zotero://select/library/items/VITDAAAA"
    assert records["VITDAAAA"].doi == "10.1000/vitd.a"
    titles = {d.title for d in library.documents()}
    assert {"Vitamin D in pregnancy: a cohort", "辩论式检索的证据池"} <= titles  # the item's title, not the PDF's


def test_citations_carry_author_year_and_the_link_back(tmp_path, library):
    with FakeZotero(_items(tmp_path), COLLECTIONS) as zotero:
        import_items(library, read_zotero(url=zotero.url)[0], scope_of(None))
    hits = Retriever(library, reranker=None).search("vitamin D supplementation in pregnancy", k=5)
    cited = {h.doc_cite: h.doc_link for h in hits}
    assert "Okafor & Lindqvist 2019" in cited
    assert cited["Okafor & Lindqvist 2019"] == "zotero://select/library/items/VITDAAAA"
    hits = Retriever(library, reranker=None).search("证据池", k=3)
    assert hits and hits[0].doc_cite == "王 2024" and hits[0].doc_title == "辩论式检索的证据池"


def test_a_collection_and_its_subcollections_kept_in_step(tmp_path, library):
    items = _items(tmp_path)
    with FakeZotero(items, COLLECTIONS) as zotero:
        first = import_items(library, read_zotero("vitamin d", url=zotero.url)[0], scope_of("vitamin d"))
        assert (first.items, first.added) == (2, 2)  # Vitamin D and its subcollection Trials
        assert set(_records(library)) == {"VITDAAAA", "VITDBBBB"}

        # in Zotero: the trial leaves the collection, the cohort's title is corrected and its PDF replaced
        items[1].collections = []
        items[0].title = "Vitamin D in pregnancy: a cohort study"
        shutil.copy(SAMPLES / "vitamin-d-b.pdf", tmp_path / "other.pdf")
        items[0].pdf.write_bytes((SAMPLES / "hiv-tuberculosis-a.pdf").read_bytes())
        again = import_items(library, read_zotero("Vitamin D", url=zotero.url)[0], scope_of("Vitamin D"))
    assert (again.updated, again.removed) == (1, 1)
    records = _records(library)
    assert set(records) == {"VITDAAAA"}
    assert records["VITDAAAA"].title == "Vitamin D in pregnancy: a cohort study"
    assert [d.title for d in library.documents()] == ["Vitamin D in pregnancy: a cohort study"]
    assert library.check_consistency()["consistent"]


def test_a_document_another_scope_holds_stays(tmp_path, library):
    items = _items(tmp_path)
    with FakeZotero(items, COLLECTIONS) as zotero:
        import_items(library, read_zotero(url=zotero.url)[0], scope_of(None))
        import_items(library, read_zotero("Obesity", url=zotero.url)[0], scope_of("Obesity"))
        items[2].collections = []  # out of the collection, still in the library
        gone = import_items(library, read_zotero("Obesity", url=zotero.url)[0], scope_of("Obesity"))
        assert gone.removed == 0 and "OBESAAAA" in _records(library)
        items[2].trashed = True  # now in the trash: the whole-library import lets it go
        gone = import_items(library, read_zotero(url=zotero.url)[0], scope_of(None))
    assert gone.removed == 1 and "OBESAAAA" not in _records(library)
    assert len(library.documents()) == 3


def test_the_data_folder_is_read_from_a_copy_and_never_written(tmp_path, library):
    items = _items(tmp_path)
    folder = write_data_folder(tmp_path / "Zotero", items, COLLECTIONS)
    database = folder / "zotero.sqlite"
    before = (hashlib.sha256(database.read_bytes()).hexdigest(), database.stat().st_mtime_ns)
    read = read_folder(folder)
    assert {i.key for i in read} == {i.key for i in items}
    by_key = {i.key: i for i in read}
    assert by_key["VITDBBBB"].creators == ("Moreau, Claire", "Ito, Ken", "Brandt, Lena")
    assert by_key["OBESAAAA"].creators == ("World Health Organization",)
    assert by_key["VITDAAAA"].year == 2019 and by_key["VITDAAAA"].tags == ("vitamin D", "pregnancy")
    assert by_key["ZHPANEL1"].pdfs[0].path == folder / "storage" / "PZHPANEL" / "debate-panel-evidence-pool.pdf"
    assert {i.key for i in read_folder(folder, "Vitamin D")} == {"VITDAAAA", "VITDBBBB"}
    result = import_items(library, read, scope_of(None))
    assert result.added == 4 and _records(library)["VITDBBBB"].cite == "Moreau et al. 2021"
    assert (hashlib.sha256(database.read_bytes()).hexdigest(), database.stat().st_mtime_ns) == before
    assert sorted(p.name for p in folder.iterdir()) == ["storage", "zotero.sqlite"]  # no journal, no lock left

    items[3].trashed = True  # the trash is left out
    write_data_folder(folder, items, COLLECTIONS)
    assert "ZHPANEL1" not in {i.key for i in read_folder(folder)}


def test_zotero_not_running_falls_back_to_the_data_folder(tmp_path, monkeypatch):
    folder = write_data_folder(tmp_path / "Zotero", _items(tmp_path), COLLECTIONS)
    monkeypatch.setenv("ZOTERO_DATA_DIR", str(folder))
    monkeypatch.setattr("courtroom_desktop.core.library.zotero.DEFAULT_URL", f"http://127.0.0.1:{free_port()}/api")
    items, where = read_zotero()
    assert len(items) == 5 and str(folder) in where and "cannot be reached" in where


def test_clear_errors(tmp_path):
    with pytest.raises(ZoteroUnavailable) as refused:
        read_zotero(url=f"http://127.0.0.1:{free_port()}/api")
    assert "cannot be reached" in str(refused.value) and "--zotero-dir" in refused.value.fix
    with FakeZotero(_items(tmp_path), COLLECTIONS) as zotero:
        zotero.forbidden = True
        with pytest.raises(ZoteroUnavailable) as forbidden:
            read_zotero(url=zotero.url)
        assert "403" in str(forbidden.value) and "Allow other applications" in forbidden.value.fix
        zotero.forbidden = False
        with pytest.raises(LibraryError) as unknown:
            read_zotero("Cardiology", url=zotero.url)
        assert "'Cardiology'" in str(unknown.value) and "Obesity" in unknown.value.fix
    with pytest.raises(LibraryError) as not_a_folder:
        read_folder(tmp_path)
    assert "zotero.sqlite" in str(not_a_folder.value)


def test_the_command_imports_a_collection(tmp_path, capsys):
    with FakeZotero(_items(tmp_path), COLLECTIONS) as zotero:
        status = main(["--data-dir", str(tmp_path / "data"), "zotero", "import", "--collection", "Obesity",
                       "--zotero-url", zotero.url, "--quiet"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "the collection 'Obesity'" in out and "1 items, 1 PDFs here" in out and "1 documents carry" in out
    folder = write_data_folder(tmp_path / "Zotero", _items(tmp_path), COLLECTIONS)
    status = main(["--data-dir", str(tmp_path / "data"), "zotero", "import", "--zotero-dir", str(folder), "--quiet"])
    out = capsys.readouterr().out
    assert status == 0 and "5 items, 4 PDFs here" in out and "not imported: A book with no file" in out


def test_the_version_follows_every_change_and_sync_brings_each_scope_in_step(tmp_path, capsys):
    """`courtroom zotero sync` imports again every scope imported before (here a collection and the whole library),
    so an item trashed in Zotero leaves; the local API's version tells a change from none."""
    items = _items(tmp_path)
    data = str(tmp_path / "data")
    with FakeZotero(items, COLLECTIONS) as zotero:
        unchanged = library_version(zotero.url)
        assert unchanged is not None and library_version(zotero.url) == unchanged
        for args in (["--collection", "Obesity"], []):
            assert main(["--data-dir", data, "zotero", "import", *args, "--zotero-url", zotero.url, "--quiet"]) == 0
        capsys.readouterr()
        trashed = next(i for i in items if i.pdf is not None and "COLLOBES" in i.collections)
        trashed.trashed = True  # in Zotero: the obesity paper goes to the trash
        assert library_version(zotero.url) != unchanged
        status = main(["--data-dir", data, "zotero", "sync", "--zotero-url", zotero.url, "--quiet"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "the collection 'obesity'" in out and "the whole library" in out and "1 removed" in out
    library = Library(Path(data) / "library", LibrarySettings())
    try:
        assert trashed.title not in [d.title for d in library.documents()] and library.documents()
        assert imported_scopes(library) == ["library"]  # the collection held only the trashed paper
    finally:
        library.close()
    assert library_version(f"http://127.0.0.1:{free_port()}/api") is None  # Zotero not running: no version

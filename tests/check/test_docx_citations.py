"""A Word draft's citations beyond its plain text (core/check/word.py, issue #47): superscript citation numbers read
as "[3]", footnotes as numbered entries whose marks cite them, and Zotero citation fields whose items carry their
Zotero keys, matched to the library's Zotero documents by key first. The .docx files are built here with python-docx
(footnotes and field codes written into the package's XML, as Word and the Zotero plugin write them)."""

from __future__ import annotations

import json
import shutil
import zipfile

import docx
import pytest
from docx.oxml import OxmlElement
from docx.oxml.ns import qn

from courtroom_desktop.core.check.drafts import draft_text, read_draft
from courtroom_desktop.core.check.references import Work, find_citations, match_references, read_references
from courtroom_desktop.core.check.word import is_exponent, with_fields
from tests.check.test_annotate import commented_text, record_of

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
FOOTNOTES_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes"
FOOTNOTES_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"

LIST_EN = ["References",
           "1. Okafor CN, Mensah A. Iron supplementation in late pregnancy and maternal anaemia. Lancet. 2019;7:345-53.",
           "2. Lindqvist P, Berg K. Prophylactic iron and gestational length. BJOG. 2016;123:1501-8.",
           "3. Turner G. Sleep restriction and obesity in adults. Health Econ. 2021;30:88-97.",
           "4. Abebe T, Girma S. A survey of antenatal clinics in Ethiopia. Ethiop Med J. 2012;50:12-9.",
           "5. Haddad R. Daily versus weekly iron in pregnancy. Cochrane Database Syst Rev. 2015;7:CD009997."]


# ------------------------------------------------------------------------------------------------ building drafts
def superscript(paragraph, text: str) -> None:
    paragraph.add_run(text).font.superscript = True


def footnote_mark(paragraph, note_id: int) -> None:
    """A footnote's mark as Word writes it: a superscript run holding w:footnoteReference."""
    run = paragraph.add_run()
    run.font.superscript = True
    run._r.append(OxmlElement("w:footnoteReference", attrs={qn("w:id"): str(note_id)}))


def _field_run(paragraph, child) -> None:
    run = paragraph.add_run()
    run._r.append(child)


def zotero_field(paragraph, items: list[dict], shown: str, *, raised: bool = False) -> None:
    """A Zotero citation field: begin, its code split over two w:instrText runs, separate, the visible result, end."""
    code = " ADDIN ZOTERO_ITEM CSL_CITATION " + json.dumps(
        {"citationID": "x1", "properties": {"formattedCitation": shown}, "citationItems": items}, ensure_ascii=False)
    _field_run(paragraph, OxmlElement("w:fldChar", attrs={qn("w:fldCharType"): "begin"}))
    half = len(code) // 2
    for piece in (code[:half], code[half:]):
        instruction = OxmlElement("w:instrText", attrs={qn("xml:space"): "preserve"})
        instruction.text = piece
        _field_run(paragraph, instruction)
    _field_run(paragraph, OxmlElement("w:fldChar", attrs={qn("w:fldCharType"): "separate"}))
    run = paragraph.add_run(shown)
    run.font.superscript = raised or None
    _field_run(paragraph, OxmlElement("w:fldChar", attrs={qn("w:fldCharType"): "end"}))


def item(key: str, title: str, family: str, year: int, doi: str = "") -> dict:
    data = {"id": key, "type": "article-journal", "title": title, "author": [{"family": family, "given": "A."}],
            "issued": {"date-parts": [[str(year), 3]]}}
    if doi:
        data["DOI"] = doi
    return {"id": key, "uris": [f"http://zotero.org/users/local/kU3sd9/items/{key}"], "itemData": data}


def add_footnotes(path, notes: dict[int, str]) -> None:
    """Give a saved .docx a footnotes part (python-docx writes none): word/footnotes.xml with Word's two separators
    and the notes, its relationship from the document part, and its content type."""
    body = "".join(
        f'<w:footnote w:id="{n}"><w:p><w:pPr><w:pStyle w:val="FootnoteText"/></w:pPr><w:r><w:rPr><w:vertAlign '
        f'w:val="superscript"/></w:rPr><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> {text}</w:t></w:r>'
        f'</w:p></w:footnote>' for n, text in notes.items())
    xml = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:footnotes xmlns:w="{W_NS}">'
           '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
           '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p>'
           f'</w:footnote>{body}</w:footnotes>')
    copy = path.with_suffix(".tmp")
    shutil.move(path, copy)
    with zipfile.ZipFile(copy) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for entry in source.infolist():
            data = source.read(entry.filename)
            if entry.filename == "[Content_Types].xml":
                data = data.replace(b"</Types>", f'<Override PartName="/word/footnotes.xml" ContentType='
                                                 f'"{FOOTNOTES_TYPE}"/></Types>'.encode())
            elif entry.filename == "word/_rels/document.xml.rels":
                data = data.replace(b"</Relationships>", f'<Relationship Id="rIdNotes99" Type="{FOOTNOTES_REL}" '
                                                         f'Target="footnotes.xml"/></Relationships>'.encode())
            target.writestr(entry, data)
        target.writestr("word/footnotes.xml", xml.encode("utf-8"))
    copy.unlink()


def listed(document, lines: list[str]) -> None:
    for line in lines:
        document.add_paragraph(line)


def sentences_of(path) -> list[tuple[int, str]]:
    return [(s.index, s.text) for s in read_draft(path).sentences]


def cited(path) -> dict[str, tuple[int, ...]]:
    """Each citation of the first paragraph -> the reference entries it names, the draft read whole (Zotero fields
    included)."""
    draft = read_draft(path)
    references = read_references(draft_text(path))
    body = [(s.index, s.text) for s in draft.sentences if s.location.paragraph == 1]
    references, citations = with_fields(draft, references, find_citations(body, references))
    return {c.text: c.references for c in citations}


# ------------------------------------------------------------------------------------------------ superscripts
def test_superscript_numbers_are_numbered_citations(tmp_path):
    """A superscript "3", "1,2", "3-5" and "4–5" read as "[3]", "[1,2]", "[3-5]", "[4–5]" in the sentence and in the
    whole text, each naming its entries; a superscript split over two runs is one citation (break: no brackets in
    word.pieces, and the sentences hold bare digits that cite nothing)."""
    document = docx.Document()
    paragraph = document.add_paragraph("Sleep restriction raised the risk of obesity")
    superscript(paragraph, "3")
    paragraph.add_run(". Iron in late pregnancy cut anaemia")
    superscript(paragraph, "1,")
    superscript(paragraph, "2")
    paragraph.add_run(". Three trials agreed")
    superscript(paragraph, "3-5")
    paragraph.add_run(", and two surveys did too")
    superscript(paragraph, "4–5")
    paragraph.add_run(".")
    listed(document, LIST_EN)
    path = tmp_path / "draft.docx"
    document.save(str(path))

    texts = [text for _, text in sentences_of(path)]
    assert texts[:3] == ["Sleep restriction raised the risk of obesity[3].", "Iron in late pregnancy cut anaemia[1,2].",
                         "Three trials agreed[3-5], and two surveys did too[4–5]."]
    assert "obesity[3]." in draft_text(path)
    assert cited(path) == {"[3]": (2,), "[1,2]": (0, 1), "[3-5]": (2, 3, 4), "[4–5]": (3, 4)}


def test_a_unit_superscript_stays_as_written_and_a_word_or_year_before_one_is_a_citation(tmp_path):
    """m², cm³, km², m/s² and 10³ are exponents; "th" is no number; a superscript after a word, or after a year
    ending in 10, is a citation (break: is_exponent always False, and "m[2]" appears; always True for a letter before
    it, and "risk[2]" is lost)."""
    document = docx.Document()
    paragraph = document.add_paragraph("Each plot covered 25 m")
    superscript(paragraph, "2")
    paragraph.add_run(" and 3 cm")
    superscript(paragraph, "3")
    paragraph.add_run(" of soil, or 2 km")
    superscript(paragraph, "2")
    paragraph.add_run(" in all, at 9.8 m/s")
    superscript(paragraph, "2")
    paragraph.add_run(" and a density of 4×10")
    superscript(paragraph, "3")
    paragraph.add_run(" per litre on the 5")
    superscript(paragraph, "th")
    paragraph.add_run(" day. The risk rose")
    superscript(paragraph, "2")
    paragraph.add_run(" as it did in 2010")
    superscript(paragraph, "1")
    paragraph.add_run(".")
    listed(document, LIST_EN)
    path = tmp_path / "units.docx"
    document.save(str(path))

    texts = [text for _, text in sentences_of(path)]
    assert texts[0] == ("Each plot covered 25 m2 and 3 cm3 of soil, or 2 km2 in all, at 9.8 m/s2 and a density of "
                        "4×103 per litre on the 5th day.")
    assert texts[1] == "The risk rose[2] as it did in 2010[1]."
    assert cited(path) == {"[2]": (1,), "[1]": (0,)}
    assert is_exponent("2", "25 m") and is_exponent("3", "×10") and is_exponent("2", "5mm")
    assert not is_exponent("2", "the arm") and not is_exponent("1", "in 2010") and not is_exponent("2,3", "25 m")


def test_a_chinese_sentence_with_a_superscript_citation(tmp_path):
    """研究表明，睡眠不足会增加肥胖风险³。 -> the sentence carries [3], which names the third entry of a GB/T 7714
    list (break: no brackets in word.pieces, and it cites nothing)."""
    document = docx.Document()
    paragraph = document.add_paragraph("研究表明，睡眠不足会增加肥胖风险")
    superscript(paragraph, "3")
    paragraph.add_run("。公园可达性与老年人步行时间正相关")
    superscript(paragraph, "1-2")
    paragraph.add_run("。")
    listed(document, ["参考文献", "[1] 刘洋, 陈静. 城市绿地覆盖率与居民心理健康的关系[J]. 地理学报, 2020, 75(4): 812-826.",
                      "[2] 王芳, 李强. 公园可达性对老年人步行行为的影响[J]. 城市规划, 2019, 43(6): 55-63.",
                      "[3] 孙磊. 睡眠不足与成人肥胖风险[J]. 中华流行病学杂志, 2021, 42(2): 1-8."])
    path = tmp_path / "草稿.docx"
    document.save(str(path))

    assert [text for _, text in sentences_of(path)][:2] == ["研究表明，睡眠不足会增加肥胖风险[3]。",
                                                            "公园可达性与老年人步行时间正相关[1-2]。"]
    assert cited(path) == {"[3]": (2,), "[1-2]": (0, 1)}
    assert read_references(draft_text(path))[2].title == "睡眠不足与成人肥胖风险"


# ------------------------------------------------------------------------------------------------ footnotes
FOOTNOTES = {
    1: "Okafor CN, Mensah A. Iron supplementation in late pregnancy and maternal anaemia. Lancet. 2019;7:345-53.",
    2: "The trial was stopped early for benefit, as the authors say.",  # a prose note: cites nothing
    5: "Turner G. Sleep restriction and obesity in adults. Health Econ. 2021;30:88-97. doi:10.1002/hec.4021",
}
LIBRARY = [Work(doc_id="okafor", title="Iron Supplementation in Late Pregnancy and Maternal Anaemia",
                authors="Chidi N. Okafor", year=2019),
           Work(doc_id="turner", title="Obesity after sleep restriction", authors="G. Turner", year=2021,
                doi="10.1002/hec.4021"),
           Work(doc_id="other", title="Folic acid and neural tube defects", authors="Smith, J.", year=2019)]


def footnoted(path, own_list: list[str] | None = None):
    document = docx.Document()
    paragraph = document.add_paragraph("Iron in late pregnancy cut anaemia by a third")
    footnote_mark(paragraph, 5 if own_list else 1)  # numbered by where it stands, not by its id
    paragraph.add_run(". The trial ended early")
    footnote_mark(paragraph, 2)
    paragraph.add_run(". Short sleep raised the risk of obesity")
    footnote_mark(paragraph, 1 if own_list else 5)
    paragraph.add_run(" [1].")
    if own_list:
        listed(document, own_list)
    document.save(str(path))
    add_footnotes(path, FOOTNOTES)
    return path


def test_footnotes_are_the_reference_list_and_their_marks_cite_them(tmp_path):
    """Each mark reads as [N], N in order of appearance; the notes follow the text as a list under "References", the
    prose note an entry that matches nothing; the marks name their notes, which match library works (break: the mark
    left empty in word.pieces, or the notes left out of WordText.text, and it fails)."""
    path = footnoted(tmp_path / "notes.docx")
    texts = [text for _, text in sentences_of(path)]
    assert texts == ["Iron in late pregnancy cut anaemia by a third[1].", "The trial ended early[2].",
                     "Short sleep raised the risk of obesity[3] [1]."]
    whole = draft_text(path)
    assert whole.endswith("References\n[1] " + FOOTNOTES[1] + "\n[2] " + FOOTNOTES[2] + "\n[3] " + FOOTNOTES[5])
    references = read_references(whole)
    assert [(r.number, r.first_author, r.year) for r in references] == [(1, "Okafor", 2019), (2, "The", None),
                                                                        (3, "Turner", 2021)]
    citations = find_citations(sentences_of(path), references)
    assert [(c.sentence, c.text, c.references) for c in citations] == [(0, "[1]", (0,)), (1, "[2]", (1,)),
                                                                       (2, "[3]", (2,)), (2, "[1]", (0,))]
    matches = match_references(references, LIBRARY)
    assert [(m.doc_id, m.how) for m in matches] == [("okafor", "title"), ("", ""), ("turner", "doi")]


def test_footnotes_beside_a_numbered_list_are_numbered_on_from_it(tmp_path):
    """A draft with its own list [1]-[5] and footnotes: the footnotes are [6], [7], [8], so the typed [1] still names
    the list's first entry and each mark its note (break: no offset in word.note_numbers, and [1] names a note)."""
    path = footnoted(tmp_path / "both.docx", LIST_EN)
    texts = [text for _, text in sentences_of(path)]
    assert texts[:3] == ["Iron in late pregnancy cut anaemia by a third[6].", "The trial ended early[7].",
                         "Short sleep raised the risk of obesity[8] [1]."]
    references = read_references(draft_text(path))
    assert [r.number for r in references] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert references[5].text.startswith("[6] Turner") and references[7].text.startswith("[8] Okafor")
    citations = find_citations(sentences_of(path), references)
    assert [(c.sentence, c.text, c.references) for c in citations[:4]] == [(0, "[6]", (5,)), (1, "[7]", (6,)),
                                                                           (2, "[8]", (7,)), (2, "[1]", (0,))]


# ------------------------------------------------------------------------------------------------ Zotero
IRON = item("IRNK3Y7Q", "Iron supplementation in late pregnancy and maternal anaemia", "Okafor", 2019)
REMOTE = item("NGPK2021", "Working from home and self-reported productivity", "Nguyen", 2021,
              doi="https://doi.org/10.1371/journal.pone.0251234")
SLEEP = item("SLPX4Z8B", "Sleep restriction and obesity in adults", "Turner", 2021)


def zotero_draft(path):
    document = docx.Document()
    paragraph = document.add_paragraph("Iron in late pregnancy cut anaemia by a third ")
    zotero_field(paragraph, [IRON], "[1]")
    paragraph.add_run(". Remote work raised productivity ")
    zotero_field(paragraph, [REMOTE, SLEEP], "(Nguyen & Park, 2021; Turner, 2021)")
    paragraph.add_run(". Anaemia fell again ")
    zotero_field(paragraph, [IRON], "[1]")
    paragraph.add_run(".")
    document.save(str(path))
    return path


def test_zotero_fields_cite_their_items_which_match_the_library_by_key(tmp_path):
    """The field's code (split over two runs) is read, its visible result stays in the sentence and cites exactly its
    items; each item is one reference with its key, title, first author, year and DOI; a library work with that key
    is matched by it though its title differs and neither gives a DOI (break: only the first w:instrText read, or no
    key match in match_references, and it fails)."""
    path = zotero_draft(tmp_path / "zotero.docx")
    texts = [text for _, text in sentences_of(path)]
    assert texts == ["Iron in late pregnancy cut anaemia by a third [1].",
                     "Remote work raised productivity (Nguyen & Park, 2021; Turner, 2021).", "Anaemia fell again [1]."]
    draft = read_draft(path)
    references, citations = with_fields(draft, [], [])
    assert [(r.zotero_key, r.first_author, r.year, r.doi) for r in references] == [
        ("IRNK3Y7Q", "Okafor", 2019, ""), ("NGPK2021", "Nguyen", 2021, "10.1371/journal.pone.0251234"),
        ("SLPX4Z8B", "Turner", 2021, "")]
    assert references[0].title == "Iron supplementation in late pregnancy and maternal anaemia"
    assert [(c.sentence, c.text, c.references) for c in citations] == [
        (0, "[1]", (0,)), (1, "(Nguyen & Park, 2021; Turner, 2021)", (1, 2)), (2, "[1]", (0,))]
    works = [Work(doc_id="iron-doc", title="Maternal haemoglobin after prophylactic iron", authors="Someone Else",
                  year=2018, key="IRNK3Y7Q"),
             Work(doc_id="remote-doc", title="Remote work", doi="10.1371/journal.pone.0251234", key="OTHERKEY")]
    matches = match_references(references, works)
    assert [(m.doc_id, m.how, m.score) for m in matches] == [("iron-doc", "zotero key", 1.0),
                                                             ("remote-doc", "doi", 1.0), ("", "", 0.0)]


def test_a_zotero_item_the_drafts_own_list_has_is_that_entry(tmp_path):
    """A Zotero bibliography typed out under "References": the item is the entry holding its title (given the key),
    not a second reference; a superscript field result "1" reads as [1] (break: _same_work always False, and the
    items are appended as well)."""
    document = docx.Document()
    paragraph = document.add_paragraph("Short sleep raised the risk of obesity")
    zotero_field(paragraph, [SLEEP], "1", raised=True)
    paragraph.add_run(".")
    listed(document, ["References", "1. Turner G. Sleep restriction and obesity in adults. Health Econ. 2021;30:88-97."])
    path = tmp_path / "bib.docx"
    document.save(str(path))
    assert sentences_of(path)[0][1] == "Short sleep raised the risk of obesity[1]."
    references = read_references(draft_text(path))
    references, citations = with_fields(read_draft(path), references, find_citations(sentences_of(path), references))
    assert [(r.number, r.zotero_key) for r in references] == [(1, "SLPX4Z8B")]
    assert [(c.sentence, c.text, c.references) for c in citations] == [(0, "[1]", (0,))]


# ------------------------------------------------------------------------------------------------ end to end
class _Catalog:
    def __init__(self, sources: dict[str, str]):
        self._sources = sources

    def sources(self) -> dict[str, str]:
        return self._sources

    def notices(self) -> dict:
        return {}


class _Library:
    """The part of the library LibraryService.works() reads: documents, their Zotero sources, their passages."""

    def __init__(self, documents, sources: dict[str, str]):
        self._documents = documents
        self.catalog = _Catalog(sources)

    def documents(self):
        return self._documents

    def doc_chunks(self, doc_id: str) -> list:
        return []


class _Parts:
    def __init__(self, library: _Library):
        self.library = library


def test_the_check_service_reads_a_word_drafts_superscripts_footnotes_and_zotero_fields(tmp_path):
    """CheckService.references() over a Word draft with all three, against LibraryService.works() of a library
    whose Zotero documents carry their item keys (break: Work.key left empty in works(), and the Zotero-cited work is
    not found; with_fields not called, and its citations are gone)."""
    from courtroom_desktop.core.library.zotero.items import SourceRecord
    from courtroom_desktop.core.records import DocStatus, Document
    from courtroom_desktop.core.workspace.checks import CheckService
    from courtroom_desktop.core.workspace.library import LibraryService

    document = docx.Document()
    paragraph = document.add_paragraph("Three trials found no effect on preterm birth")
    superscript(paragraph, "2")
    paragraph.add_run(". Iron cut anaemia by a third")
    footnote_mark(paragraph, 1)
    paragraph.add_run(". Anaemia at delivery fell ")
    zotero_field(paragraph, [IRON], "(Okafor, 2019)")
    paragraph.add_run(".")
    listed(document, LIST_EN[:3])
    path = tmp_path / "memo.docx"
    document.save(str(path))
    add_footnotes(path, {1: FOOTNOTES[5]})

    def doc(doc_id: str, title: str, author: str, year: int) -> Document:
        return Document(id=doc_id, path=f"/papers/{doc_id}.pdf", sha256=doc_id, title=title, authors=author,
                        year=year, status=DocStatus.ready)

    zotero = SourceRecord(item_key="IRNK3Y7Q", attachment_key="ATT1", title="Prophylactic iron in the third trimester",
                          authors="Okafor, C.", year=2019, cite="Okafor 2019", link="zotero://select/items/IRNK3Y7Q")
    library = _Library([doc("iron", "Prophylactic iron in the third trimester", "Okafor, C.", 2019),
                        doc("sleep", "Sleep restriction and obesity in adults", "Turner, G.", 2021),
                        doc("lindqvist", "Prophylactic iron and gestational length", "Lindqvist, P.", 2016)],
                       {"iron": zotero.to_json()})
    service = CheckService(None, None, LibraryService(_Parts(library)))  # type: ignore[arg-type]
    found = service.references(path)
    # the Zotero item is the list's first entry (its title is there), which takes its key; the footnote is [3]
    assert [(r.number, r.zotero_key) for r in found.references] == [(1, "IRNK3Y7Q"), (2, ""), (3, "")]
    assert [(c.sentence, c.text) for c in found.citations] == [(0, "[2]"), (1, "[3]"), (2, "(Okafor, 2019)")]
    assert [(m.doc_id, m.how) for m in found.matches] == [("iron", "zotero key"), ("lindqvist", "title"),
                                                          ("sleep", "title")]
    assert (found.cited_by(0), found.cited_by(1), found.cited_by(2)) == ([2], [0], [1])


def test_the_annotated_word_copy_comments_on_the_claim_around_a_superscript_and_a_footnote_mark(tmp_path):
    """The annotated copy counts characters as the draft was read: a claim after a superscript citation and a
    footnote mark gets its comment on exactly its own words (break: claim_runs counting python-docx's text, and the
    comment lands a few characters off)."""
    from courtroom_desktop.core.check.annotate import annotate_draft

    document = docx.Document()
    paragraph = document.add_paragraph("Iron cut anaemia")
    superscript(paragraph, "1")
    paragraph.add_run(" and shortened labour")
    footnote_mark(paragraph, 1)
    paragraph.add_run(". Costs fell by a third in 2020.")
    listed(document, LIST_EN)
    path = tmp_path / "memo.docx"
    document.save(str(path))
    add_footnotes(path, {1: FOOTNOTES[5]})
    draft = read_draft(path)
    first, second = draft.sentences[:2]
    assert (first.text, second.text) == ("Iron cut anaemia[1] and shortened labour[6].",
                                         "Costs fell by a third in 2020.")
    record = record_of(path, "docx", [([first], None, None), ([second], None, None)])
    written, why = annotate_draft(record, path, tmp_path / "out")
    assert why == "" and written is not None
    assert commented_text(written) == {0: "Iron cut anaemia1 and shortened labour.", 1: "Costs fell by a third in 2020."}


@pytest.mark.parametrize("shown", ["[1]", "(Okafor, 2019)"])
def test_a_damaged_zotero_code_is_read_as_no_field(tmp_path, shown):
    """A field whose JSON is cut short cites nothing of its own: the visible text is all there is."""
    document = docx.Document()
    paragraph = document.add_paragraph("Iron cut anaemia ")
    _field_run(paragraph, OxmlElement("w:fldChar", attrs={qn("w:fldCharType"): "begin"}))
    instruction = OxmlElement("w:instrText")
    instruction.text = ' ADDIN ZOTERO_ITEM CSL_CITATION {"citationItems": [{"uris": ['
    _field_run(paragraph, instruction)
    _field_run(paragraph, OxmlElement("w:fldChar", attrs={qn("w:fldCharType"): "separate"}))
    paragraph.add_run(shown)
    _field_run(paragraph, OxmlElement("w:fldChar", attrs={qn("w:fldCharType"): "end"}))
    paragraph.add_run(".")
    path = tmp_path / "damaged.docx"
    document.save(str(path))
    assert with_fields(read_draft(path), [], []) == ([], [])
    assert sentences_of(path) == [(0, f"Iron cut anaemia {shown}.")]


def test_the_command_line_lists_a_zotero_fields_key(tmp_path, capsys):
    """`courtroom check DRAFT.docx --references-only --json` names each reference's Zotero item key."""
    from courtroom_desktop.cli import main

    path = zotero_draft(tmp_path / "zotero.docx")
    base = ["--config-dir", str(tmp_path / "config"), "--data-dir", str(tmp_path / "data")]
    assert main([*base, "check", str(path), "--references-only", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["references"]
    assert [row["zotero_key"] for row in rows][:2] == ["IRNK3Y7Q", "NGPK2021"]
    assert all(not row["in_library"] for row in rows)  # an empty library: each is cited, not in it

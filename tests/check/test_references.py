"""A draft's references (core/check/references.py): the reference list read, the in-text citations tied to their
entries, and each entry matched to a library document by DOI, title or first author and year. The drafts and
libraries here were written for these tests, apart from the matcher: three citation styles (Vancouver numbered,
APA author-year, GB/T 7714 numbered in Chinese), cited works in the library under titles worded a little
differently from the reference, and works the library does not have."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf
import pytest

from courtroom_desktop.core.check.references import (
    Work,
    find_citations,
    match_references,
    parse_reference,
    read_references,
    split_reference_list,
    title_overlap,
)

VANCOUVER = """Iron supplements in the third trimester cut anaemia by a third [1]. Two trials found no effect on preterm
birth [2, 3]. Screening at 28 weeks is cost-effective [4-5].

References
1. Okafor CN, Mensah A, Diallo B. Iron supplementation in late pregnancy and maternal anaemia: a randomised
controlled trial. Lancet Glob Health. 2019;7(3):e345-e353. doi:10.1016/S2214-109X(19)30012-4
2. Lindqvist P, Berg K. Prophylactic iron and gestational length: a cohort of 12,000 Swedish births. BJOG.
2016;123(9):1501-8.
3. Haddad R, Nassar M, Saleh F. Daily versus weekly iron in pregnancy. Cochrane Database Syst Rev. 2015;(7):CD009997.
4. Turner G. Cost-effectiveness of haemoglobin screening at 28 weeks' gestation. Health Econ. 2021;30:88-97.
5. Abebe T, Girma S. A survey of antenatal clinics in Ethiopia. Ethiop Med J. 2012;50:12-9.
"""

APA = """Remote work raised self-reported productivity (Nguyen & Park, 2021). Office attendance fell most among parents
(Garcia et al., 2022a), though managers disagreed (Garcia et al., 2022b). Kowalski (2020) found no change in output.

Bibliography

Garcia, M., Ortiz, L., & Webb, S. (2022a). Who returns to the office? Parents and hybrid work after the pandemic.
Journal of Labor Research, 43(2), 101-119. https://doi.org/10.1007/s12122-022-09334-1
Garcia, M., Ortiz, L., & Webb, S. (2022b). Managers' views of hybrid teams. Work and Occupations, 49(4), 455-480.
Kowalski, J. (2020). Output per hour in home offices: evidence from payroll data. Labour Economics, 66, 101899.
Nguyen, T., & Park, H. (2021). Working from home and self-reported productivity: a panel study. PLOS ONE, 16(5),
e0251234. https://doi.org/10.1371/journal.pone.0251234
"""

GBT = """城市绿地每增加10%，居民的心理压力评分下降约8%[1]。公园可达性与老年人步行时间正相关[2-3]。张伟等（2018）认为噪声是主要中介因素。

参考文献
[1] 刘洋, 陈静. 城市绿地覆盖率与居民心理健康的关系[J]. 地理学报, 2020, 75(4): 812-826.
[2] 王芳, 李强, 赵敏. 公园可达性对老年人步行行为的影响[J]. 城市规划, 2019, 43(6): 55-63.
[3] 孙磊. 社区环境与老年人日常活动[M]. 北京: 科学出版社, 2017.
[4] 张伟, 周婷. 城市噪声、绿地与居民压力[J]. 环境科学, 2018, 39(2): 901-908.
"""

#: The library each draft is checked against: the cited works (under the library's own, slightly different,
#: titles) and others. ``truth``: reference entry (0-based) -> the document it is ('' when the library lacks it).
LIBRARIES = {
    "vancouver": ([
        Work(doc_id="okafor", title="Iron Supplementation in Late Pregnancy and Maternal Anaemia: A Randomised "
                                    "Controlled Trial", authors="Chidi N. Okafor, Ama Mensah", year=2019,
             doi="10.1016/s2214-109x(19)30012-4"),
        Work(doc_id="lindqvist", title="Prophylactic iron and gestational length - a cohort of 12 000 Swedish births",
             authors="Lindqvist, P.; Berg, K.", year=2016),
        Work(doc_id="turner", title="Haemoglobin screening at 28 weeks: cost-effectiveness", authors="G. Turner",
             year=2021),
        Work(doc_id="other", title="Folic acid and neural tube defects", authors="Smith, J.", year=2019),
    ], ["okafor", "lindqvist", "", "turner", ""]),
    "apa": ([
        Work(doc_id="garcia-a", title="Who returns to the office? Parents and hybrid work after the pandemic",
             authors="Maria Garcia, Luis Ortiz, Sam Webb", year=2022, doi="10.1007/s12122-022-09334-1"),
        Work(doc_id="kowalski", title="Home office output: payroll evidence", authors="Jan Kowalski", year=2020),
        Work(doc_id="nguyen", title="Working From Home and Self-Reported Productivity: A Panel Study",
             authors="Nguyen, T.; Park, H.", year=2021),
        Work(doc_id="other", title="Commuting time and wellbeing", authors="Garcia, M.", year=2019),
    ], ["garcia-a", "", "kowalski", "nguyen"]),
    "gbt": ([
        Work(doc_id="liu", title="城市绿地覆盖率与居民心理健康的关系研究", authors="刘洋, 陈静", year=2020),
        Work(doc_id="wang", title="公园可达性对老年人步行行为的影响", authors="王芳, 李强, 赵敏", year=2019),
        Work(doc_id="zhang", title="城市噪声与居民压力", authors="张伟, 周婷", year=2018),
        Work(doc_id="other", title="城市热岛效应的时空演变", authors="孙磊", year=2021),
    ], ["liu", "wang", "", "zhang"]),
}
DRAFTS = {"vancouver": VANCOUVER, "apa": APA, "gbt": GBT}


def _sentences(text: str) -> list[tuple[int, str]]:
    body, _ = split_reference_list(text)
    return list(enumerate(s for s in body.split("\n") if s.strip()))


def test_the_reference_lists_are_read_in_three_styles():
    vancouver, apa, gbt = (read_references(DRAFTS[k]) for k in ("vancouver", "apa", "gbt"))
    assert [r.number for r in vancouver] == [1, 2, 3, 4, 5]
    assert [(r.first_author, r.year) for r in vancouver][:2] == [("Okafor", 2019), ("Lindqvist", 2016)]
    assert vancouver[0].doi == "10.1016/s2214-109x(19)30012-4"
    assert vancouver[1].title.startswith("Prophylactic iron and gestational length")  # the entry spans two lines
    assert [(r.first_author, r.year, r.letter) for r in apa] == [("Garcia", 2022, "a"), ("Garcia", 2022, "b"),
                                                              ("Kowalski", 2020, ""), ("Nguyen", 2021, "")]
    assert apa[0].title == "Who returns to the office? Parents and hybrid work after the pandemic"
    assert [(r.number, r.first_author, r.year) for r in gbt] == [(1, "刘洋", 2020), (2, "王芳", 2019), (3, "孙磊", 2017),
                                                               (4, "张伟", 2018)]
    assert gbt[0].title == "城市绿地覆盖率与居民心理健康的关系"
    assert read_references("A draft with no reference list [1].") == []


def test_each_citation_names_the_entries_it_cites():
    vancouver = read_references(VANCOUVER)
    cited = {c.text: c.references for c in find_citations(_sentences(VANCOUVER), vancouver)}
    assert cited == {"[1]": (0,), "[2, 3]": (1, 2), "[4-5]": (3, 4)}
    apa = read_references(APA)
    cited = {c.text: c.references for c in find_citations(_sentences(APA), apa)}
    assert cited["Nguyen & Park, 2021"] == (3,)
    assert cited["Garcia et al., 2022a"] == (0,) and cited["Garcia et al., 2022b"] == (1,)  # the letter decides
    assert cited["Kowalski (2020)"] == (2,)  # narrative
    gbt = read_references(GBT)
    cited = {c.text: c.references for c in find_citations(_sentences(GBT), gbt)}
    assert cited["[1]"] == (0,) and cited["[2-3]"] == (1, 2) and cited["张伟等（2018）"] == (3,)


@pytest.mark.parametrize("style", ["vancouver", "apa", "gbt"])
def test_references_are_matched_to_the_library(style):
    works, truth = LIBRARIES[style]
    matches = match_references(read_references(DRAFTS[style]), works)
    assert [m.doc_id for m in matches] == truth
    for match in matches:
        assert (match.how != "") == match.found and (0 < match.score <= 1) == match.found


def test_matching_precision_and_recall_over_the_three_drafts():
    """Precision and recall of the matches over every reference of the three drafts: at least 0.9 each. The title
    threshold (0.8) was set before these drafts were written, not tuned on them (break: a threshold of 0.1, and the
    references the library lacks take wrong documents)."""
    true_positive = predicted = actual = 0
    for style, text in DRAFTS.items():
        works, truth = LIBRARIES[style]
        for match, expected in zip(match_references(read_references(text), works), truth, strict=True):
            predicted += match.found
            actual += bool(expected)
            true_positive += match.found and match.doc_id == expected
    precision, recall = true_positive / predicted, true_positive / actual
    assert precision >= 0.9 and recall >= 0.9, (precision, recall)


def test_how_a_match_was_made():
    works, _ = LIBRARIES["vancouver"]
    okafor, lindqvist = match_references(read_references(VANCOUVER), works)[:2]
    assert okafor.how == "doi" and okafor.score == 1.0
    assert lindqvist.how == "title" and 0.8 <= lindqvist.score <= 1
    apa_works, _ = LIBRARIES["apa"]
    kowalski = match_references(read_references(APA), apa_works)[2]
    assert kowalski.how == "author and year"  # its title in the library is worded apart from the reference's
    ambiguous = [Work(doc_id="a", title="x", authors="Kowalski, J.", year=2020),
                 Work(doc_id="b", title="y", authors="Kowalski, A.", year=2020)]
    assert not match_references([parse_reference("Kowalski, J. (2020). Untitled.", 0)], ambiguous)[0].found


def test_title_overlap_reads_chinese_by_pairs_of_characters():
    assert title_overlap("城市绿地覆盖率与居民心理健康的关系", "城市绿地覆盖率与居民心理健康的关系研究") > 0.8
    assert title_overlap("城市噪声与居民压力", "城市热岛效应的时空演变") < 0.5
    assert title_overlap("", "anything") == 0.0


def _paper(path, title: str, author: str, body: str) -> None:
    document = pymupdf.open()
    page = document.new_page()
    page.insert_textbox(pymupdf.Rect(72, 72, 520, 770), body, fontsize=11)
    document.set_metadata({"title": title, "author": author, "creationDate": "D:20190101000000"})
    document.save(str(path))
    document.close()


def _iron_papers(tmp_path):
    """Two papers of the Vancouver draft's list: Okafor (its DOI printed on the first page) and Lindqvist."""
    papers = tmp_path / "papers"
    papers.mkdir()
    _paper(papers / "okafor.pdf", "Iron Supplementation in Late Pregnancy and Maternal Anaemia", "Chidi Okafor",
           "https://doi.org/10.1016/S2214-109X(19)30012-4\n\nIron supplements given in the third trimester reduced "
           "anaemia at delivery by a third compared with placebo, in a trial of 1,200 pregnant women.")
    _paper(papers / "lindqvist.pdf", "Prophylactic iron and gestational length: a cohort of 12,000 Swedish births",
           "P. Lindqvist", "Gestational length did not differ between women who took prophylactic iron and those "
                           "who did not, across 12,000 births in Sweden.")
    return papers


def test_the_command_line_lists_a_drafts_references_against_a_real_library(tmp_path, capsys):
    """`courtroom check DRAFT --references-only --json` over a real library (PDFs ingested into LanceDB and tantivy):
    a DOI printed on a paper's first page, a title, and a reference the library lacks."""
    from courtroom_desktop.cli import main

    papers = _iron_papers(tmp_path)
    base = ["--config-dir", str(tmp_path / "config"), "--data-dir", str(tmp_path / "data")]
    assert main([*base, "ingest", str(papers)]) == 0
    draft = tmp_path / "draft.md"
    draft.write_text(VANCOUVER, encoding="utf-8")
    capsys.readouterr()
    assert main([*base, "check", str(draft), "--references-only", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["references"]
    found = {row["number"]: (row["in_library"], row["matched_by"]) for row in listed}
    assert found == {1: (True, "doi"), 2: (True, "title"), 3: (False, ""), 4: (False, ""), 5: (False, "")}
    assert listed[0]["cited_in_sentences"] == [1] and listed[1]["cited_in_sentences"] == [2]
    assert main([*base, "--language", "zh", "check", str(draft), "--references-only"]) == 0
    assert "被引用，但不在你的文献库中" in capsys.readouterr().out


def test_a_claim_citing_the_wrong_paper_is_flagged(tmp_path, capsys):
    """A whole check over a real library (PDFs in LanceDB and tantivy, the shipped claim verifier, the bundled chat
    model): the claim whose cited paper says it is read there first and "supports"; the claim that cites a paper
    saying something else gets "cited source does not support" beside its verdict, in the CSV, the JSON and the
    report (break: the cited scope not searched first, and the wrong citation goes unflagged)."""
    import csv

    from courtroom_desktop.cli import main

    papers = _iron_papers(tmp_path)
    draft = tmp_path / "memo.md"
    draft.write_text("# Iron in pregnancy\n\nIron supplements given in the third trimester reduced anaemia at delivery "
                     "by a third [1].\n\nIron supplements reduced anaemia at delivery by a third in a trial of 1,200 "
                     "pregnant women [2].\n\n" + VANCOUVER[VANCOUVER.index("References"):], encoding="utf-8")
    base = ["--config-dir", str(tmp_path / "config"), "--data-dir", str(tmp_path / "data")]
    assert main([*base, "ingest", str(papers)]) == 0
    out = tmp_path / "out"
    assert main([*base, "check", str(draft), "--trials", "never", "--report", str(out), "--formats", "md,json,csv"]) == 0
    capsys.readouterr()
    claims = json.loads((out / "check.json").read_text(encoding="utf-8"))["claims"]
    assert [c["claim"][-4:] for c in claims] == ["[1].", "[2]."]  # the reference list is not checked as claims
    right, wrong = claims
    assert right["cited_in_library"] is True and right["cited_source_says"] == "supports"
    assert not right["cited_source_does_not_support"]
    assert wrong["cited_reference"].startswith("2. Lindqvist") and wrong["cited_in_library"] is True
    assert wrong["cited_source_says"] in ("refutes", "does not address") and wrong["cited_source_does_not_support"]
    assert wrong["library_says"] == "supported"  # the rest of the library (Okafor) backs the claim itself
    rows = list(csv.DictReader((out / "check.csv").read_text(encoding="utf-8-sig").splitlines()))
    assert [r["cited_source_says"] for r in rows] == ["supports", wrong["cited_source_says"]]
    assert [float(r["worth"]) for r in rows] == [c["worth"] for c in claims] and min(c["worth"] for c in claims) > 0.5
    assert "cited source does not support the claim" in (out / "check.md").read_text(encoding="utf-8")


def test_the_annotated_copys_note_names_the_cited_source_and_what_it_says():
    """The comment on a claim in the annotated draft (Word, PDF, Markdown) names the source it cites and what that
    source says, in the draft's language (break: note_of without the cited line, and it fails)."""
    from courtroom_desktop.core.check.annotate import note_of
    from courtroom_desktop.core.check.records import CheckClaim, CitedSource, ClaimRow, QuickResult
    from courtroom_desktop.core.court.records import VerdictLabel

    claim = CheckClaim(text="Prophylactic iron shortened gestation [2].", sentences=(1,),
                       cites=(CitedSource(reference="2. Lindqvist P, Berg K. Prophylactic iron and gestational length.",
                                          doc_id="lindqvist", how="title"),))
    row = ClaimRow(index=1, claim=claim, quick=QuickResult(label=VerdictLabel.insufficient, confidence=0.3,
                                                           cited_says="does not address"))
    english, chinese = note_of(row, "en"), note_of(row, "zh")
    assert "Lindqvist" in english and "cited source does not support the claim" in english, english
    assert "Lindqvist" in chinese and "所引来源不支持该主张" in chinese and "主张 2" in chinese, chinese


def _scored(folder):
    """Precision and recall of the matches over a folder of drafts (NAME.md) and their libraries with the truth
    (NAME.library.json: works, and per entry the document it is or '')."""
    true_positive = predicted = actual = 0
    for library in sorted(Path(folder).glob("*.library.json")):
        data = json.loads(library.read_text(encoding="utf-8"))
        text = library.with_name(library.name.replace(".library.json", ".md")).read_text(encoding="utf-8")
        references = read_references(text)
        assert len(references) == len(data["truth"]), library.name  # every entry read, none merged or split
        for match, expected in zip(match_references(references, [Work(**w) for w in data["works"]]), data["truth"],
                                   strict=True):
            predicted += match.found
            actual += bool(expected)
            true_positive += match.found and match.doc_id == expected
    return true_positive / predicted, true_positive / actual


@pytest.mark.parametrize(("folder", "floor"), [("references", 1.0), ("references_heldout", 0.9)])
def test_matching_precision_and_recall_on_drafts_written_apart(folder, floor):
    """Six drafts in each folder (Vancouver, APA, Harvard, mixed numbered, GB/T 7714 numbered, Chinese author-year),
    written by helpers who read neither the matcher nor the other folder. The rules were set on `references`
    (precision 0.870 and recall 0.887 before, 1.000 and 1.000 after); `references_heldout` scores them, measured once:
    0.732 / 0.745 before, 0.918 / 0.982 after (English 0.902 / 0.974, Chinese 0.950 / 1.000). Breaks, each failing
    the development set: Chinese titles compared by character instead of by pairs (precision 0.982); an organisation
    as the author not skipped to the title (recall 0.964)."""
    precision, recall = _scored(Path(__file__).parent / "data" / folder)
    assert precision >= floor and recall >= floor, (precision, recall)

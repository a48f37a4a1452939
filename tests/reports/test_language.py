"""A report speaks its claim's language: a small Chinese trial, built from hand-made events, in every format; its
English twin keeps the English wording."""

from __future__ import annotations

import datetime as dt
import json
import re
import string

import pymupdf
import pytest

from courtroom_desktop.core.court.records import (
    Assessed,
    Assessment,
    BasisRow,
    Challenge,
    ChallengeStatus,
    Citation,
    Code,
    EvidenceAdded,
    EvidenceAssessed,
    Finding,
    JudgeRuling,
    PoolEntry,
    Reason,
    Ruling,
    RulingIssued,
    Seat,
    Stance,
    Tendency,
    TrackedChallenge,
    TrialSpec,
    TrialStarted,
    Turn,
    TurnFinished,
    Verdict,
    VerdictLabel,
    VerdictReached,
)
from courtroom_desktop.core.records import Chunk, Evidence
from courtroom_desktop.core.reports import FORMATS, TrialRecord, export, read_json, render_html, render_markdown, render_pdf, view
from courtroom_desktop.core.reports.chart import confidence_svg
from courtroom_desktop.core.text import CJK_CHAR

from .helpers import Tags

ZH = {
    "claim": "二甲双胍可以降低二型糖尿病患者的糖化血红蛋白。",
    "p1": "一项为期二十四周的随机对照试验显示，服用二甲双胍的患者糖化血红蛋白平均下降了百分之一点二。",
    "p2": "一项队列研究发现，部分患者因胃肠道不良反应而停药，疗效因此减弱。",
    "p3": "该药物的价格在过去十年中保持稳定。",
    "doc1": "糖尿病治疗试验", "doc2": "队列研究报告", "section1": "3 结果 > 3.1 主要终点", "section2": "4 讨论",
    "query": "二甲双胍 停药",
    "prosecution": "控方认为停药问题削弱了疗效 [E2]。",
    "defense": "辩方指出随机对照试验显示糖化血红蛋白明显下降 [E1]。",
    "ruling": "随机对照试验的证据更有分量 [E1]。", "assessment": "[E1] 是随机对照试验。",
    "controversy": "停药是否影响总体疗效", "question": "长期疗效如何？", "ready": "证据已经足够 [E1]。",
    "finding1": "随机对照试验显示糖化血红蛋白下降 [E1]。", "finding2": "停药主要见于少数患者。",
    "summary": "资料库中的证据支持该主张：二甲双胍降低了糖化血红蛋白 [E1]。",
}
EN = {
    "claim": "Metformin lowers HbA1c in adults with type 2 diabetes.",
    "p1": "A randomised trial over twenty-four weeks found HbA1c fell by 1.2 points with metformin.",
    "p2": "A cohort study found some patients stopped the drug for stomach upsets, which weakened the effect.",
    "p3": "The price of the drug stayed the same over ten years.",
    "doc1": "Diabetes Treatment Trial", "doc2": "Cohort Study", "section1": "3 Results > 3.1 Primary endpoint",
    "section2": "4 Discussion", "query": "metformin stopping",
    "prosecution": "The prosecution says stopping weakens the effect [E2].",
    "defense": "The defense says the randomised trial shows a clear fall [E1].",
    "ruling": "The randomised trial weighs more [E1].", "assessment": "[E1] is a randomised trial.",
    "controversy": "whether stopping matters", "question": "What about the long term?", "ready": "The evidence suffices [E1].",
    "finding1": "The randomised trial shows HbA1c fell [E1].", "finding2": "Stopping was rare.",
    "summary": "The documents support the claim: metformin lowered HbA1c [E1].",
}
# the model's text in the Chinese record, without its citations (which become links): it must come out unchanged
MODEL_TEXT = [ZH["finding2"], ZH["question"], ZH["controversy"], "资料库中的证据支持该主张：二甲双胍降低了糖化血红蛋白",
              "控方认为停药问题削弱了疗效", "随机对照试验的证据更有分量"]
HEADINGS_ZH = ["裁决报告", "摘要", "法官每轮的置信度", "认定事实", "未决问题", "质量标记", "被引用的文段", "证据",
               "模型与设置", "附录：庭审记录", "第 1 轮"]
HEADINGS_EN = ["Verdict report", "Summary", "The Judge's confidence per round", "Findings", "Open questions",
               "Quality flags", "Cited passages", "Evidence", "Models and settings", "Appendix: transcript", "Round 1"]


# a stop reason as the court stores it (a code: the Chinese report words it in Chinese) and a plain string, as an
# earlier version stored one (shown as stored)
STOPPED = {True: Reason.of(Code.stop_judge_ready), False: "the judge was ready and confident"}


def make_record(text: dict[str, str]) -> TrialRecord:
    """One round, two counsel turns, a ruling and a verdict; E1 and E2 cited, E3 not."""
    at = dt.datetime(2024, 5, 6, 9, 30).timestamp()

    def entry(number: int, doc: str, section: str, passage: str, found_by: Seat, stance: Stance, level: str):
        chunk = Chunk(id=f"d{number}-0001", doc_id=f"d{number}", ordinal=1, section_path=section, page_start=number,
                      page_end=number, char_start=0, char_end=len(passage), text=passage)
        return PoolEntry(id=f"E{number}", evidence=Evidence(chunk=chunk, doc_title=doc, score=0.5, bm25_rank=number),
                         round=1, found_by=found_by, stance=stance, query=text["query"], level=level, at=at)

    spec = TrialSpec(claim=text["claim"], models={"judge": "scripted:judge"}, settings={"confidence_threshold": 0.8})
    pool = [entry(1, text["doc1"], text["section1"], text["p1"], Seat.starts_for, Stance.for_, "randomised trial"),
            entry(2, text["doc2"], text["section2"], text["p2"], Seat.starts_against, Stance.against, "cohort"),
            entry(3, text["doc2"], "", text["p3"], Seat.starts_against, Stance.against, "other")]
    turns = [Turn(round=1, index=0, seat=Seat.starts_against, stance=Stance.against, role="Prosecution",
                  text=text["prosecution"], citations=(Citation(evidence_id="E2", quote=text["p2"][:12]),),
                  queries=(text["query"],), evidence_added=("E2", "E3")),
             Turn(round=1, index=1, seat=Seat.starts_for, stance=Stance.for_, role="Defense", text=text["defense"],
                  citations=(Citation(evidence_id="E1"),), evidence_added=("E1",))]
    question = Challenge(id="Q1", text=text["question"], round=1, raised_by="Judge", addressed_to="both sides")
    ruling = Ruling(round=1, questions=(question,), ruling=JudgeRuling(
        tendency=Tendency.support, confidence=0.82, ready_for_verdict=True, key_controversy=text["controversy"],
        summary=text["ruling"], evidence_assessment=text["assessment"], open_questions=[text["question"]],
        ready_reason=text["ready"]))
    verdict = Verdict(label=VerdictLabel.supported, confidence=0.86, rounds=1, switches=0, summary=text["summary"],
                      findings=(Finding(text=text["finding1"], citations=("E1",)), Finding(text=text["finding2"], citations=("E2",))),
                      open_questions=(text["question"],), stopped_because=STOPPED[text is ZH],
                      basis=(BasisRow(level="randomised trial", supports=1), BasisRow(level="cohort", refutes=1)),
                      open_challenges=(TrackedChallenge(challenge=question, status=ChallengeStatus.unanswered),))
    assessed = EvidenceAssessed(round=1, assessments=(Assessment(evidence_id="E1", stance=Assessed.supports, relevance=0.9, round=1),
                                                      Assessment(evidence_id="E2", stance=Assessed.refutes, relevance=0.6, round=1)))
    events = [TrialStarted(spec=spec, assignments={"A": Stance.against, "B": Stance.for_}, at=at),
              *(EvidenceAdded(entry=e, at=at) for e in pool), *(TurnFinished(turn=t, at=at) for t in turns), assessed,
              RulingIssued(ruling=ruling, at=at), VerdictReached(verdict=verdict, at=at + 60)]
    return TrialRecord.from_events("t-language", spec, events, now=dt.datetime.fromtimestamp(at + 120).astimezone())


@pytest.fixture(scope="module")
def zh() -> TrialRecord:
    return make_record(ZH)


@pytest.fixture(scope="module")
def en() -> TrialRecord:
    return make_record(EN)


def flat(text: str) -> str:
    """Text without any white space (a PDF breaks Chinese lines anywhere)."""
    return "".join(text.split())


def test_the_chinese_table_has_every_wording_with_the_same_fields():
    fields = lambda template: sorted(name for _, name, _, _ in string.Formatter().parse(template) if name)
    assert view.WORDS["zh"].keys() == view.WORDS["en"].keys()
    for key, english in view.WORDS["en"].items():  # a translation may leave out punctuation passed in (a dash)
        assert set(fields(english)) - {"dash"} <= set(fields(view.WORDS["zh"][key])) <= set(fields(english)), key


def test_the_report_follows_the_claim(zh, en):
    assert (view.language(zh), view.wording(zh)) == ("zh", "zh")
    assert (view.language(en), view.wording(en)) == ("en", "en")
    # Japanese and Korean claims keep English wording, but the page declares their language
    for claim, lang in (("メトホルミンは血糖値を下げる。", "ja"), ("메트포르민은 혈당을 낮춘다.", "ko")):
        record = zh.model_copy(update={"spec": zh.spec.model_copy(update={"claim": claim})})
        assert (view.language(record), view.wording(record)) == (lang, "en")
        page, _ = render_html(record)
        assert f'<html lang="{lang}">' in page and "<h1>Verdict report</h1>" in page and claim in page


@pytest.mark.parametrize("audience", ["general", "expert"])
def test_markdown_in_chinese(zh, audience):
    text = render_markdown(zh, audience)
    headings = re.findall(r"^#+ (.*)$", text, re.M)
    for heading in HEADINGS_ZH:
        assert heading in headings, heading
    assert not [h for h in headings if h in HEADINGS_EN]
    assert "资料库中的证据支持该主张。法庭的置信度为高（在 0 到 1 的量表上为 0.86）。" in text
    assert "裁决依据：1 段支持性文段（randomised trial 1）和 1 段反驳性文段（cohort 1）。" in text
    assert "**裁决：支持 (SUPPORTED)**，置信度 0.86（高）" in text
    assert "*共 1 轮，换边 0 次；停止原因：法官认为案件已可裁决。*" in text
    assert "| ID | 文档 | 页码 | 章节 | 摘录 | 立场（评估） | 发现者 | 引用者 | 证据等级 |" in text
    assert "证据等级：randomised trial · 内容：支持 (supports)，相关度 0.90 · 引用者：辩方 (Defense)（第 1 轮），裁决" in text
    assert "**控方 (Prosecution)**（律师 A，反对 (against)）" in text  # the stored role, its Chinese name beside it
    for model_text in MODEL_TEXT + [ZH["p1"], ZH["p2"]]:
        assert model_text in text, model_text
    if audience == "expert":
        assert "| ID | 发现者 | 检索词 | 融合得分 | BM25 排名 | 向量排名 | 新颖度 |" in text
        assert "### 第 1 轮：支持 (support)，置信度 0.82" in text and "## 各轮详情" in text


@pytest.mark.parametrize("audience", ["general", "expert"])
def test_html_in_chinese(zh, audience):
    page, _ = render_html(zh, audience)
    assert page.startswith('<!DOCTYPE html>\n<html lang="zh">')
    assert '"Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei", sans-serif' in page
    headings = re.findall(r"<h[123][^>]*>(.*?)</h[123]>", page)
    for heading in HEADINGS_ZH:
        assert heading in headings, heading
    assert "资料库中的证据支持该主张。法庭的置信度为高（在 0 到 1 的量表上为 0.86）。" in page
    assert "<th>ID</th><th>文档</th><th>页码</th><th>章节</th><th>摘录</th><th>立场（评估）</th>" in page
    assert "<p>无。</p>" in page  # no quality flags
    assert "本报告没有生成高亮副本。" in page and "<title>裁决报告：" in page
    for model_text in MODEL_TEXT + [ZH["p1"], ZH["p2"]]:
        assert model_text in page, model_text
    assert "E1" in Tags(page).ids
    if audience == "expert":
        assert "<th>ID</th><th>发现者</th><th>检索词</th><th>融合得分</th>" in page


def test_english_wording_stays(en):
    text = render_markdown(en, "general")
    lines = text.splitlines()
    assert lines[0] == "# Verdict report" and lines[2].startswith("**Claim:** Metformin")
    assert lines[4].startswith("Trial t-language · started 2024-05-06T09:30:00") and "summary for a general reader" in lines[4]
    assert lines[6] == "**Verdict: SUPPORTED**, confidence 0.86 (high)"
    assert lines[8] == "*1 round(s), 0 role switch(es); stopped because the judge was ready and confident.*"
    assert "The evidence in the library supports the claim. The court's confidence is high (0.86 on a scale from 0 to 1)." in text
    assert "It rests on 1 supporting passage (randomised trial 1) and 1 refuting passage (cohort 1)." in text
    assert "Evidence level: randomised trial · says: supports (relevance 0.90) · cited by Defense (round 1), verdict" in text
    assert "| ID | Document | Page | Section | Excerpt | Stance (assessed) | Found by | Cited by | Evidence level |" in text
    page, _ = render_html(en, "expert")
    assert page.startswith('<!DOCTYPE html>\n<html lang="en">') and "Noto Sans CJK" not in page
    for output in (text, page, confidence_svg(en)):
        assert not CJK_CHAR.search(output)
    headings = re.findall(r"^#+ (.*)$", text, re.M)
    assert all(h in headings for h in HEADINGS_EN)


def test_chart_and_json_in_chinese(zh, tmp_path):
    svg = confidence_svg(zh)
    assert "阈值 0.80" in svg and "轮次" in svg and "倾向：支持" in svg
    with pymupdf.open(stream=svg.encode(), filetype="svg") as doc:
        assert "轮次" in doc[0].get_text()
    paths = export(zh, FORMATS, tmp_path)
    raw = (tmp_path / "report.json").read_text(encoding="utf-8")
    assert ZH["claim"] in raw and '"label": "supported"' in raw and '"role": "Prosecution"' in raw
    assert read_json(tmp_path / "report.json") == zh.model_copy(update={"sources": read_json(tmp_path / "report.json").sources})
    assert json.loads(raw)["spec"]["claim"] == ZH["claim"]
    assert all(p.is_file() for p in paths)


def test_pdf_in_chinese_embeds_a_cjk_font(zh):
    data = render_pdf(zh, "expert")
    with pymupdf.open("pdf", data) as doc:
        text = flat("".join(page.get_text() for page in doc))
        for heading in HEADINGS_ZH + ["各轮详情", "证据的检索方式"]:
            assert flat(heading) in text, heading
        for passage in (ZH["p1"], ZH["p2"], ZH["claim"]):
            assert flat(passage) in text, passage
        assert flat("资料库中的证据支持该主张。法庭的置信度为高") in text
        for page in doc:  # the footer, upright at the foot of every page
            foot = " ".join(w[4] for w in page.get_text("words") if w[1] > page.rect.height - 40)
            assert f"Courtroom Desktop 裁决报告 · 审理 t-language 第 {page.number + 1} 页，共 {doc.page_count} 页" == foot
        fonts = {font[3] for number in range(doc.page_count) for font in doc.get_page_fonts(number) if font[1] != "n/a"}
        assert any(re.search(r"Droid Sans Fallback|Noto Sans (CJK|SC)|Source Han", name) for name in fonts), fonts
        assert "认定事实" in [title for _, title, _ in doc.get_toc()]
        assert doc.metadata["title"].startswith("裁决报告：")
    assert len(data) < 600_000, "the CJK font is cut down to the glyphs used"

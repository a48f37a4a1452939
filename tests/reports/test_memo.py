"""A decision with options as a report (the decision memo, core.reports.memo): the title, the recommendation in the
verdict box, the options-by-criteria table with each score's citations as links, what would change the
recommendation and what is worth finding out next; in English and Chinese, in Markdown, HTML and PDF."""

from __future__ import annotations

import re

import pymupdf
import pytest

from courtroom_desktop.core.court.decisions import (
    ConstraintCheck,
    Criterion,
    CriterionScore,
    DecisionSpec,
    Hearing,
    outcome,
)
from courtroom_desktop.core.court.records import CaseType
from courtroom_desktop.core.reports import export
from courtroom_desktop.core.reports.html_writer import render_html
from courtroom_desktop.core.reports.md_writer import md_escape, render_markdown

from .test_language import EN, ZH, make_record

SPEC = DecisionSpec(options=("Lisbon", "Berlin"),
                    criteria=(Criterion(name="cost of living", weight=3), Criterion(name="career", weight=1)),
                    constraints=("rent under 1500",))


def hearing(option: str, cost: float | None, career: float | None) -> Hearing:
    return Hearing(option=option, scores=(
        CriterionScore(criterion="cost of living", score=cost, citations=("E1",) if cost is not None else ()),
        CriterionScore(criterion="career", score=career, citations=("E2",) if career is not None else ())),
        constraints=(ConstraintCheck(constraint="rent under 1500", status="met", citations=("E1",)),))


def memo_record(text: dict[str, str], question: str, hearings: list[Hearing]):
    base = make_record(text)
    result = outcome(question, SPEC, hearings)
    spec = base.spec.model_copy(update={"claim": question, "case": CaseType.decision, "decision": SPEC})
    verdict = base.verdict.model_copy(update={"decision": result, "conditions": result.conditions})
    return base.model_copy(update={"spec": spec, "verdict": verdict}), result


@pytest.fixture(scope="module")
def clear():
    """Lisbon ahead on the heavier criterion: recommended; Berlin's career not established."""
    return memo_record(EN, "Where should I live next year?", [hearing("Lisbon", 8, 4), hearing("Berlin", 6, None)])


def test_markdown_memo_has_the_table_with_citation_links(clear):
    record, result = clear
    assert result.label == "recommended" and result.recommended == "Lisbon"
    md = render_markdown(record)
    assert md.startswith("# Decision memo\n")
    assert "**Verdict: RECOMMENDED: Lisbon**" in md
    assert "The court recommends Lisbon" in md  # the verdict sentence of the table, not 'supported'
    assert "## Options by criteria" in md
    table = [line for line in md.splitlines() if line.startswith("| Lisbon") or line.startswith("| Berlin")]
    assert len(table) == 2
    lisbon, berlin = table
    # each score carries its citation as a link to the highlighted source (or the passage in the report)
    assert re.search(r"\| 8 \\\[\[E1\]\([^)]+\)\\\] \| 4 \\\[\[E2\]\([^)]+\)\\\]", lisbon), lisbon
    assert "| recommended |" in lisbon
    assert "| ? |" in berlin and "runner-up" in berlin  # Berlin's career is not established: '?'
    assert result.conditions and "### What would change the recommendation" in md and "### Conditions" not in md
    assert md_escape(result.conditions[0].split("[")[0].strip()) in md  # its citation becomes a link
    assert "### Worth finding out next" in md and md_escape(result.next_question) in md


def test_html_memo(clear):
    record, result = clear
    page, _ = render_html(record)
    assert "<h1>Decision memo</h1>" in page and "<title>Decision memo" in page
    assert '<span class="label"><b>Verdict: RECOMMENDED: Lisbon</b></span>' in page
    row = re.search(r"<tr><td>Lisbon</td>(.*?)</tr>", page).group(1)
    assert re.search(r'<td>8 \[<a class="cite" href="[^"]+"', row), row
    assert "<td>recommended</td>" in row
    assert "What would change the recommendation" in page and "Worth finding out next" in page


def test_a_claim_report_is_unchanged(clear):
    record = make_record(EN)
    md = render_markdown(record)
    assert md.startswith("# Verdict report\n") and "Options by criteria" not in md and "**Verdict: SUPPORTED**" in md


def test_option_names_are_escaped():
    hostile = "<script>x</script> | *bold*"
    spec = DecisionSpec(options=(hostile, "Berlin"), criteria=SPEC.criteria)
    base = make_record(EN)
    result = outcome("Where?", spec, [hearing(hostile, 9, 9), hearing("Berlin", 1, 1)])
    record = base.model_copy(update={
        "spec": base.spec.model_copy(update={"claim": "Where?", "case": CaseType.decision, "decision": spec}),
        "verdict": base.verdict.model_copy(update={"decision": result})})
    page, _ = render_html(record)
    assert "<script>" not in page and "&lt;script&gt;" in page
    md = render_markdown(record)
    assert "<script>" not in md and "\\| \\*bold\\*" in md


def test_chinese_memo_and_pdf(tmp_path):
    record, result = memo_record(ZH, "明年我该住在哪里？", [hearing("Lisbon", 8, 4), hearing("Berlin", 6, None)])
    md = render_markdown(record)
    assert md.startswith("# 决策备忘录\n") and "推荐：Lisbon" in md and "## 各选项按标准评分" in md
    written = export(record, ["pdf"], tmp_path)
    pdf = next(p for p in written if p.suffix == ".pdf")
    text = "".join(page.get_text() for page in pymupdf.open(pdf))
    assert "决策备忘录" in "".join(text.split()) and "Lisbon" in text
    assert "CourtroomDesktop决策备忘录·审理" in "".join(text.split())  # the footer names it too


def test_the_window_the_command_line_and_the_report_word_each_standing_alike():
    """One standing per option (DecisionOutcome.standing), worded by memo.standing for the window's table, the
    command line's table and the memo: recommended / runner-up, leads when too close to call, out when a constraint
    breaks."""
    import io

    from rich.console import Console

    from courtroom_desktop.cli.render import TranscriptPrinter
    from courtroom_desktop.core.court.decisions import ConstraintCheck
    from courtroom_desktop.ui.text import decision_markdown

    broken = Hearing(option="Berlin", scores=hearing("Berlin", 9, 9).scores,
                     constraints=(ConstraintCheck(constraint="rent under 1500", status="violated", citations=("E2",)),))
    cases = {"recommended": [hearing("Lisbon", 8, 4), hearing("Berlin", 6, None)],
             "close": [hearing("Lisbon", 6, 6), hearing("Berlin", 6, 5.5)],
             "out": [hearing("Lisbon", 5, 5), broken]}
    seen = {}
    for name, hearings in cases.items():
        record, result = memo_record(EN, "Where should I live next year?", hearings)
        window = "\n".join(decision_markdown(result))
        printer = TranscriptPrinter(Console(file=io.StringIO(), width=200))
        printer._decision_table(result)
        terminal = printer.console.file.getvalue()
        report = render_markdown(record)
        seen[name] = {row.option: result.standing(row) for row in result.rows}
        for row in result.rows:
            words = {"recommended": "recommended", "leads": "leads", "runner_up": "runner-up",
                     "out": "out: breaks rent under 1500", "": None}[result.standing(row)]
            if words:
                line = next(x for x in window.splitlines() if x.startswith(f"| {row.option} "))
                assert line.rstrip(" |").split(" | ")[-1].startswith(words), (name, line)
                assert words in next(x for x in terminal.splitlines() if row.option in x), (name, terminal)
                assert words in next(x for x in report.splitlines() if x.startswith(f"| {row.option}")), name
    assert seen["recommended"] == {"Lisbon": "recommended", "Berlin": "runner_up"}
    assert seen["close"]["Lisbon"] == "leads" and seen["out"]["Berlin"] == "out"

"""The decision memo: what a report of a decision with options adds, independent of the format. The title, the
recommendation in the verdict box, the table of options by criteria (each score with its citations; the weighted
total and its range; which option is recommended, which is out and why), what would change the recommendation, and
the one thing worth finding out next. Wording in the question's language, like the rest of the report."""

from __future__ import annotations

from dataclasses import dataclass

from courtroom_desktop.core.court.decisions import DecisionOutcome, OptionRow
from courtroom_desktop.core.reports.record import TrialRecord
from courtroom_desktop.core.reports.words import wording

_WORDS = {
    "en": {
        "title": "Decision memo", "table": "Options by criteria", "option": "Option", "total": "Score (0-10)",
        "status": "Standing", "recommended": "recommended", "leads": "leads", "runner_up": "runner-up", "out": "out: breaks {what}",
        "unknown": "?", "range": "{low:.1f}-{high:.1f} if the open cells turn out at either end",
        "table_note": "Each score is the judge's, 0 (very bad) to 10 (excellent), and counts only with a citation; "
                      "'?' is a cell your notes do not establish, counted at 5. The score is the weighted mean.",
        "changes": "What would change the recommendation", "next": "Worth finding out next",
        "verdict/recommended": "RECOMMENDED: {option}", "verdict/too close to call": "TOO CLOSE TO CALL: {option} leads",
        "verdict/not enough evidence": "NOT ENOUGH EVIDENCE: {option} leads on what is known",
        "verdict/no option passes": "NO OPTION PASSES",
        "sentence/recommended": "The court recommends {option}, by {margin:.1f} points over {runner} (confidence "
                                "{value}).",
        "sentence/too close to call": "{option} and {runner} are within {margin:.1f} points: too close to call "
                                      "(confidence {value}).",
        "sentence/not enough evidence": "Your notes establish too little to recommend an option; {option} leads on "
                                        "what they do establish (confidence {value}).",
        "sentence/no option passes": "Every option breaks a hard constraint.",
        "none": "none",
    },
    "zh": {
        "title": "决策备忘录", "table": "各选项按标准评分", "option": "选项", "total": "得分（0-10）",
        "status": "结论", "recommended": "推荐", "leads": "领先", "runner_up": "次选", "out": "排除：违反{what}",
        "unknown": "？", "range": "未定项取两端时为 {low:.1f}-{high:.1f}",
        "table_note": "每项得分由法官给出，0（很差）到 10（很好），有引用才计入；“？”表示你的笔记未能确定的项，按 5 计。"
                      "得分为加权平均。",
        "changes": "什么会改变推荐", "next": "接下来值得弄清的",
        "verdict/recommended": "推荐：{option}", "verdict/too close to call": "难分高下：{option} 略领先",
        "verdict/not enough evidence": "证据不足：就已知部分 {option} 领先", "verdict/no option passes": "没有选项满足约束",
        "sentence/recommended": "法庭推荐{option}，比{runner}高 {margin:.1f} 分（置信度 {value}）。",
        "sentence/too close to call": "{option}与{runner}相差不到 {margin:.1f} 分，难分高下（置信度 {value}）。",
        "sentence/not enough evidence": "你的笔记所能确定的内容不足以推荐某个选项；就已确定的部分而言，{option}领先（置信度 {value}）。",
        "sentence/no option passes": "每个选项都违反了某项硬性约束。",
        "none": "无",
    },
}


def outcome(record: TrialRecord) -> DecisionOutcome | None:
    """The decision's outcome when the report is of a decision with options and has a verdict."""
    return record.verdict.decision if record.verdict is not None else None


def memo_say(record: TrialRecord, key: str, **fields: object) -> str:
    return _WORDS.get(wording(record), _WORDS["en"])[key].format(**fields)


def standing(result: DecisionOutcome, row: OptionRow, language: str = "en") -> str:
    """``row``'s standing in the options table (``DecisionOutcome.standing``) in words: 'out: breaks ...', 'recommended',
    'leads', 'runner-up' or ''. The report, the window and the command line all word it here."""
    key = result.standing(row)
    return _WORDS.get(language, _WORDS["en"])[key].format(what=row.excluded) if key else ""


def verdict_name(record: TrialRecord, result: DecisionOutcome) -> str:
    return memo_say(record, f"verdict/{result.label}", option=result.recommended or "")


def verdict_sentence(record: TrialRecord, result: DecisionOutcome) -> str:
    assert record.verdict is not None  # result is the verdict's outcome (``outcome``)
    return memo_say(record, f"sentence/{result.label}", option=result.recommended or "", runner=result.runner_up or "",
                    margin=result.margin, value=f"{record.verdict.confidence:.2f}")


@dataclass
class Cell:
    text: str                    # '8' or '?'
    citations: tuple[str, ...]
    reason: str


@dataclass
class Row:
    option: str
    cells: list[Cell]
    total: str                   # '7.2' or '7.2 (6.5-7.8)'
    status: str


def head(record: TrialRecord, result: DecisionOutcome) -> list[str]:
    return ([memo_say(record, "option")] + [f"{c.name} ({c.weight:g})" for c in result.criteria]
            + [memo_say(record, "total"), memo_say(record, "status")])


def rows(record: TrialRecord, result: DecisionOutcome) -> list[Row]:
    out = []
    for row in result.rows:
        cells = [Cell(f"{s.score:g}" if s.score is not None else memo_say(record, "unknown"), s.citations, s.reason)
                 for s in row.scores]
        total = f"{row.total:.1f}" + (f" ({row.low:.1f}-{row.high:.1f})" if row.low != row.high else "")
        out.append(Row(row.option, cells, total, standing(result, row, wording(record))))
    return out


def next_lines(record: TrialRecord, result: DecisionOutcome) -> list[str]:
    return [line for line in (result.next_question, result.next_reason) if line]

"""Every fixed wording of the reports, per language, in one table that the Markdown, HTML (and so PDF) writers and the
chart all read through ``say``, so that no format can drift from another or from a language.

A report speaks the language of its claim (``courtroom_desktop.core.text.language_of``). Only English and
Simplified Chinese have a table: Japanese and Korean claims fall back to English wording until someone who reads them
writes and checks a table (the claim, passages and model text in those reports stay in their own language, and the
HTML still declares it). Model-written text and text stored in the record (ids, role names, labels in the JSON) are
never translated; the Chinese wording may show a Chinese name beside a stored value (``term``: 支持 (supported)). The
court's own reasons (why it stopped, switch and overrule reasons, flags, warnings) are stored as codes and worded per
language by ``core.reports.wording``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from courtroom_desktop.core.text import language_of

if TYPE_CHECKING:
    from courtroom_desktop.core.reports.record import TrialRecord

# key: (English, Simplified Chinese). Fields in braces are filled in by the caller, already escaped for its format.
_PAIRS: dict[str, tuple[str, str]] = {
    # punctuation that follows the language
    "colon": (": ", "："), "comma": (", ", "，"), "semi": ("; ", "；"), "stop": (".", "。"), "list": (", ", "、"),
    "paren": (" ({text})", "（{text}）"),
    # headings
    "title": ("Verdict report", "裁决报告"), "summary": ("Summary", "摘要"), "conditions": ("Conditions", "条件"),
    "risks": ("Risks", "风险"), "confidence_per_round": ("The Judge's confidence per round", "法官每轮的置信度"),
    "findings": ("Findings", "认定事实"), "open_questions": ("Open questions", "未决问题"),
    "open_lines": ("Open lines of argument: challenges never answered", "未结的论辩线索：从未得到回答的质询"),
    "quality_flags": ("Quality flags", "质量标记"), "trial_notes": ("Notes from the trial", "审理记录"),
    "quality_scores": ("Quality scores", "质量评分"),
    "cited_passages": ("Cited passages", "被引用的文段"), "evidence": ("Evidence", "证据"),
    "rounds_in_detail": ("Rounds in detail", "各轮详情"), "discovery": ("How the evidence was found", "证据的检索方式"),
    "settings": ("Models and settings", "模型与设置"), "transcript": ("Appendix: transcript", "附录：庭审记录"),
    "round": ("Round {round}", "第 {round} 轮"),
    # the line under the title and the verdict box
    "case.claim": ("Claim", "主张"), "case.decision": ("Decision", "决定"),
    "meta_trial": ("Trial {id}", "审理 {id}"), "meta_started": ("started {at}", "开始于 {at}"),
    "meta_made": ("report made {at}", "报告生成于 {at}"),
    "audience.general": ("summary for a general reader", "面向普通读者的摘要"),
    "audience.expert": ("summary for an expert reader", "面向专业读者的摘要"),
    "unknown": ("unknown", "未知"), "unfinished": ("unfinished", "未完成"), "n/a": ("n/a", "无"),
    "no_verdict": ("NO VERDICT", "尚无裁决"),
    "demo_note": ("demo model: try the app, do not rely on this verdict ({roles} on the bundled SmolLM2-135M; set up a "
                  "model in the window's Settings \u2192 Models, or with `courtroom models list`)",
                  "演示模型：仅供试用本应用，请勿依赖此裁决（{roles}使用内置的 SmolLM2-135M；请在窗口的“设置 \u2192 模型”中，或用 "
                  "`courtroom models list` 设置模型）"),
    "resume_hint": ("the trial is {status}; `courtroom trials resume {id}` continues it.",
                    "审理状态：{status}；`courtroom trials resume {id}` 可继续审理。"),
    "verdict_label": ("Verdict: {label}", "裁决：{label}"),
    "confidence_is": ("confidence {value} ({words})", "置信度 {value}（{words}）"),
    "rounds_switches": ("{rounds} round(s), {switches} role switch(es)", "共 {rounds} 轮，换边 {switches} 次"),
    "stopped_because": ("stopped because {why}", "停止原因：{why}"),
    "conf.high": ("high", "高"), "conf.moderate": ("moderate", "中等"), "conf.low": ("low", "低"),
    "conf.very low": ("very low", "很低"),
    # the verdict in a sentence (general reader)
    "no_verdict_yet": ("No verdict yet: the trial is {status}.", "尚无裁决：审理状态为 {status}。"),
    "verdict_sentence": ("{sentence} The court's confidence is {words} ({value} on a scale from 0 to 1).",
                         "{sentence}法庭的置信度为{words}（在 0 到 1 的量表上为 {value}）。"),
    "claim/supported": ("The evidence in the library supports the claim.", "资料库中的证据支持该主张。"),
    "claim/refuted": ("The evidence in the library contradicts the claim.", "资料库中的证据与该主张相矛盾。"),
    "claim/mixed": ("The evidence in the library points both ways: parts of the claim hold, parts do not.",
                    "资料库中的证据指向两个方向：该主张部分成立，部分不成立。"),
    "claim/insufficient evidence": ("The library does not hold enough evidence to decide the claim.",
                                    "资料库中没有足够的证据来判断该主张。"),
    "decision/supported": ("On the evidence in the library, the decision looks right.", "根据资料库中的证据，该决定看来是正确的。"),
    "decision/refuted": ("On the evidence in the library, the decision looks wrong.", "根据资料库中的证据，该决定看来是错误的。"),
    "decision/mixed": ("The evidence in the library points both ways on this decision.", "资料库中的证据在该决定上指向两个方向。"),
    "decision/insufficient evidence": ("The library does not hold enough evidence to weigh this decision.",
                                       "资料库中没有足够的证据来权衡该决定。"),
    # what the verdict rests on, and the rule's correction (Chinese only: English keeps Verdict.rests_on/correction)
    "rests_on": ("It rests on {parts}.", "裁决依据：{parts}。"), "and": (" and ", "和 "),
    "basis.supports": ("{n} supporting passage(s) ({levels})", "{n} 段支持性文段（{levels}）"),
    "basis.refutes": ("{n} refuting passage(s) ({levels})", "{n} 段反驳性文段（{levels}）"),
    "basis.mixed": ("{n} mixed passage(s) ({levels})", "{n} 段立场不一的文段（{levels}）"),
    "correction": ("The judge's own draft said '{label}' at confidence {value}; the verdict rule corrected it to agree "
                   "with the rulings and the weighed evidence (see the quality flags).",
                   "法官自己的草稿为“{label}”，置信度 {value}；裁决规则已将其更正，使之与各轮裁定和经权衡的证据一致（见质量标记）。"),
    "evidence_confidence": ("Weighed alone, the cited evidence points to '{label}' at confidence {value} (the judge: "
                            "'{judge_label}' at {judge_value}).",
                            "仅凭经权衡的被引证据，结论为“{label}”，置信度 {value}（法官：“{judge_label}”，置信度 {judge_value}）。"),
    # the judge's instructions to each side for the next round (transcript)
    "instruction_to": ("The judge to the {role}: ", "法官对{role}："),
    # expert summary, rounds in detail, the Judge in the transcript
    "expert_verdict": ("Verdict label '{label}' at confidence {value} after {rounds} round(s) and {switches} role "
                       "switch(es); stopped because {why}.",
                       "裁决标签“{label}”，置信度 {value}，共 {rounds} 轮、换边 {switches} 次；停止原因：{why}。"),
    "assessment_round": ("Evidence assessment (round {round}): ", "证据评估（第 {round} 轮）："),
    "summary:": ("Summary: ", "摘要："), "assessment:": ("Evidence assessment: ", "证据评估："),
    "controversy:": ("Key controversy: ", "关键争议："), "open_questions:": ("Open questions: ", "未决问题："),
    "ready:": ("Ready for verdict: ", "可以裁决："),
    "overruled_tail": (" {dash} overruled: {why}", "（被驳回：{why}）"),
    "ready_overruled:": ("'Ready for verdict' overruled: ", "“可以裁决”被驳回："),
    "stop_overruled:": ("Confidence stop overruled: ", "置信度停止被驳回："),
    "tendency_confidence": ("{tendency}, confidence {value}", "{tendency}，置信度 {value}"),
    "judge": ("Judge", "法官"), "empty": ("(empty)", "（空）"), "nothing_said": ("Nothing was said yet.", "尚无发言。"),
    "switched_after": ("Sides switched after round {round}:", "第 {round} 轮后双方换边："),
    # the confidence table
    "col.round": ("Round", "轮次"), "col.tendency": ("Tendency", "倾向"), "col.confidence": ("Confidence", "置信度"),
    "col.ready": ("Ready for verdict", "可以裁决"), "col.note": ("Note", "备注"), "yes": ("yes", "是"), "no": ("no", "否"),
    "chart_alt": ("The Judge's confidence and tendency per round; dashed orange: sides switched",
                  "法官每轮的置信度与倾向；橙色虚线：双方换边"),
    "note.challenges": ("challenges", "质询"), "note.overruled": ("stop overruled", "停止被驳回"),
    "note.switched": ("sides switched after this round", "本轮后双方换边"),
    # empty sections
    "none": ("None.", "无。"), "no_findings": ("No findings.", "没有认定事实。"),
    "no_passage": ("No passage was cited.", "没有引用任何文段。"), "pool_empty": ("The evidence pool is empty.", "证据池为空。"),
    # passages and their cards
    "doc_page": ("{doc}, page {pages}", "{doc}，第 {pages} 页"), "not_in_pool": ("not in the evidence pool", "不在证据池中"),
    "card.level": ("Evidence level: {level}", "证据等级：{level}"), "card.says": ("says: {says}", "内容：{says}"),
    "card.cited_by": ("cited by {who}", "引用者：{who}"), "card.found_by": ("found by {who}", "发现者：{who}"),
    "card.injection": ("reads like instructions to a model: quoted only", "读起来像是给模型的指令：仅作引述"),
    "nobody": ("nobody", "无人"), "quoted_by_counsel": ("Quoted by counsel: ", "律师的引文："),
    "open_page": ("Open page {page} with the passage highlighted", "打开第 {page} 页（文段已高亮）"),
    "in_zotero": ("Show the reference in Zotero", "在 Zotero 中显示该文献"),
    "open_excerpt": ("Open the passage in its text", "打开原文中的该文段（已标记）"),
    "file_page": ("({file}, page {page})", "（{file}，第 {page} 页）"),
    "highlighted_on": ("{id} highlighted on page {page}", "{id} 在第 {page} 页的高亮"),
    "source_page": ("Page {page} of the source, passage highlighted", "原文第 {page} 页，文段已高亮"),
    "continued": (", continued", "（续）"),
    "kept_text": ("{note}. The passage above is the text the trial kept.", "{note}。上面的文段是审理时保存的文本。"),
    "no_copy": ("No highlighted copy was made for this report.", "本报告没有生成高亮副本。"),
    "passages_intro": ("Each passage as the trial saw it; the link opens a copy of the source page with the passage "
                       "highlighted (yellow; quotations in orange).",
                       "每个文段均为审理时所见的文本；链接会打开原文页面的副本，文段以黄色高亮（引文为橙色）。"),
    "evidence_intro": ("Every passage that entered the evidence pool. Stance: what the passage says about the claim, as the judge's "
                       "model assessed it (not the side that found it).",
                       "进入证据池的每个文段。立场（评估）：法官的模型对该文段的评估。"),
    # the evidence table and what fills it
    "col.id": ("ID", "ID"), "col.document": ("Document", "文档"), "col.page": ("Page", "页码"), "col.section": ("Section", "章节"),
    "col.excerpt": ("Excerpt", "摘录"), "col.stance": ("Stance (assessed)", "立场（评估）"), "col.found_by": ("Found by", "发现者"),
    "col.cited_by": ("Cited by", "引用者"), "col.level": ("Evidence level", "证据等级"), "col.weight": ("Weight", "权重"),
    "col.query": ("Query", "检索词"), "col.score": ("Fused score", "融合得分"), "col.bm25": ("BM25 rank", "BM25 排名"),
    "col.vector": ("Vector rank", "向量排名"), "col.novelty": ("Novelty", "新颖度"),
    # what the searches covered (core.court.coverage), in every format
    "coverage": ("What the searches covered", "检索覆盖范围"),
    "coverage_intro": ("{searches} searches found {found} passages in {documents} documents: {admitted} entered the "
                       "evidence pool, {away} were turned away.",
                       "{searches} 次检索在 {documents} 篇文档中找到 {found} 个文段：{admitted} 个进入证据池，{away} 个被拒绝。"),
    "coverage_queries:": ("Queries: ", "检索词："),
    "col.found": ("Found", "找到"), "col.admitted": ("Admitted", "采纳"), "col.turned_away": ("Turned away", "拒绝"),
    "col.cited": ("Cited", "引用"), "col.why": ("Why turned away", "拒绝原因"),
    "coverage_never:": ("In scope, never retrieved: ", "在范围内但从未被检索到："),
    "coverage_all_reached": ("Every document in scope was retrieved at least once.", "范围内的每篇文档都至少被检索到一次。"),
    "not_assessed": ("not assessed", "未评估"),
    "verifier_reading": ("verifier: {stance} {value}", "核验模型：{stance} {value}"),
    "judge_reading": ("judge: {reading}", "法官：{reading}"),
    "readings_disagree": ("{verifier}; {judge}: they disagree", "{verifier}；{judge}：两者不一致"),
    "relevance": ("{stance} (relevance {value})", "{stance}，相关度 {value}"),
    "not_cited": ("not cited", "未被引用"), "both_sides": ("both sides: {who}", "双方：{who}"), "verdict": ("verdict", "裁决"),
    "role_round": ("{role} (round {rounds})", "{role}（第 {rounds} 轮）"),
    "role_rounds": ("{role} (rounds {rounds})", "{role}（第 {rounds} 轮）"),
    "the_judge": ("the judge", "法官"), "counsel": ("counsel {seat}", "律师 {seat}"),
    "found_round": ("{who}, round {round}", "{who}，第 {round} 轮"),
    "challenge": ("{id} (raised by {by} in round {round}, to {to}; {status}): {text}",
                  "{id}（由 {by} 在第 {round} 轮提出，针对 {to}；{status}）：{text}"),
    "the ": ("the ", ""),
    # a counsel turn's notes, switches, flags and notes
    "seat": ("counsel {seat}, {stance}", "律师 {seat}，{stance}"),
    "searched": ("searched: {queries}", "检索：{queries}"), "new_evidence": ("new evidence: {ids}", "新证据：{ids}"),
    "regenerated": ("regenerated once after a rejected answer", "回答被拒后重新生成了一次"),
    "challenged": ("challenged {to} ({id}): {text}", "向 {to} 提出质询（{id}）：{text}"),
    "answers": ("answers {ids}", "回答 {ids}"), "flag": ("flag: {flag}", "标记：{flag}"),
    "invalid_citation": ("invalid citation {id}: {problem}", "无效引用 {id}：{problem}"),
    "now_role": ("counsel {seat} is now {role}", "律师 {seat} 现为 {role}"),
    "flag_turn": ("{flag} ({n} turn)", "{flag}（{n} 次发言）"), "flag_turns": ("{flag} ({n} turns)", "{flag}（{n} 次发言）"),
    "flag_regenerated": ("{n} argument(s) were rejected once and regenerated", "{n} 段论证曾被拒绝一次并重新生成"),
    "flag_overruled": ("round {round}: the Judge's ruling could not end the trial ({why})",
                       "第 {round} 轮：法官的裁定未能结束审理（{why}）"),
    "note_round": ("round {round}: {text}", "第 {round} 轮：{text}"), "note_error": ("error: {text}", "错误：{text}"),
    "note_fix": (" (fix: {fix})", "（解决办法：{fix}）"), "note_resumed": ("resumed at round {round}", "从第 {round} 轮恢复"),
    "note_redoing": (", redoing {what}", "，重做 {what}"),
    # models and settings
    "col.role": ("Role", "角色"), "col.model": ("Model", "模型"), "not_recorded": ("not recorded", "未记录"),
    "case_line": ("Case type: {case}{dot}scope: {scope}{dot}usage: {usage}", "案件类型：{case}{dot}范围：{scope}{dot}用量：{usage}"),
    "col.setting": ("Debate setting", "辩论设置"), "col.value": ("Value", "值"),
    "dates": ("Report made {made}; trial started {started}, verdict {finished}.",
              "报告生成于 {made}；审理开始于 {started}，裁决于 {finished}。"),
    "not_reached": ("not reached", "尚未作出"),
    "scope_documents": ("{n} chosen document(s)", "选定的 {n} 份文档"), "scope_library": ("the whole library", "整个资料库"),
    "scope_sections": ("sections starting with {sections}", "以 {sections} 开头的章节"),
    "usage": ("{tokens_in} tokens in, {tokens_out} tokens out, {seconds} s of model time",
              "输入 {tokens_in} 个词元，输出 {tokens_out} 个词元，模型用时 {seconds} 秒"),
    # the PDF's footer and metadata, the chart
    "footer": ("Courtroom Desktop {title} \u00b7 trial {id}", "Courtroom Desktop {title} \u00b7 审理 {id}"),
    "page_of": ("page {page} of {pages}", "第 {page} 页，共 {pages} 页"), "no_verdict_kw": ("no verdict", "尚无裁决"),
    "chart.aria": ("The judge's confidence and tendency per round", "法官每轮的置信度与倾向"),
    "chart.threshold": ("threshold {value}", "阈值 {value}"), "chart.round": ("round", "轮次"),
    "chart.switched": ("sides switched", "双方换边"), "chart.none": ("no rulings yet", "尚无裁定"),
    "chart.support": ("tendency: support", "倾向：支持"), "chart.refute": ("refute", "反驳"),
    "chart.unclear": ("unclear", "不明"), "chart.switch": ("switch", "换边"),
}
WORDS: dict[str, dict[str, str]] = {language: {key: pair[i] for key, pair in _PAIRS.items()}
                                    for i, language in enumerate(("en", "zh"))}

# Chinese names shown beside values stored in the record (labels, tendencies, stances, statuses, roles).
TERMS_ZH = {
    "supported": "支持", "refuted": "反驳", "mixed": "混合", "insufficient evidence": "证据不足",
    "support": "支持", "refute": "反驳", "unclear": "不明", "supports": "支持", "refutes": "反驳", "irrelevant": "无关",
    "neither": "无关",
    "for": "赞成", "against": "反对", "open": "未决", "answered": "已回答", "partly answered": "部分回答",
    "unanswered": "未回答", "claim": "主张", "decision": "决定", "running": "进行中", "paused": "已暂停",
    "stopped": "已停止", "finished": "已结束", "cancelled": "已取消", "Prosecution": "控方", "Defense": "辩方",
    "Counsel for": "赞成方律师", "Counsel against": "反对方律师", "Judge": "法官", "both sides": "双方",
    "met": "满足", "violated": "违反", "unknown": "未知",
}


@lru_cache(maxsize=64)
def _language(claim: str) -> str:
    return language_of(claim)


def language(record: TrialRecord) -> str:
    """The claim's language: 'zh', 'ja', 'ko' or 'en' (what the HTML declares)."""
    return _language(record.spec.claim)


def wording(record: TrialRecord) -> str:
    """The language of the report's fixed wording: the claim's where there is a table for it, else English."""
    lang = language(record)
    return lang if lang in WORDS else "en"


def say(record: TrialRecord, key: str, **fields: object) -> str:
    """The fixed wording ``key`` in the report's language, its {fields} filled in (the values are not escaped here)."""
    return WORDS[wording(record)][key].format(**fields)


def term(record: TrialRecord, value: str, upper: bool = False) -> str:
    """A value stored in the record as the report shows it: as stored in English ('supported', or 'SUPPORTED' with
    ``upper``); in Chinese with its Chinese name first: '支持 (supported)'."""
    value = str(value)
    shown = value.upper() if upper else value
    if wording(record) == "zh" and value in TERMS_ZH:
        return f"{TERMS_ZH[value]} ({shown})"
    return shown

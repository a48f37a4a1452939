"""How the court's reasons read in a language: one template per reason code (``core.court.reasons.Code``) for each
language the reports speak, English and Simplified Chinese.

The court stores reasons, never sentences (why a trial stopped, why the sides switched, why a "ready" was overruled,
the quality guard's flags, warnings, a citation's problem, what a hearing set aside). The window, the command line and
every report render them here with ``say_reason(reason, lang)``; adding a language adds a column to ``TEMPLATES`` and
touches neither the court nor its callers. Text the court did not write (a model's, an exception's message, an
option's name) is a parameter and stays as it is; so does a plain string an earlier version stored (code ``text``).

Templates are ``str.format`` strings over the reason's parameters. A parameter that is a reason is rendered first; one
that is several reasons is rendered and joined with the language's semicolon. Every whole-number parameter ``x`` also
gives ``x_s`` ('s' unless it is 1: English plurals). In Chinese, labels, tendencies, statuses and role names
(parameters in ``TERM_KEYS``) show their Chinese names.

Also here, because the window and the command line show them beside the reasons: what a verdict's confidence rests
on (``rests_on``) and what the verdict rule changed of the judge's draft (``correction``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from courtroom_desktop.core.court.reasons import Code, Reason
from courtroom_desktop.core.reports.words import TERMS_ZH, WORDS

LANGUAGES = ("en", "zh")

_NOT_OWN_EN = "cited only {ids}, not {option}'s own evidence (neither heard in its hearing nor naming it) was set aside"
_CONTRADICTION_EN = ("the label '{label}' contradicts the record: the last ruling leans towards '{leans}' (confidence "
                     "{confidence:.2f}) and the cited evidence, as assessed, leans the same way")
_NOT_OWN_ZH = "只引用了 {ids}，而不是{option}自己的证据（既非其审理中听取的，也未提及它），已被搁置"
_CONTRADICTION_ZH = "标签“{label}”与记录矛盾：最后一次裁定倾向“{leans}”（置信度 {confidence:.2f}），经评估的被引证据也倾向同一方"

# code: (English, Simplified Chinese)
_PAIRS: dict[Code, tuple[str, str]] = {
    Code.text: ("{text}", "{text}"),
    # why a trial stopped
    Code.stop_every_option_heard: ("every option heard ({options})", "所有选项均已审理（{options} 个）"),
    Code.stop_round_limit: ("round limit ({rounds})", "达到轮次上限（{rounds} 轮）"),
    Code.stop_confidence: ("confidence {confidence:.2f} reached the threshold {threshold:.2f}",
                           "置信度 {confidence:.2f} 达到阈值 {threshold:.2f}"),
    Code.stop_judge_ready: ("the judge found the case ready", "法官认为案件已可裁决"),
    # why the sides switched
    Code.switch_judge_asked: ("the judge asked for it", "法官要求换边"),
    Code.switch_tendency_unchanged: ("the judge's tendency stayed '{leans}' for {rounds} rounds in a row",
                                     "法官的倾向连续 {rounds} 轮保持“{leans}”"),
    Code.switch_confidence_stalled: ("confidence moved {moved} over the last {rounds} rounds (< {delta}): {values}",
                                     "置信度在最近 {rounds} 轮内只变化了 {moved}（小于 {delta}）：{values}"),
    Code.switch_controversy_same: ("the same key controversy for {rounds} rounds (similarity {similarity:.2f} >= "
                                   "{threshold:.2f}): '{controversy}'",
                                   "核心争议连续 {rounds} 轮相同（相似度 {similarity:.2f} ≥ {threshold:.2f}）：“{controversy}”"),
    Code.switch_few_new_citations: ("{count} passage{count_s} cited for the first time over the last {rounds} rounds "
                                    "(fewer than {passages})",
                                    "最近 {rounds} 轮内首次被引用的段落只有 {count} 个（少于 {passages} 个）"),
    Code.switch_confidence_flat: ("confidence moved less than {delta} over {rounds} rounds",
                                  "置信度在 {rounds} 轮内变化小于 {delta}"),
    Code.switch_controversy_repeats: ("the key controversy repeats", "核心争议重复出现"),
    Code.switch_few_new_passages: ("fewer than {passages} new passages over {rounds} rounds",
                                   "{rounds} 轮内新段落少于 {passages} 个"),
    # why a "ready for verdict" was overruled
    Code.overrule_too_early: ("ready before the minimum of {rounds} rounds", "在最少 {rounds} 轮之前就要求裁决"),
    Code.overrule_no_grounds: ("the reason names no argument or evidence of the debate", "理由未提及辩论中的任何论点或证据"),
    Code.overrule_confidence_no_grounds: (
        "confidence {confidence:.2f} reached the threshold {threshold:.2f}, but the ruling names no argument or evidence "
        "of the debate, so the debate goes on",
        "置信度 {confidence:.2f} 已达到阈值 {threshold:.2f}，但裁定未提及辩论中的任何论点或证据，因此辩论继续"),
    # the verdict rule
    Code.rule_no_evidence: ("verdict rule: no evidence was cited, so the label is '{label}' (the judge proposed "
                            "'{proposed}')", "裁决规则：未引用任何证据，因此标签为“{label}”（法官提议“{proposed}”）"),
    Code.rule_contradiction: (_CONTRADICTION_EN, _CONTRADICTION_ZH),
    Code.rule_label_set: ("verdict rule: " + _CONTRADICTION_EN + "; the label is set to '{record_label}'",
                          "裁决规则：" + _CONTRADICTION_ZH + "；标签改为“{record_label}”"),
    Code.rule_scored_set: ("label rule: the verifier's scores of the passages give '{record_label}', not the judge's "
                           "'{label}' ({why}); the label is set to '{record_label}'",
                           "标签规则：核验模型对文段的评分给出“{record_label}”，而不是法官的“{label}”（{why}）；标签改为"
                           "“{record_label}”"),
    Code.rule_confidence_capped: ("verdict rule: '{label}' cannot carry confidence {confidence:.2f}; capped at {cap:.2f}",
                                  "裁决规则：“{label}”不能带有 {confidence:.2f} 的置信度；上限为 {cap:.2f}"),
    # the quality guard
    Code.flag_no_evidence: ("argument with no evidence", "论证未引用证据"),
    Code.flag_parallel_monologue: ("does not answer the other side (parallel monologue)", "未回应对方（各说各话）"),
    Code.flag_weak_challenge: ("weak challenge: repeats the other side without new points", "无力的质询：重复对方而无新论点"),
    Code.flag_rejected: ("rejected twice", "两次被拒"),
    Code.flag_rejected_twice: ("rejected twice: {problem}", "两次被拒：{problem}"),
    Code.flag_quote_dropped: ("rejected twice: {problem} (the quotation was dropped)", "两次被拒：{problem}（引文已删除）"),
    Code.flag_turns: ("{flag} ({turns} turn{turns_s})", "{flag}（{turns} 次发言）"),
    Code.flag_injected_passages: ("passages that read like instructions: {ids}", "读起来像指令的段落：{ids}"),
    Code.flag_unanswered: ("unanswered challenges: {side} {count} ({ids})", "未回应的质询：{side} {count} ({ids})"),
    Code.flag_verdict_text: ("verdict text: {problem}", "裁决文本：{problem}"),
    Code.flag_verdict_text_table: ("verdict text: {problem}; the table's own summary stands",
                                   "裁决文本：{problem}；采用表格自己的摘要"),
    Code.flag_option: ("{option}: {flag}", "{option}：{flag}"),
    Code.flag_confidence_disagreement: (
        "the judge's confidence {confidence:.2f} in '{label}' and the weighed evidence's {evidence_confidence:.2f} in "
        "'{evidence_label}' disagree by more than {limit:.2f}",
        "法官对“{label}”的置信度 {confidence:.2f} 与经权衡证据对“{evidence_label}”的置信度 {evidence_confidence:.2f} "
        "相差超过 {limit:.2f}"),
    # what is wrong with generated text
    Code.problem_template: ("has stray template characters", "含有残留的模板字符"),
    Code.problem_echo: ("echoes its instructions or a role prompt", "复述了指令或角色提示"),
    Code.problem_repeats: ("repeats sentences", "重复句子"),
    Code.problem_copies: ("copies the {role}'s argument of round {round}", "照搬了{role}第 {round} 轮的论证"),
    Code.problem_wrong_side: ("argues the other side's case: the {role} argues that the claim is {claim_is}",
                              "为对方立场辩护：{role}应论证主张{claim_is_zh}"),
    Code.problem_no_citation: ("cites no evidence", "未引用证据"),
    Code.problem_empty: ("the answer was empty", "回答为空"),
    Code.problem_argument: ("the argument {problem}", "论证{problem}"),
    Code.problem_summary: ("the summary {problem}", "摘要{problem}"),
    Code.problem_finding: ("the finding {n} {problem}", "第 {n} 条认定{problem}"),
    Code.problem_option_unnamed: ("the summary does not name the option the table recommends ({option})",
                                  "摘要未提及表格推荐的选项（{option}）"),
    # a citation's problem
    Code.cite_not_in_pool: ("{id} is not in the evidence pool", "{id} 不在证据池中"),
    Code.cite_quote_missing: ('the quotation "{quote}" is not in {id}', "引文“{quote}”不在 {id} 中"),
    # what a decision's hearing set aside
    Code.hearing_not_scored: ("{criterion}: not scored", "{criterion}：未评分"),
    Code.hearing_score_uncited: ("{criterion}: a score of {score} without a citation was set aside",
                                 "{criterion}：没有引用的 {score} 分被搁置"),
    Code.hearing_score_not_own: ("{criterion}: a score of {score} " + _NOT_OWN_EN,
                                 "{criterion}：{score} 分" + _NOT_OWN_ZH),
    Code.hearing_constraint_uncited: ("constraint '{constraint}': '{status}' without a citation was set aside",
                                      "约束“{constraint}”：没有引用的“{status}”被搁置"),
    Code.hearing_constraint_not_own: ("constraint '{constraint}': '{status}' " + _NOT_OWN_EN,
                                      "约束“{constraint}”：“{status}”" + _NOT_OWN_ZH),
    # warnings
    Code.warning_injection: ("{id} reads like instructions to a model; it is treated as a quoted passage only",
                             "{id} 读起来像给模型的指令；只作为引用的段落处理"),
    Code.warning_queries_unusable: ("{role}: search queries unusable, searching with the claim and the debate's terms "
                                    "({problem})", "{role}：检索词不可用，改用主张和辩论中的词检索（{problem}）"),
    Code.warning_argument_rejected: ("{role}'s argument was rejected ({problems}); regenerating once",
                                     "{role} 的论证被拒（{problems}）；重新生成一次"),
    Code.warning_assess_failed: ("the evidence could not be assessed ({problem}); its stance stays unknown",
                                 "证据无法评估（{problem}）；其立场仍未知"),
    Code.warning_verdict_sent_back: ("the verdict was sent back ({problems}); regenerating once",
                                     "裁决被退回（{problems}）；重新生成一次"),
    Code.warning_unknown_citations: ("verdict finding cited unknown evidence {ids}; those citations were removed",
                                     "裁决认定引用了不存在的证据 {ids}；这些引用已删除"),
    Code.warning_embedder_failed: ("the embedder failed ({problem}); searching with BM25 alone and comparing words "
                                   "instead of vectors", "嵌入模型出错（{problem}）；改用 BM25 单独检索，并以词语而非向量比较"),
    Code.warning_private_left_out: ("private documents left out of this trial's searches ({documents}{more_text}): "
                                    "text goes to another machine ({roles})",
                                    "本次审理的检索未纳入私密文档（{documents}{more_text}）：文本会发送到另一台计算机（{roles}）"),
    # passages turned away at the pool's door
    Code.turned_away_in_pool: ("already in the pool as {id}", "已作为 {id} 在证据池中"),
    Code.turned_away_not_novel: ("not novel enough: {novelty:.2f} below the minimum {minimum:.2f} (too close to "
                                 "{like})", "新颖度不足：{novelty:.2f} 低于下限 {minimum:.2f}（与 {like} 过于相近）"),
}
TEMPLATES: dict[str, dict[str, str]] = {language: {code.value: pair[i] for code, pair in _PAIRS.items()}
                                        for i, language in enumerate(LANGUAGES)}

# parameters that hold a label, tendency, status or role name: shown by their Chinese names in Chinese
TERM_KEYS = frozenset({"label", "proposed", "leans", "record_label", "status", "role", "side", "evidence_label",
                       "claim_is"})
_ROLES_ZH = {"prosecution": "控方", "defense": "辩方", "judge": "法官", "embedder": "嵌入模型"}
_SEMI = {"en": "; ", "zh": "；"}

# parameters some templates need that depend on the language: (params, lang) -> extra fields
_EXTRA: dict[str, Callable[[Mapping[str, Any], str], dict[str, str]]] = {
    Code.problem_wrong_side.value: lambda p, lang: {
        "claim_is_zh": {"true": "成立", "false": "不成立"}.get(str(p.get("claim_is", "")), str(p.get("claim_is", "")))},
    Code.warning_private_left_out.value: lambda p, lang: {
        "more_text": "" if not p.get("more") else (f" and {p['more']} more" if lang == "en" else f" 等另外 {p['more']} 份"),
        "roles": str(p.get("roles", "")) if lang == "en" else "、".join(
            _ROLES_ZH.get(r.strip(), r.strip()) for r in str(p.get("roles", "")).split(",")),
    },
}


def reason_language(lang: str) -> str:
    """The language a reason is worded in: ``lang`` where the table has it, else English."""
    return lang if lang in TEMPLATES else "en"


def _value(key: str, value: Any, lang: str) -> Any:
    if isinstance(value, Reason):
        return say_reason(value, lang)
    if isinstance(value, tuple | list):
        return say_reasons(value, lang)
    if lang == "zh" and key in TERM_KEYS and isinstance(value, str):
        return TERMS_ZH.get(value, value)
    return value


def say_reason(reason: Reason, lang: str = "en") -> str:
    """``reason`` in language ``lang`` ('en' or 'zh'; others read in English). A code the table does not know (a
    newer version's) reads as its code and parameters, never as an error."""
    lang = reason_language(lang)
    template = TEMPLATES[lang].get(reason.code)
    fields = {key: _value(key, value, lang) for key, value in reason.params.items()}
    if template is None:
        return reason.code + (f" ({', '.join(f'{k}: {v}' for k, v in fields.items())})" if fields else "")
    fields.update({f"{key}_s": "" if value == 1 else "s" for key, value in reason.params.items()
                   if isinstance(value, int)})
    extra = _EXTRA.get(reason.code)
    if extra is not None:
        fields.update(extra(reason.params, lang))
    try:
        return template.format(**fields)
    except (KeyError, ValueError, IndexError):  # a stored reason short of a parameter: show what it has
        return template.split("{", 1)[0].rstrip(" :(") or reason.code


def say_reasons(reasons: Iterable[Reason], lang: str = "en") -> str:
    """Several reasons on one line, joined by the language's semicolon."""
    lang = reason_language(lang)
    return _SEMI[lang].join(say_reason(r, lang) for r in reasons)


def word(key: str, lang: str = "en") -> str:
    """A fixed wording of the reports' table (``core.reports.words``: 'findings', 'quality_flags', ...) in ``lang``,
    for the window and the command line to head what they show as the reports do."""
    return WORDS[reason_language(lang)][key]


# ---------------------------------------------------------------- beside the reasons: the verdict's basis and correction
def rests_on(verdict: Any, lang: str = "en") -> str:
    """'It rests on 2 supporting passages (randomised trial 1, cohort 1) and 1 refuting passage (case report 1).'
    ('' when no assessed passage was cited)."""
    lang = reason_language(lang)
    words = WORDS[lang]
    parts = []
    for key, word in (("supports", "supporting"), ("refutes", "refuting"), ("mixed", "mixed")):
        counts = [(row.level, getattr(row, key)) for row in verdict.basis if getattr(row, key)]
        total = sum(n for _, n in counts)
        if not total:
            continue
        if lang == "en":
            parts.append(f"{total} {word} passage{'s' if total > 1 else ''} ("
                         + ", ".join(f"{level} {n}" for level, n in counts) + ")")
        else:
            levels = words["list"].join(f"{level} {n}" for level, n in counts)
            parts.append(words[f"basis.{key}"].format(n=total, levels=levels))
    if not parts:
        return ""
    if lang == "en":
        return "It rests on " + (", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]) + "."
    joined = words["list"].join(parts[:-1]) + words["and"] + parts[-1] if len(parts) > 1 else parts[0]
    return words["rests_on"].format(parts=joined)


_QUALITY_PARTS = {"en": {"no_evidence": "no evidence", "weak_challenge": "weak challenges", "monologue": "monologues",
                          "rejected": "rejected twice", "no_question": "no question", "trial": "trial",
                          "turns": "{n} turn{s}"},
                   "zh": {"no_evidence": "无证据", "weak_challenge": "无力质询", "monologue": "各说各话",
                          "rejected": "两次被拒", "no_question": "未提问", "trial": "全场", "turns": "{n} 次发言"}}


def quality_score(score: Any, lang: str = "en") -> str:
    """One of the quality guard's scores: 'Defense 0.70 (2 turns; no evidence 50%, no question 50%)'."""
    lang = reason_language(lang)
    parts = _QUALITY_PARTS[lang]
    side = parts["trial"] if score.side == "trial" else (TERMS_ZH.get(score.side, score.side) if lang == "zh"
                                                          else score.side)
    faults = [f"{parts[k]} {round(getattr(score, k) * 100)}%" for k in ("no_evidence", "weak_challenge", "monologue",
                                                                         "rejected", "no_question")
              if getattr(score, k)]
    turns = parts["turns"].format(n=score.turns, s="" if score.turns == 1 else "s")
    semi, comma = ("; ", ", ") if lang == "en" else ("；", "，")
    return f"{side} {score.score:.2f} ({turns}" + (semi + comma.join(faults) if faults else "") + ")"


def evidence_confidence(verdict: Any, lang: str = "en") -> str:
    """The weighed evidence's own label and confidence beside the judge's ('' when the verdict has none)."""
    value = getattr(verdict, "evidence_confidence", None)
    if value is None or verdict.evidence_label is None:
        return ""
    lang = reason_language(lang)

    def name(label: str) -> str:
        return f"{TERMS_ZH[label]} ({label})" if lang == "zh" and label in TERMS_ZH else label

    return WORDS[lang]["evidence_confidence"].format(
        label=name(verdict.evidence_label.value), value=f"{value:.2f}", judge_label=name(verdict.label.value),
        judge_value=f"{verdict.confidence:.2f}")


def correction(verdict: Any, lang: str = "en") -> str:
    """What the verdict rule changed of the judge's draft ('' when the draft stood)."""
    if not verdict.corrected:
        return ""
    lang = reason_language(lang)
    label = (verdict.draft_label or verdict.label).value
    confidence = verdict.draft_confidence if verdict.draft_confidence is not None else verdict.confidence
    if lang == "zh":
        label = f"{TERMS_ZH[label]} ({label})" if label in TERMS_ZH else label
    return WORDS[lang]["correction"].format(label=label, value=f"{confidence:.2f}")

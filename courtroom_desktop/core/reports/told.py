"""The court's own stored phrases in the report's language.

The court stores why a trial stopped, why the sides switched, why a "ready for verdict" was overruled, the quality
guard's flags and its warnings as English sentences in the record (the JSON keeps them so). A report whose wording is
Chinese shows them in Chinese: ``told`` rewrites each phrase the court writes (``core.court.rules``, ``checks``,
``counsel``, ``judge``, ``engine``, ``hearing``) by the patterns below, piece by piece, so composite strings ("a flag (3
turns)") come out whole. What it does not know (model-written text, an exception's message, option and criterion
names) stays as it is. ``tests/reports/test_told.py`` makes every phrase the court can write and checks that no
English word of the court's is left.
"""

from __future__ import annotations

import re

from courtroom_desktop.core.reports.words import TERMS_ZH, wording


def _label(value: str) -> str:
    return TERMS_ZH.get(value, value)


def _quoted(match: re.Match, template: str) -> str:
    return template.format(*(_label(g) if g is not None else "" for g in match.groups()))


# (English pattern, Chinese template with {0}, {1}, ... for the groups; quoted labels get their Chinese names)
_ZH: list[tuple[str, str]] = [
    # why a trial stopped (rules.stop_reason)
    (r"round limit \((\d+)\)", "达到轮次上限（{0} 轮）"),
    (r"confidence ([\d.]+) reached the threshold ([\d.]+)", "置信度 {0} 达到阈值 {1}"),
    (r"the judge found the case ready", "法官认为案件已可裁决"),
    (r"every option heard \((\d+)\)", "所有选项均已审理（{0} 个）"),
    # why the sides switched (rules.switch_reasons)
    (r"the judge asked for it", "法官要求换边"),
    (r"confidence moved less than ([\d.]+) over (\d+) rounds", "置信度在 {1} 轮内变化小于 {0}"),
    (r"the key controversy repeats", "核心争议重复出现"),
    (r"fewer than (\d+) new passages over (\d+) rounds", "{1} 轮内新段落少于 {0} 个"),
    # why a "ready for verdict" was overruled (rules.overrule_reasons)
    (r"ready before the minimum of (\d+) rounds", "在最少 {0} 轮之前就要求裁决"),
    (r"the reason names no argument or evidence of the debate", "理由未提及辩论中的任何论点或证据"),
    # the verdict's rules (rules.verdict_check, judge.verdict)
    (r"verdict rule: ", "裁决规则："),
    (r"the label '([^']+)' contradicts the record: the last ruling leans towards '([^']+)' \(confidence ([\d.]+)\) "
     r"and the cited evidence, as assessed, leans the same way",
     "标签“{0}”与记录矛盾：最后一次裁定倾向“{1}”（置信度 {2}），经评估的被引证据也倾向同一方"),
    (r"; the label is set to '([^']+)'", "；标签改为“{0}”"),
    (r"no evidence was cited, so the label is '([^']+)' \(the judge proposed '([^']+)'\)",
     "未引用任何证据，因此标签为“{0}”（法官提议“{1}”）"),
    (r"'([^']+)' cannot carry confidence ([\d.]+); capped at ([\d.]+)", "“{0}”不能带有 {1} 的置信度；上限为 {2}"),
    # the quality guard (checks.quality_flags, counsel, rules.trial_flags)
    (r"argument with no evidence", "论证未引用证据"),
    (r"does not answer the other side \(parallel monologue\)", "未回应对方（各说各话）"),
    (r"weak challenge: repeats the other side without new points", "无力的质询：重复对方而无新论点"),
    (r"rejected twice: ", "两次被拒："),
    (r"has stray template characters", "含有残留的模板字符"),
    (r"echoes its instructions or a role prompt", "复述了指令或角色提示"),
    (r"repeats sentences", "重复句子"),
    (r"cites no evidence", "未引用证据"),
    (r"the answer was empty", "回答为空"),
    (r" \((\d+) turns?\)", "（{0} 次发言）"),
    (r"passages that read like instructions: ", "读起来像指令的段落："),
    (r"unanswered challenges: ", "未回应的质询："),
    # a decision's hearing (hearing.py)
    (r": not scored", "：未评分"),
    (r": a score of ([\d.]+) without a citation was set aside", "：没有引用的 {0} 分被搁置"),
    (r"constraint '([^']+)': '([^']+)' without a citation was set aside", "约束“{0}”：没有引用的“{1}”被搁置"),
    # warnings (engine, counsel, judge)
    (r"(E\d+) reads like instructions to a model; it is treated as a quoted passage only",
     "{0} 读起来像给模型的指令；只作为引用的段落处理"),
    (r": search queries unusable, searching with the claim and the debate's terms", "：检索词不可用，改用主张和辩论中的词检索"),
    (r"'s argument was rejected \(", " 的论证被拒（"),
    (r"\); regenerating once", "）；重新生成一次"),
    (r"the evidence could not be assessed \(", "证据无法评估（"),
    (r"\); its stance stays unknown", "）；其立场仍未知"),
    (r"the verdict was sent back \(", "裁决被退回（"),
    (r"the embedder failed \(", "嵌入模型出错（"),
    (r"\); searching with BM25 alone and comparing words instead of vectors", "）；改用 BM25 单独检索，并以词语而非向量比较"),
    (r"private documents left out of this trial's searches \((.+)\): text goes to another machine \((.+)\)",
     "本次审理的检索未纳入私密文档（{0}）：文本会发送到另一台计算机（{1}）"),
    *((rf"\b{role}\b(?=[,）])", zh) for role, zh in (("prosecution", "控方"), ("defense", "辩方"), ("judge", "法官"),
                                                    ("embedder", "嵌入模型"))),
    (r"verdict finding cited unknown evidence (.+); those citations were removed",
     "裁决认定引用了不存在的证据 {0}；这些引用已删除"),
    # side and role names inside those phrases
    (r"\b(Prosecution|Defense|Counsel for|Counsel against|Judge)\b", "{0}"),
]
_PATTERNS = [(re.compile(pattern), template) for pattern, template in _ZH]


def told(record, text: str) -> str:
    """``text``, a phrase the court stored, in the wording of ``record``'s report (Chinese or as stored)."""
    if not text or wording(record) != "zh":
        return text
    for pattern, template in _PATTERNS:
        text = pattern.sub(lambda m, t=template: _quoted(m, t), text)
    return text

"""The court on a Chinese claim with scripted models: prompts ask for Chinese, queries and key terms are Chinese words,
the quality guard reads Chinese turns, a repeated Chinese controversy is seen by words when the embedder does not read
Chinese, and the trial reaches a verdict with valid citations."""

from __future__ import annotations

import json

import numpy as np
import pytest

from courtroom_desktop.core.config import DebateSettings
from courtroom_desktop.core.court import Court, TrialSpec, TrialStore
from courtroom_desktop.core.court.checks import clean_queries, content_words, key_terms, overlap, quality_flags
from courtroom_desktop.core.court.prompts import language_rule
from courtroom_desktop.core.court.records import Citation, Seat, Stance, Turn
from courtroom_desktop.core.records import Chunk, Evidence
from courtroom_desktop.core.reports.wording import say_reason as said

from .fakes import models, pool_ids, scripted

CLAIM = "长期饮用纯净水会导致人体矿物质流失。"
PASSAGES = [
    ("饮水与健康", "一项随机对照试验发现，饮用纯净水十二周后，受试者血液中的钙和镁水平没有下降。"),
    ("膳食矿物质", "人体所需的钙、镁等矿物质主要来自食物，饮用水只提供很少一部分。"),
    ("软水研究", "一项队列研究报告，长期饮用软水的人群心血管疾病风险略高。"),
]


def turn(text: str, seat=Seat.starts_against, stance=Stance.against) -> Turn:
    return Turn(round=1, index=0, seat=seat, stance=stance, role="Prosecution", text=text,
                citations=(Citation(evidence_id="E1"),))


def test_chinese_words_key_terms_queries_and_the_quality_guard():
    argument = "试验[E1]表明，饮用纯净水十二周后血液中的钙和镁没有下降，所以矿物质流失的说法缺乏依据。"
    answer = "钙和镁没有下降只说明十二周太短[E2]；矿物质主要来自食物，长期饮用纯净水仍可能减少摄入。"
    unrelated = "本案应当考虑房价上涨对家庭预算的影响[E3]，利率和通货膨胀同样重要。"
    assert {"纯净水", "矿物质", "十二周"} <= content_words(argument) and "的" not in content_words(argument)
    assert "矿物质" in key_terms(argument + answer).split()
    assert clean_queries([CLAIM, "证据 证据 证据", "纯净水 矿物质"]) == [CLAIM, "纯净水 矿物质"]
    assert overlap(argument, answer) > 0.2 and overlap(argument, unrelated) == 0.0
    opponent = turn(argument)
    reply = lambda text: turn(text, Seat.starts_for, Stance.for_)  # noqa: E731
    assert quality_flags(reply(answer), opponent) == []
    assert [said(f) for f in quality_flags(reply(unrelated), opponent)] == ["does not answer the other side (parallel monologue)"]
    assert [f.code for f in quality_flags(reply(argument), opponent)] == ["flag_weak_challenge"]
    assert language_rule(CLAIM).startswith("Write in Simplified Chinese") and language_rule("Coffee helps.") == ""


class ChineseRetriever:
    def __init__(self):
        self.calls = []

    async def asearch(self, queries, k=None, scope=None):
        self.calls.append(list(queries))
        found = []
        for index, (title, text) in enumerate(PASSAGES):
            if any(content_words(q) & content_words(text) for q in queries):
                chunk = Chunk(id=f"zh{index}-0000", doc_id=f"zh{index}", ordinal=0, section_path="结果", page_start=0,
                              page_end=0, char_start=0, char_end=len(text), text=text)
                found.append(Evidence(chunk=chunk, doc_title=title, doc_path=f"/docs/zh{index}.pdf",
                                      query=queries[0], score=1.0))
        return found[: k or 6]


# each argument in its own words: the court sends back one that copies an earlier one (checks.copied)
POINTS = iter(["饮用纯净水后钙和镁水平没有下降", "十二周后血钙仍在正常范围", "钙主要来自牛奶和豆腐而非饮水",
               "志愿者的骨密度与钙摄入相关", "镁和钙的尿排泄量未见变化", "矿泉水中的钙只占每日摄入的一小部分"] * 20)


def counsel(messages):
    if "JSON" in messages[0]["content"]:
        return json.dumps({"queries": ["纯净水 矿物质 钙"]})
    ids = pool_ids(messages)
    return f"证据[{ids[0]}]说明{next(POINTS)}，见[{ids[-1]}]。"


def ruling(confidence, controversy="纯净水是否会让人体流失矿物质"):
    return json.dumps({"tendency": "refute", "confidence": confidence, "switch_request": False,
                       "ready_for_verdict": False, "key_controversy": controversy,
                       "summary": "双方都引用了饮水试验。", "open_questions": []})


@pytest.mark.asyncio
async def test_a_chinese_trial_reaches_a_verdict_and_sees_a_repeated_controversy_by_words(tmp_path):
    store = TrialStore(tmp_path / "trials.sqlite")
    verdict = json.dumps({"label": "refuted", "confidence": 0.7, "summary": "试验[E1]显示矿物质没有流失。",
                          "findings": [{"text": "十二周试验中钙和镁没有下降。", "citations": ["E1"]}]})
    judge = scripted([ruling(0.5), ruling(0.52, "纯净水是否会让人体流失矿物质？"), ruling(0.8), verdict], "judge")
    embedded = []

    def embed(texts):  # an English-only model: it must not be asked about Chinese text
        embedded.extend(texts)
        return np.ones((len(texts), 4), dtype=np.float32) / 2

    settings = DebateSettings(min_rounds=3, max_rounds=3, max_switches=1, stall_rounds=3, confidence_threshold=0.9)
    court = Court(models(scripted([counsel] * 30, "prosecution"), scripted([counsel] * 30, "defense"), judge),
                  ChineseRetriever(), store, settings, embed=embed, covers=lambda text: not any(
                      "\u4e00" <= c <= "\u9fff" for c in text))
    events = [e async for e in court.run(court.start(TrialSpec(claim=CLAIM)))]
    assert events[-1].kind == "verdict", [e for e in events if e.kind in ("error", "warning")]
    assert not embedded  # novelty and the controversy were compared by words
    switch = next(e for e in events if e.kind == "switch")
    assert "switch_controversy_same" in [r.code for r in switch.reasons]
    turns = [e.turn for e in events if e.kind == "turn_finished"]
    assert all(c.valid for t in turns for c in t.citations) and all("钙" in t.text for t in turns)
    prompts = [m[-1]["content"] for m in judge.calls]
    assert all("Write in Simplified Chinese" in p for p in prompts if "Claim:" in p)
    assert any("纯净水" in q for calls in court.retriever.calls for q in calls[1:])  # Chinese key terms as queries
    store.close()

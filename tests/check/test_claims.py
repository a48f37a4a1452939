"""The check-worthy claim finder on hand-picked sentences, English and Chinese, and its score."""

from __future__ import annotations

import pytest

from courtroom_desktop.core.check.claims import find_claims, why_checkworthy
from courtroom_desktop.core.check.drafts import read_text
from courtroom_desktop.core.eval.claims import Label, score

POSITIVES = [
    ("Bus ridership rose by 18% between 2014 and 2023.", {"number", "comparison"}),
    ("The new lines are faster than driving at rush hour.", {"comparison"}),
    ("Poor sleep causes problems with memory and mood.", {"causal"}),
    ("Most commuters now live near a stop.", {"quantifier"}),
    ("According to the IEA, clean energy investment reached record levels.", {"attribution"}),
    ("A 2019 study found that shift workers sleep badly.", {"attribution"}),
    ("Protected lanes reduce injuries (Smith et al., 2020).", {"attribution"}),
    ("Screens before bed delay sleep onset [4].", {"attribution"}),
    ("Hydropower remains the largest renewable source worldwide.", {"superlative"}),
    ("The plant employs 1,200 people.", {"number"}),
    ("2023年新能源汽车销量约为９５０万辆。", {"number"}),
    ("绿茶中的茶多酚含量高于红茶。", {"comparison"}),
    ("燃煤锅炉的淘汰导致冬季污染大幅下降。", {"causal"}),
    ("大多数城市已经实行了新的排放标准。", {"quantifier"}),
    ("据新华社报道，该项目已经全面完工。", {"attribution"}),
    ("中国是世界上最早种植茶树的国家。", {"superlative"}),
]
NEGATIVES = [
    "Why does this matter?",
    "See Section 3 for the full fare table.",
    "Figure 2 shows the monthly output.",
    "In this section we look at why that happened.",
    "We should keep fares low.",
    "Consider keeping a sleep diary.",
    "I enjoy cycling to work on sunny mornings.",
    "为什么北方的冬天污染更严重？",
    "详见第3节的数据表。",
    "图2展示了各年龄段的用户分布。",
    "我们应该多乘坐公共交通。",
    "请大家关注每日的空气质量指数。",
    "本节介绍主要的变化。",
    "我很喜欢秋天晴朗的天气。",
]


@pytest.mark.parametrize(("sentence", "expected"), POSITIVES)
def test_check_worthy_sentences_are_found_with_why(sentence, expected):
    assert expected <= set(why_checkworthy(sentence))


@pytest.mark.parametrize("sentence", NEGATIVES)
def test_questions_references_recommendations_and_signposts_are_not(sentence):
    assert why_checkworthy(sentence) == ()


def test_a_recommendation_with_a_number_keeps_its_factual_core():
    assert "number" in why_checkworthy("We should act now, since 40% of rivers are polluted.")


def test_find_claims_keeps_order_and_location_and_score_counts():
    draft = read_text("Sales rose by 12% in 2020. What next?\n\nWe should celebrate. Most of the staff stayed.")
    found = find_claims(draft.sentences)
    assert [(c.text, c.sentence_index, c.location.paragraph) for c in found] == [
        ("Sales rose by 12% in 2020.", 0, 1), ("Most of the staff stayed.", 3, 2)]
    labels = [Label(sentence="Sales rose by 12% in 2020.", checkworthy=True, why=("number",)),
              Label(sentence="What next?", checkworthy=False), Label(sentence="We should celebrate.", checkworthy=False),
              Label(sentence="Most of the staff stayed.", checkworthy=False),
              Label(sentence="Costs fell sharply.", checkworthy=True)]
    result = score(found, labels)
    assert (result.precision, result.recall, round(result.f1, 3)) == (0.5, 0.5, 0.5)


def test_the_finders_held_out_figures_hold():
    """The rule finder on the drafts written apart from its rules (tests/check/data/heldout, 12 drafts): its
    precision and recall per language must not fall below today's (English 0.667 / 0.902, Chinese 0.738 / 0.933).
    Only the tuning drafts were tested before; removing the quantifier rule dropped held-out recall and no test
    failed (break: the quantifier rule removed, and this fails on English recall)."""
    from pathlib import Path

    from courtroom_desktop.core.eval.claims import run_claims

    scores = {row.language: row.score for row in run_claims(Path(__file__).parent / "data" / "heldout")}
    assert scores["en"].precision >= 0.666 and scores["en"].recall >= 0.902, scores["en"]
    assert scores["zh"].precision >= 0.737 and scores["zh"].recall >= 0.933, scores["zh"]

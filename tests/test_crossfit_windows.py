"""training/crossfit.py's sentence windows (score --windows): a passage read also by its runs of two sentences, an
experiment measured and not shipped (docs/verifier.md). The runs must be whole sentences in English and in Chinese, a
decimal or an abbreviation inside a sentence must not cut it, and the rule must read a passage by its most decided
piece."""

from __future__ import annotations

from testkit.scripts import load_script

crossfit = load_script("crossfit", "training")


def test_windows_are_runs_of_two_whole_sentences_and_decimals_do_not_cut_them():
    """Break: splitting at every full stop (core.court.checks.sentences) cuts "p < 0.05" into two pieces."""
    passage = ("Vitamin D lowered the risk by 12.5 percent (p < 0.05). The effect was seen in women. "
               "It was not seen in men.")
    assert crossfit.windows(passage) == [
        "Vitamin D lowered the risk by 12.5 percent (p < 0.05). The effect was seen in women.",
        "The effect was seen in women. It was not seen in men."]


def test_chinese_windows_end_at_chinese_full_stops_and_join_without_spaces():
    assert crossfit.windows("维生素D降低了风险。结果显著（p<0.05）。样本较小。") == [
        "维生素D降低了风险。结果显著（p<0.05）。", "结果显著（p<0.05）。样本较小。"]


def test_a_short_passage_is_its_own_only_window():
    assert crossfit.windows("One sentence. Two sentences.") == ["One sentence. Two sentences."]


def test_a_passage_is_read_by_its_most_decided_piece():
    whole, pieces = [0.2, 0.1, 0.7], [[0.1, 0.6, 0.3], [0.5, 0.0, 0.5]]
    assert crossfit.sharpest(whole, pieces) == [0.1, 0.6, 0.3]
    assert crossfit.sharpest(whole, []) == whole

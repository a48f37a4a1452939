"""`courtroom eval claims` on the tuning drafts, and `courtroom check DRAFT --list-claims`."""

from __future__ import annotations

import json
from pathlib import Path

from courtroom_desktop.cli import main
from courtroom_desktop.core.check.drafts import read_draft
from courtroom_desktop.core.eval.claims import labelled_drafts, read_labels

TUNING = Path(__file__).parent / "data" / "tuning"


def test_the_tuning_labels_follow_their_drafts_sentence_for_sentence():
    pairs = labelled_drafts(TUNING)
    assert len(pairs) == 8
    languages = []
    for draft_path, labels_path in pairs:
        draft, labels = read_draft(draft_path), read_labels(labels_path)
        assert [s.text for s in draft.sentences] == [label.sentence for label in labels]
        assert 12 <= len(labels) <= 20
        languages.append(draft.language)
    assert sorted(languages) == ["en"] * 4 + ["zh"] * 4


def test_eval_claims_prints_precision_recall_f1_per_language(capsys):
    assert main(["eval", "claims", "--drafts", str(TUNING)]) == 0
    out = capsys.readouterr().out
    assert "| en | 4 |" in out and "| zh | 4 |" in out and "| all | 8 |" in out
    assert main(["eval", "claims", "--drafts", str(TUNING), "--json"]) == 0
    rows = {row["language"]: row["score"] for row in json.loads(capsys.readouterr().out)}
    for language in ("en", "zh"):
        assert rows[language]["precision"] >= 0.85 and rows[language]["recall"] >= 0.85, rows[language]


def test_check_lists_claims_with_locations(tmp_path, capsys):
    path = tmp_path / "draft.md"
    path.write_text("# Draft\n\nSales rose by 12% in 2020. What next?\n", encoding="utf-8")
    assert main(["check", str(path), "--list-claims"]) == 0
    out = capsys.readouterr().out
    assert "paragraph 2, characters 0-26" in out and "Sales rose by 12% in 2020." in out
    assert main(["check", str(path), "--list-claims", "--json"]) == 0
    claims = json.loads(capsys.readouterr().out)["claims"]
    assert [(c["text"], c["locations"][0]["paragraph"], c["why"]) for c in claims] == [
        ("Sales rose by 12% in 2020.", 2, ["number", "comparison"])]


def test_check_of_a_draft_on_an_empty_library_says_what_to_do(tmp_path, capsys):
    path = tmp_path / "draft.md"
    path.write_text("Sales rose by 12% in 2020.\n", encoding="utf-8")
    assert main(["check", str(path)]) == 2
    assert "library is empty" in capsys.readouterr().err


def test_check_an_unknown_extension_fails_with_a_fix(tmp_path, capsys):
    path = tmp_path / "draft.xyz"
    path.write_text("hello", encoding="utf-8")
    assert main(["check", str(path), "--list-claims"]) == 2
    err = capsys.readouterr().err
    assert "draft.xyz" in err and "fix:" in err


def test_a_label_may_say_why_in_words_or_as_a_list(tmp_path):
    """Labellers write "why" either way (the held-out set in words, the tuning set as features): both read."""
    path = tmp_path / "d.labels.jsonl"
    path.write_text(json.dumps({"sentence": "Sales rose 4%.", "checkworthy": True, "why": "a number"}) + "\n"
                    + json.dumps({"sentence": "We should act.", "checkworthy": False, "why": ["opinion"]}) + "\n",
                    encoding="utf-8")
    labels = read_labels(path)
    assert [label.why for label in labels] == [("a number",), ("opinion",)]
    assert [label.checkworthy for label in labels] == [True, False]


def test_check_lists_each_claims_worth_and_checks_none_below_min_worth(tmp_path, capsys):
    """A plan with a number is found by the rules but worth less than check.min_worth: listed, marked, and left out
    of the claims file --list-claims --json writes (and so of the check); --min-worth 0 keeps it."""
    path = tmp_path / "draft.md"
    path.write_text("Sales rose by 12% in 2020. We plan to open 12 new stores by 2028.\n", encoding="utf-8")
    assert main(["check", str(path), "--list-claims"]) == 0
    out = capsys.readouterr().out
    assert "2 claims found among 2 sentences" in out and "1 worth checking at 0.19" in out
    assert "worth 0.09)  -- below --min-worth, not checked\n  We plan to open" in out
    assert main(["check", str(path), "--list-claims", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [c["text"] for c in listed["claims"]] == ["Sales rose by 12% in 2020."]
    assert [c["text"] for c in listed["below_min_worth"]] == ["We plan to open 12 new stores by 2028."]
    assert listed["claims"][0]["worth"] > 0.9
    assert main(["check", str(path), "--list-claims", "--json", "--min-worth", "0"]) == 0
    assert len(json.loads(capsys.readouterr().out)["claims"]) == 2
    assert main(["check", str(path)]) == 2  # the library is empty: the claims left out are said first
    assert "not checking 1 of 2 claims: worth less than 0.19" in capsys.readouterr().err

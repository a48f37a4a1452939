"""training/negated_pairs.py says a claim the other way by rule, flips a decided pair's label with it and keeps a
"neither" pair neither; it reads training pairs only."""

from __future__ import annotations

import json
import random

import pytest

from testkit.scripts import load_script

negated = load_script("negated_pairs", "training")


@pytest.mark.parametrize("claim, said", [
    ("Vitamin D increases birth weight.", "Vitamin D decreases birth weight."),
    ("Statins reduce mortality in older adults.", None),  # "reduce" (no -s) has no rule: left out, not guessed
    ("Statins reduces mortality.", "Statins elevates mortality."),  # the first opposite listed
    ("Obesity is associated with asthma.", "Obesity is not associated with asthma."),
    ("Smoking does not cause lung cancer.", "Smoking does cause lung cancer."),
    ("Aspirin cannot prevent stroke.", "Aspirin can prevent stroke."),
    ("Higher doses improve survival.", "Lower doses improve survival."),
    ("Mice lacking FOXP3 were not protected.", "Mice lacking FOXP3 were protected."),
    ("维生素D能降低早产风险。", None),  # English rules only: a Chinese claim is left alone
])
def test_negate(claim, said):
    assert negated.negate(claim) == said


def test_decided_pairs_flip_and_neither_stays(tmp_path):
    pairs = [
        {"claim": "X increases Y.", "passage": "p", "label": 0, "source": "scifact", "group": "g1"},
        {"claim": "X is linked to Y.", "passage": "p", "label": 1, "source": "scifact-retrieved", "group": "g2"},
        {"claim": "X is safe.", "passage": "q", "label": 2, "source": "scifact-away", "group": "g3"},
        {"claim": "Nothing to say here", "passage": "r", "label": 0, "source": "scifact", "group": "g4"},
    ]
    out = negated.negated_pairs(pairs, random.Random(0), neither=5)
    assert [(p["claim"], p["label"]) for p in out] == [
        ("X decreases Y.", 1), ("X is not linked to Y.", 0), ("X is not safe.", 2)]
    assert all(p["source"].endswith("-negated") for p in out) and {p["group"] for p in out} == {"g1", "g2", "g3"}


def test_main_reads_training_pairs_only(tmp_path):
    rows = {"train.jsonl": [{"claim": "A increases B.", "passage": "p", "label": 0, "source": "scifact", "group": "t"},
                            {"claim": "A is B.", "passage": "p", "label": 0, "source": "fever", "group": "f"}],
            "retrieved.jsonl": [{"claim": "C is D.", "passage": "p", "label": 1, "source": "scifact-retrieved",
                                 "group": "r"}],
            "calibration.jsonl": [{"claim": "E is F.", "passage": "p", "label": 0, "source": "scifact",
                                   "group": "held"}]}
    for name, pairs in rows.items():
        (tmp_path / name).write_text("".join(json.dumps(p) + "\n" for p in pairs), encoding="utf-8")
    assert negated.main(["--data", str(tmp_path)]) == 0
    out = [json.loads(line) for line in (tmp_path / "negated.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted(p["group"] for p in out) == ["r", "t"]  # not FEVER, never the held-out calibration claims
    decided = [json.loads(line) for line in (tmp_path / "decided.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [p["group"] for p in decided] == ["r"]


def test_folds_keep_each_fold_apart(tmp_path):
    """--folds: a fold's negated and decided pairs come from that fold's claims only, so the model trained on fold a
    never sees fold b's claims said the other way (crossfit.py reads fold b with it)."""
    def pair(claim: str, label: int, source: str, group: str) -> dict:
        return {"claim": claim, "passage": "p", "label": label, "source": source, "group": group}

    rows = {"scifact-a.jsonl": [pair("A increases B.", 0, "scifact", "a1")],
            "retrieved-a.jsonl": [pair("C is D.", 1, "scifact-retrieved", "a2"),
                                  pair("C is E.", 2, "scifact-retrieved", "a3")],
            "scifact-b.jsonl": [pair("F raises G.", 0, "scifact", "b1")],
            "retrieved-b.jsonl": [pair("H is I.", 0, "scifact-retrieved", "b2")]}
    for name, pairs in rows.items():
        (tmp_path / name).write_text("".join(json.dumps(p) + "\n" for p in pairs), encoding="utf-8")
    assert negated.main(["--data", str(tmp_path), "--folds"]) == 0

    def read(name: str) -> list[dict]:
        return [json.loads(line) for line in (tmp_path / name).read_text(encoding="utf-8").splitlines()]

    assert sorted((p["group"], p["claim"], p["label"]) for p in read("negated-a.jsonl")) == [
        ("a1", "A decreases B.", 1), ("a2", "C is not D.", 0), ("a3", "C is not E.", 2)]
    assert [(p["group"], p["claim"]) for p in read("negated-b.jsonl")] == [
        ("b1", "F lowers G."), ("b2", "H is not I.")]
    assert [p["group"] for p in read("decided-a.jsonl")] == ["a2"]
    assert [p["group"] for p in read("decided-b.jsonl")] == ["b2"]

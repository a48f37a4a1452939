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

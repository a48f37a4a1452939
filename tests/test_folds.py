"""training/folds.py splits the verifier's SciFact training claims into two folds, every pair of one claim in one fold,
so that each claim is read by a model that never trained on it (training/crossfit.py); other sources are kept apart
as the general pairs."""

from __future__ import annotations

import json

from testkit.scripts import load_script

folds = load_script("folds", "training")


def test_a_claim_has_one_fold_fixed_by_the_seed_and_the_folds_are_near_even():
    groups = [f"scifact:{i}" for i in range(2000)]
    first = [folds.fold_of(g) for g in groups]
    assert first == [folds.fold_of(g) for g in groups]  # the same claim, the same fold, every run
    assert 900 < first.count("a") < 1100
    assert [folds.fold_of(g, seed=14) for g in groups] != first  # another seed, another split


def test_every_pair_of_a_claim_lands_in_the_same_fold_and_other_sources_in_general(tmp_path):
    """Break: splitting pair by pair (a claim's window in one fold, its rationale in the other) puts one claim in
    both folds."""
    pairs = [{"claim": f"claim {i}", "passage": f"p{j}", "label": j % 3, "source": source, "group": f"scifact:{i}"}
             for i in range(60) for j, source in enumerate(("scifact", "scifact-rationale", "scifact-away"))]
    pairs += [{"claim": "c", "passage": "p", "label": 0, "source": "fever", "group": "fever:1"}]
    retrieved = [{**p, "source": "scifact-retrieved"} for p in pairs if p["source"] == "scifact"]
    for name, rows in (("train", pairs), ("retrieved", retrieved)):
        (tmp_path / f"{name}.jsonl").write_text("".join(json.dumps(p) + "\n" for p in rows), encoding="utf-8")
    assert folds.main(["--data", str(tmp_path)]) == 0

    def groups(name):
        return {json.loads(line)["group"] for line in (tmp_path / name).read_text(encoding="utf-8").splitlines()}

    assert groups("general.jsonl") == {"fever:1"}
    a, b = groups("scifact-a.jsonl"), groups("scifact-b.jsonl")
    assert a and b and not a & b and len(a | b) == 60
    assert groups("retrieved-a.jsonl") == a and groups("retrieved-b.jsonl") == b

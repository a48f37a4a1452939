"""training/verifier_data.py reads each source's files from a git snapshot at its commit and maps its labels onto
supports / refutes / neither; SciFact pairs carry the rationale for a label and leave it out for neither; the
calibration split never shares a claim with the training pairs."""

from __future__ import annotations

import io
import json
import subprocess
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from testkit.scripts import load_script

data = load_script("verifier_data", "training")


def _repo(mirrors: Path, source, files: dict[str, bytes]):  # type: ignore[no-untyped-def]
    repo = mirrors / source.repo.replace("/", "+") / "repo"
    work = mirrors / "work" / source.repo.replace("/", "+")
    work.mkdir(parents=True)
    for path, content in files.items():
        (work / path).parent.mkdir(parents=True, exist_ok=True)
        (work / path).write_bytes(content)
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q", str(work)], check=True)
    subprocess.run([*git, "-C", str(work), "add", "."], check=True)
    subprocess.run([*git, "-C", str(work), "commit", "-q", "-m", "data"], check=True)
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(repo)], check=True)
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    return replace(source, commit=commit)


def _zip(folder: str, rows: list[dict]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr(f"{folder}/test.jsonl", "\n".join(json.dumps(r) for r in rows) + "\n")
    return out.getvalue()


@pytest.fixture()
def mirrors(tmp_path, monkeypatch):
    root = tmp_path / "mirrors"
    vc = [{"case_id": "a", "claim": "X rose .", "evidence": "X -LRB- a -RRB- rose .", "label": "SUPPORTS"},
          {"case_id": "a", "claim": "X fell .", "evidence": "X rose .", "label": "REFUTES"},
          {"case_id": "b", "claim": "Y is big .", "evidence": "Z is big .", "label": "NOT ENOUGH INFO"}]
    monkeypatch.setattr(data, "VITAMINC", _repo(root, data.VITAMINC, {
        "static/vitaminc_real.zip": _zip("vitaminc_real", vc),
        "static/vitaminc_synthetic.zip": _zip("vitaminc_synthetic", vc[:2])}))
    base = "RTE-Fever/processed/dev"
    monkeypatch.setattr(data, "FEVER", _repo(root, data.FEVER, {
        f"{base}.raw.input0": b"Paris is in France .\nBerlin is in Germany .\n",
        f"{base}.raw.input1": b"Paris is French.\nBerlin is in Spain.\n",
        f"{base}.label": b"entailment\nnot_entailment\n"}))
    monkeypatch.setattr(data, "SNLI", _repo(root, data.SNLI, {
        **{f"dataset/eSNLI/s1.{s}": b"A dog runs .\nA cat sits .\nA man eats .\n" for s in ("dev", "test")},
        **{f"dataset/eSNLI/s2.{s}": b"An animal moves .\nA dog sits .\nA man is hungry .\n" for s in ("dev", "test")},
        **{f"dataset/eSNLI/labels.{s}": b"entailment\ncontradiction\nneutral\n" for s in ("dev", "test")}}))
    return root


def test_each_source_maps_its_labels(mirrors):
    vc = list(data.vitaminc(mirrors))
    assert [(p.claim, p.label) for p in vc[:3]] == [("X rose .", 0), ("X fell .", 1), ("Y is big .", 2)]
    assert vc[0].passage == "X ( a ) rose ."
    assert {p.source for p in vc} == {"vitaminc-real", "vitaminc-synthetic"}
    assert [(p.claim, p.passage, p.label) for p in data.fever(mirrors)] == [
        ("Paris is French.", "Paris is in France .", 0), ("Berlin is in Spain.", "Berlin is in Germany .", 1)]
    assert [(p.claim, p.label) for p in data.snli(mirrors)][:3] == [
        ("An animal moves .", 0), ("A dog sits .", 1), ("A man is hungry .", 2)]


def test_a_missing_snapshot_says_what_to_fetch(tmp_path):
    with pytest.raises(SystemExit, match="fetch github:asaakyan/covidfact"):
        list(data.fever(tmp_path))


def test_a_snapshot_at_another_commit_is_refused_not_read(tmp_path):
    """The pairs come from the named commit only: a snapshot whose newest commit is another one is refused, with what
    to do, instead of quietly reading its files."""
    source = _repo(tmp_path, data.FEVER, {"RTE-Fever/processed/dev.label": b"entailment\n"})
    assert data._show(tmp_path, source, "RTE-Fever/processed/dev.label") == b"entailment\n"
    elsewhere = replace(source, commit="0" * 40)
    with pytest.raises(SystemExit, match="not at commit 0000000"):
        data._show(tmp_path, elsewhere, "RTE-Fever/processed/dev.label")
    with pytest.raises(SystemExit, match="missing at"):
        data._show(tmp_path, source, "RTE-Fever/processed/nothing")


def _scifact(folder: Path) -> Path:
    folder.mkdir()
    sentences = [f"Sentence {i} about topic {i} with several words in it." for i in range(12)]
    corpus = [{"_id": "1", "title": "t", "text": " ".join(sentences), "sentences": sentences},
              {"_id": "2", "title": "u", "text": "Other.", "sentences": ["Other text entirely."]}]
    (folder / "corpus.jsonl").write_text("\n".join(json.dumps(r) for r in corpus) + "\n", encoding="utf-8")
    claims = [{"id": "7", "claim": "Topic 5 holds.", "label": "SUPPORT", "cited_doc_ids": ["1"],
               "evidence": {"1": {"label": "SUPPORT", "sentences": [5]}}},
              {"id": "8", "claim": "Topic 9 fails.", "label": "CONTRADICT", "cited_doc_ids": ["1"],
               "evidence": {"1": {"label": "CONTRADICT", "sentences": [9]}}},
              {"id": "9", "claim": "Nothing known.", "label": "NEI", "cited_doc_ids": ["1"], "evidence": {}}]
    (folder / "claims_train.jsonl").write_text("\n".join(json.dumps(r) for r in claims) + "\n", encoding="utf-8")
    return folder


def test_scifact_pairs_hold_the_rationale_for_a_label_and_not_for_neither(tmp_path):
    pairs = list(data.scifact(_scifact(tmp_path / "scifact"), "train", seed=1))
    rationale = {"7": "Sentence 5 about", "8": "Sentence 9 about"}
    for pair in pairs:
        claim_id = pair.group.split(":")[1]
        if pair.label in (0, 1):
            assert rationale[claim_id] in pair.passage
            assert pair.label == (0 if claim_id == "7" else 1)
        elif pair.source == "scifact-away":
            assert rationale[claim_id] not in pair.passage
    assert {p.source for p in pairs if p.group == "scifact:9"} >= {"scifact-nei"}
    assert all(p.label == 2 for p in pairs if p.group == "scifact:9")


def test_calibration_shares_no_claim_with_training(mirrors, tmp_path):
    sets = data.build(mirrors, _scifact(tmp_path / "scifact"), seed=3,
                      mix={"scifact": 2, "vitaminc-real": 10, "vitaminc-synthetic": 10, "fever": 10, "snli": 10})
    train_groups = {p.group for p in sets["train"]}
    assert sets["calibration"] and sets["train"]
    assert not train_groups & {p.group for p in sets["calibration"]}

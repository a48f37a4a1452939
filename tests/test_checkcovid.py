"""scripts/checkcovid.py on a tiny fake Check-COVID snapshot in the real file layout."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from courtroom_desktop.core.eval.verdicts import load_claims
from testkit.scripts import load_script

mod = load_script("checkcovid")

PAPERS = [
    {"cord_id": "aaa11111", "title": "Saliva testing for SARS-CoV-2",
     "abstract": ["Rapid testing is needed.", "Our assay detects the virus in 30 min."]},
    {"cord_id": "bbb22222", "title": "Neandertal risk locus", "abstract": ["A gene cluster raises severe risk."]},
    {"cord_id": "ccc33333", "title": "Bats and viruses", "abstract": ["Bats coexist with viruses."]},
]
TEST_COMPOSED = [
    {"id": "t1_0", "claim": "A test finds the virus in seconds.", "cord_id": "aaa11111", "label": "REFUTE",
     "evidence_set": [{"sent_index": 1, "type": "PRIMARY"}], "is_auth": False},
    {"id": "t1_1", "claim": "A test finds the virus in thirty minutes. ", "cord_id": "aaa11111", "label": "SUPPORT",
     "evidence_set": [{"sent_index": 1, "type": "PRIMARY"}], "is_auth": False},
    # repeats t1_1 on the same paper: NEI only for sentence 0, settled by the abstract -> dropped
    {"id": "t1_2", "claim": "A test finds the virus in thirty minutes.", "cord_id": "aaa11111",
     "label": "NOTENOUGHINFO", "evidence_set": [{"sent_index": 0, "type": "PRIMARY"}], "is_auth": False},
]
TEST_EXTRACTED = [
    {"id": "t2_0", "claim": "Neandertal genes raise COVID-19 risk.", "cord_id": "bbb22222", "label": "SUPPORT",
     "evidence_set": [{"sent_index": 0, "type": "PRIMARY"}], "is_auth": True},
    # no settled twin: kept as NEI
    {"id": "t2_1", "claim": "Neandertal genes protect children.", "cord_id": "bbb22222", "label": "NOTENOUGHINFO",
     "evidence_set": [{"sent_index": 0, "type": "PRIMARY"}], "is_auth": True},
]
DEV = [{"id": "d1_0", "claim": "Bats fight viruses off.", "cord_id": "ccc33333", "label": "REFUTE",
        "evidence_set": [{"sent_index": 0, "type": "PRIMARY"}], "is_auth": False}]
TRAIN = [{"id": "r1_0", "claim": "Bats coexist with viruses.", "cord_id": "ccc33333", "label": "SUPPORT",
          "evidence_set": [{"sent_index": 0, "type": "PRIMARY"}], "is_auth": False}]
RETRIEVED = [{"claim_id": "t1_0", "doc_ids": ["aaa11111", "zzz99999"],
              "abstracts": {"aaa11111": ["Saliva testing for SARS-CoV-2", "Rapid testing is needed."],
                            "zzz99999": ["Masks and distancing", "Masks slow spread."]}}]


def _write(path: Path, rows: list[dict[str, object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def _tree(root: Path) -> Path:
    data = root / "Check-COVID"
    _write(data / "corpus.json", PAPERS)
    _write(data / "test" / "covidCheck_test_composed.json", TEST_COMPOSED)
    _write(data / "test" / "covidCheck_test_extracted.json", TEST_EXTRACTED)
    _write(data / "dev" / "covidCheck_dev_composed.json", DEV)
    _write(data / "dev" / "covidCheck_dev_extracted.json", [])
    _write(data / "train" / "covidCheck_train_composed.json", TRAIN)
    _write(data / "train" / "covidCheck_train_extracted.json", [])
    _write(data / "variants_for_experiments" / "abstracts" / "abstract_retrieval_test.jsonl", RETRIEVED)
    return root


def _git_repo(root: Path) -> str:
    _tree(root)
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "fake"], check=True)
    return subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()


def _jsonl(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("form", ["worktree", "gitdir"])
def test_converts_labels_docs_and_splits(tmp_path: Path, form: str) -> None:
    commit = _git_repo(tmp_path / "snap")
    repo = tmp_path / "snap" if form == "worktree" else tmp_path / "snap" / ".git"
    out = tmp_path / "out"
    report = mod.convert(repo, out, pinned=commit)
    assert report.commit == commit

    corpus = _jsonl(out / "corpus.jsonl")
    assert [d["_id"] for d in corpus] == ["aaa11111", "bbb22222", "ccc33333"]  # train's paper too: distractors
    assert corpus[0] == {"_id": "aaa11111", "title": "Saliva testing for SARS-CoV-2",
                         "text": "Rapid testing is needed. Our assay detects the virus in 30 min."}

    test = {c["id"]: c for c in _jsonl(out / "claims_test.jsonl")}
    assert {i: c["label"] for i, c in test.items()} == {"t1_0": "CONTRADICT", "t1_1": "SUPPORT", "t2_0": "SUPPORT",
                                                        "t2_1": "NEI"}
    assert test["t1_1"]["claim"] == "A test finds the virus in thirty minutes."
    assert test["t2_0"]["claim_type"] == "extracted" and test["t1_0"]["claim_type"] == "composed"
    ids = {d["_id"] for d in corpus}
    assert all(c["cited_doc_ids"] and set(c["cited_doc_ids"]) <= ids for c in test.values())
    assert [c["label"] for c in _jsonl(out / "claims_dev.jsonl")] == ["CONTRADICT"]
    assert not (out / "claims_train.jsonl").exists()
    assert report.dropped_nei == {"test": 1, "dev": 0}

    # the evaluation reads them
    assert [c.gold_docs for c in load_claims(out / "claims_test.jsonl")][0] == ("aaa11111",)
    text = (out / "README.md").read_text(encoding="utf-8")
    assert commit in text and "MIT License" in text and "Never train, tune or select" in text


def test_refuses_another_commit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _git_repo(tmp_path / "snap")
    out = tmp_path / "out"
    with pytest.raises(mod.CheckCovidError, match="written against"):
        mod.convert(tmp_path / "snap", out)  # HEAD is not PINNED
    assert not out.exists()
    assert mod.main(["--repo", str(tmp_path / "snap"), "--out", str(out)]) == 2
    assert "--any-commit" in capsys.readouterr().err
    assert mod.main(["--repo", str(tmp_path / "snap"), "--out", str(out), "--any-commit"]) == 0
    assert (out / "claims_test.jsonl").exists()


def test_plain_folder_and_retrieved_distractors(tmp_path: Path) -> None:
    root = _tree(tmp_path / "plain")
    with pytest.raises(mod.CheckCovidError, match="no git commit"):
        mod.convert(root, tmp_path / "out")
    report = mod.convert(root, tmp_path / "out", any_commit=True, retrieved=True)
    corpus = {d["_id"]: d for d in _jsonl(tmp_path / "out" / "corpus.jsonl")}
    assert report.commit is None and report.corpus == 4
    assert corpus["zzz99999"] == {"_id": "zzz99999", "title": "Masks and distancing", "text": "Masks slow spread."}
    assert corpus["aaa11111"]["text"].endswith("30 min.")  # the corpus.json version wins


def test_unknown_paper_refused(tmp_path: Path) -> None:
    root = _tree(tmp_path / "plain")
    _write(root / "Check-COVID" / "dev" / "covidCheck_dev_extracted.json", [{**DEV[0], "id": "x", "cord_id": "nope"}])
    with pytest.raises(mod.CheckCovidError, match="not in corpus.json"):
        mod.convert(root, tmp_path / "out", any_commit=True)

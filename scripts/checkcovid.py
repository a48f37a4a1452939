"""Convert Check-COVID (ACL 2023 Findings, arXiv:2305.18265; github.com/posuer/Check-COVID) into the SciFact-style files
that ``courtroom eval verdicts`` reads: a second public evaluation set.

RULE: Check-COVID is kept only to JUDGE the verifier and the court. Never train, tune or select anything on it (no
prompt, threshold, model or setting chosen by its scores). This script only converts it for evaluation; it writes
no training split.

    python scripts/checkcovid.py [--repo /work/.mirror/posuer+Check-COVID/repo] [--out build/eval/checkcovid]
                                 [--any-commit] [--retrieved-distractors]

The set: news claims about COVID-19 (``is_auth`` true: extracted, written by journalists; false: composed by
annotators) paired with one scientific paper (``cord_id``, a CORD-19 id) and sentence-level evidence
(``evidence_set``: indices into that paper's abstract sentences). Splits: ``train``, ``dev``, ``test``, each as a
``*_composed.json`` and a ``*_extracted.json`` file (JSON lines). ``Check-COVID/corpus.json`` holds every paper of
every split (``cord_id``, ``title``, ``abstract``: the abstract as a list of sentences).

What is written to OUT:

- ``corpus.jsonl`` (BEIR): one document per paper of ``corpus.json`` (all splits, so the test claims meet the
  train and dev papers as distractors): ``_id`` = the CORD-19 id, ``title``, ``text`` = the abstract's sentences
  joined with spaces (the set gives the abstract only as sentences; joined, that is the whole abstract it has).
  With ``--retrieved-distractors`` also the other CORD-19 abstracts in
  ``variants_for_experiments/abstracts/abstract_retrieval_*test*.jsonl`` (what the authors' retrievers returned
  for the test claims; their first sentence is the title). Off by default: they are unlabelled hard negatives that
  may hold evidence for a claim nobody marked.
- ``claims_test.jsonl`` and ``claims_dev.jsonl``: ``id``, ``claim``, ``label``, ``cited_doc_ids`` (the claim's
  paper), plus ``claim_type`` (extracted/composed), ``source_label`` and ``evidence_sentences`` (for reference; the
  evaluation ignores them).
- ``README.md``: source, commit, licence, counts and the rule above.

Labels: SUPPORT -> SUPPORT, REFUTE -> CONTRADICT, NOTENOUGHINFO -> NEI.

NEI in Check-COVID is judged against the chosen *sentences*, not the paper: each NEI row repeats the text of a
SUPPORT or REFUTE claim on the same paper, paired with sentences that do not settle it. Against the whole abstract
(what our retrieval sees) such a claim is settled, so its NEI gold is wrong. An NEI row whose claim text (stripped)
also carries SUPPORT or REFUTE on the same paper is therefore dropped, and the README counts them. At the pinned
commit that is every NEI row: the converted set has two classes.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MIRROR = Path("/work/.mirror/posuer+Check-COVID")
DEFAULT_OUT = ROOT / "build" / "eval" / "checkcovid"
PINNED = "3ae70f8cac4df13a3ce56878e20d8e76790e422d"  # 2023-05-30 "re-organize dataset files, add paper link"
DATA = "Check-COVID"
SPLITS = {"dev": ("dev/covidCheck_dev_composed.json", "dev/covidCheck_dev_extracted.json"),
          "test": ("test/covidCheck_test_composed.json", "test/covidCheck_test_extracted.json"),
          "train": ("train/covidCheck_train_composed.json", "train/covidCheck_train_extracted.json")}
WRITTEN = ("test", "dev")  # train only lends its papers to the corpus
LABELS = {"SUPPORT": "SUPPORT", "REFUTE": "CONTRADICT", "NOTENOUGHINFO": "NEI"}
RETRIEVED = f"{DATA}/variants_for_experiments/abstracts"
LICENCE = "MIT License, Copyright (c) 2023 Columbia University (LICENSE file of the repository)"
RULE = ("Check-COVID is kept only to JUDGE the verifier and the court. Never train, tune or select anything on it: "
        "no prompt, threshold, model or setting may be chosen by its scores.")


class CheckCovidError(Exception):
    """The snapshot is missing, at another commit, or not in the expected layout."""


@dataclass(frozen=True)
class Snapshot:
    """A Check-COVID copy: a git dir (bare or .git), a work tree, or a plain folder (no commit known)."""

    path: Path
    git: tuple[str, ...] | None  # the git command prefix that reaches it; None for a plain folder

    @classmethod
    def open(cls, path: Path) -> Snapshot:
        path = Path(path)
        if not path.is_dir():
            raise CheckCovidError(f"{path}: no such folder (fetch github:posuer/Check-COVID, or pass --repo)")
        if (path / "HEAD").is_file() and (path / "objects").is_dir():
            return cls(path, ("git", f"--git-dir={path}"))
        if (path / ".git").exists():
            return cls(path, ("git", "-C", str(path)))
        return cls(path, None)

    def commit(self) -> str | None:
        if self.git is None:
            return None
        done = subprocess.run([*self.git, "rev-parse", "HEAD"], capture_output=True, text=True)
        if done.returncode:
            raise CheckCovidError(f"{self.path}: git rev-parse HEAD failed: {done.stderr.strip()}")
        return done.stdout.strip()

    def files(self, folder: str) -> list[str]:
        if self.git is None:
            base = self.path / folder
            return sorted(str(p.relative_to(self.path)) for p in base.glob("*")) if base.is_dir() else []
        done = subprocess.run([*self.git, "ls-tree", "--name-only", "HEAD", f"{folder}/"],
                              capture_output=True, text=True)
        return sorted(done.stdout.split()) if done.returncode == 0 else []

    def read(self, name: str) -> str:
        """The committed text of NAME at HEAD (a plain folder: the file)."""
        if self.git is None:
            file = self.path / name
            if not file.is_file():
                raise CheckCovidError(f"{file}: missing")
            return file.read_text(encoding="utf-8")
        done = subprocess.run([*self.git, "show", f"HEAD:{name}"], capture_output=True)
        if done.returncode:
            raise CheckCovidError(f"{self.path}: {name} missing at HEAD: {done.stderr.decode().strip()}")
        return done.stdout.decode("utf-8")

    def rows(self, name: str) -> list[dict[str, object]]:
        out = []
        for number, line in enumerate(self.read(name).splitlines(), 1):
            if line.strip():
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError as error:
                    raise CheckCovidError(f"{name}:{number}: not JSON ({error})") from error
        return out


def find_repo(mirror: Path = MIRROR) -> Path:
    """The first snapshot under the mirror folder (fetch puts it at MIRROR/repo)."""
    for candidate in sorted(mirror.glob("*")) if mirror.is_dir() else []:
        if ((candidate / "HEAD").is_file() and (candidate / "objects").is_dir()) or (candidate / DATA).is_dir():
            return candidate
    raise CheckCovidError(f"no Check-COVID snapshot under {mirror}: fetch github:posuer/Check-COVID or pass --repo")


def check_commit(snapshot: Snapshot, pinned: str = PINNED, any_commit: bool = False) -> str | None:
    commit = snapshot.commit()
    if commit != pinned and not any_commit:
        found = commit or "no git commit (a plain folder)"
        raise CheckCovidError(f"{snapshot.path}: HEAD is {found}, but this script was written against {pinned}. "
                              "Check the format still matches, then pass --any-commit (or update PINNED).")
    return commit


def _document(doc_id: str, title: str, sentences: Iterable[str]) -> dict[str, str]:
    return {"_id": doc_id, "title": title.strip(), "text": " ".join(s.strip() for s in sentences if s.strip())}


def corpus_documents(snapshot: Snapshot, retrieved: bool = False) -> list[dict[str, str]]:
    docs: dict[str, dict[str, str]] = {}
    for row in snapshot.rows(f"{DATA}/corpus.json"):
        doc_id, abstract = str(row["cord_id"]), row["abstract"]
        if doc_id in docs:
            raise CheckCovidError(f"corpus.json: {doc_id} appears twice")
        if not isinstance(abstract, list):
            raise CheckCovidError(f"corpus.json: {doc_id}: abstract is not a list of sentences")
        docs[doc_id] = _document(doc_id, str(row.get("title") or ""), map(str, abstract))
    if retrieved:
        for name in snapshot.files(RETRIEVED):
            if "test" not in Path(name).name or not name.endswith(".jsonl"):
                continue
            for row in snapshot.rows(name):
                found = row.get("abstracts") or {}
                assert isinstance(found, dict)
                for doc_id, sentences in found.items():
                    if str(doc_id) not in docs and sentences:
                        title, *rest = map(str, sentences)  # these lists start with the title
                        docs[str(doc_id)] = _document(str(doc_id), title, rest)
    return list(docs.values())


def convert_claims(rows: list[dict[str, object]], corpus_ids: set[str]) -> tuple[list[dict[str, object]], int]:
    """(converted claims, NEI rows dropped because their text is settled by the same paper)."""
    settled = {(str(r["claim"]).strip(), str(r["cord_id"])) for r in rows if r["label"] != "NOTENOUGHINFO"}
    out: list[dict[str, object]] = []
    dropped = 0
    for row in rows:
        label, doc_id = str(row["label"]), str(row["cord_id"])
        if label not in LABELS:
            raise CheckCovidError(f"claim {row.get('id')}: unknown label {label!r}")
        if doc_id not in corpus_ids:
            raise CheckCovidError(f"claim {row.get('id')}: paper {doc_id} is not in corpus.json")
        if label == "NOTENOUGHINFO" and (str(row["claim"]).strip(), doc_id) in settled:
            dropped += 1
            continue
        evidence = row.get("evidence_set") or []
        assert isinstance(evidence, list)
        out.append({"id": str(row["id"]), "claim": str(row["claim"]).strip(), "label": LABELS[label],
                    "cited_doc_ids": [doc_id], "claim_type": "extracted" if row.get("is_auth") else "composed",
                    "source_label": label, "evidence_sentences": [int(e["sent_index"]) for e in evidence]})
    return out, dropped


@dataclass
class Report:
    commit: str | None
    corpus: int
    claims: dict[str, Counter[str]]    # split -> converted label -> claims
    source: dict[str, Counter[str]]    # split -> source label -> rows
    dropped_nei: dict[str, int]


def _jsonl(path: Path, rows: Iterable[Mapping[str, object]]) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


def convert(repo: Path, out: Path, *, pinned: str = PINNED, any_commit: bool = False,
            retrieved: bool = False) -> Report:
    snapshot = Snapshot.open(repo)
    commit = check_commit(snapshot, pinned, any_commit)
    docs = corpus_documents(snapshot, retrieved)
    ids = {d["_id"] for d in docs}
    report = Report(commit, len(docs), {}, {}, {})
    converted = {}
    for split, names in SPLITS.items():
        rows = [row for name in names for row in snapshot.rows(f"{DATA}/{name}")]
        if not rows:
            raise CheckCovidError(f"split {split}: no claims")
        claims, dropped = convert_claims(rows, ids)
        report.source[split] = Counter(str(r["label"]) for r in rows)
        if split in WRITTEN:
            converted[split] = claims
            report.claims[split] = Counter(str(c["label"]) for c in claims)
            report.dropped_nei[split] = dropped
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    _jsonl(out / "corpus.jsonl", docs)
    for split, claims in converted.items():
        _jsonl(out / f"claims_{split}.jsonl", claims)
    (out / "README.md").write_text(readme(report, retrieved), encoding="utf-8")
    return report


def readme(report: Report, retrieved: bool) -> str:
    def counts(c: Counter[str]) -> str:
        return ", ".join(f"{k} {v}" for k, v in sorted(c.items())) + f" (total {sum(c.values())})"

    lines = [
        "# Check-COVID, converted for `courtroom eval verdicts`", "",
        f"**{RULE}** Evaluation only: no training split is written here.", "",
        "- Source: https://github.com/posuer/Check-COVID (\"Check-COVID: Fact-Checking COVID-19 News Claims "
        "with Scientific Evidence\", ACL 2023 Findings, arXiv:2305.18265)",
        f"- Commit: {report.commit or 'unknown (plain folder, converted with --any-commit)'}",
        f"- Licence: {LICENCE}",
        "- Made by: scripts/checkcovid.py" + (" --retrieved-distractors" if retrieved else ""), "",
        f"corpus.jsonl: {report.corpus} abstracts (the papers of all splits"
        + (", plus the authors' retrieved CORD-19 abstracts for the test claims" if retrieved else "") + ").", "",
        "Labels: SUPPORT -> SUPPORT, REFUTE -> CONTRADICT, NOTENOUGHINFO -> NEI. Check-COVID's NEI is judged "
        "against chosen sentences, not the paper: an NEI row that repeats a SUPPORT/REFUTE claim on the same paper "
        "is dropped (the whole abstract settles it).", "",
    ]
    for split in report.claims:
        lines.append(f"- {split}: source {counts(report.source[split])}; written {counts(report.claims[split])}; "
                     f"NEI dropped {report.dropped_nei[split]}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Convert Check-COVID (news claims checked against scientific abstracts) into SciFact-style "
                    "files for `courtroom eval verdicts`: corpus.jsonl, claims_test.jsonl, claims_dev.jsonl and "
                    f"README.md. {RULE}",
        epilog="Labels: SUPPORT->SUPPORT, REFUTE->CONTRADICT, NOTENOUGHINFO->NEI (NEI rows that repeat a settled "
               "claim on the same paper are dropped; see the module docstring).")
    parser.add_argument("--repo", type=Path, default=None,
                        help=f"the snapshot: a git dir or a work tree (default: the one under {MIRROR})")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default: %(default)s)")
    parser.add_argument("--any-commit", action="store_true",
                        help=f"convert even when HEAD is not the pinned commit {PINNED[:12]}")
    parser.add_argument("--retrieved-distractors", action="store_true",
                        help="also add the CORD-19 abstracts the authors' retrievers returned for the test claims")
    args = parser.parse_args(argv)
    try:
        repo = args.repo or find_repo()
        report = convert(repo, args.out, any_commit=args.any_commit, retrieved=args.retrieved_distractors)
    except CheckCovidError as error:
        print(f"checkcovid: {error}", file=sys.stderr)
        return 2
    print(f"commit {report.commit}; corpus {report.corpus} documents -> {args.out}")
    for split, labels in report.claims.items():
        print(f"{split}: {dict(sorted(labels.items()))} (NEI dropped {report.dropped_nei[split]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

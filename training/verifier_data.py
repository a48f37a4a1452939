"""The claim verifier's training pairs: (claim, passage, label) from public claim-verification and NLI data whose
licences allow shipping the trained weights (docs/verifier.md has each source, its licence and its commit).

    python training/verifier_data.py --mirrors /work/.mirror --scifact ../shared/data/scifact --out build/verifier-data

Labels: 0 supports, 1 refutes, 2 neither. The public repositories are read from git snapshots (`fetch` lays them
out as MIRRORS/<owner>+<name>/repo) at the commits named below, so the same commits give the same pairs. Never add
Check-COVID (posuer/Check-COVID) here: it is kept to judge the verifier.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import subprocess
import zipfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

SUPPORTS, REFUTES, NEITHER = 0, 1, 2
LABELS = ("supports", "refutes", "neither")


@dataclass(frozen=True)
class Source:
    repo: str  # owner/name
    commit: str
    licence: str


VITAMINC = Source("TalSchuster/talschuster.github.io", "152c9639f1e33ca295d0776b618c17884088f72f",
                  "CC BY-SA 3.0 (Wikipedia text)")
FEVER = Source("asaakyan/covidfact", "ceeb613cde5a6c19dea4f2c165654e510ff52b10",
               "FEVER: CC BY-SA 3.0 (Wikipedia text); the RTE-Fever dev split as packaged there")
SNLI = Source("OanaMariaCamburu/e-SNLI", "7b585a3f077fdea899780eb0473940522ae44a2e",
              "SNLI: CC BY-SA 4.0; e-SNLI repository MIT")
SOURCES = {"vitaminc": VITAMINC, "fever": FEVER, "snli": SNLI}


@dataclass(frozen=True)
class Pair:
    claim: str
    passage: str
    label: int
    source: str
    group: str  # pairs of one group (one claim) stay on one side of a split


def _show(mirrors: Path, source: Source, path: str) -> bytes:
    repo = mirrors / source.repo.replace("/", "+") / "repo"
    if not repo.exists():
        raise SystemExit(f"{repo}: missing; fetch github:{source.repo} (its snapshot at {source.commit[:7]})")
    shown = subprocess.run(["git", "-C", str(repo), "show", f"{source.commit}:{path}"], capture_output=True)
    if shown.returncode == 0:
        return shown.stdout
    # a snapshot may keep only its newest commit: its file is taken only when HEAD is that very commit
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    if head != source.commit:
        raise SystemExit(f"{repo}: {path} is not at commit {source.commit[:7]} (the snapshot is at {head[:7] or '?'}); "
                         "the pairs are made from that commit only: fetch it again, or update the commit in Source")
    raise SystemExit(f"{repo}: {path} is missing at {source.commit[:7]}")


def _clean(text: str) -> str:
    return " ".join(text.replace("-LRB-", "(").replace("-RRB-", ")").replace("``", '"').replace("''", '"').split())


def vitaminc(mirrors: Path) -> Iterator[Pair]:
    labels = {"SUPPORTS": SUPPORTS, "REFUTES": REFUTES, "NOT ENOUGH INFO": NEITHER}
    for part in ("real", "synthetic"):
        data = zipfile.ZipFile(io.BytesIO(_show(mirrors, VITAMINC, f"static/vitaminc_{part}.zip")))
        for line in data.read(f"vitaminc_{part}/test.jsonl").decode("utf-8").splitlines():
            row = json.loads(line)
            yield Pair(_clean(row["claim"]), _clean(row["evidence"]), labels[row["label"]], f"vitaminc-{part}",
                       f"vc:{row.get('case_id') or row['claim']}")


def fever(mirrors: Path) -> Iterator[Pair]:
    base = "RTE-Fever/processed/dev"
    evidence = _show(mirrors, FEVER, f"{base}.raw.input0").decode("utf-8").splitlines()
    claims = _show(mirrors, FEVER, f"{base}.raw.input1").decode("utf-8").splitlines()
    labels = _show(mirrors, FEVER, f"{base}.label").decode("utf-8").splitlines()
    for passage, claim, label in zip(evidence, claims, labels, strict=True):
        # FEVER's dev claims with gold evidence: entailment is SUPPORTS, not_entailment REFUTES
        yield Pair(_clean(claim), _clean(passage), SUPPORTS if label == "entailment" else REFUTES, "fever",
                   f"fever:{claim}")


def snli(mirrors: Path) -> Iterator[Pair]:
    labels = {"entailment": SUPPORTS, "contradiction": REFUTES, "neutral": NEITHER}
    for split in ("dev", "test"):
        premises = _show(mirrors, SNLI, f"dataset/eSNLI/s1.{split}").decode("utf-8").splitlines()
        hypotheses = _show(mirrors, SNLI, f"dataset/eSNLI/s2.{split}").decode("utf-8").splitlines()
        gold = _show(mirrors, SNLI, f"dataset/eSNLI/labels.{split}").decode("utf-8").splitlines()
        for premise, hypothesis, label in zip(premises, hypotheses, gold, strict=True):
            if label.strip() in labels:
                yield Pair(_clean(hypothesis), _clean(premise), labels[label.strip()], "snli", f"snli:{premise}")


def _window(sentences: list[str], centre: list[int], rng: random.Random, budget_words: int = 140,
            avoid: frozenset[int] = frozenset()) -> str:
    """Sentences around ``centre`` (kept whole, in order) up to about ``budget_words``: a passage the size of the
    library's chunks, the rationale somewhere inside it. It never grows into a sentence of ``avoid`` (the rationale,
    for a passage that must not hold it)."""
    chosen = sorted(set(centre))
    words = sum(len(sentences[i].split()) for i in chosen)
    lo, hi = min(chosen), max(chosen)
    while words < budget_words:
        can_left = lo > 0 and lo - 1 not in avoid
        can_right = hi < len(sentences) - 1 and hi + 1 not in avoid
        if not (can_left or can_right):
            break
        index = lo - 1 if can_left and (not can_right or rng.random() < 0.5) else hi + 1
        words += len(sentences[index].split())
        lo, hi = min(lo, index), max(hi, index)
    return " ".join(sentences[lo:hi + 1])


def scifact(folder: Path, split: str, seed: int) -> Iterator[Pair]:
    """SciFact's claims against windows of their cited abstracts: the rationale inside for SUPPORT and CONTRADICT;
    for NEI claims, and for labelled claims away from their rationale, a window without it (neither)."""
    rng = random.Random(seed)
    corpus = {}
    with (folder / "corpus.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            corpus[row["_id"]] = row["sentences"]
    with (folder / f"claims_{split}.jsonl").open(encoding="utf-8") as handle:
        claims = [json.loads(line) for line in handle]
    doc_ids = sorted(corpus)
    for claim in claims:
        text, group = claim["claim"], f"scifact:{claim['id']}"
        for doc_id, ev in claim["evidence"].items():
            sentences = corpus.get(str(doc_id))
            if not sentences:
                continue
            label = SUPPORTS if ev["label"] == "SUPPORT" else REFUTES
            rationale = [i for i in ev["sentences"] if i < len(sentences)]
            yield Pair(text, _window(sentences, rationale, rng), label, "scifact", group)
            yield Pair(text, " ".join(sentences[i] for i in rationale), label, "scifact-rationale", group)
            away = [i for i in range(len(sentences)) if all(abs(i - r) > 2 for r in rationale)]
            if away:
                start = rng.choice(away)
                yield Pair(text, _window(sentences, [start], rng, 60, frozenset(rationale)), NEITHER, "scifact-away",
                           group)
        if not claim["evidence"]:
            for doc_id in claim["cited_doc_ids"]:
                sentences = corpus.get(str(doc_id))
                if sentences:
                    start = rng.randrange(len(sentences))
                    yield Pair(text, _window(sentences, [start], rng), NEITHER, "scifact-nei", group)
        other = corpus[rng.choice(doc_ids)]
        yield Pair(text, _window(other, [rng.randrange(len(other))], rng), NEITHER, "scifact-random", group)


# How many of each source a training set takes (the rest is left out): sized to the two-hour budget on two cores
# (docs/verifier.md). SciFact's training pairs are repeated: they are the only scientific ones.
MIX = {"scifact": 3, "vitaminc-real": 16000, "vitaminc-synthetic": 4000, "fever": 7000, "snli": 5000}


def build(mirrors: Path, scifact_dir: Path, seed: int, mix: dict[str, int] | None = None) -> dict[str, list[Pair]]:
    """{"train": ..., "calibration": ...}: calibration is a tenth of the groups (claims) of every source, never
    trained on, for the temperature that calibrates the probabilities."""
    mix = mix or MIX
    rng = random.Random(seed)
    pools: dict[str, list[Pair]] = {}
    for pair in [*vitaminc(mirrors), *fever(mirrors), *snli(mirrors), *scifact(scifact_dir, "train", seed)]:
        key = pair.source if not pair.source.startswith("scifact") else "scifact"
        pools.setdefault(key, []).append(pair)
    train: list[Pair] = []
    calibration: list[Pair] = []
    for key, pairs in sorted(pools.items()):
        groups = sorted({p.group for p in pairs})
        rng.shuffle(groups)
        held = set(groups[: max(1, len(groups) // 10)])
        kept = [p for p in pairs if p.group not in held]
        calibration += [p for p in pairs if p.group in held][:400]
        if key == "scifact":
            train += kept * mix["scifact"]
        else:
            rng.shuffle(kept)
            train += kept[: mix.get(key, 0)]
    rng.shuffle(train)
    rng.shuffle(calibration)
    return {"train": train, "calibration": calibration}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mirrors", type=Path, required=True, help="where fetch put the repositories")
    parser.add_argument("--scifact", type=Path, required=True, help="SciFact in BEIR layout with claims_*.jsonl")
    parser.add_argument("--out", type=Path, default=Path("build/verifier-data"))
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args(argv)
    sets = build(args.mirrors, args.scifact, args.seed)
    sets["scifact-dev"] = list(scifact(args.scifact, "dev", args.seed))
    args.out.mkdir(parents=True, exist_ok=True)
    for name, pairs in sets.items():
        with (args.out / f"{name}.jsonl").open("w", encoding="utf-8") as handle:
            for pair in pairs:
                handle.write(json.dumps(asdict(pair), ensure_ascii=False) + "\n")
        counts = Counter((p.source, LABELS[p.label]) for p in pairs)
        print(f"{name}: {len(pairs)} pairs", dict(sorted(counts.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

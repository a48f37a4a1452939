"""The bundled claim verifier: a (claim, passage) pair read as supports / refutes / neither, with calibrated
probabilities, by a MiniLM cross-encoder trained here (training/train_verifier.py; docs/verifier.md) and run by
onnxruntime (int8), with no PyTorch. The model, its tokenizer and its card (``verifier.json``: labels, temperature,
checksums) ship in ``model/`` beside this module."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from courtroom_desktop.core.errors import ModelError
from courtroom_desktop.core.lazy import LazyModel
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.records import VERIFIER_STANCES, VerifierReading

MODEL_DIR = Path(__file__).resolve().parent / "model"
STANCES = VERIFIER_STANCES


Reading = VerifierReading  # the verifier's reading of one pair (core.records: stored with passages)


def calibrated(logits: np.ndarray, temperature: float) -> np.ndarray:
    """Softmax of ``logits / temperature``, row by row."""
    z = np.asarray(logits, dtype=np.float64) / float(temperature)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


class ClaimVerifier:
    """Thread-safe; the ONNX session is built on first use (one call into it at a time)."""

    def __init__(self, model_dir: Path | None = None, threads: int = 2, batch: int = 32):
        self.model_dir = model_dir or MODEL_DIR
        self.threads = max(int(threads), 1)
        self.batch = max(int(batch), 1)
        card = self.model_dir / "verifier.json"
        try:
            self.card: dict[str, Any] = json.loads(card.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            detail = Message("{card.name} cannot be read ({exc})", card.name, exc)
            raise self._damaged(detail) from exc
        if tuple(self.card.get("labels", ())) != STANCES:
            detail = Message("{card.name}: its labels are {self.card.get('labels')}, not supports, refutes, neither",
                             card.name, self.card.get('labels'))
            raise self._damaged(detail)
        self.temperature = float(self.card["temperature"])
        self.max_tokens = int(self.card["max_tokens"])
        self._session = LazyModel(self._build)
        self._lock = threading.Lock()

    def _damaged(self, detail: str) -> ModelError:
        return ModelError(Message("the claim verifier's model files in {self.model_dir} are missing or damaged "
                                  "({detail})",
                                  self.model_dir, detail),
                          fix=Message("reinstall Courtroom Desktop: the verifier's model files are part of the "
                                      "package"))

    @property
    def onnx_path(self) -> Path:
        return self.model_dir / str(self.card["onnx"])

    def _build(self) -> tuple[Any, Any]:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        path = self.onnx_path
        expected = self.card["sha256"][path.name]
        if not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest() != expected:
            detail = Message("{path.name}: missing, or its checksum differs", path.name)
            raise self._damaged(detail)
        tok = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
        tok.enable_truncation(max_length=self.max_tokens, strategy="longest_first")
        tok.enable_padding(pad_id=0, pad_token="[PAD]")
        options = ort.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        return tok, session

    def logits(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        """The model's raw scores, one row (supports, refutes, neither) per (claim, passage), before calibration."""
        if not pairs:
            return np.zeros((0, len(STANCES)), dtype=np.float32)
        tok, session = self._session.get()
        rows = []
        with self._lock:
            # pairs of similar length share a batch (less padding); the rows go back in the order asked
            order = sorted(range(len(pairs)), key=lambda i: len(pairs[i][0]) + len(pairs[i][1]))
            for start in range(0, len(order), self.batch):
                chunk = order[start:start + self.batch]
                encoded = tok.encode_batch([(pairs[i][0], pairs[i][1]) for i in chunk])
                feeds = {"input_ids": np.array([e.ids for e in encoded], dtype=np.int64),
                         "attention_mask": np.array([e.attention_mask for e in encoded], dtype=np.int64),
                         "token_type_ids": np.array([e.type_ids for e in encoded], dtype=np.int64)}
                rows.append((chunk, session.run(["logits"], feeds)[0]))
        out = np.zeros((len(pairs), len(STANCES)), dtype=np.float32)
        for chunk, values in rows:
            out[chunk] = values
        return out

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[Reading]:
        """Calibrated readings, one per (claim, passage), in the order given."""
        probs = calibrated(self.logits(pairs), self.temperature)
        return [Reading(supports=min(float(p[0]), 1.0), refutes=min(float(p[1]), 1.0), neither=min(float(p[2]), 1.0))
                for p in probs]

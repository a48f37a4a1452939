"""The shipped claim verifier (core.verifier.scorer): the int8 ONNX model reads as the trained PyTorch model did,
its probabilities are calibrated by the card's temperature, a damaged file is named, and pairs written apart from
every training set get the stance a reader would give them."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from courtroom_desktop.core.errors import ModelError
from courtroom_desktop.core.verifier.scorer import MODEL_DIR, STANCES, ClaimVerifier, calibrated

# int8 dynamic quantisation against the float model, measured at export (verifier.json "export"): the largest gap
# on the 48 reference pairs was 0.59 (every stance the same), read in batches of 16; the scorer batches by length,
# and int8 activations are scaled per batch, so the gap moves a little
LOGIT_TOLERANCE = 1.0


@pytest.fixture(scope="module")
def verifier() -> ClaimVerifier:
    return ClaimVerifier()


def test_the_shipped_onnx_model_equals_the_trained_one(verifier):
    reference = json.loads((MODEL_DIR / "reference.json").read_text(encoding="utf-8"))
    pairs = [(p["claim"], p["passage"]) for p in reference["pairs"]]
    trained = np.array(reference["logits"])
    shipped = verifier.logits(pairs)
    assert shipped.shape == trained.shape == (48, 3)
    assert float(np.abs(shipped - trained).max()) <= LOGIT_TOLERANCE
    assert float((shipped.argmax(1) == trained.argmax(1)).mean()) >= 0.95


def test_probabilities_are_calibrated_by_the_cards_temperature(verifier):
    assert abs(verifier.temperature - 1.0) > 0.05  # else calibration would change nothing and this could not fail
    pairs = [("Smoking causes lung cancer.", "Cohort studies link smoking to a fifteen-fold risk of lung cancer."),
             ("Smoking causes lung cancer.", "The museum's new wing opened to visitors in May.")]
    logits = verifier.logits(pairs)
    readings = verifier.score(pairs)
    expected = calibrated(logits, verifier.temperature)
    for reading, row in zip(readings, expected, strict=True):
        assert (reading.supports, reading.refutes, reading.neither) == pytest.approx(tuple(row), abs=1e-6)
        assert sum((reading.supports, reading.refutes, reading.neither)) == pytest.approx(1.0, abs=1e-6)
    plain = calibrated(logits, 1.0)
    assert float(np.abs(plain - expected).max()) > 0.01


# written for this test, apart from the training sources (none is a SciFact, FEVER, VitaminC or SNLI pair)
WRITTEN_APART = [
    pytest.param(
        "Daily aspirin lowers the risk of a first heart attack.",
        "In a randomised trial of 22,000 physicians, those taking aspirin every other day had 44% fewer first "
        "myocardial infarctions than those taking placebo.", "supports", id="supports",
        # every model so far reads this as refutes (the second 0.71, the shipped one 0.53): a weakness on
        # "fewer"/"lowers" with numbers, kept in sight rather than dropped; strict, so a model that gets it right makes
        # this test say so
        marks=pytest.mark.xfail(strict=True, reason="the verifier reads it as refutes")),
    # the second model read this 0.49 supports, 0.46 refutes (a strict expected failure then); the model trained with
    # negated claims (2026-12-08) reads it 0.58 refutes
    pytest.param(
        "Regular vitamin C supplements prevent colds in the general population.",
        "A meta-analysis of 29 trials with 11,306 participants found that regular vitamin C supplementation did not "
        "reduce the incidence of colds in the general population.", "refutes", id="refutes"),
    pytest.param(
        "Coffee drinking raises the risk of pancreatic cancer.",
        "The hospital car park will be closed for resurfacing during the first week of March.", "neither",
        id="neither"),
]
CASES = [case.values for case in WRITTEN_APART]


@pytest.mark.parametrize(("claim", "passage", "stance"), WRITTEN_APART)
def test_pairs_written_apart_get_the_readers_stance(verifier, claim, passage, stance):
    reading = verifier.score([(claim, passage)])[0]
    assert reading.stance == stance
    assert reading.stance in STANCES


def test_readings_come_back_in_the_order_asked(verifier):
    pairs = [(c, p) for c, p, _ in CASES]
    one_by_one = np.vstack([verifier.logits([pair]) for pair in pairs])
    together = verifier.logits(list(reversed(pairs)))[::-1]
    assert np.allclose(one_by_one, together, atol=0.2)  # int8 activations are scaled per batch
    ordered = np.sort(one_by_one, axis=1)
    clear = ordered[:, -1] - ordered[:, -2] > 0.3  # a near tie may tip either way between batches
    assert clear.any() and (one_by_one.argmax(1) == together.argmax(1))[clear].all()


def test_a_damaged_model_file_is_named_with_what_to_do(tmp_path):
    damaged = tmp_path / "model"
    shutil.copytree(MODEL_DIR, damaged)
    onnx = damaged / json.loads((damaged / "verifier.json").read_text(encoding="utf-8"))["onnx"]
    data = bytearray(onnx.read_bytes())
    data[len(data) // 2] ^= 0xFF
    onnx.write_bytes(bytes(data))
    with pytest.raises(ModelError, match="verifier.int8.onnx: missing, or its checksum differs") as caught:
        ClaimVerifier(damaged).score([("a claim", "a passage")])
    assert "reinstall" in caught.value.fix

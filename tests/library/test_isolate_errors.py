"""What the extraction child (core.library.read.isolate) says when extraction fails: a PDF PyMuPDF cannot open or parse is
a corrupt PDF, a failure of the OCR engine is an OCR failure, anything else is a bug in the app; each with its own fix,
and the child's traceback in the parent's log.

The child is made to fail by ``isolate.TEST_FAULT_ENV`` (read by the child alone): every page's text layer raises
what a broken PDF (PyMuPDF's FileDataError), the OCR engine (onnxruntime's Fail) or a bug (a TypeError) raises."""

from __future__ import annotations

import logging

import pytest

from courtroom_desktop.core.errors import IngestError
from courtroom_desktop.core.library.read import extract as extract_module
from courtroom_desktop.core.library.read import isolate
from courtroom_desktop.core.library.read.isolate import ExtractWorker, describe_failure, failure_kind

from .docs import make_corrupt, make_empty, make_structured

LOGGER = "courtroom_desktop.core.library.read.isolate"


@pytest.fixture
def good_pdf(tmp_path):
    path = tmp_path / "good.pdf"
    make_structured(path, outline=True)
    return path


def _child_records(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == LOGGER and "traceback in the extraction child" in r.getMessage()]


def _fail_in_child(monkeypatch, kind: str, path) -> IngestError:
    monkeypatch.setenv(isolate.TEST_FAULT_ENV, kind)  # the child copies the environment when it starts
    worker = ExtractWorker()
    try:
        with pytest.raises(IngestError) as caught:
            worker.extract(path)
        return caught.value
    finally:
        worker.close()


@pytest.mark.parametrize("kind, says, level, names", [
    ("corrupt", "corrupt PDF, text extraction failed", logging.INFO, "FileDataError"),
    ("ocr", "OCR failed while reading the scanned pages", logging.ERROR, "Fail"),
    ("internal", "internal error in the text extractor", logging.ERROR, "TypeError"),
])
def test_each_kind_of_child_failure_is_named_with_its_fix_and_its_traceback_logged(monkeypatch, caplog, good_pdf,
                                                                                    kind, says, level, names):
    caplog.set_level(logging.INFO, logger=LOGGER)
    error = _fail_in_child(monkeypatch, kind, good_pdf)
    assert says in error.reason, error.reason
    if kind == "corrupt":  # extract()'s own words, as before
        assert "injected test fault" in error.reason and "repair or re-export it" in error.reason
    else:
        assert f"{names}: injected test fault" in error.reason and "corrupt" not in str(error)
    assert error.fix == {"corrupt": isolate.CORRUPT_FIX, "ocr": isolate.OCR_FIX, "internal": isolate.INTERNAL_FIX}[kind]
    # the child's traceback, sent over the pipe, is in the parent's log at the kind's level
    records = _child_records(caplog)
    assert len(records) == 1, [r.getMessage() for r in caplog.records]
    message = records[0].getMessage()
    assert records[0].levelno == level
    assert str(good_pdf) in message and says in message
    assert "Traceback (most recent call last)" in message and f"{names}: injected test fault" in message
    assert "page_lines" in message  # the frame that raised, in the child


def test_the_fixes_say_what_a_person_can_do():
    assert "re-export" in isolate.CORRUPT_FIX
    assert "rapidocr-onnxruntime" in isolate.OCR_FIX and "library.ocr off" in isolate.OCR_FIX
    assert "bug" in isolate.INTERNAL_FIX and "report it" in isolate.INTERNAL_FIX and LOGGER in isolate.INTERNAL_FIX


def test_a_real_corrupt_pdf_is_still_a_corrupt_pdf(caplog, tmp_path):
    caplog.set_level(logging.INFO, logger=LOGGER)
    path = tmp_path / "corrupt.pdf"
    make_corrupt(path)
    worker = ExtractWorker()
    try:
        with pytest.raises(IngestError, match="corrupt PDF") as caught:
            worker.extract(path)
    finally:
        worker.close()
    assert caught.value.fix == isolate.CORRUPT_FIX
    records = _child_records(caplog)
    assert records and records[0].levelno == logging.INFO and "pymupdf" in records[0].getMessage()


def test_a_reason_given_on_purpose_passes_through_without_a_traceback(caplog, tmp_path):
    caplog.set_level(logging.INFO, logger=LOGGER)
    path = tmp_path / "empty.pdf"
    make_empty(path)
    worker = ExtractWorker()
    try:
        with pytest.raises(IngestError, match="empty file"):
            worker.extract(path)
    finally:
        worker.close()
    assert not _child_records(caplog)


# ------------------------------------------------------------------ the classification, on real exceptions


def _raised(call) -> BaseException:
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - the exception is the point
        return exc
    raise AssertionError("expected an exception")


def test_pymupdf_errors_are_corrupt_pdfs():
    import pymupdf

    assert failure_kind(_raised(lambda: pymupdf.open(stream=b"%PDF-1.7 not really", filetype="pdf"))) == "corrupt"


def test_onnxruntime_and_the_apps_ocr_code_are_ocr_failures():
    import onnxruntime

    assert failure_kind(_raised(lambda: onnxruntime.InferenceSession(b"not a model"))) == "ocr"
    from courtroom_desktop.core.library.read import ocr

    assert failure_kind(_raised(lambda: ocr.settle_sizes([object()]))) == "ocr"  # raised in core/library/read/ocr.py


def test_anything_else_is_a_bug_even_when_extract_called_it_a_corrupt_pdf(monkeypatch, good_pdf):
    def broken(pages):
        raise KeyError("a bug in assembling the text")

    monkeypatch.setattr(extract_module, "_assemble", broken)
    wrapped = _raised(lambda: extract_module.extract(good_pdf))
    assert isinstance(wrapped, IngestError) and "corrupt PDF" in wrapped.reason  # extract() says so; the child must not
    kind, reason, fix = describe_failure(wrapped)
    assert kind == "internal" and "KeyError" in reason and "corrupt" not in reason and fix == isolate.INTERNAL_FIX

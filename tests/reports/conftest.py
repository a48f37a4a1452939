from __future__ import annotations

import pytest

from courtroom_desktop.core.reports import FORMATS, TrialRecord, export

from .trialdata import build_trial


@pytest.fixture(scope="package")
def trial(tmp_path_factory, embedder):
    t = build_trial(tmp_path_factory.mktemp("trial"), embedder)
    yield t
    t.store.close()


@pytest.fixture(scope="package")
def record(trial) -> TrialRecord:
    return TrialRecord.from_store(trial.store, trial.trial_id)


@pytest.fixture(scope="package")
def report_dir(tmp_path_factory, record):
    out = tmp_path_factory.mktemp("report")
    export(record, FORMATS, out, audience="general")
    return out


@pytest.fixture(scope="package")
def expert_dir(tmp_path_factory, record):
    out = tmp_path_factory.mktemp("expert")
    export(record, FORMATS, out, audience="expert")
    return out

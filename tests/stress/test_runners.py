"""A small slice of every stress runner (``make stress`` runs them all, longer): each must pass, and the counts it
reports must show that the property was exercised, not skipped."""

from __future__ import annotations

import asyncio
import sys

import pytest

from stress import concurrency, faults, ingest_fuzz, injection, kill, secrets_check


def test_fuzzed_pdfs_never_crash_or_hang_ingestion_and_leave_the_library_intact(tmp_path):
    kinds = ["zero_byte", "truncated", "encrypted", "wrong_extension", "broken_fonts", "structure"]
    section = ingest_fuzz.run(seed=5, kinds=kinds, file_timeout_s=5.0, work=tmp_path, log=lambda *a: None)
    assert section.ok, section.failures
    tried = section.counts["files tried"]
    assert tried >= 20 and section.counts["hangs"] == 0 and section.counts["crashes"] == 0
    assert section.counts["library intact"] == tried
    assert section.counts["added"] and section.counts["rejected"]  # both paths were taken


def test_fuzzing_no_file_fails(tmp_path):
    section = ingest_fuzz.run(seed=5, variants=0, kinds=["zero_byte"], work=tmp_path, log=lambda *a: None)
    assert not section.ok and "no fuzzed file was tried" in section.failures[0]


# stored: the turns that must already be in the trial store when the fault fires, against which "lost" is measured.
# Faults are armed once round 1 is ruled and wait for every turn the trial has finished to be stored (stress/faults.py):
# round 1's two when a fault on round 2's query plan or first argument fires, all four when one on round 2's evidence
# assessment, its ruling or the verdict fires.
@pytest.mark.parametrize("case, outcome, stored", [
    (("http", "argument", "disconnect", 1), "paused-resumed", 2),     # tokens were shown: no silent retry
    (("http", "ruling", "disconnect", 1), "continued", 4),           # a structured call is retried
    (("http", "plan", "timeout", 1), "paused-resumed", 2),
    (("http", "verdict", "broken_json", 1), "continued", 4),         # repaired or retried
    (("http", "argument", "unknown_cite", 1), "continued", 2),       # regenerated once
    (("http", "argument", "empty", 99), "paused-resumed", 2),        # never an empty turn in the transcript
    (("scripted", "ruling", "empty", 99), "paused-resumed", 4),
    (("scripted", "argument", "enormous", 1), "continued", 2),
    (("scripted", "assessment", "timeout", 99), "paused-resumed", 4),  # round 2 brings new passages to assess
])
def test_model_faults_continue_or_pause_resumably_and_lose_no_turn(tmp_path, case, outcome, stored):
    result = asyncio.run(faults.run_case(*case, tmp_path, limit_s=60))
    assert result.injected >= 1
    assert result.outcome == outcome, (result.outcome, result.message, result.problems)
    assert result.at_fault > 0 and result.at_fault >= stored, result.at_fault
    assert result.lost == 0 and not result.problems
    if outcome == "paused-resumed":
        assert len(result.message) > 20


def test_a_case_with_no_turn_stored_at_its_fault_fails(tmp_path, monkeypatch):
    """The section's pass criterion: a case whose fault fired before any turn was stored proves nothing."""
    async def before_any_turn(*args, **kwargs):
        return faults.CaseResult("scripted", "plan", "empty", 1, "continued", injected=1, lost=0, at_fault=0)

    monkeypatch.setattr(faults, "run_case", before_any_turn)
    section = faults.run(work=tmp_path, log=lambda *a: None, only=[("scripted", "plan", "empty", 1)])
    assert not section.ok and "no turn was stored when the fault fired" in section.failures[0]


def test_a_server_that_never_stops_streaming_is_cut_off(tmp_path):
    result = asyncio.run(faults.run_case("http", "argument", "endless", 1, tmp_path, limit_s=60))
    assert result.outcome == "continued" and not result.problems
    assert result.seconds < 10  # the fake streams for 15 s: the client stopped reading long before


def test_faults_with_no_case_fail(tmp_path):
    section = faults.run(work=tmp_path, log=lambda *a: None, only=[])
    assert not section.ok and "no case ran" in section.failures[0]


def test_kill_9_during_ingestion_leaves_the_stores_in_agreement(tmp_path):
    section = kill.run_ingest(2, seed=3, root=tmp_path, log=lambda *a: None)
    assert section.ok, section.failures
    assert section.counts["kills landed"] == 2  # 80 % of 2, rounded up: a child that ended by itself fails the run
    assert section.counts["consistent after restart"] == 2
    assert section.counts["extraction children at the kills"] >= 1
    assert section.counts["orphaned extraction children"] == 0


def test_kill_9_during_a_trial_loses_no_event_and_resumes_to_a_verdict(tmp_path):
    section = kill.run_trial(2, seed=3, root=tmp_path, log=lambda *a: None)
    assert section.ok, section.failures
    assert section.counts["kills landed"] == 2
    assert section.counts["resumes by a child after a kill"] >= 1  # the final resume here is not counted
    assert section.counts["turns checked after a resume"] >= 1 and section.counts["turns lost"] == 0
    assert section.counts["final resume to a verdict"] is True


@pytest.mark.parametrize("runner", [kill.run_ingest, kill.run_trial])
def test_kill_runs_without_a_kill_fail(tmp_path, runner):
    section = runner(0, seed=3, root=tmp_path, log=lambda *a: None)
    assert not section.ok and any("proves nothing" in f for f in section.failures), section.failures
    assert section.counts["kills landed"] == 0


def test_kill_9_during_ingestion_fails_without_psutil(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "psutil", None)  # import psutil raises ImportError
    section = kill.run_ingest(1, seed=3, root=tmp_path, log=lambda *a: None)
    assert not section.ok and "psutil cannot be imported" in section.failures[0]


def test_prompt_injection_stays_delimited_flagged_and_unobeyed(tmp_path):
    section = injection.run(work=tmp_path, log=lambda *a: None)
    assert section.ok, section.failures
    assert section.counts["delimiter escapes"] == 0 and section.counts["judge obeyed an injection"] == 0
    assert section.counts["hostile passages flagged"] == section.counts["hostile passages in the pool"] > 0


def test_api_keys_never_leave_the_keyring_or_the_owner_only_file(tmp_path):
    section = secrets_check.run(work=tmp_path, log=lambda *a: None)
    assert section.ok, section.failures
    assert section.counts["fallback file mode"] == "0o600"
    assert section.counts["requests with the key"] > 0 and section.counts["log lines searched"] > 0
    assert section.counts["key found in logs, config, trial store, exports"] == 0


def test_concurrent_ingest_trials_and_removal(tmp_path):
    section = concurrency.run(seed=2, work=tmp_path, log=lambda *a: None)
    assert section.ok, section.failures
    assert section.counts["library operations during the trial"] > 0
    assert section.counts["trials at once"] == 3 and section.counts["cited documents removed mid-trial"] == 1

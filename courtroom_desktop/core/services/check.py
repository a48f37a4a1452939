"""Checking a whole draft (issue #28; docs/check.md): a draft's located sentences, the claims worth checking in it
and the reviewer's edits of that list, a check's records and the events of its queue (the use cases themselves are
the workspace's: ``create_check``, ``check_queue``, ``sign_off``, ``export_check``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from courtroom_desktop.core.services._lazy import exports

if TYPE_CHECKING:
    from courtroom_desktop.core.check.claims import FoundClaim, find_claims, why_checkworthy
    from courtroom_desktop.core.check.drafts import Draft, DraftSentence, Location, read_draft, read_text
    from courtroom_desktop.core.check.export import FORMATS as CHECK_FORMATS
    from courtroom_desktop.core.check.queue import CheckQueue, ClaimUpdated, Progress, QueueFinished, QueuePaused
    from courtroom_desktop.core.check.records import (
        CheckClaim,
        CheckRecord,
        CheckSpec,
        CheckStatus,
        CheckSummary,
        ClaimRow,
        ClaimStatus,
        QuickResult,
        SignOff,
        TrialOutcome,
    )
    from courtroom_desktop.core.check.references import NOT_IN_LIBRARY, CitedReferences
    from courtroom_desktop.core.check.review import (
        add_sentence,
        dump_claims,
        edit,
        from_found,
        load_claims_file,
        merge,
        split,
    )
    from courtroom_desktop.core.check.worth import worth

__all__ = ["CHECK_FORMATS", "NOT_IN_LIBRARY", "CheckClaim", "CitedReferences", "CheckQueue", "CheckRecord",
           "CheckSpec", "CheckStatus", "CheckSummary", "ClaimRow", "ClaimStatus", "ClaimUpdated", "Draft",
           "DraftSentence", "FoundClaim", "Location", "Progress", "QueueFinished", "QueuePaused", "QuickResult",
           "SignOff", "TrialOutcome", "add_sentence", "dump_claims", "edit", "find_claims", "from_found",
           "load_claims_file", "merge", "read_draft", "read_text", "split", "why_checkworthy", "worth"]

__getattr__ = exports({
    "Draft": "check.drafts:Draft", "DraftSentence": "check.drafts:DraftSentence", "Location": "check.drafts:Location",
    "read_draft": "check.drafts:read_draft", "read_text": "check.drafts:read_text",
    "FoundClaim": "check.claims:FoundClaim", "find_claims": "check.claims:find_claims",
    "why_checkworthy": "check.claims:why_checkworthy", "worth": "check.worth:worth",
    "CHECK_FORMATS": "check.export:FORMATS",
    "CitedReferences": "check.references:CitedReferences", "NOT_IN_LIBRARY": "check.references:NOT_IN_LIBRARY",
    "CheckQueue": "check.queue:CheckQueue", "ClaimUpdated": "check.queue:ClaimUpdated",
    "Progress": "check.queue:Progress",
    "QueuePaused": "check.queue:QueuePaused", "QueueFinished": "check.queue:QueueFinished",
    **{name: f"check.records:{name}" for name in ("CheckClaim", "CheckRecord", "CheckSpec", "CheckStatus",
                                                   "CheckSummary", "ClaimRow", "ClaimStatus", "QuickResult", "SignOff",
                                                   "TrialOutcome")},
    **{name: f"check.review:{name}" for name in ("add_sentence", "dump_claims", "edit", "from_found",
                                                  "load_claims_file", "merge", "split")},
}, __name__)

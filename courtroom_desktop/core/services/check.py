"""Checking a whole draft (issue #28), first step: a draft's sentences with their locations, and the sentences worth
checking. Checking them against the library comes later."""

from __future__ import annotations

from typing import TYPE_CHECKING

from courtroom_desktop.core.services._lazy import exports

if TYPE_CHECKING:
    from courtroom_desktop.core.check.claims import FoundClaim, find_claims, why_checkworthy
    from courtroom_desktop.core.check.drafts import Draft, DraftSentence, Location, read_draft, read_text

__all__ = ["Draft", "DraftSentence", "FoundClaim", "Location", "find_claims", "read_draft", "read_text",
           "why_checkworthy"]

__getattr__ = exports({
    "Draft": "check.drafts:Draft", "DraftSentence": "check.drafts:DraftSentence", "Location": "check.drafts:Location",
    "read_draft": "check.drafts:read_draft", "read_text": "check.drafts:read_text",
    "FoundClaim": "check.claims:FoundClaim", "find_claims": "check.claims:find_claims",
    "why_checkworthy": "check.claims:why_checkworthy",
}, __name__)

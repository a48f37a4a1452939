"""A scripted claim verifier for tests of what is built on its readings (the check window, the check queue): it
reads each (claim, passage) pair by a rule the test gives, and records every pair it was asked about. Tests of the
verifier itself, and the end-to-end tests, use the real one (core.verifier.ClaimVerifier)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from courtroom_desktop.core.records import VerifierReading


def reading(supports: float = 0.0, refutes: float = 0.0) -> VerifierReading:
    """A reading with the rest of the probability on neither."""
    return VerifierReading(supports=supports, refutes=refutes, neither=round(1.0 - supports - refutes, 6))


NEITHER = reading(0.05, 0.05)


class ScriptedVerifier:
    """``rule(claim, passage, position)`` -> the reading of a pair (``position``: the passage's place among those
    asked about together, from 0: the quick check's E1 is 0)."""

    def __init__(self, rule: Callable[[str, str, int], VerifierReading]):
        self.rule = rule
        self.pairs: list[tuple[str, str]] = []

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[VerifierReading]:
        self.pairs.extend(pairs)
        return [self.rule(claim, passage, i) for i, (claim, passage) in enumerate(pairs)]

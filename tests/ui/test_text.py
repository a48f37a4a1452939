"""The wording helpers: citations become links, model text stays data in the verdict's Markdown."""

from __future__ import annotations

from courtroom_desktop.core.court.records import Finding, Verdict, VerdictLabel, WeighedEvidence, role_name
from courtroom_desktop.core.records import Chunk
from courtroom_desktop.ui.text import (
    assessed_words,
    citations_html,
    evidence_of_href,
    pages_label,
    stance_words,
    verdict_markdown,
)


def test_citations_become_links_and_text_is_escaped():
    html = citations_html("A <b>bold</b> claim [E3] and [E1, E12].\nNext")
    assert '<a href="cite:E3">E3</a>' in html and '<a href="cite:E12">E12</a>' in html
    assert "&lt;b&gt;" in html and "<br>" in html
    assert evidence_of_href("cite:E12") == "E12"
    assert evidence_of_href("https://example.org") is None and evidence_of_href("cite:../x") is None


def test_stances_read_right_for_claims_and_decisions():
    assert stance_words("claim", "against") == "argues the claim is false"
    assert stance_words("decision", "for") == "argues for doing it"
    assert role_name("claim", "for") == "Defense" and role_name("decision", "against") == "Counsel against"
    assert assessed_words("claim", "refutes") == "refutes" and assessed_words("decision", "supports") == "for"


def test_pages_label_prefixes_the_chunks_pages():
    def chunk(start: int, end: int) -> Chunk:
        return Chunk(id="d-0001", doc_id="d", ordinal=1, section_path="", page_start=start, page_end=end,
                     char_start=0, char_end=1, text="x")

    assert pages_label(chunk(2, 2)) == "p. 3" and pages_label(chunk(2, 3)) == "pp. 3\u20134"


def test_verdict_markdown_links_citations_and_escapes_model_text():
    verdict = Verdict(label=VerdictLabel.refuted, confidence=0.82, summary="It is *not* true # really",
                      findings=(Finding(text="The trial [found] nothing", citations=("E2",)),),
                      open_questions=("What about <script>?",), rounds=2, switches=1,
                      evidence=(WeighedEvidence(id="E2", level="randomised trial", weight=0.83,
                                                cited_by=("Prosecution (round 1)",)),),
                      stopped_because="round limit (2)", quality_flags=("repetitive (1 turn)",))
    md = verdict_markdown(verdict, "claim", "Vitamin D is *magic*")
    assert md.startswith("## Verdict: Refuted")
    assert "**Confidence 82%**" in md and "2 rounds" in md and "1 switch\n" in md
    assert r"It is \*not\* true \# really" in md
    assert r"[\[E2\]](cite:E2)" in md
    assert r"\<script\>" in md and r"Vitamin D is \*magic\*" in md
    assert "### Evidence weighed" in md and "### Quality flags" in md


def test_verdict_card_says_what_the_confidence_rests_on_what_the_rule_changed_and_what_stays_open():
    from courtroom_desktop.core.court.records import (
        Assessed,
        BasisRow,
        Challenge,
        ChallengeStatus,
        TrackedChallenge,
    )

    open_line = TrackedChallenge(challenge=Challenge(id="Q2", text="Was it *blinded*?", round=1, raised_by="Judge",
                                                     addressed_to="both sides"), status=ChallengeStatus.unanswered)
    verdict = Verdict(label=VerdictLabel.supported, confidence=0.8, rounds=2,
                      basis=(BasisRow(level="randomised trial", supports=2), BasisRow(level="cohort", refutes=1)),
                      draft_label=VerdictLabel.insufficient, draft_confidence=1.0, open_challenges=(open_line,),
                      evidence=(WeighedEvidence(id="E1", level="cohort", weight=0.67, assessed=Assessed.supports,
                                                both_sides=True),))
    md = verdict_markdown(verdict)
    assert r"It rests on 2 supporting passages \(randomised trial 2\) and 1 refuting passage \(cohort 1\)." in md
    assert "draft said 'insufficient evidence' at confidence 1.00" in md
    assert "### Open lines of argument" in md and r"Q2 (Judge, round 1; unanswered): Was it \*blinded\*?" in md
    assert "says: supports, cited by both sides" in md

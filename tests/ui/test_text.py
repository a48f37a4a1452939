"""The wording helpers: citations become links, model text stays data in the verdict's Markdown."""

from __future__ import annotations

from courtroom_desktop.core.court.records import Finding, Verdict, VerdictLabel, WeighedEvidence, role_name
from courtroom_desktop.core.records import Chunk
from courtroom_desktop.ui.text import (
    citations_html,
    evidence_of_href,
    pages_label,
    stance_short,
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
    assert stance_short("claim", "against") == "refutes" and stance_short("claim", None) == ""


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

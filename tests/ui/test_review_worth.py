"""The review page hides the claims worth less than the threshold the reviewer sets, counts them, and checks only the
ones shown; a threshold of 0 shows every claim."""

from __future__ import annotations

from courtroom_desktop.core.check.claims import find_claims
from courtroom_desktop.core.check.drafts import read_text
from courtroom_desktop.core.check.review import from_found
from courtroom_desktop.core.check.worth import DEFAULT_WORTH
from courtroom_desktop.ui.check_window import ReviewPage

DRAFT = ("Sales fell by 8% in 2023 compared with 2022. We plan to open 12 new clinics across the region by 2028. "
         "We believe the new pricing is a wiser choice than the old one. 本文所称“活跃用户”是指每月登录超过3次的用户。 "
         "Most of the surveyed nurses reported working unpaid overtime.")


def test_claims_below_the_threshold_are_hidden_and_not_checked(qapp):
    draft = read_text(DRAFT)
    claims = from_found(find_claims(draft.sentences))
    assert len(claims) == 5
    page = ReviewPage(lambda *_: None, min_worth=DEFAULT_WORTH)
    page.set_draft(draft, claims, [])
    hidden = [row for row in range(page.table.rowCount()) if page.table.isRowHidden(row)]
    assert hidden == [1, 2, 3]
    assert page.hidden_label.text() == "3 hidden"
    assert page.check_button.text() == "Check 2 claims"
    assert page.table.item(1, page.WORTH).text() == f"{page.worths[1]:.2f}"
    sent = []
    page.sig_check.connect(lambda _draft, chosen, _title: sent.append([c.text for c in chosen]))
    page.check()
    assert sent == [[claims[0].text, claims[4].text]]

    page.worth_spin.setValue(0.0)
    assert not any(page.table.isRowHidden(row) for row in range(5))
    assert page.check_button.text() == "Check 5 claims" and page.hidden_label.text() == ""
    page.select_rows([1])
    assert page.selected_rows() == [1]
    page.worth_spin.setValue(DEFAULT_WORTH)
    assert page.selected_rows() == []  # a hidden claim is not left selected for an edit

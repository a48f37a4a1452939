"""What goes out: how the court's reasons read in a language (``wording.say_reason``: stop and switch reasons, flags,
warnings; a verdict's basis and correction) and a decision memo's wording (an option's standing, its table), shared
by the window, the command line and the reports, and how a citation is written in the court's text (``CITATION``, the
court's one pattern of '[E3]' and '[E1, E2]'), and the core's words per language (``lexicon``: which languages have
a table, a language's own name); the report files themselves are written by ``Workspace.export_trial``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from courtroom_desktop.core.services._lazy import exports

if TYPE_CHECKING:
    from courtroom_desktop.core import lexicon
    from courtroom_desktop.core.reports import memo, wording
    from courtroom_desktop.core.text import CITATION

__all__ = ["CITATION", "lexicon", "memo", "wording"]

__getattr__ = exports({"CITATION": "text:CITATION", "lexicon": "lexicon", "memo": "reports.memo",
                       "wording": "reports.wording"}, __name__)

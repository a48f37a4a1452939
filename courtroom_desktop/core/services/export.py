"""What goes out: how the court's reasons read in a language (``wording.say_reason``: stop and switch reasons, flags,
warnings; a verdict's basis and correction) and a decision memo's wording (an option's standing, its table), shared
by the window, the command line and the reports; the report files themselves are written by
``Workspace.export_trial``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from courtroom_desktop.core.services._lazy import exports

if TYPE_CHECKING:
    from courtroom_desktop.core.reports import memo, wording

__all__ = ["memo", "wording"]

__getattr__ = exports({"memo": "reports.memo", "wording": "reports.wording"}, globals())

"""What goes out: a decision memo's wording (an option's standing, its table), shared by the window, the command
line and the reports; the report files themselves are written by ``Workspace.export_trial``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from courtroom_desktop.core.services._lazy import exports

if TYPE_CHECKING:
    from courtroom_desktop.core.reports import memo

__all__ = ["memo"]

__getattr__ = exports({"memo": "reports.memo"}, globals())

"""Walk the running app's accessibility tree from outside the process, as a screen reader does (AT-SPI over D-Bus),
and list its interactive controls with their roles and names; exits 1 when one has no name. Run by
scripts/atspi_check.sh with Debian's python3 and its pyatspi (apt: python3-pyatspi), not the project's venv.

    python3 scripts/atspi_walk.py [APP_NAME]
"""

from __future__ import annotations

import sys

import pyatspi  # type: ignore[import-not-found]

INTERACTIVE = {"push button", "toggle button", "check box", "radio button", "combo box", "text", "password text",
               "spin button", "slider", "page tab", "table", "tree table", "list", "tree", "menu item",
               "check menu item", "radio menu item", "entry", "scroll bar"}


def walk(node, depth: int = 0, out: list | None = None) -> list:
    out = [] if out is None else out
    try:
        role = node.getRoleName()
        states = node.getState()
        showing = states.contains(pyatspi.STATE_SHOWING)
    except Exception:  # noqa: BLE001 - a node that went away while we looked
        return out
    if showing and role in INTERACTIVE:
        out.append((depth, role, node.name or "", node.description or ""))
    for index in range(node.childCount):
        try:
            child = node.getChildAtIndex(index)
        except Exception:  # noqa: BLE001
            continue
        if child is not None:
            walk(child, depth + 1, out)
    return out


def main() -> int:
    wanted = sys.argv[1] if len(sys.argv) > 1 else "courtroom"
    desktop = pyatspi.Registry.getDesktop(0)
    apps = [desktop.getChildAtIndex(i) for i in range(desktop.childCount)]
    app = next((a for a in apps if a is not None and wanted.lower() in (a.name or "").lower()), None)
    if app is None:
        print(f"no application named like {wanted!r} on the accessibility bus: "
              f"{[a.name for a in apps if a is not None]}")
        return 2
    controls = walk(app)
    unnamed = [c for c in controls if not c[2].strip()]
    print(f"{app.name}: {len(controls)} interactive controls showing, {len(unnamed)} without a name")
    for depth, role, name, description in controls:
        print(f"{'  ' * min(depth, 12)}{role}: {name or '(NO NAME)'}" + (f"  [{description[:60]}]" if description else ""))
    return 1 if unnamed else 0


if __name__ == "__main__":
    raise SystemExit(main())

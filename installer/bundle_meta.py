"""What the installer files share: the app's name and version (read from the package source, so no import of the app
and no PyInstaller is needed), the bundle's name per platform, and the Linux launcher text.

Used by courtroom.spec, build.py, smoke.py and tests/test_installer.py.
"""

from __future__ import annotations

import ast
import os
import platform
import sys
from dataclasses import dataclass
from pathlib import Path

INSTALLER_DIR = Path(__file__).resolve().parent
ROOT = INSTALLER_DIR.parent
PACKAGE = "courtroom_desktop"
EXECUTABLE = "courtroom"          # the command users type; also the Linux and macOS executable inside the bundle
CLI_EXECUTABLE = "courtroom-cli"  # Windows only: a console twin of the windowed courtroom.exe, for the command line


@dataclass(frozen=True)
class AppMeta:
    name: str      # APP_NAME, "Courtroom Desktop"
    app_id: str    # APP_ID, "courtroom-desktop": file names, the .desktop id, the icon name
    version: str   # __version__

    @property
    def bundle_identifier(self) -> str:
        """macOS CFBundleIdentifier (reverse DNS built from APP_ID); COURTROOM_BUNDLE_ID overrides it at build time."""
        return f"io.github.{self.app_id}"


def read_meta(root: Path = ROOT) -> AppMeta:
    """``__version__``, ``APP_NAME`` and ``APP_ID`` from ``courtroom_desktop/__init__.py`` (parsed, not imported)."""
    source = (Path(root) / PACKAGE / "__init__.py").read_text(encoding="utf-8")
    values: dict[str, str] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    values[target.id] = node.value.value
    missing = [k for k in ("__version__", "APP_NAME", "APP_ID") if not values.get(k)]
    if missing:
        raise ValueError(f"{PACKAGE}/__init__.py does not define {', '.join(missing)} as string literals")
    return AppMeta(name=values["APP_NAME"], app_id=values["APP_ID"], version=values["__version__"])


def platform_tag(system: str | None = None, machine: str | None = None) -> str:
    """``linux-x86_64``, ``windows-x86_64``, ``macos-arm64`` ..."""
    system = (system or sys.platform).lower()
    os_name = "windows" if system.startswith("win") else "macos" if system == "darwin" else "linux"
    arch = (machine or platform.machine() or "unknown").lower()
    arch = {"amd64": "x86_64", "x64": "x86_64", "aarch64": "arm64"}.get(arch, arch)
    return f"{os_name}-{arch}"


def bundle_name(meta: AppMeta, tag: str | None = None) -> str:
    """The bundle folder's (and archive's) name: ``courtroom-desktop-0.1.0-linux-x86_64``."""
    return f"{meta.app_id}-{meta.version}-{tag or platform_tag()}"


#: The Linux archive: xz packs the bundle's libraries a sixth smaller than gzip (550 MB against 666 MB for the build of
#: 2026-12-03; model weights compress little either way), and every Linux ``tar`` unpacks it (``tar -xJf``).
ARCHIVE_SUFFIX = ".tar.xz"
OLD_ARCHIVE_SUFFIXES = (".tar.gz",)  # an older build's archive, removed when a new one is written


def archive_path(bundle: Path) -> Path:
    """The Linux archive of the bundle folder ``bundle``: beside it, ``<bundle name>.tar.xz``."""
    return bundle.with_name(bundle.name + ARCHIVE_SUFFIX)


def old_archives(bundle: Path) -> list[Path]:
    """Where an older build's archive of ``bundle`` lies, in a format no longer written (``.tar.gz``)."""
    return [bundle.with_name(bundle.name + suffix) for suffix in OLD_ARCHIVE_SUFFIXES]


def _desktop_exec(path: str) -> str:
    """An Exec value per the Desktop Entry spec: quoted when it holds a reserved character, with \\ " ` $ escaped."""
    if not any(c in path for c in ' \t\n"\'\\><~|&;$*?#()`'):
        return path
    escaped = path.replace("\\", "\\\\").replace('"', '\\"').replace("`", "\\`").replace("$", "\\$")
    return f'"{escaped}"'


def desktop_entry(meta: AppMeta, exec_path: str = EXECUTABLE, icon: str | None = None) -> str:
    """The text of a freedesktop ``.desktop`` launcher. ``exec_path``: the command or the executable's absolute path;
    ``icon``: an icon theme name (default: the app id) or an absolute path to a PNG/SVG. The app takes no file
    arguments (with no command it opens the window), so Exec carries no field code."""
    icon = icon or meta.app_id
    if "\n" in exec_path or "\n" in icon:
        raise ValueError("a .desktop value cannot hold a newline")
    lines = [
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.4",
        f"Name={meta.name}",
        "GenericName=Claim checker",
        "Comment=Put a claim on trial against your own PDF library",
        f"Exec={_desktop_exec(exec_path)}",
        f"TryExec={exec_path}",
        f"Icon={icon}",
        "Terminal=false",
        "Categories=Office;Qt;",
        "Keywords=PDF;claim;evidence;fact-check;library;",
        f"X-AppVersion={meta.version}",
    ]
    return "\n".join(lines) + "\n"


def tree_size(path: Path) -> tuple[int, int]:
    """(bytes, files) under ``path``; links counted as links, not followed."""
    total = count = 0
    for dirpath, _dirs, files in os.walk(path):
        for name in files:
            total += os.lstat(os.path.join(dirpath, name)).st_size
            count += 1
    return total, count

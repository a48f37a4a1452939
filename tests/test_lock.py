"""The lock (lock/*.txt, made by `make lock`) and pyproject.toml agree: every dependency pyproject.toml names for a set
is locked for every platform, at a version inside its range, with hashes; and a venv set up from the lock holds the
locked versions."""

from __future__ import annotations

import importlib.metadata
import sys
from pathlib import Path

import pytest

from testkit.scripts import load_script

lock = load_script("lock")


@pytest.mark.parametrize("set_name", sorted(lock.SETS))
@pytest.mark.parametrize("plat", lock.PLATFORMS, ids=lambda p: p.key)
def test_every_lock_file_agrees_with_pyproject(set_name, plat):
    assert lock.disagreements(set_name, plat) == []


def test_the_build_tools_are_locked_with_hashes():
    tools = lock.read_lock(lock.LOCK / "tools.txt")
    assert {"pip", "setuptools", "wheel", "scikit-build-core"} <= set(tools)
    assert all(pin["hashes"] for pin in tools.values())


def _plat(key: str):
    return next(p for p in lock.PLATFORMS if p.key == key)


def test_a_dependency_missing_from_the_lock_is_named(tmp_path):
    linux = _plat("linux-x86_64")
    source = lock.lock_file("dev", linux).read_text(encoding="utf-8")
    kept, skipping = [], False
    for line in source.splitlines():
        if line.startswith("openai=="):
            skipping = True
            continue
        if skipping and line[:1].isspace():
            continue
        skipping = False
        kept.append(line)
    broken = tmp_path / "dev-linux-x86_64.txt"
    broken.write_text("\n".join(kept) + "\n", encoding="utf-8")
    problems = lock.disagreements("dev", linux, lock=broken)
    assert any("openai" in p and "not locked" in p for p in problems), problems


def test_a_locked_version_outside_its_range_is_named(tmp_path):
    linux = _plat("linux-x86_64")
    pinned = lock.read_lock(lock.lock_file("dev", linux))["openai"]["version"]
    pyproject = (lock.ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"openai>=2.45,<4"' in pyproject
    moved = tmp_path / "pyproject.toml"
    moved.write_text(pyproject.replace('"openai>=2.45,<4"', f'"openai<{pinned}"'), encoding="utf-8")
    problems = lock.disagreements("dev", linux, pyproject=moved)
    assert problems == [f"dev-linux-x86_64.txt: openai=={pinned} is outside pyproject.toml's range <{pinned}"]


def test_a_requirement_for_another_platform_is_checked_there_only(tmp_path):
    """A marker decides which lock files must hold a requirement: one for Windows alone is not asked of Linux."""
    pyproject = (lock.ROOT / "pyproject.toml").read_text(encoding="utf-8")
    extra = '"rich>=13",\n  "winonly-helper>=0.2; sys_platform == \'win32\'",'
    moved = tmp_path / "pyproject.toml"
    moved.write_text(pyproject.replace('"rich>=13",', extra), encoding="utf-8")
    assert lock.disagreements("dev", _plat("linux-x86_64"), pyproject=moved) == []
    assert lock.disagreements("dev", _plat("windows-x86_64"), pyproject=moved) == [
        "dev-windows-x86_64.txt: winonly-helper is in pyproject.toml (winonly-helper>=0.2; sys_platform == 'win32') "
        "but not locked"]


def test_a_venv_set_up_from_the_lock_holds_the_locked_versions():
    """scripts/setup.sh marks the venv it installed from the lock; what is installed there is what the lock says."""
    if not (Path(sys.prefix) / ".installed-lock").exists():
        pytest.skip("this venv was not set up from the lock (make test-latest, or by hand)")
    plat = lock.this_platform()
    locked = lock.read_lock(lock.lock_file("dev", plat))
    wrong = []
    for name, pin in locked.items():
        try:
            have = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            wrong.append(f"{name} not installed")
            continue
        if have != pin["version"]:
            wrong.append(f"{name} {have} (locked {pin['version']})")
    assert wrong == []

"""The lock files under lock/: what the app, the tests and the desktop bundle install, exact versions with hashes.

    python scripts/lock.py compile      # make lock: resolve pyproject.toml's ranges afresh into every lock file
    python scripts/lock.py check        # does every lock file agree with pyproject.toml? (tests/test_lock.py too)
    python scripts/lock.py path dev     # the lock file of this machine for a set (dev, bundle), for scripts/setup.sh
    python scripts/lock.py extras dev   # the extras of a set (dev,scale,torch), for scripts/setup.sh without the lock
    python scripts/lock.py line opencv-python-headless lock/bundle-linux-x86_64.txt   # one requirement with its hashes
    python scripts/lock.py diff build/latest-versions.txt   # a pip freeze against the lock (make test-latest)

A set is a list of pyproject.toml's extras: `dev` (what `make run`, `make test` and CI install: the app, the tests,
Ray and PyTorch) and `bundle` (what `make installer` freezes: the app, PyInstaller and PyTorch for the one-time ONNX
export). A platform is one we ship to, resolved for CPython 3.11 there. `lock/tools.txt` holds what builds the
project and llama-cpp-python from source (pip, setuptools, wheel, scikit-build-core), installed first.
Resolution is uv's `pip compile` (`uv` pinned below, installed into build/lock-venv), which resolves for another
platform than its own; pip installs the result with `--require-hashes`. docs/development.md says when to run it.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "lock"
PYTHON = "3.11"
UV = "uv==0.13.8"
# The CPU build of PyTorch for Linux is not on PyPI (PyPI's Linux torch is the CUDA build, several GB with its nvidia
# packages): a resolution for Linux looks for it in these folders (scripts/setup.sh installs it from there, else from
# PyTorch's CPU index).
TORCH_FIND_LINKS = ("/opt/wheels",)


@dataclass(frozen=True)
class Platform:
    key: str  # in lock file names
    uv: str  # uv's --python-platform
    markers: dict[str, str]  # PEP 508 environment markers there
    env: dict[str, str]  # for uv while resolving


PLATFORMS = (
    # manylinux_2_34: glibc 2.34 and later (Debian 12, Ubuntu 22.04, Fedora 35 on): PySide6 6.10+ wheels need it
    Platform("linux-x86_64", "x86_64-manylinux_2_34",
             {"sys_platform": "linux", "platform_system": "Linux", "platform_machine": "x86_64", "os_name": "posix"}, {}),
    Platform("windows-x86_64", "x86_64-pc-windows-msvc",
             {"sys_platform": "win32", "platform_system": "Windows", "platform_machine": "AMD64", "os_name": "nt"}, {}),
    # macOS 14 on Apple silicon: PyTorch 2.13 has no wheel for an older macOS, nor any for Intel Macs
    Platform("macos-arm64", "aarch64-apple-darwin",
             {"sys_platform": "darwin", "platform_system": "Darwin", "platform_machine": "arm64", "os_name": "posix"},
             {"MACOSX_DEPLOYMENT_TARGET": "14.0"}),
)
SETS = {"dev": ("dev", "scale", "torch"), "bundle": ("installer", "torch")}
# What a set asks for beyond pyproject.toml's extras: the bundle swaps opencv-python for its headless build of the
# same version (installer/bundle_venv.sh), so that wheel is locked too.
SET_EXTRAS_IN = {"bundle": ["opencv-python-headless"]}


def lock_file(set_name: str, plat: Platform) -> Path:
    return LOCK / f"{set_name}-{plat.key}.txt"


def this_platform() -> Platform:
    machine = platform.machine().lower()
    key = {("linux", "x86_64"): "linux-x86_64", ("linux", "amd64"): "linux-x86_64",
           ("win32", "amd64"): "windows-x86_64", ("win32", "x86_64"): "windows-x86_64",
           ("darwin", "arm64"): "macos-arm64", ("darwin", "aarch64"): "macos-arm64"}.get((sys.platform, machine))
    for plat in PLATFORMS:
        if plat.key == key:
            return plat
    known = ", ".join(p.key for p in PLATFORMS)
    raise SystemExit(f"no lock file for this machine ({sys.platform} {machine}); locked: {known}. "
                     "Install the package's ranges instead: pip install -e '.[dev,scale,torch]' (not pinned), "
                     "or add the platform to PLATFORMS in scripts/lock.py and run make lock")


# -- reading -------------------------------------------------------------------------------------------------------

_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?==([^\s;\\]+)")


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def read_lock(path: Path) -> dict[str, dict[str, object]]:
    """{normalised name: {"version": str, "hashes": [str], "text": the whole requirement, continuation lines too}}."""
    out: dict[str, dict[str, object]] = {}
    current: dict[str, object] | None = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if raw[:1].isspace() and current is not None:
            current["text"] = f"{current['text']}\n{raw}"
            if line.startswith("--hash="):
                hashes = current["hashes"]
                assert isinstance(hashes, list)
                hashes.append(line.split("=", 1)[1].rstrip(" \\"))
            continue
        match = _PIN.match(line)
        if match is None:
            raise ValueError(f"{path.name}: not a pinned requirement: {line!r}")
        current = {"version": match.group(3), "hashes": [], "text": raw}
        out[normalise(match.group(1))] = current
    return out


def project_requirements(extras: tuple[str, ...], pyproject: Path | None = None) -> list[str]:
    """pyproject.toml's dependencies and those of the named extras, as written there."""
    data = tomllib.loads((pyproject or ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    reqs = list(data["dependencies"])
    for extra in extras:
        reqs.extend(data["optional-dependencies"][extra])
    return reqs


def disagreements(set_name: str, plat: Platform, pyproject: Path | None = None, lock: Path | None = None) -> list[str]:
    """What in pyproject.toml the lock file does not honour: a dependency missing, or a version outside its range."""
    from packaging.requirements import Requirement

    path = lock or lock_file(set_name, plat)
    if not path.is_file():
        return [f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: missing (run make lock)"]
    locked = read_lock(path)
    problems = []
    for text in project_requirements(SETS[set_name], pyproject):
        req = Requirement(text)
        environment = {**plat.markers, "python_version": PYTHON, "python_full_version": f"{PYTHON}.0",
                       "implementation_name": "cpython", "platform_python_implementation": "CPython", "extra": ""}
        if req.marker is not None and not req.marker.evaluate(environment):
            continue
        pin = locked.get(normalise(req.name))
        if pin is None:
            problems.append(f"{path.name}: {req.name} is in pyproject.toml ({text}) but not locked")
            continue
        version = str(pin["version"])
        if not req.specifier.contains(version, prereleases=True):
            problems.append(f"{path.name}: {req.name}=={version} is outside pyproject.toml's range {req.specifier}")
    for name, pin in locked.items():
        if not pin["hashes"]:
            problems.append(f"{path.name}: {name} has no hash")
    return problems


def diff(freeze: Path, set_name: str = "dev") -> list[str]:
    """`pip freeze` output against this machine's lock for a set: one line per version that differs."""
    locked = {**read_lock(LOCK / "tools.txt"), **read_lock(lock_file(set_name, this_platform()))}
    out = []
    seen = set()
    for raw in freeze.read_text(encoding="utf-8").splitlines():
        match = _PIN.match(raw.strip())
        if match is None:
            continue
        name, version = normalise(match.group(1)), match.group(3)
        seen.add(name)
        was = locked.get(name)
        if was is None:
            out.append(f"{name} {version} (not in the lock)")
        elif was["version"] != version:
            out.append(f"{name} {was['version']} -> {version}")
    out += [f"{name} {pin['version']} (locked, not installed)" for name, pin in locked.items() if name not in seen]
    return sorted(out)


def line(name: str, path: Path) -> str:
    pin = read_lock(path).get(normalise(name))
    if pin is None:
        raise SystemExit(f"{name} is not in {path}")
    return str(pin["text"])


# -- writing -------------------------------------------------------------------------------------------------------

def _uv() -> list[str]:
    venv = ROOT / "build" / "lock-venv"
    exe = venv / ("Scripts/uv.exe" if os.name == "nt" else "bin/uv")
    if not exe.exists() or UV.split("==")[1] not in subprocess.run([str(exe), "--version"], capture_output=True,
                                                                  text=True).stdout:
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        py = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
        subprocess.run([str(py), "-m", "pip", "install", "--quiet", UV], check=True)
    return [str(exe)]


def _compile(uv: list[str], args: list[str], out: Path, plat: Platform | None, header: str) -> None:
    cmd = [*uv, "pip", "compile", *args, "--python-version", PYTHON, "--generate-hashes", "--no-header",
           "--index-url", "https://pypi.org/simple", "--output-file", str(out)]
    env = dict(os.environ)
    if plat is None:
        cmd.append("--universal")
    else:
        cmd += ["--python-platform", plat.uv]
        env.update(plat.env)
        if plat.key.startswith("linux"):
            for folder in TORCH_FIND_LINKS:
                if Path(folder).is_dir():
                    cmd += ["--find-links", folder]
    print("$", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, cwd=ROOT, env=env)
    body = out.read_text(encoding="utf-8")
    body = body.replace(str(ROOT) + os.sep, "")
    out.write_text(f"{header}\n{body}", encoding="utf-8")


def compile_all(upgrade: bool = True) -> None:
    uv = _uv()
    LOCK.mkdir(exist_ok=True)
    upgrade_args = ["--upgrade"] if upgrade else []
    made = "# Made by `make lock` (scripts/lock.py) from {src}; do not edit by hand: docs/development.md."
    tools = LOCK / "tools.txt"
    _compile(uv, [str(LOCK / "tools.in"), *upgrade_args], tools, None,
             made.format(src="lock/tools.in") + f"\n# Installed first, on every platform (CPython {PYTHON}).")
    for set_name, extras in SETS.items():
        for plat in PLATFORMS:
            inputs = ["pyproject.toml", *(arg for e in extras for arg in ("--extra", e))]
            extra_in = SET_EXTRAS_IN.get(set_name)
            scratch = None
            if extra_in:
                scratch = LOCK / f".{set_name}.in"
                scratch.write_text("\n".join(extra_in) + "\n", encoding="utf-8")
                inputs.append(str(scratch))
            constraints = ["-c", str(LOCK / "constraints.in"), "-c", str(tools)]
            if set_name != "dev":  # the bundle runs what the tests ran: the dev set's versions where both have one
                constraints += ["-c", str(lock_file("dev", plat))]
            try:
                _compile(uv, [*inputs, *constraints, *upgrade_args], lock_file(set_name, plat), plat,
                         made.format(src="pyproject.toml") + f"\n# Set {set_name!r} (extras: {', '.join(extras)}) "
                         f"for {plat.key}, CPython {PYTHON}.")
            finally:
                if scratch is not None:
                    scratch.unlink(missing_ok=True)
    # the opencv pin the bundle swaps must be the version the dev set resolved for opencv-python
    for plat in PLATFORMS:
        bundle = read_lock(lock_file("bundle", plat))
        a, b = bundle.get("opencv-python"), bundle.get("opencv-python-headless")
        if a and b and a["version"] != b["version"]:
            raise SystemExit(f"{plat.key}: opencv-python {a['version']} but opencv-python-headless {b['version']}: "
                             "pin opencv-python-headless in lock/constraints.in to the same version and run again")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    comp = sub.add_parser("compile", help="resolve every lock file afresh (make lock)")
    comp.add_argument("--keep", action="store_true", help="keep locked versions that still fit (no --upgrade)")
    sub.add_parser("check", help="report where a lock file and pyproject.toml disagree (exit 1 if any)")
    path = sub.add_parser("path", help="this machine's lock file for a set")
    path.add_argument("set", choices=sorted(SETS))
    extras = sub.add_parser("extras", help="pyproject.toml's extras a set installs (make test-latest)")
    extras.add_argument("set", choices=sorted(SETS))
    changed = sub.add_parser("diff", help="a pip freeze against this machine's dev lock (make test-latest)")
    changed.add_argument("freeze", type=Path)
    one = sub.add_parser("line", help="one locked requirement with its hashes")
    one.add_argument("name")
    one.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    if args.command in ("compile", "check"):
        if args.command == "compile":
            compile_all(upgrade=not args.keep)
        problems = [p for s in SETS for plat in PLATFORMS for p in disagreements(s, plat)]
        print("\n".join(problems) or "lock files agree with pyproject.toml")
        return 1 if problems else 0
    if args.command == "extras":
        print(",".join(SETS[args.set]))
        return 0
    if args.command == "path":
        print(lock_file(args.set, this_platform()).relative_to(ROOT))
        return 0
    if args.command == "diff":
        print("\n".join(diff(args.freeze)) or "the same versions as the lock")
        return 0
    print(line(args.name, args.file))
    return 0


if __name__ == "__main__":
    sys.exit(main())

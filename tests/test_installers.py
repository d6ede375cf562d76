"""The Windows installer's script and the macOS disk image (issue 28), as the release workflow
builds and tries them on their runners (Inno Setup and hdiutil exist only there): the
installer installs the whole bundle with a Start-menu shortcut to the window, the workflow
installs it silently and smoke-tests what it installed, and mounts the disk image to
smoke-test the app inside it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ISS = ROOT / "packaging" / "referee-app.iss"
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"


def _sections(text: str) -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current = ""
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith(";"):
            continue
        m = re.fullmatch(r"\[(\w+)\]", line.strip())
        if m:
            current = m.group(1)
            sections[current] = []
        else:
            sections.setdefault(current, []).append(line.strip())
    return sections


def test_the_installer_script_is_utf8_with_its_mark_so_inno_setup_reads_the_chinese_names() -> None:
    raw = ISS.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    assert "双升裁判助手" in raw.decode("utf-8-sig")


def test_the_installer_installs_the_bundle_for_the_user_with_a_start_menu_shortcut_to_the_window() -> None:
    s = _sections(ISS.read_bytes().decode("utf-8-sig"))
    setup = dict(line.split("=", 1) for line in s["Setup"] if "=" in line and not line.startswith("#"))
    assert setup["PrivilegesRequired"] == "lowest"  # no administrator needed
    assert setup["OutputBaseFilename"] == "referee-app-windows-setup"
    for key in ("SetupIconFile", "LicenseFile"):
        assert (ISS.parent / setup[key].replace("\\", "/")).is_file(), key
    [files] = s["Files"]
    assert 'Source: "..\\dist\\referee-app\\*"' in files and "recursesubdirs" in files
    start_menu = [line for line in s["Icons"] if line.startswith('Name: "{group}\\双升裁判助手"')]
    assert start_menu and 'Filename: "{app}\\referee-app-gui.exe"' in start_menu[0]
    assert any("{uninstallexe}" in line for line in s["Icons"])
    assert any('MessagesFile: "compiler:Default.isl"' in line for line in s["Languages"])


def test_the_workflow_installs_with_the_installer_and_smoke_tests_the_installed_folder() -> None:
    text = WORKFLOW.read_text(encoding="utf-8")
    assert "packaging\\referee-app.iss" in text
    assert '"/VERYSILENT"' in text and '"/CURRENTUSER"' in text
    assert "Start Menu\\Programs\\双升裁判助手\\双升裁判助手.lnk" in text
    assert "python packaging/smoke_bundle.py $dir" in text


def test_the_workflow_mounts_the_disk_image_and_smoke_tests_the_app_inside_it() -> None:
    text = WORKFLOW.read_text(encoding="utf-8")
    assert "hdiutil create" in text and "ln -s /Applications dmg/Applications" in text
    assert "hdiutil attach -nobrowse -readonly" in text
    assert 'smoke_bundle.py "$RUNNER_TEMP/dmg/referee-app.app/Contents/MacOS"' in text

"""What a user installs and cites (issue 47, item 6): the version in one place, a citation file, package data.

CI builds the wheel and the sdist, checks them with ``twine check --strict`` and runs ``cvinference demo`` from the
wheel installed in a fresh virtual environment (``.ci/run``); these tests hold what the source tree must say.
"""

from pathlib import Path

import pytest

import cvinference

tomllib = pytest.importorskip("tomllib")  # Python 3.11's TOML reader

ROOT = Path(__file__).resolve().parents[1]


def test_the_version_is_written_once_in_the_package():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "cvinference.__version__"}
    assert cvinference.__version__.count(".") >= 2
    citation = (ROOT / "CITATION.cff").read_text().splitlines()
    assert not any(line.startswith("version:") for line in citation)  # the citation does not repeat it


def test_the_citation_file_names_the_software_and_its_licence():
    text = (ROOT / "CITATION.cff").read_text()
    assert text.startswith("cff-version: 1.2.0\n")
    for line in ('title: "cvinference: ', "type: software", "license: BSD-3-Clause", "authors:"):
        assert line in text
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["license"] == "BSD-3-Clause"


def test_the_package_data_the_code_reads_is_declared():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    declared = project["tool"]["setuptools"]["package-data"]
    for package, patterns in declared.items():
        folder = ROOT / package.replace(".", "/")
        assert any(list(folder.glob(pattern)) for pattern in patterns), (package, patterns)
    assert list((ROOT / "cvinference/policy/data").glob("*.json")) and list(
        (ROOT / "cvinference/studies/data").glob("*.csv.gz"))


def test_ci_builds_checks_and_installs_the_wheel():
    run = (ROOT / ".ci/run").read_text()
    for step in ("python -m build", "twine check --strict", "wheel-venv", "cvinference\" demo"):
        assert step in run, step

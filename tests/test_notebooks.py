"""The example notebooks (examples/notebooks) run from top to bottom in a Jupyter kernel, as a user runs them.

Each one shows its results as HTML tables and its figures inline, and leaves the notebook's matplotlib backend as
it found it (its last cell asserts so). Needs the test extras' nbclient and ipykernel; skipped without them.
"""

import pathlib

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOKS = sorted((pathlib.Path(__file__).resolve().parents[1] / "examples" / "notebooks").glob("*.ipynb"))


def _outputs(notebook, kind):
    return [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.get("outputs", [])
            if kind in output.get("data", {})]


def test_there_are_notebooks_for_the_three_common_tasks():
    assert [path.stem for path in NOTEBOOKS] == ["compare", "evaluate", "select"]


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[path.stem for path in NOTEBOOKS])
def test_the_notebook_runs_shows_tables_and_figures_and_keeps_the_backend(path, tmp_path):
    notebook = nbformat.read(path, as_version=4)
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")  # kept clean
    nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs
              if output.output_type == "error"]
    assert not errors, errors
    tables = [output["data"]["text/html"] for output in _outputs(notebook, "text/html")]
    assert any("<table" in table for table in tables)
    assert _outputs(notebook, "image/png"), "no figure was shown inline"
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    first, last = (cell.outputs[-1]["data"]["text/plain"] for cell in (code[0], code[-1]))
    assert "backend" in first and first == last  # the backend the notebook started with, at its end

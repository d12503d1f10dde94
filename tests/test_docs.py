"""Every Python example in docs/ runs and prints what the page shows.

A ```python block followed by "Output..." and a ```text block must print that
text; a line "..." in the text stands for any number of lines and "..." inside
a line for any characters. A block that raises is compared as
"Traceback (most recent call last):" followed by the exception's last lines.
"""

import contextlib
import importlib.util
import io
import itertools
import re
import subprocess
import sys
import traceback
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
_BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def _examples():
    for page in sorted(DOCS.glob("*.md")):
        text = page.read_text()
        blocks = list(_BLOCK.finditer(text))
        for block, following in itertools.pairwise([*blocks, None]):
            if block.group(1) != "python":
                continue
            expected = None
            if following is not None and following.group(1) == "text":
                between = text[block.end():following.start()].strip()
                if between.startswith("Output"):
                    expected = following.group(2)
            line = text[: block.start()].count("\n") + 1
            yield pytest.param(block.group(2), expected, id=f"{page.name}:{line}")


def _pattern(expected):
    parts = []
    for line in expected.rstrip("\n").split("\n"):
        if line.strip() == "...":
            parts.append(r"(?:.*\n)*?")
        else:
            parts.append(".*".join(re.escape(piece) for piece in line.split("...")) + r"[ \t]*\n")
    return re.compile("".join(parts))


def _missing_modules(code):
    names = re.findall(r"^\s*(?:from|import)\s+([A-Za-z_]\w*)", code, flags=re.M)
    return sorted({name for name in names if importlib.util.find_spec(name) is None})


def _run_in_process(code):
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        try:
            exec(compile(code, "<docs example>", "exec"), {"__name__": "__docs__"})
        except Exception as exc:  # noqa: BLE001 - an example's exception is part of its printed output
            printed.write("Traceback (most recent call last):\n")
            printed.write("".join(traceback.format_exception_only(exc)))
    return printed.getvalue()


def _run_as_script(code, tmp_path):
    script = tmp_path / "example.py"
    script.write_text(code)
    completed = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    return completed.stdout


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:The least populated class:UserWarning")
@pytest.mark.parametrize("code, expected", list(_examples()))
def test_docs_example(code, expected, tmp_path, monkeypatch):
    missing = _missing_modules(code)
    if missing:
        pytest.skip(f"the example needs {', '.join(missing)}, an optional extra that is not installed")
    monkeypatch.chdir(tmp_path)  # examples that write files write them here
    # Examples guarded by __main__ start worker processes and must run as scripts.
    output = _run_as_script(code, tmp_path) if "__main__" in code else _run_in_process(code)
    if expected is not None:
        assert _pattern(expected).fullmatch(output.rstrip("\n") + "\n"), output

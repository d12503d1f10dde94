"""Every module of the package stays under 1,000 lines and every function under 80 lines of code (issue 59, item 5;
the design's "One instrument": a long module or function is split by its jobs). A line of code is a line that holds
a token of code: blank lines, comment lines and docstrings do not count, the lines of a multi-line statement do.
Oracle for the counter: a source written here whose lines are counted by hand."""

import ast
import io
import tokenize
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "cvinference"
MODULE_LINES = 1000
FUNCTION_LINES = 80

_ELSEWHERE = "issue 59, split in another branch"
# Over the limits at this branch's base and split by another branch of issue 59: the lead removes these marks when
# the branches merge (strict, so a split that lands makes the test fail until its mark goes).
MODULES_SPLIT_ELSEWHERE = set()
FUNCTIONS_SPLIT_ELSEWHERE = set()


def _docstring_lines(tree):
    """The line numbers of every docstring (module, class, function) in ``tree``."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(
                    first.value.value, str):
                lines |= set(range(first.lineno, first.end_lineno + 1))
    return lines


def function_sizes(source):
    """``{(name, first line): lines of code}`` of every function (nested ones too) in ``source``."""
    tree = ast.parse(source)
    skipped = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER)
    code = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in skipped:
            code |= set(range(token.start[0], token.end[0] + 1))
    code -= _docstring_lines(tree)
    return {(node.name, node.lineno): sum(node.lineno <= line <= node.end_lineno for line in code)
            for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}


def test_the_counter_counts_code_lines_by_hand():
    source = '''
def f(x):
    """A docstring
    of two lines."""
    # a comment

    y = (x +
         1)  # a statement of two lines
    def g():
        return 2
    return y, g
'''
    # f: "def f(x):", "y = (x +", "1)", "def g():", "return 2", "return y, g" -> 6; g: its two lines.
    assert function_sizes(source) == {("f", 2): 6, ("g", 9): 2}


def _modules():
    return sorted(str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py"))


def _marked(modules, elsewhere):
    return [pytest.param(module, marks=pytest.mark.xfail(strict=True, reason=_ELSEWHERE)) if module in elsewhere
            else module for module in modules]


@pytest.mark.parametrize("module", _marked(_modules(), MODULES_SPLIT_ELSEWHERE))
def test_every_module_is_under_1000_lines(module):
    lines = len((PACKAGE / module).read_text().splitlines())
    assert lines < MODULE_LINES, f"{module} has {lines} lines; split it into modules of one job each"


@pytest.mark.parametrize("module", _marked(_modules(), FUNCTIONS_SPLIT_ELSEWHERE))
def test_every_function_is_under_80_lines_of_code(module):
    long = {f"{name} (line {line}): {size}" for (name, line), size in
            function_sizes((PACKAGE / module).read_text()).items() if size >= FUNCTION_LINES}
    assert not long, f"{module}: functions of {FUNCTION_LINES} lines of code or more: {sorted(long)}"

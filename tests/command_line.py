"""The command line as the tests run it: ``main`` with the report captured, and the one line of a user error."""

import io

from cvinference.cli import main


def run(argv):
    """``main(argv)`` with the report captured: (status, report text)."""
    out = io.StringIO()
    status = main(argv, out=out)
    return status, out.getvalue()


def one_error_line(capsys, prefix="cvinference: error: "):
    """Standard error's one line, starting with ``prefix`` and holding no traceback, without its newline."""
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert err.startswith(prefix), err
    assert "Traceback" not in err
    return err.rstrip("\n")

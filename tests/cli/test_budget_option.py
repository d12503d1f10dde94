"""``--budget`` below what a comparison needs (issue 58, left by earlier work): the one line names the other way
out in the command line's own options. With ``--nested always`` lowering --cv or --repeats cannot make room for
nested cross-validation's fits; the way out is to drop ``--nested always``. Oracle for the figures: the fits of the
plan the progress lines print (tests/cli/test_commands.py): 2 learners x 3 folds = 6 for the cross-validation, 150
for nested cross-validation (5 x 5 folds of 2 learners, each fold's outer and inner fits, docs/cli.md)."""

import pytest
from command_line import one_error_line, run


def _refused_before_fits(monkeypatch, argv, capsys):
    import cvinference.evaluation._evaluator as evaluator_module

    monkeypatch.setattr(evaluator_module, "run_fits", lambda *args, **kwargs: pytest.fail("fitted before refusing"))
    assert run(argv)[0] == 2
    return one_error_line(capsys)


def test_nested_always_beyond_the_budget_says_to_drop_it(monkeypatch, capsys):
    line = _refused_before_fits(monkeypatch, ["compare", "nb", "tree", "--data", "iris", "--cv", "3", "--nested",
                                              "always", "--budget", "30"], capsys)
    assert "--budget 30: 30 fits" in line and "alone needs 156; give --budget 156 or more" in line
    assert line.endswith("or drop --nested always (nested cross-validation then runs where the decision needs it "
                         "and the budget allows)")
    assert "--cv" not in line.split("or more", 1)[1]


def test_a_budget_below_the_folds_still_says_to_lower_them(monkeypatch, capsys):
    line = _refused_before_fits(monkeypatch, ["compare", "nb", "tree", "--data", "iris", "--cv", "5", "--budget",
                                              "8"], capsys)
    assert line.endswith("--budget 8: 8 fits, and the cross-validation of both learners alone needs 10; give "
                         "--budget 10 or more, or lower --cv or --repeats")

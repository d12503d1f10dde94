"""``cvinference compare --repeats auto``: the command line plans the repeats as ``cvi.compare(...,
n_repeats="auto")`` does (issue 45, item 11), and refuses another word with one line and status 2."""

import io
import json

from cli.test_commands import one_error_line
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference.cli import main


def _rows(rates):
    """Decision trees at N = 150 (iris): the corrected t at each R of ``rates`` ({R: (type-I, power)})."""
    return [{"method": "corrected-t", "repeats": repeats, "folds": 10, "quantity": quantity, "target": "unconditional",
             "learner": "tree", "n": 150, "population": "test-power" if quantity == "power" else "test",
             "nominal": 0.05, "measured": rate, "wilson_low": max(rate - 0.03, 0.0), "wilson_high": rate + 0.03,
             "replications": 200, "mean_width": 0.1}
            for repeats, pair in rates.items() for quantity, rate in zip(("type_i", "power"), pair, strict=True)]


def test_the_command_line_plans_the_repeats_the_front_door_plans(evidence, tmp_path):
    evidence(*_rows({1: (0.04, 0.5), 3: (0.03, 0.8)}))
    path = tmp_path / "report.json"
    argv = ["compare", "tree", "tree", "--params-b", '{"max_depth": 1}', "--data", "iris", "--repeats", "auto",
            "--seed", "0", "--nested", "never", "--json", str(path), "--quiet"]
    assert main(argv, out=io.StringIO()) == 0
    report = json.loads(path.read_text())
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    python = cvi.compare(DecisionTreeClassifier(random_state=0), DecisionTreeClassifier(max_depth=1, random_state=0),
                         X, y, n_repeats="auto", nested="never", random_state=0)
    assert python.pair.a.n_repeats == 3
    planned = [note for note in report["notes"] if note.startswith("n_repeats='auto'")]
    assert planned == [note for note in python.to_dict()["notes"] if note.startswith("n_repeats='auto'")]
    assert planned[0].startswith("n_repeats='auto' planned 3 x 10-fold cross-validation (60 fits)")


def test_another_word_is_refused_with_one_line(capsys):
    assert main(["compare", "tree", "nb", "--data", "iris", "--repeats", "often"], out=io.StringIO()) == 2
    assert one_error_line(capsys).endswith("argument --repeats: expected a positive integer or 'auto', got 'often'")

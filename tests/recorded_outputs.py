"""What the command line and the Python summaries print, on bundled data: recorded once, compared ever after.

    python tests/recorded_outputs.py tests/data/recorded_outputs_NAME.json

from the checkout whose outputs are recorded (or ``PYTHONPATH=EXPORT`` for a ``git archive`` export of an
older commit). ``tests/test_recorded_outputs.py``
checks that this checkout prints the same, byte for byte.
"""

import contextlib
import io
import json
import sys
import warnings

import cvinference as cvi
from cvinference.cli import main

COMMANDS = [
    ["evaluate", "tree", "--data", "iris", "--seed", "0"],
    ["evaluate", "logreg", "--data", "breast_cancer", "--repeats", "3", "--seed", "1", "--json", "-"],
    ["evaluate", "nb", "--data", "wine", "--cv", "loo"],
    ["evaluate", "tree", "--data", "wine", "--metric", "f1_macro", "--loss", "brier", "--seed", "3"],
    ["compare", "logreg", "tree", "--data", "wine", "--nested", "never", "--seed", "0"],
    ["compare", "logreg", "tree", "--data", "breast_cancer", "--repeats", "3", "--nested", "never", "--seed", "2",
     "--json", "-"],
    ["compare", "nb", "tree", "--data", "iris", "--metric", "balanced_accuracy", "--repeats", "2", "--seed", "2"],
    ["compare", "nb", "knn", "--data", "wine", "--cv", "loo", "--nested", "never"],
]


def run(argv):
    """The exit status, standard output and standard error of ``cvinference ARGV``."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(argv, out=out)
    return {"argv": argv, "status": status, "stdout": out.getvalue(), "stderr": err.getvalue()}


def summaries():
    """The text of the summaries and results a notebook user prints."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier
    X, y = load_breast_cancer(return_X_y=True)
    ev = cvi.CVEvaluator(cv=10, n_repeats=2, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = ev.evaluate(GaussianNB(), X, y)
        pair = ev.compare(GaussianNB(), DecisionTreeClassifier(random_state=0), X, y)
        texts = {"CVResult.summary": result.summary(), "PairedCVResult.summary": pair.summary(),
                 "accuracy_interval": str(cvi.accuracy_interval(result)),
                 "loss_interval": str(cvi.loss_interval(result)),
                 "mcnemar_test": str(cvi.mcnemar_test(pair.a, pair.b, repeat=0)),
                 "corrected_resampled_ttest": str(cvi.corrected_resampled_ttest(pair.a, pair.b)),
                 "decide": cvi.decide(pair).summary()}
    return texts


def record():
    return {"commands": [run(argv) for argv in COMMANDS], "summaries": summaries()}


if __name__ == "__main__":
    with open(sys.argv[1], "w") as handle:
        json.dump(record(), handle, indent=1)

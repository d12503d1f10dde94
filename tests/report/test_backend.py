"""Library figures leave matplotlib's backend as the user set it; only the command line selects one.

Run in a fresh interpreter: a backend is process-wide state, and this test sets one on purpose.
"""

import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    import json, sys, warnings
    import matplotlib
    matplotlib.use("svg")  # the user's choice: any backend but Agg, which the library used to force
    import numpy as np
    from sklearn.datasets import load_iris
    from sklearn.model_selection import GridSearchCV
    from sklearn.tree import DecisionTreeClassifier
    import cvinference as cvi
    from cvinference.report import plot_report
    from cvinference.report._report import evaluation_report

    X, y = load_iris(return_X_y=True)
    seen = [matplotlib.get_backend()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = cvi.CVEvaluator(cv=5, random_state=0).evaluate(DecisionTreeClassifier(random_state=0), X, y)
        report = evaluation_report(result, description="tree", data=None)
        plot_report(report, sys.argv[1] + "/report.png")
        seen.append(matplotlib.get_backend())
        search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 3]},
                              cv=cvi.StratifiedEqualSizeKFold(5, random_state=0)).fit(X, y)
        cvi.compare_candidates(search).plot(path=sys.argv[1] + "/candidates.png")
        seen.append(matplotlib.get_backend())
        result.plot()
        cvi.PairedCVResult(result, result).plot()
        seen.append(matplotlib.get_backend())
        # every other plot() of the package: an interval, a test, the Bayesian posterior, a decision, the
        # critical-difference diagram and a study; none may touch the user's rcParams, filters or numpy options
        pair = cvi.CVEvaluator(cv=5, random_state=0).compare(DecisionTreeClassifier(random_state=0),
                                                             DecisionTreeClassifier(max_depth=1), X, y)
        study = cvi.winner_table(DecisionTreeClassifier(random_state=0), DecisionTreeClassifier(max_depth=1), X, y,
                                 sample_size=60, n_draws=2, cv=3, random_state=0)
        studies = cvi.conditional_error_study(DecisionTreeClassifier(random_state=0), X, y, sample_size=60,
                                              n_draws=2, cv=3, max_repeats=2, random_state=0)  # two panels
        settings = (dict(matplotlib.rcParams), list(warnings.filters), np.get_printoptions())
        for result_with_a_figure in (cvi.accuracy_interval(result), cvi.mcnemar_test(pair),
                                     cvi.bayesian_correlated_ttest(pair), cvi.decide(pair),
                                     cvi.compare_on_datasets(np.array([[0.9, 0.8, 0.7], [0.8, 0.85, 0.6],
                                                                       [0.7, 0.6, 0.65]])), study, studies):
            result_with_a_figure.plot()
        unchanged = settings == (dict(matplotlib.rcParams), list(warnings.filters), np.get_printoptions())
        seen.append(matplotlib.get_backend() if unchanged else "settings changed")
    print(json.dumps(seen))
""")


@pytest.mark.slow
def test_plotting_from_python_keeps_the_users_backend(tmp_path):
    pytest.importorskip("matplotlib")
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True, text=True,
                          check=False, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == '["svg", "svg", "svg", "svg", "svg"]'
    assert (tmp_path / "report.png").read_bytes()[:8] == (tmp_path / "candidates.png").read_bytes()[:8] \
        == b"\x89PNG\r\n\x1a\n"

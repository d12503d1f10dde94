"""method="auto" and the verdict follow the calibration benchmark's evidence (docs/calibration.md).

The evidence is replaced by a small hand-made table, so each rule is checked
on figures whose consequence is known: a method falls short in a cell when
its 95% Wilson interval stays below 0.93 (nominal 0.95 - 0.02).
"""

import warnings

import numpy as np
import pytest

import cvinference as cvi
from cvinference import InferenceWarning
from cvinference.inference import _evidence
from cvinference.report import _report


def _row(method, measured, high, *, target="kfold", learner="tree", n=300, quantity="coverage"):
    return {"method": method, "quantity": quantity, "target": target, "learner": learner, "n": n,
            "population": "test", "nominal": 0.95 if quantity == "coverage" else 0.05, "measured": measured,
            "wilson_low": measured - 0.02, "wilson_high": high, "replications": 500, "mean_width": 0.1}


@pytest.fixture
def evidence(monkeypatch):
    table = {"rows": [], "floor": 0.93, "type_i_limit": 0.075, "mode": "test"}

    def install(*rows):
        table["rows"] = list(rows)
        monkeypatch.setattr(_evidence, "calibration_evidence", lambda: table)
        monkeypatch.setattr(_report, "calibration_evidence", lambda: table)
    return install


def _result(n_per_fold, errors_per_fold, estimator_repr="DecisionTreeClassifier(random_state=0)"):
    """A 10-fold result with the given errors in every fold (labels 0/1, prediction wrong on the first ones)."""
    k = 10
    y_true = np.tile(np.arange(n_per_fold) % 2, k)
    y_pred = y_true.copy()
    fold = np.repeat(np.arange(k), n_per_fold)
    for j in range(k):
        wrong = np.flatnonzero(fold == j)[:errors_per_fold]
        y_pred[wrong] = 1 - y_pred[wrong]
    return cvi.CVResult(y_true, y_pred, fold, estimator_repr=estimator_repr)


CONDITIONS_HOLD = dict(n_per_fold=30, errors_per_fold=8)  # r_j = 22, m_j - r_j = 8: Wong's conditions hold
CONDITIONS_FAIL = dict(n_per_fold=30, errors_per_fold=2)  # m_j - r_j = 2 < 5


@pytest.mark.parametrize("text, kind", [
    ("DecisionTreeClassifier(random_state=0)", "tree"),
    ("StandardScaler + LogisticRegression(max_iter=1000)", "logistic"),
    ("Pipeline(steps=[('scale', StandardScaler()), ('knn', KNeighborsClassifier())])", "knn"),
    ("GaussianNB()", "naive_bayes"),
    ("SVC()", None),
    (None, None),
])
def test_the_learner_is_recognised_from_its_repr(text, kind):
    assert _evidence.learner_kind(text) == kind


def test_the_regime_is_the_learner_at_the_nearest_measured_size_on_a_log_scale():
    rows = [_row("normal", 0.9, 0.92, n=n) for n in (100, 300, 1000)] + [_row("normal", 0.9, 0.92, learner="knn",
                                                                              n=100)]
    # 569 is nearer 1000 than 300 on a log scale (log(1000/569) = 0.56 < log(569/300) = 0.64)
    assert _evidence.regime_of(rows, "tree", 569) == _evidence.Regime("tree", 1000)
    assert _evidence.regime_of(rows, "tree", 150) == _evidence.Regime("tree", 100)
    assert _evidence.regime_of(rows, "knn", 5000) == _evidence.Regime("knn", 100)
    # an unmeasured learner stands for every measured one
    assert _evidence.regime_of(rows, "svm", 300) == _evidence.Regime(None, 300)


def test_auto_keeps_wongs_interval_when_the_evidence_does_not_fault_it(evidence):
    evidence(_row("normal", 0.941, 0.955), _row("clopper-pearson", 0.949, 0.96), _row("wilson", 0.945, 0.958))
    interval = cvi.accuracy_interval(_result(**CONDITIONS_HOLD))
    assert interval.method == "normal" and interval.target == "kfold" and not interval.warnings
    assert interval.low == cvi.accuracy_interval(_result(**CONDITIONS_HOLD), method="normal").low


def test_auto_takes_the_binomial_interval_closest_to_nominal_when_wongs_falls_short(evidence):
    evidence(_row("normal", 0.89, 0.915), _row("clopper-pearson", 0.975, 0.985), _row("wilson", 0.945, 0.958))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        interval = cvi.accuracy_interval(_result(**CONDITIONS_HOLD))
    assert interval.method == "wilson"
    assert "Wong's normal interval covered the kfold error only 0.890" in interval.notes[0]
    assert "a decision tree at N = 300" in interval.notes[0]


def test_auto_warns_and_names_the_regime_when_every_candidate_falls_short(evidence):
    evidence(*(_row(m, c, c + 0.02, target="conditional") for m, c in
               (("normal", 0.83, ), ("clopper-pearson", 0.85), ("wilson", 0.84))))
    with pytest.warns(InferenceWarning, match=r"no interval computable from a cross-validation result that covers "
                                              r"the conditional error .* for a decision tree at N = 300: the best, "
                                              r"clopper-pearson, covered it 0.850") as caught:
        interval = cvi.accuracy_interval(_result(**CONDITIONS_HOLD), target="conditional")
    assert "nested_cv_interval" in str(caught[0].message)
    assert interval.method == "clopper-pearson" and interval.target == "conditional"
    assert interval.warnings == (str(caught[0].message),)


def test_auto_stays_exact_when_the_conditions_fail_and_warns_when_that_falls_short(evidence):
    evidence(_row("clopper-pearson", 0.91, 0.925), _row("wilson", 0.95, 0.96))
    with pytest.warns(InferenceWarning, match="The clopper-pearson interval covered the kfold error .* only 0.910"):
        interval = cvi.accuracy_interval(_result(**CONDITIONS_FAIL))
    assert interval.method == "clopper-pearson"
    assert "the large-sample conditions fail" in interval.notes[0]


def test_an_explicit_method_warns_when_measured_short_of_the_target_asked_for(evidence):
    evidence(_row("normal", 0.87, 0.9, target="unconditional"), _row("normal", 0.95, 0.96))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cvi.accuracy_interval(_result(**CONDITIONS_HOLD), method="normal").target == "kfold"
    with pytest.warns(InferenceWarning, match="The normal interval covered the unconditional error .* only 0.870"):
        cvi.accuracy_interval(_result(**CONDITIONS_HOLD), method="normal", target="unconditional")


def test_without_evidence_auto_is_wongs_rule(evidence):
    evidence()
    assert cvi.accuracy_interval(_result(**CONDITIONS_HOLD)).method == "normal"
    assert cvi.accuracy_interval(_result(**CONDITIONS_FAIL)).method == "clopper-pearson"


def test_the_verdict_counts_only_tests_measured_within_the_type_i_limit(evidence):
    from sklearn.datasets import load_breast_cancer
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier
    evidence(_row("matched-sample t", 0.13, 0.16, quantity="type_i", n=1000),
             _row("independent-sample z", 0.117, 0.14, quantity="type_i", n=1000),
             _row("McNemar", 0.06, 0.08, quantity="type_i", n=1000),
             _row("corrected t (10x10-fold)", 0.048, 0.065, quantity="type_i", n=1000))
    X, y = load_breast_cancer(return_X_y=True)
    pair = cvi.CVEvaluator(cv=10, n_repeats=2, random_state=0).compare(DecisionTreeClassifier(random_state=0),
                                                                       GaussianNB(), X, y)
    report = _report.comparison_report(pair, descriptions=("DecisionTreeClassifier(random_state=0)", "GaussianNB()"),
                                       data="breast_cancer")
    measured = {r["name"]: r["measured_type_i"] for r in report["tests"]}
    assert measured == {"matched-sample t (repeat 0)": 0.13, "independent-sample z (repeat 0)": 0.117,
                        "McNemar (repeat 0)": 0.06, "corrected t (2x10-fold)": 0.048}
    caveat = next(c for c in report["verdict"]["caveats"] if c.startswith("The verdict counts only"))
    assert "left out: matched-sample t (repeat 0) 0.130 (a decision tree at N = 1000); independent-sample z " \
           "(repeat 0) 0.117 (a decision tree at N = 1000)." in caveat
    assert "McNemar" not in caveat
    assert "matched-sample t" not in report["verdict"]["text"]
    assert "independent-sample z" not in report["verdict"]["text"]


def test_when_no_test_held_the_caveat_names_the_steadiest_measured_test(evidence):
    from sklearn.datasets import load_breast_cancer
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier
    # Every test of the report is above 0.075 for the tree; nested-cv, measured elsewhere, is the steadiest
    # (worst 0.06 over its two cells), and a positive control is never named however low.
    evidence(*[_row(name, 0.1, 0.12, quantity="type_i", n=1000) for name in
               ("matched-sample t", "independent-sample z", "McNemar", "corrected t (10x10-fold)")],
             _row("nested-cv", 0.06, 0.08, quantity="type_i", n=1000),
             _row("nested-cv", 0.04, 0.06, quantity="type_i", n=100),
             _row("naive t (10x10-fold, control)", 0.01, 0.03, quantity="type_i", n=1000))
    X, y = load_breast_cancer(return_X_y=True)
    pair = cvi.CVEvaluator(cv=10, random_state=0).compare(DecisionTreeClassifier(random_state=0), GaussianNB(), X, y)
    report = _report.comparison_report(pair, descriptions=("DecisionTreeClassifier(random_state=0)", "GaussianNB()"),
                                       data="breast_cancer")
    caveat = next(c for c in report["verdict"]["caveats"] if c.startswith("No test here kept"))
    assert caveat.endswith("The steadiest test measured, nested-cv, kept its type-I error at or below 0.060 in "
                           "every cell (docs/calibration.md).")


def test_a_left_out_test_that_rejects_is_named_in_the_verdict(evidence):
    from sklearn.datasets import load_wine
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier
    X, y = load_wine(return_X_y=True)
    pair = cvi.CVEvaluator(cv=5, random_state=0).compare(GaussianNB(), DecisionTreeClassifier(random_state=0), X, y)
    names = ("matched-sample t", "independent-sample z", "McNemar", "corrected t (10x10-fold)")
    descriptions = ("GaussianNB()", "DecisionTreeClassifier(random_state=0)")
    evidence(*[_row(name, 0.05, 0.07, quantity="type_i", n=100) for name in names])
    tests = _report.comparison_report(pair, descriptions=descriptions, data="wine")["tests"]
    rejecting = [r["name"] for r in tests if r["pvalue"] < 0.05]
    assert rejecting and len(rejecting) < len(tests)  # the data give both kinds
    # Leave out exactly the rejecting tests: the counted ones find nothing, and the sentence says who did.
    evidence(*[_row(name, 0.2 if any(r.startswith(name) for r in rejecting) else 0.05, 0.25, quantity="type_i",
                    n=100) for name in names])
    text = _report.comparison_report(pair, descriptions=descriptions, data="wine")["verdict"]["text"]
    assert text.startswith("No test the verdict counts finds a difference at the 0.05 level")
    named = rejecting[0] + " does" if len(rejecting) == 1 else ", ".join(rejecting[:-1]) + f" and {rejecting[-1]} do"
    assert f"dataset. {named}, but" in text
    assert text.endswith("rejecting too many true nulls for these learners.")


def test_the_advice_sentences_agree_with_the_shipped_evidence():
    """_auto_choice's advice says nested CV covered the unconditional error in every measured cell: check it."""
    from cvinference.inference._auto_choice import _REFITTING_ADVICE
    shipped = _evidence.calibration_evidence()
    rows = [r for r in shipped["rows"] if r["quantity"] == "coverage" and r["target"] == "unconditional"
            and r["method"] == "nested-cv"]
    assert "covered the unconditional error in every cell" in _REFITTING_ADVICE["unconditional"]
    assert rows and all(r["wilson_high"] >= shipped["floor"] for r in rows)
    assert {(r["learner"], r["n"]) for r in rows} >= {(learner, n) for learner in ("tree", "logistic", "knn")
                                                      for n in (100, 300, 1000)}

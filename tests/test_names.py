"""Issue 27, item 5: names agree across the public API; issue 59: no old spelling is kept before the first release.

The rules are those of docs/architecture.md, "Names" and "One way per operation".
"""

import dataclasses
import inspect
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import cvinference as cvi
from cvinference.inference._methods import METHODS

from public_names import public_names

# Where the design contract (DESIGN.md) writes confidence_level positionally, or scipy's
# result.confidence_interval(confidence_level=0.95) does.
POSITIONAL_LEVEL = {"accuracy_interval", "loss_interval"}
# precision_study(folds=(2, 3, 5, 10)): several numbers of folds, as the design contract names them.
FOLD_NAMES_ALLOWED = {("precision_study", "folds")}
LEARNERS = {"estimator", "estimator_a", "estimator_b"}


def _public_callables():
    """name -> callable: every public function and class, and every public method of a public class."""
    found = {}
    for name, obj in public_names().items():
        if not callable(obj) or (inspect.isclass(obj) and issubclass(obj, Warning)):
            continue
        found[name] = obj
        if inspect.isclass(obj):
            for attribute in dir(obj):
                member = getattr(obj, attribute)
                if not attribute.startswith("_") and callable(member) and not inspect.isclass(member):
                    found[f"{name}.{attribute}"] = member
    return found


def _parameters(obj):
    try:
        return inspect.signature(obj).parameters
    except (TypeError, ValueError):
        return {}


def _is_result_class(obj):
    return inspect.isclass(obj) and dataclasses.is_dataclass(obj)  # fields, not options


CALLABLES = {name: obj for name, obj in _public_callables().items() if not _is_result_class(obj)}


def test_confidence_level_is_keyword_only_except_where_the_contract_shows_it_positional():
    positional = sorted(name for name, obj in CALLABLES.items()
                        if "confidence_level" in _parameters(obj) and not name.endswith(".confidence_interval")
                        and _parameters(obj)["confidence_level"].kind is not inspect.Parameter.KEYWORD_ONLY)
    assert positional == sorted(POSITIONAL_LEVEL & set(CALLABLES))


def test_folds_are_n_splits_or_cv():
    odd = sorted((name, parameter) for name, obj in CALLABLES.items() for parameter in _parameters(obj)
                 if parameter in ("folds", "n_folds", "k", "n_fold") and (name, parameter) not in FOLD_NAMES_ALLOWED)
    assert not odd


def test_learners_are_estimator_and_estimator_b_or_estimator_a_and_estimator_b():
    for name, obj in CALLABLES.items():
        learners = {p for p in _parameters(obj) if p.startswith("estimator") and not p.endswith("_type")
                    and not p.endswith("_repr")}
        assert learners <= LEARNERS, (name, learners)
        if "estimator_b" in learners:
            assert learners in ({"estimator", "estimator_b"}, {"estimator_a", "estimator_b"}), (name, learners)


# --------------------------------------------------------------------------- metric_interval's level


@pytest.fixture(scope="module")
def pair():
    from sklearn.datasets import load_breast_cancer
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    X, y = load_breast_cancer(return_X_y=True)
    return cvi.CVEvaluator(cv=5, random_state=0).compare(GaussianNB(), DecisionTreeClassifier(max_depth=2,
                                                                                               random_state=0), X, y)


def _silent(function, *args, **kwargs):
    """The call, failing on any FutureWarning (InferenceWarnings are not the point here)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cvi.InferenceWarning)
        warnings.simplefilter("error", FutureWarning)
        return function(*args, **kwargs)


def test_metric_interval_takes_the_level_by_keyword(pair):
    interval = _silent(cvi.metric_interval, pair.a, "f1", confidence_level=0.9)
    assert interval.confidence_level == 0.9


def test_metric_interval_refuses_the_level_by_position(pair):
    with pytest.raises(TypeError, match="positional argument"):
        cvi.metric_interval(pair.a, "f1", 0.9)


# --------------------------------------------------------------------------- no forwarding methods

FORWARDING = [
    ("accuracy_interval", False, (0.9,), {"averaging": "fold"}),
    ("large_sample_conditions", False, (), {"min_count": 3}),
    ("matched_sample_test", True, (), {"alternative": "greater"}),
    ("independent_sample_test", True, (), {"method": "independent-t"}),
    ("mcnemar_test", True, (), {"exact": True}),
    ("scheme_diagnostic", True, (), {}),
]


@pytest.mark.parametrize("name, on_pair, args, kwargs", FORWARDING, ids=[case[0] for case in FORWARDING])
def test_a_record_has_no_method_forwarding_to_a_statistic(pair, name, on_pair, args, kwargs):
    """Statistics are functions of records (docs/architecture.md, "One way per operation")."""
    record = pair if on_pair else pair.a
    assert not hasattr(record, name)
    assert _silent(getattr(cvi, name), record, *args, **kwargs) is not None


def test_the_package_itself_uses_no_deprecated_form(pair):
    """summary() renders every test of the pair; it must not go through a deprecated path."""
    _silent(pair.summary)
    _silent(pair.a.summary)
    assert np.isfinite(_silent(cvi.mcnemar_test, pair).pvalue)


# --------------------------------------------------------------------------- one name per method (issue 59, item 4)

POLICY_AND_BELOW = [Path(cvi.__file__).parent / part for part in ("inference", "policy", "report")]
# A display label or a method string read as text: a label's start, a substring of a method's name.
LABEL_PARSING = re.compile(r"(\.name|\.method|\blabel|\bmethod)\.(startswith|endswith)\(|"
                           r"[\"'][^\"']+[\"'] (not )?in [\w.]*\.(method|name)\b")


def test_every_methods_id_is_hyphen_case_and_names_one_row_of_its_function():
    from cvinference.inference._methods import METHODS, method_row

    for method in METHODS:
        assert re.fullmatch(r"[a-z0-9.+]+(-[a-z0-9+]+)*", method.id), method
        assert method_row(method.id, method.function) is method
    assert len({(method.function, method.id) for method in METHODS}) == len(METHODS)


def test_every_decision_test_carries_its_methods_id(pair):
    from cvinference.inference._methods import method_ids, method_row

    decision = _silent(cvi.decide, pair)
    tests = [test for test in (decision.rests_on, *decision.context) if test is not None]
    assert tests and all(test.method in method_ids() for test in tests)
    assert all(test.name.startswith(method_row(test.method).label) for test in tests)  # the label is the row's
    read_back = type(decision).from_dict(decision.to_dict())
    assert [test.method for test in (read_back.rests_on, *read_back.context) if test is not None] == [
        test.method for test in tests]


def test_no_label_or_method_string_is_read_as_text():
    """Code finds a method by its id (the table's rows), never by the start of a label or a word in a method."""
    found = [f"{path.name}:{number}: {line.strip()}" for folder in POLICY_AND_BELOW for path in folder.rglob("*.py")
             for number, line in enumerate(path.read_text().splitlines(), 1) if LABEL_PARSING.search(line)]
    assert found == []


@pytest.fixture(scope="module")
def grouped_pair():
    """Two classifiers on the same grouped folds, with scores: every method of a CVResult applies."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    X, y = load_breast_cancer(return_X_y=True)
    groups = np.arange(y.size) // 3
    evaluator = cvi.CVEvaluator(cv=5, response_method="auto", random_state=0)
    return _silent(evaluator.compare, GaussianNB(), DecisionTreeClassifier(max_depth=2, random_state=0), X, y,
                   groups=groups)


_ON_A_RECORD = {"accuracy_interval": {}, "loss_interval": {}, "metric_interval": {"metric": "accuracy"}}
_ON_A_PAIR = ("mcnemar_test", "matched_sample_test", "independent_sample_test", "corrected_resampled_ttest",
              "bayesian_correlated_ttest", "loss_difference_test")


@pytest.fixture(scope="module")
def records(grouped_pair):
    """A record of each kind some row of the table takes, small and quick: each row's function is called on one."""
    from sklearn.datasets import load_breast_cancer, load_diabetes
    from sklearn.linear_model import Ridge
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    X, y = load_breast_cancer(return_X_y=True)
    X, y = X[:200], y[:200]
    tree = DecisionTreeClassifier(max_depth=2, random_state=0)
    X_reg, y_reg = load_diabetes(return_X_y=True)
    rng = np.random.default_rng(0)
    series = rng.standard_normal(65)
    rows = np.arange(5, 65)
    forward = [cvi.records.ForwardResult.from_forecasts(series, rng.standard_normal(60), time=rows, origin=rows - 1,
                                                train_size="expanding") for _ in "ab"]
    evaluation = cvi.evaluation
    return {
        "regression_interval": _silent(cvi.CVEvaluator(cv=5, loss="squared_error", random_state=0).evaluate, Ridge(),
                                       X_reg, y_reg, groups=np.arange(y_reg.size) // 4),
        "bootstrap_accuracy_of": _silent(evaluation.bootstrap_sampling, tree, X, y, n_bootstraps=20, random_state=0),
        "conservative_z_interval_of": _silent(evaluation.paired_subsampling, GaussianNB(), X, y, n_pairs=2,
                                              n_rounds=3, random_state=0),
        "nested_cv_interval_of": _silent(evaluation.nested_cross_validation, GaussianNB(), X, y, n_splits=3,
                                         n_repeats=1, random_state=0),
        "paired_ttest_5x2cv_of": (five := _silent(evaluation.five_by_two_cv, GaussianNB(), tree, X, y,
                                                  random_state=0)),
        "combined_ftest_5x2cv_of": five,
        "forecast_interval": forward[0],
        "forecast_test": cvi.records.PairedForwardResult(*forward),
    }


def _computed(method, grouped_pair, records):
    """What the row's function computes with ``method=<id>`` (or alone, where the function is the method)."""
    from cvinference.inference._methods import option

    function = getattr(cvi.inference, method.function, None)
    if method.function in _ON_A_RECORD:
        extra = dict(_ON_A_RECORD[method.function])
        if method.id in ("delong", "corrected-t"):
            extra["metric"] = "roc_auc"
        if method.function == "accuracy_interval" and method.id == "t":
            extra["averaging"] = "fold"
        return _silent(function, grouped_pair.a, **option(method), **extra)
    if method.function in _ON_A_PAIR:
        return _silent(function, grouped_pair, **option(method))
    if method.function == "delong_paired_test":  # the decision's test of scores, with no public name of its own
        from cvinference.inference._delong import delong_paired_test

        a, b = grouped_pair.a, grouped_pair.b
        return delong_paired_test(a.y_true, a.y_score[0], b.y_score[0])
    extra = {"metric": "mean_squared_error"} if method.function == "regression_interval" else {}
    return _silent(function, records[method.function], **option(method), **extra)


@pytest.mark.parametrize("method", METHODS, ids=lambda m: f"{m.function}-{m.id}")
def test_every_rows_function_called_with_its_id_names_its_result_by_the_id(method, grouped_pair, records):
    """Issue 59: for every row of the table, its function called with ``method=<id>`` (or alone, where the function
    is the method) returns a result whose ``method`` is that id; the variant, if any, is in its details."""
    assert _computed(method, grouped_pair, records).method == method.id


def test_every_row_of_the_evidence_is_keyed_by_its_methods_id():
    """Every row of the shipped evidence names its method by its id (``"auto"``: accuracy_interval's method="auto"),
    its design in fields of their own (``repeats``, ``folds``, ...); only the positive controls (``control``), which no
    decision weighs, and the margin calibration's rows of the decision itself (``"decision"``) are not in the table."""
    from cvinference.inference._methods import method_ids
    from cvinference.policy._evidence import calibration_evidence
    from cvinference.policy._forward_decision import forward_evidence
    from cvinference.policy._margin_evidence import margin_evidence

    rows = calibration_evidence()["rows"] + margin_evidence()["rows"] + forward_evidence()["rows"]
    coverage = [row for row in rows if row["quantity"] == "coverage"]
    assert coverage and {row["method"] for row in coverage} <= {*method_ids(), "auto"}
    tests = [row for row in rows if row["quantity"] != "coverage" and not row.get("control")]
    assert tests and {row["method"] for row in tests} <= {*method_ids(), "decision"}
    assert not any(hasattr(method, "evidence_key") for method in METHODS)


def test_every_test_and_interval_the_front_door_returns_is_named_by_a_table_id():
    from sklearn.datasets import load_breast_cancer
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    from cvinference.inference._methods import method_ids

    X, y = load_breast_cancer(return_X_y=True)
    comparison = _silent(cvi.compare, GaussianNB(), DecisionTreeClassifier(max_depth=2, random_state=0), X[:300],
                         y[:300], cv=5, n_repeats=1, nested="never", random_state=0)
    assert comparison.tests and all(key == test.method in method_ids() for key, test in comparison.tests.items())
    for learner in comparison.intervals.values():
        assert all(key == found.method in method_ids() for by_method in learner.values()
                   for key, found in by_method.items())
    evaluation = _silent(cvi.evaluate, GaussianNB(), X[:300], y[:300], cv=5, random_state=0)
    found_methods = [(key, found.method) for by_method in evaluation.intervals.values()
                     for key, found in by_method.items()]
    assert found_methods and all(key == method in method_ids() for key, method in found_methods)
    quantity, method = evaluation.recommended
    assert evaluation.intervals[quantity][method].method == method

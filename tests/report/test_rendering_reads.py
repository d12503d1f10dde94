"""The report renders what the policy's assembler computed; it computes nothing (issue 59, item 5).

An :class:`~cvinference.workflows.Evaluation` or :class:`~cvinference.workflows.Comparison` holds every number its
report shows: the intervals, the tests, the decision and the checks (the baseline test, the large-sample conditions,
the metrics' fold values, the scheme diagnostic, the results per horizon). Its ``to_dict()``, ``summary()``, HTML and
``plot()`` call no function of :mod:`cvinference.inference` or :mod:`cvinference.policy` (a profiler records every
call; the functions are those of the two layers' public ``__all__``, with the private fold values of a metric).
"""

import sys
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.linear_model import Ridge
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference import inference, policy
from cvinference.inference._metric_interval import metric_fold_values
from cvinference.splitters import ForwardSplit

plt = pytest.importorskip("matplotlib.pyplot")


def _computing_functions():
    """The code of every function the two layers export (unwrapped from their parameter checks), by name."""
    found = {}
    for layer in (inference, policy):
        for name in layer.__all__:
            function = getattr(layer, name)
            if callable(function) and not isinstance(function, type):
                while hasattr(function, "__wrapped__"):
                    function = function.__wrapped__
                found[function.__code__] = f"{layer.__name__}.{name}"
    found[metric_fold_values.__code__] = "metric_fold_values"
    return found


COMPUTING = _computing_functions()


def _called(action):
    """The computing functions that ``action()`` calls, by name."""
    seen = set()

    def profile(frame, event, arg):
        if event == "call" and frame.f_code in COMPUTING:
            seen.add(COMPUTING[frame.f_code])

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        action()
    finally:
        sys.setprofile(previous)
    return seen


def _render(answer):
    answer.to_dict()
    answer.to_json()
    answer.summary()
    answer._repr_html_()
    plt.close(answer.plot().figure_)


X_CANCER, Y_CANCER = load_breast_cancer(return_X_y=True)
X_DIABETES, Y_DIABETES = load_diabetes(return_X_y=True)
RNG = np.random.default_rng(3)
SERIES = np.sin(np.arange(120) / 4) + RNG.normal(scale=0.3, size=120)
LAGGED = np.column_stack([np.sin(np.arange(120) / 4), np.cos(np.arange(120) / 4)])


ANSWERS = {
    "classifier evaluation with a metric": lambda: cvi.evaluate(
        GaussianNB(), X_CANCER, Y_CANCER, cv=5, metric=["f1", "roc_auc"], random_state=0),
    "classifier comparison": lambda: cvi.compare(
        GaussianNB(), DecisionTreeClassifier(random_state=0), X_CANCER, Y_CANCER, cv=5, n_repeats=2, nested="never",
        random_state=0),
    "regression evaluation": lambda: cvi.evaluate(Ridge(), X_DIABETES, Y_DIABETES, cv=5, random_state=0),
    "forward evaluation": lambda: cvi.evaluate(Ridge(), LAGGED, SERIES, cv=ForwardSplit(12, horizon=3, window=60),
                                               random_state=0),
    "forward comparison": lambda: cvi.compare(Ridge(), Ridge(alpha=100.0), LAGGED, SERIES,
                                              cv=ForwardSplit(12, horizon=3, window=60), random_state=0, season=12),
}


@pytest.mark.parametrize("case", list(ANSWERS))
def test_rendering_an_answer_calls_no_function_of_inference_or_policy(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        answer = ANSWERS[case]()
        assert _called(lambda: _render(answer)) == set()


def test_the_profiler_sees_the_assembler_when_the_answer_is_built():
    """Not vacuous: building an answer from its record calls the assembler and the baseline test it holds."""
    result = cvi.cross_val_correctness(GaussianNB(), X_CANCER, Y_CANCER, cv=5, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        called = _called(lambda: cvi.evaluate(result))
    assert {"cvinference.policy.assess_record", "cvinference.policy.baseline_test",
            "cvinference.inference.no_information_test", "cvinference.inference.large_sample_conditions"} <= called


def test_the_answer_holds_its_baseline_tests_and_results_per_horizon():
    """What the report shows beside the intervals is read from the answer: the baseline test the record's own
    function gives, and forward validation's interval per horizon."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        evaluation = ANSWERS["classifier evaluation with a metric"]()
        comparison = ANSWERS["forward comparison"]()
    oracle = cvi.inference.no_information_test(evaluation.result)
    assert evaluation.baseline.pvalue == oracle.pvalue
    assert evaluation.to_dict()["estimators"]["A"]["baseline"]["pvalue"] == pytest.approx(oracle.pvalue)
    assert evaluation.horizons is None and comparison.diagnostic is None
    assert set(comparison.baselines) == {"A", "B"}
    rows = comparison.to_dict()["forecasts"]["horizon_tests"]
    assert [row["horizon"] for row in rows] == list(comparison.horizons) == [1, 2, 3]
    assert [row["pvalue"] for row in rows] == pytest.approx([test.pvalue for test in comparison.horizons.values()])


def test_a_forward_records_summary_is_its_answers():
    """``ForwardResult.summary()`` and ``PairedForwardResult.summary()`` go through the front door, as a
    ``CVResult``'s does: the summary of ``cvi.evaluate(record)`` and of ``cvi.compare(pair)``, their block bootstrap
    seeded (0) so that one record has one summary."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        comparison = ANSWERS["forward comparison"]()
        pair = comparison.pair
        assert pair.a.summary() == pair.a.summary() == cvi.evaluate(pair.a, random_state=0).summary()
        assert pair.summary() == cvi.compare(pair, random_state=0).summary()
    assert "per horizon" in pair.a.summary() and "decision" not in pair.a.summary()


def test_a_decision_about_a_margin_hands_the_figure_its_interval():
    """The 1 - 2 alpha interval the margin's one-sided tests read is the policy's (``Decision.margin_interval``),
    written in the report's decision; oracle: the test's interval re-levelled by hand (Schuirmann 1987: the two
    one-sided tests at alpha read the 1 - 2 alpha interval), its standard error from its half-width."""
    from scipy import stats

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        comparison = cvi.compare(Ridge(), Ridge(alpha=30.0), X_DIABETES, Y_DIABETES, cv=5, n_repeats=2,
                                 nested="never", margin=200.0, question="non-inferior", random_state=0)
    decision = comparison.decision
    test = decision.rests_on
    distribution = stats.norm if test.df is None else stats.t(test.df)
    standard_error = (test.high - test.low) / 2 / distribution.ppf(0.975)
    expected = (test.estimate - distribution.ppf(0.95) * standard_error,
                test.estimate + distribution.ppf(0.95) * standard_error)
    assert decision.margin_interval == pytest.approx(expected)
    assert comparison.to_dict()["decision"]["margin_interval"] == pytest.approx(list(expected))
    assert "margin_interval" not in ANSWERS["classifier comparison"]().to_dict()["decision"]  # only with a margin


def test_the_results_and_the_rows_carry_what_the_report_names():
    """A test names itself by the table of methods (docs/methods.md: McNemar's row, its variant in parentheses), and
    a row of the report says the groups it counted exactly when its interval took them as the units."""
    groups = np.arange(Y_CANCER.size) // 5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        evaluation = cvi.evaluate(GaussianNB(), X_CANCER, Y_CANCER, cv=5, groups=groups, random_state=0)
        pair = cvi.CVEvaluator(cv=5, random_state=0).compare(GaussianNB(), DecisionTreeClassifier(random_state=0),
                                                             X_CANCER, Y_CANCER)
    test = cvi.mcnemar_test(pair)
    assert test.label == f"McNemar ({test.details['variant']})" and test.details["variant"] in ("exact", "chi-square")
    rows = evaluation.to_dict()["estimators"]["A"]["intervals"]
    counted = [row.get("n_groups") for row in rows]
    held = [interval.details.get("n_groups") for found in evaluation.rows[0] for interval in [found.interval]]
    assert counted == held and np.unique(groups).size in counted and None in counted

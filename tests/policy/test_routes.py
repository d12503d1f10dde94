"""The most powerful calibrated route a budget allows (issue 45, item 11): the rule of
``cvinference.policy._routes.most_powerful``, on routes whose measured figures are given here."""

from cvinference.policy._evidence import TestEvidence
from cvinference.policy._routes import Route, most_powerful, power_words


def _route(repeats, fits, power):
    """A route whose power cells are ``power`` ({cell: rate}); None repeats: nested cross-validation."""
    evidence = TestEvidence(0.04, None, None, power_cells=tuple(power.items()))
    name = "nested-cv" if repeats is None else f"corrected t ({repeats}x10-fold)"
    return Route(name, repeats, None if repeats is None else 10, fits, evidence)


CELL, OTHER = ("tree", 300, "p"), ("tree", 1000, "p")


def test_the_most_measured_power_on_shared_cells_wins():
    nested, ten = _route(None, 150, {CELL: 0.5}), _route(10, 200, {CELL: 0.7})
    assert most_powerful([nested, ten]) == ten


def test_a_tie_goes_to_the_fewer_fits():
    nested, ten = _route(None, 150, {CELL: 0.7}), _route(10, 200, {CELL: 0.7})
    assert most_powerful([ten, nested]) == nested


def test_a_budget_leaves_out_what_it_cannot_pay_for():
    nested, ten = _route(None, 150, {CELL: 0.5}), _route(10, 200, {CELL: 0.7})
    assert most_powerful([nested, ten], fits_left=160) == nested
    assert most_powerful([nested, ten], fits_left=100) is None


def test_power_is_compared_only_on_the_cells_the_routes_share():
    # the 10-repeat route's high figure is at another size: on the one shared cell the nested route is stronger
    nested, ten = _route(None, 150, {CELL: 0.6}), _route(10, 200, {CELL: 0.5, OTHER: 0.99})
    assert most_powerful([nested, ten]) == nested


def test_without_shared_power_cells_the_first_route_stands():
    nested, three = _route(None, 150, {CELL: 0.6}), _route(3, 60, {OTHER: 0.9})
    assert most_powerful([nested, three]) == nested
    assert most_powerful([three, nested]) == three
    assert power_words([nested, three]) == ""


def test_a_route_without_power_cells_shares_none_and_the_order_stands():
    nested, ten = _route(None, 150, {}), _route(10, 200, {CELL: 0.4})
    assert most_powerful([nested, ten]) == nested


def test_the_sentence_lists_each_routes_power_and_fits():
    nested, ten = _route(None, 150, {CELL: 0.5}), _route(10, 200, {CELL: 0.7})
    assert power_words([nested, ten]) == (
        " Measured power of the calibrated routes on the 1 power cell they share: nested cross-validation's "
        "difference interval, 0.50 (150 fits); the corrected t on 10 x 10-fold cross-validation, 0.70 (200 fits).")


def test_the_documented_rule_is_the_one_these_tests_check():
    # The three clauses checked above, as the module, decide's docstring and docs/reading-results.md state them.
    import pathlib

    import cvinference as cvi
    from cvinference.policy import _routes

    page = " ".join((pathlib.Path(__file__).parents[2] / "docs" / "reading-results.md").read_text().split())
    module, decide = " ".join(_routes.__doc__.split()), " ".join(cvi.decide.__doc__.split())
    assert "the most measured power on the power cells they share is taken, the fewer fits on a tie; where they " \
           "share no power cell, nested cross-validation comes first, then the fewest repeats" in module
    assert "the calibrated refitting route with the most measured power on the power cells the routes share (the " \
           "fewer fits on a tie)" in decide
    assert "Their power is compared on the power cells they share, the fewer fits winning a tie; where they share " \
           "none, nested cross-validation comes first, then the fewest repeats." in page

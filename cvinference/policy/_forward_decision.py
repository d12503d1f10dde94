"""The decision for forecasters: two learners' forward validation, resting on the test the calibration measured to
hold for serially dependent forecast losses, with each learner beside the naive forecast."""

import json
from importlib import resources

from .._utils._text import format_figure, format_pvalue, listed
from .._utils._warnings import quietly
from ..inference._forecast import SMALL_SAMPLE_FORECASTS, forecast_test
from ..inference._methods import method_row, result_label

EVIDENCE = "forward_calibration.json"
"""The forward calibration's rows (``benchmarks/forward_calibration.py``), shipped with the policy."""

TEST = "prewhitened-diebold-mariano"
"""The id of the test the decision rests on, its row in the method table and the ``method`` of its evidence rows:
Diebold & Mariano over every forecast (its rows name no ``horizon``), with the pre-whitened long-run variance (the
HAC one at a fixed lag rejected a true null up to 0.080 of the time for a gradient-boosted model); its
``forecast_test`` method is the row's ``option``."""


def forward_evidence():
    """The forward calibration's setting and rows."""
    return json.loads(resources.files("cvinference.policy").joinpath("data", EVIDENCE).read_text())


def _measured():
    """The worst type-I error and power of the test the decision rests on, over the calibration's cells (every
    learner's), and the cells in words (the power against the cell's difference of expected losses)."""
    data = forward_evidence()
    rows = {quantity: [row for row in data["rows"] if row["quantity"] == quantity and row["method"] == TEST]
            for quantity in ("type_i", "power")}
    setting = data["setting"]
    regime = (f"forward validation of {setting['learners']}, {setting['forecasts']} forecasts of "
              f"{setting['origins']} origins (window {setting['window']}, horizon {setting['horizon']})")
    for learner in dict.fromkeys(row.get("learner", "ridge") for row in rows["type_i"]):
        type_i, power = ([row for row in rows[quantity] if row.get("learner", "ridge") == learner]
                         for quantity in ("type_i", "power"))
        phis = sorted({row["phi"] for row in type_i if "phi" in row})
        phis = f"{phis[0]:g} {'to' if len(phis) > 2 else 'and'} {phis[-1]:g}" if len(phis) > 1 else " ".join(
            f"{phi:g}" for phi in phis)
        cells = {row["cell"]: row["noise_phi"] for row in type_i if "cell" in row}
        real = ", ".join(dict.fromkeys(row["series"] for row in type_i if "series" in row))
        cell_phis = " or ".join(f"{phi:g}" for phi in sorted(set(cells.values())))
        on_cells = f", and the {' and '.join(cells)} cells with phi {cell_phis}" if cells else ""
        against = (f"; power against a difference of {min(row['difference'] for row in power):.3g} or more"
                   if power else "")
        if learner == "ridge":
            regime += f", losses AR(1)-dependent with phi {phis}{on_cells}{against}"
            regime += f"; nulls on statsmodels' {real} series" if real else ""
        else:
            name = "gradient-boosted model" if learner == "boosting" else learner
            regime += (f"; a {name} in place of the two ridges ({setting.get(learner, learner)})"
                       + (f", with phi {phis}" if phis else "") + on_cells
                       + (f" and on statsmodels' {real} series" if real else "") + against)
    regime += " (benchmarks/forward_calibration.py; docs/calibration.md, \"Forward validation\")"
    return max(row["measured"] for row in rows["type_i"]), min(
        (row["measured"] for row in rows["power"]), default=None), regime


LEARNER_WORDS = {"ridge": "ridge regressions", "boosting": "a gradient-boosted model"}
"""The forward calibration's learners (its rows' ``"learner"``) as the decision's reason names them."""


def _learners():
    """The learners the forward calibration measured the test on, in words: "ridge regressions and a ..."."""
    rows = forward_evidence()["rows"]
    found = dict.fromkeys(row.get("learner", "ridge") for row in rows if row["method"] == TEST)
    return listed([LEARNER_WORDS.get(learner, learner) for learner in found])


def _naive_caveats(pair, names, confidence_level, option):
    """A caveat for each learner not shown to forecast better than the naive forecast (the value at its origin): the
    one-sided test the report quotes beside it (the learner's expected loss below the naive's), so that the two say
    one p-value."""
    caveats = []
    for record, name in zip((pair.a, pair.b), names, strict=True):
        naive = quietly(forecast_test, record, record.baseline(), method=option, alternative="greater")
        if naive.pvalue >= 1 - confidence_level:
            caveats.append(f"{name} does not beat the naive forecast (the value at its origin): mean "
                           f"{record.loss_name} naive - {name} = {format_figure(naive.estimate, signed=True)}, "
                           f"one-sided {format_pvalue(naive.pvalue)} ({result_label(naive)}; {name}'s expected loss "
                           "below the naive's).")
    return caveats


def forward_decision(pair, names, confidence_level, build):
    """decide() on a :class:`~cvinference.records.PairedForwardResult`: Diebold-Mariano over every forecast, the
    naive forecast's tests as caveats. ``build(test, name, measured_type_i, measured_power, regime, caveats,
    reason)`` makes the Decision (the decision module's own constructor, so that the two agree).

    The reason is short (the test, its sidedness and its measured type-I error); the calibration's cells, in
    words, are the test's ``regime``, which ``Decision.explain()`` shows.
    """
    row = method_row(TEST)
    test = quietly(forecast_test, pair, method=row.id)
    measured, power, regime = _measured()
    caveats = _naive_caveats(pair, names, confidence_level, row.id)
    few = (f" (on these {test.details['n']} forecasts, fewer than {SMALL_SAMPLE_FORECASTS}, with the larger of its "
           "and Harvey, Leybourne & Newbold's standard errors: docs/forward-validation.md, \"Few forecasts\")"
           if test.details.get("small_sample") else "")
    reason = (f"It rests on {row.label}, over every forecast{few}, whose type-I error the forward calibration measured "
              f"at most {measured:.3f} for {_learners()}. It assumes a stationary loss differential: a level shift or "
              "a trend in the errors breaks it.")
    return build(test, row.label, measured, power, regime, caveats, reason)

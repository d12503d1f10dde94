"""The figure of ``Plan.plot()``: what a comparison would detect at each N, before its fits."""

import functools

import numpy as np

from ..policy import RANGE_LEVEL
from ._plot import draw_panels

PLAN_CURVE = "detectable"
"""The ``gid`` of the plan's curve: its figure (the minimum detectable difference, or margin) against N."""


def plot_plan(plan, ax=None, *, path=None):
    """The figure of ``Plan.plot()``: the plan's figure against N, on its folds and repeats.

    The curve (``gid`` ``"detectable"``) is the minimum detectable difference
    (or the smallest margin shown) at each N from a quarter of the plan's N to
    four times the larger of it and the N a wanted difference needs, on a
    logarithmic axis, with its range as a band; a point marks the plan's N,
    and a wanted difference (or margin) is a dashed line meeting the curve at
    the N it needs.

    Parameters
    ----------
    plan : Plan
        The plan drawn, as :func:`cvinference.plan` returns it.
    ax : matplotlib Axes or None, default=None
        Where to draw; None makes a new figure.
    path : str, path-like, binary file object or None, default=None
        Where to save the figure as a PNG (see :func:`draw_panels`).

    Returns
    -------
    Plot
    """
    return draw_panels([functools.partial(_plan_panel, plan=plan)], ax, figsize=(7, 4.2), path=path)


def _plan_panel(ax, plan):
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    largest = max(plan.n_samples, plan.n_samples_needed or 0)
    sizes = np.unique(np.geomspace(max(2 * plan.n_splits, plan.n_samples // 4), 4 * largest, 80).astype(int))
    detectable, low, high = plan.detectable_at(sizes)
    what = ("minimum detectable difference" if plan.question == "difference"
            else f"smallest {plan.question} margin")
    ax.plot(sizes, detectable, color="tab:blue", gid=PLAN_CURVE, label=f"{what} (power {plan.power:g})")
    if low is not None:
        ax.fill_between(sizes, low, high, color="tab:blue", alpha=0.15, linewidth=0,
                        label=f"range the comparison may report ({RANGE_LEVEL:.0%})" if plan.source == "pilot"
                        else "range: the calibration cells that stand")
    ax.plot([plan.n_samples], [plan.detectable], "o", color="tab:red", label=f"N = {plan.n_samples}: "
            f"{plan.detectable:.4f}")
    if plan.wanted is not None:
        ax.axhline(plan.wanted, color="0.4", linestyle="--", linewidth=1, label=f"wanted: {plan.wanted:g}")
        ax.axvline(plan.n_samples_needed, color="0.4", linestyle=":", linewidth=1,
                   label=f"N needed: {plan.n_samples_needed:,}")
    ax.set_xscale("log")
    ax.xaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:,.0f}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("N, instances")
    ax.set_ylabel(f"{plan.metric} difference")
    ax.set_title(f"{plan.test}, {plan.fits:,} fits\nA = {plan.names[0]}, B = {plan.names[1]}", fontsize="medium")
    ax.legend(fontsize="small")

"""The figure of a candidate comparison (the ``plot`` extra: matplotlib)."""

import functools

import numpy as np

from ..report._plot import draw_panels


def plot_candidates(comparison, ax=None, path=None):
    """Each candidate's difference from the best with its interval, best at the top; see CandidateComparison.plot.

    Draws on ``ax`` (None: a new figure's) and returns the ``Plot`` of ``draw_panels``; saves the figure to ``path``
    when given.
    """
    height = 1.2 + 0.35 * len(comparison.candidates)
    return draw_panels([functools.partial(_candidates_panel, comparison=comparison)], ax, figsize=(8, height),
                       path=path)


def _candidates_panel(axis, comparison):
    order, table = comparison._order(), comparison.table
    for y, i in enumerate(reversed(order)):
        color = "tab:blue" if table["indistinguishable"][i] else "tab:red"
        if i == comparison.best:
            axis.plot(0.0, y, "D", color="black")
        elif np.isfinite(table["estimate"][i]):
            axis.plot([table["low"][i], table["high"][i]], [y, y], color=color)
            axis.plot(table["estimate"][i], y, "o", color=color)
    axis.axvline(0.0, color="black", linewidth=1, linestyle="--")
    labels = [f"{comparison.candidates[i]} ({table['mean_score'][i]:.4g})" for i in reversed(order)]
    axis.set_yticks(np.arange(len(order)), labels)
    s = comparison.settings
    axis.set_xlabel(f"{s['scoring']}: candidate minus best ({s['confidence_level']:.0%} interval)")
    rule = (f"{s['correction']}, alpha = {s['alpha']:g}" if s["method"] == "corrected_t"
            else f"P(best better by > {s['margin']:.3g}) < {1 - s['alpha']:g}")
    axis.set_title(f"blue: indistinguishable from the best ({rule}); red: worse", fontsize="medium")

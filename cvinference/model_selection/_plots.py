"""The figure of a candidate comparison (the ``plot`` extra: matplotlib)."""

import numpy as np

from ..report._plot import pyplot, save_png


def plot_candidates(comparison, ax=None, path=None):
    """Each candidate's difference from the best with its interval, best at the top; see CandidateComparison.plot.

    Draws on ``ax`` (None: a new figure, returned); saves the figure to ``path`` when given.
    """
    order = comparison._order()
    if ax is None:
        figure, axis = pyplot().subplots(figsize=(8, 1.2 + 0.35 * len(order)), layout="constrained")
    else:
        figure, axis = ax.figure, ax
    for y, i in enumerate(reversed(order)):
        color = "tab:blue" if comparison.indistinguishable[i] else "tab:red"
        if i == comparison.best:
            axis.plot(0.0, y, "D", color="black")
        elif np.isfinite(comparison.estimate[i]):
            axis.plot([comparison.low[i], comparison.high[i]], [y, y], color=color)
            axis.plot(comparison.estimate[i], y, "o", color=color)
    axis.axvline(0.0, color="black", linewidth=1, linestyle="--")
    labels = [f"{comparison.candidates[i]} ({comparison.mean_score[i]:.4g})" for i in reversed(order)]
    axis.set_yticks(np.arange(len(order)), labels)
    axis.set_xlabel(f"{comparison.scoring}: candidate minus best ({comparison.confidence_level:.0%} interval)")
    rule = (f"{comparison.correction}, alpha = {comparison.alpha:g}" if comparison.method == "corrected_t"
            else f"P(best better) < {1 - comparison.alpha:g}")
    axis.set_title(f"blue: indistinguishable from the best ({rule}); red: worse", fontsize="medium")
    if path is not None:
        save_png(figure, path)
    return figure if ax is None else axis

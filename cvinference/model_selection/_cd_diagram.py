"""Demšar's critical-difference diagram (2006, Figure 1), drawn with matplotlib.

The diagram is laid out in inches: its Axes' x and y units are sized as
inches on a figure of :func:`cd_diagram_size` (y grows downward), so that
text and lines keep their sizes whatever the number of learners, and a new
figure of it is as large as the layout.
"""

import math

import numpy as np

ROW = 0.26  # inches between two labelled learners
BAR_GAP = 0.11  # inches between two group bars
CHAR_WIDTH = 0.075  # inches taken by one character of a label, roughly, at 10 points


class _Layout:
    """Where everything goes: the rank axis between the two label columns, rows below it."""

    def __init__(self, labels, n_learners, n_groups, critical_difference):
        self.k = n_learners
        self.label_width = 0.3 + CHAR_WIDTH * max(len(label) for label in labels)
        self.axis_width = max(3.5, 0.8 * (n_learners - 1))
        self.cd_top = 0.3
        self.axis_y = 0.75
        self.first_bar = self.axis_y + 0.2
        self.first_row = self.first_bar + BAR_GAP * n_groups + 0.2
        self.rows = math.ceil(n_learners / 2)
        self.height = self.first_row + ROW * self.rows + 0.1
        self.width = 2 * self.label_width + self.axis_width
        self.width = max(self.width, self.x(1 + critical_difference) + 0.2)

    def x(self, rank):
        return self.label_width + (rank - 1) / (self.k - 1) * self.axis_width

    def row(self, i):
        return self.first_row + ROW * i


def _rank_axis(axis, layout):
    axis.plot([layout.x(1), layout.x(layout.k)], [layout.axis_y, layout.axis_y], color="black", linewidth=1)
    for tick in np.arange(1, layout.k + 0.25, 0.5):
        length = 0.1 if tick == int(tick) else 0.05
        axis.plot([layout.x(tick)] * 2, [layout.axis_y, layout.axis_y - length], color="black", linewidth=1)
        if tick == int(tick):
            axis.text(layout.x(tick), layout.axis_y - 0.14, str(int(tick)), ha="center", va="bottom")


def _cd_bar(axis, layout, critical_difference, alpha):
    start, end = layout.x(1), layout.x(1 + critical_difference)
    axis.plot([start, end], [layout.cd_top, layout.cd_top], color="black", linewidth=1.5)
    for x in (start, end):
        axis.plot([x, x], [layout.cd_top - 0.05, layout.cd_top + 0.05], color="black", linewidth=1.5)
    axis.text((start + end) / 2, layout.cd_top - 0.08, f"CD = {critical_difference:.3g} (alpha = {alpha:g})",
              ha="center", va="bottom")


def _elbow(axis, layout, rank, y, label, left):
    x_text = layout.x(1) - 0.1 if left else layout.x(layout.k) + 0.1
    axis.plot([layout.x(rank), layout.x(rank), x_text], [layout.axis_y, y, y], color="black", linewidth=0.9)
    axis.text(x_text - 0.05 if left else x_text + 0.05, y, label, ha="right" if left else "left", va="center")


def _labels_in_order(learners, average_ranks):
    """The learners from best to worst average rank, and their labels: the name and the rank."""
    order = np.argsort(average_ranks, kind="stable")
    return order, [f"{learners[j]} ({average_ranks[j]:.2f})" for j in order]


def cd_diagram_size(learners, average_ranks, groups, critical_difference):
    """The diagram's (width, height) in inches: what a new figure of it measures."""
    _, labels = _labels_in_order(learners, np.asarray(average_ranks, dtype=np.float64))
    layout = _Layout(labels, len(learners), len(groups), critical_difference)
    return layout.width, layout.height


def draw_cd_diagram(axis, learners, average_ranks, groups, critical_difference, *, alpha):
    """Draw the critical-difference diagram on ``axis``, in data units of inches.

    The axis is turned off and its aspect made equal (its box shrinks to
    the diagram's proportions, within the space it had); its
    text keeps its size in points, so it reads best on an Axes at least
    :func:`cd_diagram_size` inches large.

    Parameters
    ----------
    axis : matplotlib Axes
    learners : sequence of str
    average_ranks : array of float, one per learner
    groups : sequence of sequences of learner names
        Learners that the test does not separate, joined by a thick bar.
    critical_difference : float
    alpha : float
        Shown next to CD.

    Returns
    -------
    matplotlib.axes.Axes
    """
    average_ranks = np.asarray(average_ranks, dtype=np.float64)
    order, labels = _labels_in_order(learners, average_ranks)
    layout = _Layout(labels, len(learners), len(groups), critical_difference)
    axis.set_xlim(0, layout.width)
    axis.set_ylim(layout.height, 0)
    axis.set_aspect("equal", adjustable="box")
    axis.axis("off")
    _rank_axis(axis, layout)
    _cd_bar(axis, layout, critical_difference, alpha)
    rank_of = dict(zip(learners, average_ranks, strict=True))
    for g, group in enumerate(groups):
        ranks = [rank_of[name] for name in group]
        y = layout.first_bar + BAR_GAP * g
        axis.plot([layout.x(min(ranks)) - 0.05, layout.x(max(ranks)) + 0.05], [y, y], color="black", linewidth=4,
                  solid_capstyle="butt")
    n_left = layout.rows
    for i, (j, label) in enumerate(zip(order[:n_left], labels[:n_left], strict=True)):
        _elbow(axis, layout, average_ranks[j], layout.row(i), label, left=True)
    right = list(zip(order[n_left:], labels[n_left:], strict=True))
    for i, (j, label) in enumerate(reversed(right)):
        _elbow(axis, layout, average_ranks[j], layout.row(i), label, left=False)
    return axis

"""The nested-CV (K, R) grid's tables (calibration_nested.py's rows) and the configuration they choose.

A configuration *holds* when, in every measured cell, the one-learner interval covers its conditional
target at least 0.93 of the time and the difference interval's type-I error is at most 0.06 (the measured
rates; their Wilson intervals are in the tables). The defaults are the cheapest configuration that holds;
its width is printed beside the others', so that what more repeats buy is in view.
"""

from calibration_nested import configuration

FLOOR = 0.93
TYPE_I_LIMIT = 0.06
FOLD_FITS = 10  # the fits of one 10-fold cross-validation, per learner
TASK = "nested-grid"
TITLE = "Nested cross-validation: folds and repeats"
TEXT = (
    "Nested cross-validation (`nested_cv_interval`) with K folds in each of R random partitions, for one "
    "learner (coverage of the error of the model fitted to the whole sample, its conditional target, turned "
    "into accuracy; the unconditional target beside it) and for the difference of two learners equal by "
    "construction (type-I error: a rejection when the interval leaves out 0): a decision tree and logistic "
    "regression on the synthetic population at N = 100 and 300, and the tree on phoneme at N = 300 (its null "
    "made by pairing, as above). Each replication runs R = 25 partitions for each K and reads every R from "
    "the first R of them (`calibration_nested.py` in the benchmark). Fits per learner: R K (K + 1) / 2; "
    "\"x 10-fold\" divides them by the 10 fits of one 10-fold cross-validation. A configuration holds when "
    f"its coverage is at least {FLOOR} and its type-I error at most {TYPE_I_LIMIT} in every cell; \"width\" "
    "is the mean width of the interval over the cells and replications, \"width sd\" the spread of one "
    "cell's widths over the replications, averaged over the cells (how steady the estimate of the mean "
    "squared error is).")




def _cell(row):
    return f"{row['population']} {row['learner']} N={row['n']}"


def _rate(row):
    return f"{row['measured']:.3f} [{row['wilson_low']:.3f}, {row['wilson_high']:.3f}]"


def _mean(values):
    values = list(values)
    return sum(values) / len(values)


def _widths(found):
    """"width | width sd": the mean width over the cells, and the mean over the cells of its spread."""
    return f"{_mean(r['mean_width'] for r in found):.3f} | {_mean(r['width_sd'] for r in found):.3f}"


def _figures(rows, quantity, target):
    """Per configuration (cheapest first): its rows of ``quantity`` against ``target``."""
    chosen = [r for r in rows if r["quantity"] == quantity and r["target"] == target]
    found = {}
    for row in sorted(chosen, key=lambda r: (r["n_fits"], configuration(r["method"]))):
        found.setdefault(row["method"], []).append(row)
    return found


def holding(rows):
    """The configurations that hold, cheapest first: coverage and type-I error both within their limits."""
    coverage = _figures(rows, "coverage", "conditional")
    type_i = _figures(rows, "type_i", "conditional")
    return [m for m in coverage if min(r["measured"] for r in coverage[m]) >= FLOOR
            and m in type_i and max(r["measured"] for r in type_i[m]) <= TYPE_I_LIMIT]


def _coverage_table(rows):
    conditional = _figures(rows, "coverage", "conditional")
    unconditional = _figures(rows, "coverage", "unconditional")
    lines = ["| K | R | fits per learner | x 10-fold | worst coverage, conditional (cell) | worst, unconditional | "
             "width | width sd | holds |", "|---|---|---|---|---|---|---|---|---|"]
    for method, found in conditional.items():
        k, r = configuration(method)
        worst = min(found, key=lambda row: row["measured"])
        other = unconditional.get(method)
        worst_unconditional = "" if other is None else _rate(min(other, key=lambda row: row["measured"]))
        lines.append(f"| {k} | {r} | {found[0]['n_fits']:,} | {found[0]['n_fits'] / FOLD_FITS:.1f} | "
                     f"{_rate(worst)} ({_cell(worst)}) | {worst_unconditional} | "
                     f"{_widths(found)} | {'yes' if worst['measured'] >= FLOOR else 'no'} |")
    return lines


def _type_i_table(rows):
    lines = ["| K | R | fits per pair | x 10-fold | worst type-I error (cell) | width | width sd | holds |",
             "|---|---|---|---|---|---|---|---|"]
    for method, found in _figures(rows, "type_i", "conditional").items():
        k, r = configuration(method)
        worst = max(found, key=lambda row: row["measured"])
        lines.append(f"| {k} | {r} | {2 * found[0]['n_fits']:,} | {found[0]['n_fits'] / FOLD_FITS:.1f} | "
                     f"{_rate(worst)} ({_cell(worst)}) | {_widths(found)} | "
                     f"{'yes' if worst['measured'] <= TYPE_I_LIMIT else 'no'} |")
    return lines


def _per_cell_table(rows, quantity):
    """Every cell's rate, one column per cell, one row per configuration."""
    found = _figures(rows, quantity, "conditional")
    cells = list(dict.fromkeys(_cell(r) for rs in found.values() for r in rs))
    lines = [f"| configuration | {' | '.join(cells)} |", "|---|" + "---|" * len(cells)]
    for method, figures in found.items():
        by_cell = {_cell(r): r for r in figures}
        lines.append(f"| {method} | " + " | ".join(f"{by_cell[c]['measured']:.3f} ±{by_cell[c]['mean_width'] / 2:.3f}"
                                                   if c in by_cell else "" for c in cells) + " |")
    return lines


def choice_line(rows):
    """The sentence naming the configuration the defaults follow (or saying that none holds)."""
    held = holding(rows)
    if not held:
        return "No configuration held in every cell; the defaults cannot rest on this grid."
    k, r = configuration(held[0])
    fits = next(row["n_fits"] for row in rows if row["method"] == held[0])
    others = ", ".join(f"K = {a}, R = {b}" for a, b in map(configuration, held[1:]))
    return (f"Chosen: **K = {k}, R = {r}**, the cheapest configuration that holds ({fits} fits per learner, "
            f"{fits / FOLD_FITS:.1f} times one 10-fold cross-validation); the others that hold: "
            f"{others or 'none'}.")


def nested_grid_parts(extra, run_line):
    """The docs' section of a ``--nested-grid`` run: both tables, every cell, and the choice."""
    rows = [r for r in extra["rows"] if r.get("task") == TASK]
    return ["", f"### {TITLE}", "", TEXT, "", run_line(extra), "", "#### One learner: coverage", "",
            *_coverage_table(rows), "", "Every cell (conditional coverage, ± half the mean width):", "",
            *_per_cell_table(rows, "coverage"), "", "#### Two learners: type-I error of the difference", "",
            *_type_i_table(rows), "", "Every cell (type-I error, ± half the mean width):", "",
            *_per_cell_table(rows, "type_i"), "", choice_line(rows)]

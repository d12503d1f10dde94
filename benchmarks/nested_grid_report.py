"""The nested-CV (K, R) grid's tables (calibration_nested.py's rows) and the configuration they choose.

A configuration *holds* for one learner when, in every measured cell, its interval covers the conditional
target at least 0.93 of the time, and for a difference when its type-I error is at most 0.06 (the measured
rates; their Wilson intervals are in the tables). The report names the cheapest configuration that holds
for each; the widths beside them show what more repeats buy.
"""

from calibration_nested import DEFAULTS_TASK, TASK, config_name, configuration, rate_row

from cvinference.records._nested_cv_result import N_REPEATS, N_SPLITS, nested_fit_count

FLOOR = 0.93
TYPE_I_LIMIT = 0.06
FOLD_FITS = 10  # the fits of one 10-fold cross-validation, per learner
TITLE = "Nested cross-validation: folds and repeats"
TEXT = (
    "Nested cross-validation (`nested_cv_interval`) with K folds in each of R random partitions, for one "
    "learner (coverage of the error of the model fitted to the whole sample, its conditional target, turned "
    "into accuracy; the unconditional target beside it) and for the difference of two learners equal by "
    "construction (type-I error: a rejection when the interval leaves out 0): a decision tree and logistic "
    "regression on the synthetic population at N = 100 and 300, and the tree on phoneme at N = 300 (its null "
    "made by pairing, as above). Each replication runs R = 25 partitions for each K and reads every R from "
    "the first R of them (`calibration_nested.py` in the benchmark). Fits per learner: R K (K + 1) / 2; "
    "\"x 10-fold\" divides them by the 10 fits of one 10-fold cross-validation. A configuration holds for one "
    f"learner when its coverage is at least {FLOOR} in every cell, and for a difference when its type-I error is "
    f"at most {TYPE_I_LIMIT} in every cell; \"width\" "
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


def holding(rows, quantity):
    """The configurations that hold for ``quantity`` ("coverage" or "type_i") in every cell, cheapest first."""
    found = _figures(rows, quantity, "conditional")
    if quantity == "coverage":
        return [m for m in found if min(r["measured"] for r in found[m]) >= FLOOR]
    return [m for m in found if max(r["measured"] for r in found[m]) <= TYPE_I_LIMIT]


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


def _cheapest(rows, quantity, what):
    held = holding(rows, quantity)
    if held:
        k, r = configuration(held[0])
        fits = nested_fit_count(k, r)
        return (f"{what}: **K = {k}, R = {r}** is the cheapest configuration that holds ({fits} fits per learner, "
                f"{fits / FOLD_FITS:.1f} times one 10-fold cross-validation)")
    found = _figures(rows, quantity, "conditional")
    worst = {m: (max if quantity == "type_i" else min)(found[m], key=lambda r: r["measured"]) for m in found}
    best = (min if quantity == "type_i" else max)(found, key=lambda m: worst[m]["measured"])
    return (f"{what}: no configuration holds in every cell; the nearest, {best}, reaches "
            f"{worst[best]['measured']:.3f} ({_cell(worst[best])})")


def choice_line(rows):
    """The sentences naming, for one learner and for a difference, the cheapest configuration that holds."""
    return (f"{_cheapest(rows, 'coverage', 'One learner')}. "
            f"{_cheapest(rows, 'type_i', 'The difference of two learners')}.")


def _cell_key(row):
    return tuple(row.get(key) for key in ("method", "quantity", "target", "learner", "n", "population", "task"))


POOLED_FIELDS = ("method", "quantity", "target", "learner", "n", "population", "nominal")
"""What the runs of one cell share: a pooled row keeps these and recomputes the rest."""


def _pooled(rows):
    """One row of ``rows`` (independent replications of one cell): the rate over all of them, its Wilson interval."""
    trials = sum(row["replications"] for row in rows)
    successes = round(sum(row["measured"] * row["replications"] for row in rows))
    width = sum(row["mean_width"] * row["replications"] for row in rows) / trials
    return {**{key: rows[0][key] for key in POOLED_FIELDS}, **rate_row(successes, trials), "mean_width": width}


def _as_main_row(row):
    """A grid row of the defaults' configuration as the main run names it (``"nested-cv"``, no task)."""
    return {key: value for key, value in row.items() if key != "task"} | {"method": "nested-cv"}


def default_rows(every_row):
    """The rows of the grid and of ``--nested-defaults`` at the library's default configuration."""
    default = config_name(N_SPLITS, N_REPEATS)
    return [row for row in every_row if row.get("task") in (TASK, DEFAULTS_TASK) and row["method"] == default]


def with_default_cells(rows, default_rows):
    """``rows`` (the evidence's) with ``default_rows`` (:func:`default_rows`) as ``"nested-cv"`` cells.

    Each run draws its replications from seeds of its own (the cells' keys differ between runs), so a cell
    measured by several runs pools their replications; the other rows stay as they are.
    """
    extra = {}
    for row in map(_as_main_row, default_rows):
        extra.setdefault(_cell_key(row), []).append(row)
    found = [_pooled([row, *extra.pop(_cell_key(row))]) if _cell_key(row) in extra else row for row in rows]
    return found + [_pooled(more) for more in extra.values()]


DEFAULTS_TITLE = "Nested cross-validation at its defaults: every run's cells, pooled"
DEFAULTS_TEXT = (
    f"The cells of the grid, measured again at the library's defaults alone (K = {N_SPLITS}, R = {N_REPEATS}, "
    "1,000 replications a cell, `--nested-defaults`), beside what the main run and the grid measured of the same "
    "configuration. Each run draws its replications from seeds of its own, so a cell's replications are "
    "pooled; the decision and `method=\"auto\"` read the pooled rate. It holds when the pooled coverage is at "
    f"least {FLOOR} and the pooled type-I error at most {TYPE_I_LIMIT}.")


def _source(row):
    return {TASK: "grid", DEFAULTS_TASK: "defaults"}.get(row.get("task"), "main")


def _defaults_table(every_row, quantity):
    main = [row for row in every_row if row["method"] == "nested-cv" and "task" not in row]
    found = {}
    for row in main + [dict(_as_main_row(r), source=_source(r)) for r in default_rows(every_row)]:
        if row["quantity"] == quantity and row["target"] == "conditional":
            found.setdefault(_cell_key(row), {})[row.get("source", "main")] = row
    found = {key: runs for key, runs in found.items() if set(runs) - {"main"}}
    lines = ["| cell | main run | grid | defaults | pooled | holds |", "|---|---|---|---|---|---|"]
    for runs in found.values():
        pooled = _pooled(list(runs.values()))
        holds = pooled["measured"] >= FLOOR if quantity == "coverage" else pooled["measured"] <= TYPE_I_LIMIT
        figures = [f"{runs[s]['measured']:.3f} ({runs[s]['replications']})" if s in runs else ""
                   for s in ("main", "grid", "defaults")]
        lines.append(f"| {_cell(pooled)} | {' | '.join(figures)} | {_rate(pooled)} ({pooled['replications']}) | "
                     f"{'yes' if holds else 'no'} |")
    return lines


def nested_defaults_parts(extra, run_line, every_row):
    """The docs' section of a ``--nested-defaults`` run: each cell's rate in every run, and pooled."""
    return ["", f"### {DEFAULTS_TITLE}", "", DEFAULTS_TEXT, "", run_line(extra), "",
            "One learner, coverage of the conditional target (replications in brackets):", "",
            *_defaults_table(every_row, "coverage"), "",
            "Two learners equal by construction, type-I error of the difference interval:", "",
            *_defaults_table(every_row, "type_i")]


def nested_grid_parts(extra, run_line):
    """The docs' section of a ``--nested-grid`` run: both tables, every cell, and the choice."""
    rows = [r for r in extra["rows"] if r.get("task") == TASK]
    return ["", f"### {TITLE}", "", TEXT, "", run_line(extra), "", "#### One learner: coverage", "",
            *_coverage_table(rows), "", "Every cell (conditional coverage, ± half the mean width):", "",
            *_per_cell_table(rows, "coverage"), "", "#### Two learners: type-I error of the difference", "",
            *_type_i_table(rows), "", "Every cell (type-I error, ± half the mean width):", "",
            *_per_cell_table(rows, "type_i"), "", choice_line(rows)]

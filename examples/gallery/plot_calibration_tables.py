"""
The calibration behind the defaults
===================================

Every default of cvinference was chosen by a calibration benchmark with real
fits: how often each interval covers what it claims, and how often each test
rejects a true null. The evidence ships with the package, and the decision
reads it. Here are the type-I errors of the comparison tests for a decision
tree at N = 300 on the synthetic population (500 replications a cell; the
pooled nested-CV cells more), and how the decision uses them.
"""

import json
from importlib.resources import files

evidence = json.loads(files("cvinference.policy").joinpath("data/calibration.json").read_text())
rows = [row for row in evidence["rows"] if row["quantity"] == "type_i" and row["learner"] == "tree"
        and row["n"] == 300 and row["population"] == "nonlinear" and "task" not in row]
print(f"{'test':44} {'type-I':>7}  {'95% Wilson interval':>20}  replications")
for row in sorted(rows, key=lambda row: row["measured"]):
    within = "" if row["measured"] <= evidence["type_i_limit"] else "  above 0.06"
    print(f"{row['method']:44} {row['measured']:7.3f}  [{row['wilson_low']:.3f}, {row['wilson_high']:.3f}]"
          f"  {row['replications']:>12}{within}")

# %%
# A decision rests only on a test whose type-I error stayed at or below 0.06
# in every cell that stands for its learners and size; the figure of a
# comparison marks that test. See the calibration page for every table.
from sklearn.datasets import load_breast_cancer  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

import cvinference as cvi  # noqa: E402

X, y = load_breast_cancer(return_X_y=True)
pair = cvi.CVEvaluator(cv=10, n_repeats=10, random_state=0).compare(
    DecisionTreeClassifier(random_state=0), DecisionTreeClassifier(max_depth=3, random_state=0), X, y)
print(cvi.decide(pair).summary())

# %%
# The comparison's figure: the fold accuracies, the fold differences, and
# every test's interval, the one the decision rests on in red.
drawn = pair.plot()

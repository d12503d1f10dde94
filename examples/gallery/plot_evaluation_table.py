"""
Models on a benchmark whose questions come in passages
======================================================

An evaluation table of the usual kind: three models answer the same 600
multiple-choice questions, four about each of 150 passages, and each answer is
right or wrong. The predictions came from elsewhere (any framework), so the
records are made from them with :meth:`~cvinference.CVResult.from_predictions`:
one evaluation set, no folds. Questions about one passage are not independent
(a hard passage is hard for every question about it, and for every model), so
the intervals and tests take the passages as the units; here we see how much
wider that makes an interval than the naive one that counts questions.
"""

import warnings

import numpy as np

import cvinference as cvi
from cvinference import CVResult

rng = np.random.default_rng(0)
n_passages, per_passage = 150, 4
passage = np.repeat(np.arange(n_passages), per_passage)
difficulty = rng.normal(0, 1.5, n_passages)[passage]  # some passages are hard for every model
answer = rng.integers(0, 4, passage.size)  # the right one of four choices
records = {}
for name, skill in (("small", 0.6), ("medium", 1.0), ("large", 1.6)):
    right = rng.random(passage.size) < 1 / (1 + np.exp(-(skill - difficulty)))
    predicted = np.where(right, answer, (answer + rng.integers(1, 4, passage.size)) % 4)
    records[name] = CVResult.from_predictions(answer, predicted, groups=passage, name=name)

# %%
# One model's accuracy: the interval that counts questions as independent
# (Wilson's, on a record made without the passages) against the interval
# that takes the 150 passages as the units (``method="auto"`` chooses it for
# a record with groups).
large = records["large"]
naive = CVResult.from_predictions(large.y_true, large.y_pred[0])
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the intervals' own warnings are for a report, not this comparison
    counted = cvi.accuracy_interval(naive, method="wilson")
    clustered = cvi.accuracy_interval(large)
print(f"accuracy {large.accuracy:.3f}")
print(f"questions as units: [{counted.low:.3f}, {counted.high:.3f}], width {counted.high - counted.low:.3f}")
print(f"passages as units ({clustered.method}): [{clustered.low:.3f}, {clustered.high:.3f}], width "
      f"{clustered.high - clustered.low:.3f}")
print(f"the clustered interval is {(clustered.high - clustered.low) / (counted.high - counted.low):.2f} times as wide")

# %%
# Two models, decided in one line: on one evaluation set the models are
# fixed and the passages independent, so the decision rests on Obuchowski's
# clustered McNemar test, whose assumptions hold by design.
decision = cvi.decide(cvi.PairedCVResult(records["large"], records["medium"]))
print(decision.summary())

# %%
# All three: Cochran's Q in its clustered form, then each model against the
# most accurate, with Holm's adjustment.
comparison = cvi.compare_models(records)
print(comparison.summary())
drawn = comparison.plot()

"""The benchmarks' names of tests, as the fields of the evidence the library ships.

The benchmarks name a test's rows as a report shows them ("corrected t (3x10-fold)", "clustered McNemar
(Obuchowski, repeat 0)"); the evidence (``cvinference/policy/data/calibration.json``,
``margin_calibration.json``) keys them by the test's id in the table of methods (docs/methods.md) and says their
design in fields of their own, which the library reads (``cvinference.policy._evidence``):

- ``repeats`` and ``folds``: the R x K-fold cross-validation of the corrected t's cells (and of the decision's);
  ``repeats`` alone: the repeats a test pooled (the cluster paired t's "10 repeats");
- ``repeat``: the one repeat a test of one partition read (0: the first);
- ``unit``: ``"instances"`` where a test of grouped records treats the instances as independent;
- ``scores``: ``"pooled"`` where DeLong's test read the pooled out-of-fold scores;
- ``rounds`` and ``control``: the positive controls (tests no decision weighs: no id in the table);
- ``margin_evidence`` and ``nested``: the margin calibration's decision rows, before or with the margin's
  evidence, without nested CV.
"""

import re

TEST_IDS = {"corrected t": "corrected-t", "McNemar": "mcnemar", "5x2cv t": "5x2cv-t", "5x2cv F": "5x2cv-f",
            "5x2cv combined F": "5x2cv-f", "matched-sample t": "matched-t", "independent-sample z": "independent-z",
            "nested-cv": "nested-cv", "conservative-z": "conservative-z", "cluster paired t": "cluster-paired-t",
            "clustered McNemar": "mcnemar", "CV-CLT": "cv-clt-difference",
            "CV-CLT loss difference": "cv-clt-difference", "DeLong paired z": "delong-paired", "naive t": "naive-t",
            "uncorrected resampled t": "uncorrected-resampled-t"}
"""The benchmarks' names of tests, by their id in the table of methods (the controls' ids are their own)."""

_VARIANTS = {"Obuchowski": "mcnemar-obuchowski", "Durkalski": "mcnemar-durkalski"}
"""The clustered McNemar's variants, by their ids."""

_DECISIONS = {"decision before the margin's evidence": False, "decision with the margin's evidence": True}
"""The margin calibration's decision rows, by whether the decision read the margin's evidence."""

_PARTS = ((r"(\d+)x(\d+)-fold", lambda m: {"repeats": int(m[1]), "folds": int(m[2])}),
          (r"(\d+) repeats", lambda m: {"repeats": int(m[1])}),
          (r"repeat (\d+)", lambda m: {"repeat": int(m[1])}),
          (r"(\d+) rounds", lambda m: {"rounds": int(m[1])}),
          (r"control", lambda m: {"control": True}),
          (r"instances", lambda m: {"unit": "instances"}),
          (r"per-instance differences", lambda m: {}),
          (r"pooled scores", lambda m: {"scores": "pooled"}),
          (r"decide", lambda m: {}),
          (r"without nested CV", lambda m: {"nested": False}))
"""The parts of a name's parenthesis, as fields."""


def _part_fields(part):
    for pattern, fields in _PARTS:
        found = re.fullmatch(pattern, part)
        if found:
            return fields(found)
    raise ValueError(f"the evidence has no field for {part!r}: add it to evidence_names._PARTS")


def test_fields(name):
    """The fields of the evidence that name the test the benchmark names ``name``: ``method``, its id, and its
    design (the module's fields).

    >>> test_fields("corrected t (3x10-fold)")
    {'method': 'corrected-t', 'repeats': 3, 'folds': 10}
    >>> test_fields("clustered McNemar (Obuchowski, repeat 0)")
    {'method': 'mcnemar-obuchowski', 'repeat': 0}
    """
    head, _, parenthesis = name.partition(" (")
    parts = [part.strip() for part in parenthesis.removesuffix(")").split(",")] if parenthesis else []
    if head in _DECISIONS:
        fields = {"method": "decision", "margin_evidence": _DECISIONS[head]}
    else:
        if head not in TEST_IDS:
            raise ValueError(f"the benchmark's test {name!r} has no id: add it to evidence_names.TEST_IDS")
        fields = {"method": _VARIANTS.get(parts[0], TEST_IDS[head]) if parts else TEST_IDS[head]}
        parts = parts[1:] if parts and parts[0] in _VARIANTS else parts
    for part in parts:
        fields.update(_part_fields(part))
    return fields


test_fields.__test__ = False  # not a pytest test


def design_repeats(name):
    """The repeats R of the R x K-fold design a benchmark's name states ("corrected t (3x10-fold)": 3), or None: what
    a benchmark reads of its own rows, which keep their names."""
    found = re.search(r"\((\d+)x\d+-fold", name)
    return None if found is None else int(found.group(1))

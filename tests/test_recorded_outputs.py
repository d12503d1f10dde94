"""What the command line and the notebook summaries print, byte for byte, as recorded.

The outputs were first recorded from a ``git archive`` export of commit cfc92f7, before issue 27's restructuring,
and every byte matched after it (with two documented additions of issue 29). They were recorded again, from this
checkout, with ``python tests/recorded_outputs.py tests/data/recorded_outputs_learners.json`` when issue 26's
evidence for the learners people use (an RBF SVM, histogram gradient boosting, a random forest) entered the
calibration evidence and the decision's reasons began naming the worst measured cell: the command line's text and
JSON reports for evaluate and compare (k-fold, repeats, leave-one-out, a set-level metric, a loss) and the
summaries a notebook prints. A change of any printed byte must be deliberate: re-record, and say why in the
commit. Recorded again (same command) when method="auto" began choosing on measured coverage (issue 45, item 10):
the exact interval it falls back to warns where its measured coverage is below 0.93, which adds that warning, and
nothing else, to seven outputs. Recorded again (same command) when the decision gained its question (issue 49):
the JSON reports' decision objects carry "alternative": "difference" and "margin": null, and nothing else changed.
Recorded again (same command) when the decision's question took its own name (issue 59; ``alternative`` keeps
scipy's meaning): the one decision object's "alternative": "difference" became "question": "difference", and
nothing else changed. Recorded again (same command) when compare's n_repeats defaulted to "auto" and kept its plan
(issue 59, item 1): two text reports of a compare without --repeats gain the note of "auto" (it planned 1 repeat,
and why), and the JSON report of a compare gains its "plan" object; nothing else changed. Recorded again (same command)
when method="auto" kept its word (issue 59, item 3): where Wong's conditions fail and the evidence measured
Clopper-Pearson below 0.93 while the half-sample interval held, auto takes the half-sample interval (wider on these
records), the learner's block says why in one "recommended:" line, and the warning about Clopper-Pearson's
shortfall and the verdict's "exact interval is the one to quote" go; nothing else changed. Recorded again (same
command) when the plan's JSON wrote its tuples as plain lists (issue 59): the one JSON report of a compare writes its
plan's "names", "stages" and "notes" as lists instead of {"tuple": [...]}; nothing else changed. Recorded again (same
command) when evaluate kept the plan it ran (issue 59): the JSON report of an evaluate gains its "plan" object (an
evaluation's plan: its folds, repeats, fits and the half-width its recommended interval was expected to have), and
the plan of a compare its "half_width": null; nothing else changed. Recorded again (same command) when an
evaluation's summary said its plan in one line (issue 59): the three text reports of evaluate gain a "plan: ..."
line (its fits and the half-width planned for its recommended interval) after the learner's block; nothing else
changed.
"""

import json
import pathlib

import pytest
import recorded_outputs

RECORDED = json.loads((pathlib.Path(__file__).parent / "data" / "recorded_outputs_learners.json").read_text())


@pytest.fixture(scope="module")
def now():
    return recorded_outputs.record()


@pytest.mark.parametrize("index", range(len(RECORDED["commands"])),
                         ids=[" ".join(c["argv"][:3]) for c in RECORDED["commands"]])
def test_the_command_line_prints_what_it_printed(now, index):
    before, after = RECORDED["commands"][index], now["commands"][index]
    assert after["argv"] == before["argv"]
    assert (after["status"], after["stderr"]) == (before["status"], before["stderr"])
    assert after["stdout"] == before["stdout"]


@pytest.mark.parametrize("name", sorted(RECORDED["summaries"]))
def test_the_summaries_print_what_they_printed(now, name):
    assert now["summaries"][name] == RECORDED["summaries"][name]

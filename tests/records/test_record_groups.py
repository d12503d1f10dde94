"""A record keeps the groups of its instances: read-only, checked, round-tripped, shown (issue 30, item 1).

Oracles: the groups given (a record must hand back exactly what it was given); group counts and sizes
counted by hand in each test; the summary of the same record without groups (the grouped summary is it
plus one line).
"""

import json
import pickle
import warnings

import numpy as np
import pytest

from cvinference import CVResult, PairedCVResult, accuracy_interval

Y_TRUE = [0, 0, 1, 1, 1, 0]
Y_PRED = [0, 1, 1, 1, 0, 0]
FOLD = [0, 0, 1, 1, 1, 0]
GROUPS = ["p1", "p1", "p2", "p2", "p2", "p3"]  # by hand: 3 groups of 2, 3 and 1 instances


def grouped(**kw):
    return CVResult(**{"y_true": Y_TRUE, "y_pred": Y_PRED, "fold": FOLD, "groups": GROUPS, **kw})


def _written(result):
    return json.loads(result.to_json())


def test_a_record_keeps_its_groups_read_only_and_counts_them():
    result = grouped()
    np.testing.assert_array_equal(result.groups, GROUPS)
    assert result.n_groups == 3 and not result.groups.flags.writeable
    with pytest.raises(AttributeError):
        result.groups = None
    plain = CVResult(y_true=Y_TRUE, y_pred=Y_PRED, fold=FOLD)
    assert plain.groups is None and plain.n_groups is None


def test_the_record_copies_the_callers_groups():
    groups = np.array([7, 7, 8, 8, 8, 9])
    result = grouped(groups=groups)
    groups[0] = 99
    assert result.groups[0] == 7 and groups.flags.writeable


@pytest.mark.parametrize("groups, n_groups", [
    ([3, 3, 1, 1, 1, 2], 3),
    ([0.5, 0.5, 1.5, 1.5, 1.5, 2.5], 3),
    (np.array(["a", "a", "b", "b", "b", "a"], dtype=object), 2),
    ([True, True, False, False, False, False], 2),
])
def test_integer_float_text_and_bool_groups_round_trip_exactly(groups, n_groups):
    result = grouped(groups=groups)
    assert result.n_groups == n_groups
    for again in (CVResult.from_dict(result.to_dict()), CVResult.from_json(result.to_json()),
                  pickle.loads(pickle.dumps(result))):
        assert again == result
        np.testing.assert_array_equal(again.groups, result.groups)
        assert again.groups.dtype == result.groups.dtype and not again.groups.flags.writeable


def test_pandas_groups_are_kept_as_their_values():
    pd = pytest.importorskip("pandas")
    series = pd.Series(GROUPS, index=[10, 11, 12, 13, 14, 15], name="patient")
    np.testing.assert_array_equal(grouped(groups=series).groups, GROUPS)
    assert grouped(groups=pd.Categorical(GROUPS)).n_groups == 3


def test_groups_take_part_in_equality():
    assert grouped() == grouped()
    assert grouped() != grouped(groups=None)
    assert grouped() != grouped(groups=["p1", "p1", "p2", "p2", "p2", "p2"])


@pytest.mark.parametrize("groups, error, match", [
    (["p1", "p2"], ValueError, r"^groups has 2 entries but y_true has 6 instances\. Pass one group label per "
                               r"instance, or groups=None\.$"),
    ([[1]] * 6, ValueError, r"^groups must be 1-d, one group label per instance; got groups of shape \(6, 1\)\.$"),
    (["p1", None, "p2", "p2", "p2", "p3"], ValueError,
     r"^groups contains NaN, infinity or None in 1 of 6 entries \(first at index 1\)\. Give every instance a group "
     r"label \(an instance alone is a group of its own\)\.$"),
    ([1.0, 1.0, np.nan, 2.0, 2.0, np.nan], ValueError, r"groups contains NaN, infinity or None in 2 of 6 entries "
                                                       r"\(first at index 2\)"),
    (np.array([1, "a", 1, 1, 2, 2], dtype=object), ValueError,
     r"^groups mixes label types \(int, str\); convert all labels to one type, for example with groups\.astype"),
    (np.array(["2024-01-01"] * 6, dtype="datetime64[D]"), TypeError,
     r"^groups must hold integers or strings, as GroupKFold takes them; got dtype datetime64\[D\]\. Convert them"),
    (np.array([(1,)] * 6 + [None], dtype=object)[:6], TypeError, r"got items of type tuple"),
])
def test_bad_groups_are_refused_naming_the_parameter_the_value_and_the_fix(groups, error, match):
    with pytest.raises(error, match=match):
        grouped(groups=groups)


def test_a_missing_pandas_group_is_refused():
    pd = pytest.importorskip("pandas")
    with pytest.raises(ValueError, match=r"groups contains NaN, infinity or None in 1 of 6 entries \(first at index "
                                         r"5\)"):
        grouped(groups=pd.Series([1, 1, 2, 2, 2, None], dtype="Int64"))


@pytest.mark.parametrize("tamper, match", [
    (lambda d: d["groups"].update(array=["p1"] * 5, shape=[5]),
     r"^CVResult\.groups must hold one item per entry of CVResult\.y_true \(6\); got 5\."),
    (lambda d: d["groups"].update(array=[["p1"]] * 6, shape=[6, 1]), r"CVResult\.groups"),
    (lambda d: d.update(groups={"array": ["p1", None, "p2", "p2", "p2", "p3"], "dtype": "|O", "shape": [6],
                                "writeable": False}),
     r"^CVResult\.groups contains NaN, infinity or None in 1 of 6 entries"),
    (lambda d: d.update(groups={"array": [], "dtype": "<U2", "shape": [0], "writeable": False}),
     r"^CVResult\.groups must be a 1-d array of values with at least 1 item"),
    (lambda d: d.pop("groups"), r"has no key 'groups'"),
])
def test_from_dict_refuses_groups_that_to_dict_did_not_write(tamper, match):
    data = _written(grouped())
    tamper(data)
    with pytest.raises(ValueError, match=match):
        CVResult.from_dict(data)


def test_the_frame_has_a_group_column_only_for_a_grouped_record():
    pytest.importorskip("pandas")
    frame = grouped(y_pred=[Y_PRED, Y_TRUE], fold=[FOLD, [1, 1, 0, 0, 0, 1]]).to_frame()
    assert list(frame.columns) == ["repeat", "instance", "group", "fold", "y_true", "y_pred", "correct", "loss"]
    assert frame["group"].tolist() == GROUPS * 2
    assert "group" not in CVResult(y_true=Y_TRUE, y_pred=Y_PRED, fold=FOLD).to_frame().columns
    pair = PairedCVResult(grouped(), grouped(y_pred=Y_TRUE)).to_frame()
    assert pair["group"].tolist() == GROUPS


def test_the_summary_says_once_near_the_top_that_the_record_is_grouped():
    text = grouped().summary()
    plain = CVResult(y_true=Y_TRUE, y_pred=Y_PRED, fold=FOLD).summary()
    lines = text.splitlines()
    assert lines[1] == "grouped: 3 groups of 1-3 instances"  # sizes 2, 3 and 1, counted by hand
    assert lines[0] == plain.splitlines()[0] and "grouped:" not in plain
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        recommended = accuracy_interval(grouped())  # the groups are the units: a cluster-robust interval
    assert recommended.method in ("cluster", "cluster-half-sample")
    assert f"[{recommended.low:.4f}, {recommended.high:.4f}]" in next(
        line for line in lines if "recommended (method='auto')" in line)
    assert "Only 3 groups" in text and "count every instance as independent" in text
    pair_lines = PairedCVResult(grouped(), grouped(y_pred=Y_TRUE)).summary().splitlines()
    assert pair_lines[1] == "grouped: 3 groups of 1-3 instances"
    equal = grouped(groups=["a", "a", "b", "b", "c", "c"]).summary().splitlines()
    assert equal[1] == "grouped: 3 groups of 2 instances"


def test_the_report_records_the_groups_only_for_a_grouped_record():
    from cvinference.report._report import evaluation_report

    report = evaluation_report(grouped(), description=None, data=None)
    assert report["groups"] == {"n_groups": 3, "smallest": 1, "largest": 3}
    assert "groups" not in evaluation_report(CVResult(y_true=Y_TRUE, y_pred=Y_PRED, fold=FOLD), description=None,
                                             data=None)


def test_a_pair_holds_the_same_groups_or_none():
    a = grouped()
    assert PairedCVResult(a, grouped(y_pred=Y_TRUE)).b.n_groups == 3
    plain = CVResult(y_true=Y_TRUE, y_pred=Y_PRED, fold=FOLD)
    assert PairedCVResult(plain, plain).a.groups is None
    cases = ((a, plain, "a has groups and b has none"), (plain, a, "b has groups and a has none"),
             (a, grouped(groups=[1, 1, 2, 2, 2, 3]), r"their groups differ \(first at instance 0\)"),
             (a, grouped(groups=["p1", "p1", "p2", "p2", "p3", "p3"]), r"their groups differ \(first at instance 4\)"))
    for first, second, which in cases:
        with pytest.raises(ValueError, match=rf"^a and b must hold the same groups when either has groups; {which}\. "
                                             r"Evaluate both estimators with the same groups"):
            PairedCVResult(first, second)


def test_a_grouped_pair_round_trips():
    pair = PairedCVResult(grouped(), grouped(y_pred=Y_TRUE))
    again = PairedCVResult.from_json(pair.to_json())
    assert again == pair
    np.testing.assert_array_equal(again.b.groups, GROUPS)
    data = json.loads(pair.to_json())
    data["b"]["groups"]["array"][0] = "p9"
    with pytest.raises(ValueError, match="their groups differ"):
        PairedCVResult.from_dict(data)


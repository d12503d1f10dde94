"""Issue 44, item 4: a small top-level namespace, and every name that left it still works for one release.

``cvinference.__all__`` holds at most 40 names; the result classes went to
``cvinference.results``, the other names to their subpackages
(``cvinference.MOVED``). Each old spelling resolves to the same object until
version 0.2, with a FutureWarning that names the old spelling, the new one and
the version that removes it.
"""

import importlib
import inspect
import re
import subprocess
import sys
import warnings

import pytest

import cvinference as cvi
import cvinference.results

from public_names import public_names

MOVED = sorted((name, f"cvinference{module}") for module, names in cvi.MOVED.items() for name in names)


def test_the_top_level_holds_at_most_40_names_and_none_that_moved():
    assert len(cvi.__all__) <= 40
    assert len(set(cvi.__all__)) == len(cvi.__all__)
    assert not set(cvi.__all__) & {name for name, _ in MOVED}


@pytest.mark.parametrize("name", cvi.__all__)
def test_a_top_level_name_resolves_without_a_warning(name):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert getattr(cvi, name) is not None


@pytest.mark.parametrize("name, home", MOVED, ids=[name for name, _ in MOVED])
def test_a_moved_name_still_resolves_warning_with_its_new_home(name, home):
    new = getattr(importlib.import_module(home), name)
    message = "^" + re.escape(f"cvinference.{name} moved to {home}.{name} in version 0.1; import it from there "
                              "(the old spelling goes in version 0.2).") + "$"
    with pytest.warns(FutureWarning, match=message) as caught:
        old = getattr(cvi, name)
    assert old is new
    assert caught[0].filename == __file__, "the warning points at the user's line"
    assert name in importlib.import_module(home).__all__
    with pytest.warns(FutureWarning, match=message):  # not kept in the namespace: every use warns
        assert getattr(cvi, name) is new


def test_from_import_of_a_moved_name_warns():
    with pytest.warns(FutureWarning, match=r"cvinference\.Interval moved to cvinference\.results\.Interval"):
        from cvinference import Interval
    assert Interval is cvinference.results.Interval


def test_moved_names_are_left_out_of_dir_and_an_unknown_name_is_an_attribute_error():
    listed = dir(cvi)
    assert set(cvi.__all__) <= set(listed)
    assert not {name for name, _ in MOVED} & set(listed)
    assert "results" in listed
    with pytest.raises(AttributeError, match="module 'cvinference' has no attribute 'Intervall'"):
        cvi.Intervall  # noqa: B018


def test_the_results_namespace_holds_every_public_result_class():
    """Every public class whose objects a statistic, a decision, a comparison or a study returns."""
    expected = {name for name, obj in public_names().items() if inspect.isclass(obj) and hasattr(obj, "to_dict")
                and obj.__module__.split(".")[1] in ("inference", "policy", "model_selection", "studies", "workflows")}
    assert set(cvinference.results.__all__) == expected
    for name in cvinference.results.__all__:
        assert getattr(cvinference.results, name) is public_names()[name]


@pytest.mark.slow
def test_importing_the_results_namespace_imports_no_layer_until_a_name_is_used():
    code = ("import sys, cvinference.results as r; assert 'cvinference.inference' not in sys.modules; "
            "r.Interval; assert 'cvinference.inference' in sys.modules; assert 'cvinference.studies' not in "
            "sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)

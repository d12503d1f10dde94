"""Issue 59, item 6: the first release, 0.1.0, carries no pre-release shim.

No release shipped before 0.1.0, so no user holds an old name: the top level
holds at most 40 names, every other public name lives in its subpackage
(``public_names.SUBPACKAGE_NAMES``) and nowhere else, and no module of the
package warns ``FutureWarning``, on import or on the use of a public name.
The names that moved before the release are listed in ``docs/whats_new.md``.
"""

import importlib
import importlib.util
import inspect
import pkgutil
import subprocess
import sys
import warnings

import pytest

import cvinference as cvi
import cvinference.results

from public_names import SUBPACKAGE_NAMES, public_names

MOVED_BEFORE_THE_RELEASE = {
    "cvinference": ("Interval", "Decision", "NestedCVResult", "holdout", "tuning_interval", "load_population",
                    "clustered_mcnemar_test", "cluster_paired_test"),
    "cvinference.inference": ("nested_cv_interval", "bootstrap_accuracy", "decide", "Decision", "pair_tests",
                              "clustered_mcnemar_test", "cluster_paired_test"),
}
"""A sample of the names that left a namespace before 0.1.0 (docs/whats_new.md lists them all): gone, not kept."""


def _modules():
    """Every module of the package, by its dotted name (the command line's ``__main__`` left out: it runs)."""
    return sorted(info.name for info in pkgutil.walk_packages(cvi.__path__, "cvinference.")
                  if not info.name.endswith("__main__"))


def test_the_version_is_the_first_release():
    assert cvi.__version__ == "0.1.0"


def test_importing_every_module_issues_no_future_warning():
    """In a fresh interpreter, so that no module is already imported (and its warnings already issued)."""
    code = ("import importlib, warnings\n"
            "with warnings.catch_warnings(record=True) as caught:\n"
            "    warnings.simplefilter('always')\n"
            f"    for name in {_modules()!r}:\n"
            "        importlib.import_module(name)\n"
            "found = [f'{w.category.__name__}: {w.message}' for w in caught if issubclass(w.category, FutureWarning)]\n"
            "assert not found, found\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_every_public_name_resolves_from_its_home_without_a_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = public_names()
        for name in cvi.__all__:
            assert getattr(cvi, name) is found[name]
        for module, names in SUBPACKAGE_NAMES.items():
            home = importlib.import_module(f"cvinference{module}")
            assert set(names) <= set(home.__all__), module
    assert [str(w.message) for w in caught] == []


def test_no_module_of_the_package_defines_a_deprecation():
    """The shims' helpers are gone, and nothing of the package mentions FutureWarning in its source."""
    assert importlib.util.find_spec("cvinference._utils._deprecation") is None
    mentions = [name for name in _modules() if "FutureWarning" in inspect.getsource(importlib.import_module(name))]
    assert mentions == []


@pytest.mark.parametrize("namespace, name", [(namespace, name) for namespace, names in
                                             MOVED_BEFORE_THE_RELEASE.items() for name in names])
def test_a_name_that_moved_before_the_release_is_gone_from_its_old_home(namespace, name):
    with pytest.raises(AttributeError, match=f"module {namespace!r} has no attribute {name!r}"):
        getattr(importlib.import_module(namespace), name)


def test_the_top_level_holds_at_most_40_names_and_none_of_a_subpackage():
    assert len(cvi.__all__) <= 40
    assert len(set(cvi.__all__)) == len(cvi.__all__)
    assert not set(cvi.__all__) & {name for names in SUBPACKAGE_NAMES.values() for name in names}


def test_dir_lists_the_public_names_and_an_unknown_name_is_an_attribute_error():
    listed = dir(cvi)
    assert set(cvi.__all__) <= set(listed)
    assert "results" in listed and "Interval" not in listed
    with pytest.raises(AttributeError, match="module 'cvinference' has no attribute 'Intervall'"):
        cvi.Intervall  # noqa: B018


def test_the_results_namespace_holds_every_public_result_class():
    """Every public class whose objects a statistic, a decision, a comparison or a study returns."""
    expected = {name for name, obj in public_names().items() if inspect.isclass(obj) and hasattr(obj, "to_dict")
                and obj.__module__.split(".")[1] in ("inference", "policy", "model_selection", "studies", "workflows")}
    assert set(cvinference.results.__all__) == expected
    for name in cvinference.results.__all__:
        assert getattr(cvinference.results, name) is public_names()[name]


def test_every_subpackage_that_holds_public_names_is_an_attribute_of_the_top_level():
    """``cvi.results.Interval`` and ``cvi.evaluation.holdout`` work after ``import cvinference`` alone."""
    homes = sorted({module[1:] for module in SUBPACKAGE_NAMES} | {"results"})
    code = f"import cvinference as cvi; assert all(hasattr(cvi, name) for name in {homes!r}); cvi.results.Interval"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.slow
def test_importing_the_results_namespace_imports_no_layer_until_a_name_is_used():
    code = ("import sys, cvinference.results as r; assert 'cvinference.inference' not in sys.modules; "
            "r.Interval; assert 'cvinference.inference' in sys.modules; assert 'cvinference.studies' not in "
            "sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)

"""Every result's from_json refuses what is not its JSON text with a message naming the class (issue 46): text that
is not JSON (ValueError) and an argument that is not text (TypeError). The classes are enumerated, so that a new
result cannot skip the check."""

import importlib
import pkgutil

import pytest

import cvinference
from cvinference._utils._serialize import Serializable

for module in pkgutil.walk_packages(cvinference.__path__, "cvinference."):
    if ".cli" not in module.name and not module.name.endswith("__main__"):
        importlib.import_module(module.name)  # every result class, whatever imports lazily


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


CLASSES = sorted({cls for cls in _subclasses(Serializable) if cls.__module__.startswith("cvinference.")},
                 key=lambda cls: cls.__qualname__)


def test_the_results_are_many():
    assert len(CLASSES) >= 25  # every result, record and study type of the package


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__qualname__)
def test_text_that_is_not_json_names_the_class(cls):
    with pytest.raises(ValueError, match=rf"^{cls.__name__}\.from_json: text must be the JSON of "):
        cls.from_json("not json")
    with pytest.raises(TypeError, match=rf"^{cls.__name__}\.from_json: text must be the JSON text \(str\)"):
        cls.from_json(5)

"""The iris fixture that both splitter test modules use."""

import pytest
from sklearn.datasets import load_iris


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)

"""The policy's home (issue 44): the decision and the automatic choices live in ``cvinference.policy`` (and
``cvinference.decide``), not in ``cvinference.inference``, which held them before the first release."""

import warnings

import pytest

import cvinference as cvi
from cvinference import policy


@pytest.mark.parametrize("name", ["ANSWERS", "Decision", "DecisionTest", "decide", "pair_tests"])
def test_the_decisions_names_are_the_policys_and_not_the_inference_layers(name):
    assert name in policy.__all__
    assert name not in cvi.inference.__all__ and not hasattr(cvi.inference, name)


@pytest.mark.parametrize("name", ["decide"])
def test_the_top_level_names_are_the_policys_without_a_warning(name):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert getattr(cvi, name) is getattr(policy, name)


def test_the_policy_refuses_a_function_it_has_no_rule_for():
    with pytest.raises(ValueError, match="function='metric_interval'"):
        policy.choose_method("metric_interval", None, None)
    with pytest.raises(ValueError, match="function='loss_interval'"):
        policy.evidence_warnings("loss_interval", None, "cv-clt", None)

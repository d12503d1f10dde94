"""Layer 5: how good is cross-validation itself, measured on a population.

A study treats a large dataset as the population, draws many samples from
it, cross-validates the learner on each and measures the truth on rows of
the population outside the sample (Vanwinckelen & Blockeel 2012, Algorithm
1; Nedel'ko 2021, section 4; Wong 2015, section 4.3.2). Every fit of every
draw runs in one pool of the evaluation layer's scheduler; finished draws
can be kept in a checkpoint file, from which a restarted run resumes. The
names are imported when first used (PEP 562).
"""

from .._utils._lazy import lazy_exports

_EXPORTS = {
    "._conditional_error": ("ConditionalErrorStudyResult", "conditional_error_study"),
    "._fold_size": ("FoldSizeStudyResult", "fold_size_study"),
    "._population_names": ("POPULATIONS",),
    "._populations": ("load_population",),
    "._precision": ("PrecisionStudyResult", "precision_study"),
    "._winner": ("WinnerTableResult", "winner_table"),
}

__all__ = [
    "POPULATIONS",
    "ConditionalErrorStudyResult",
    "FoldSizeStudyResult",
    "PrecisionStudyResult",
    "WinnerTableResult",
    "conditional_error_study",
    "fold_size_study",
    "load_population",
    "precision_study",
    "winner_table",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)  # the command line reads POPULATIONS before scikit-learn

"""Layer 5: how good is cross-validation itself, measured on a population.

A study treats a large dataset as the population, draws many samples from
it, cross-validates the learner on each and measures the truth on rows of
the population outside the sample (Vanwinckelen & Blockeel 2012, Algorithm
1; Nedel'ko 2021, section 4; Wong 2015, section 4.3.2). Every fit of every
draw runs in one pool of the evaluation layer's scheduler; finished draws
can be kept in a checkpoint file, from which a restarted run resumes.
"""

from ._conditional_error import ConditionalErrorStudyResult, conditional_error_study
from ._fold_size import FoldSizeStudyResult, fold_size_study
from ._populations import POPULATIONS, load_population
from ._precision import PrecisionStudyResult, precision_study
from ._winner import WinnerTableResult, winner_table

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

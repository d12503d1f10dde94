"""Layer 1: cross-validators that only produce indices.

Every splitter is a scikit-learn cross-validator (a subclass of
``KFold``, ``StratifiedKFold``, ``StratifiedGroupKFold``, ``LeaveOneOut`` or ``TimeSeriesSplit``), so it drops into
``GridSearchCV``, ``cross_validate``, ``cross_val_predict`` and pipelines.
"""

from ._forward import ForwardSplit
from ._group_kfold import EqualSizeGroupKFold, StratifiedEqualSizeGroupKFold
from ._kfold import EqualSizeKFold, LeaveOneOut, RandomAssignmentKFold, RemainderLastKFold, StratifiedEqualSizeKFold

__all__ = [
    "EqualSizeGroupKFold",
    "EqualSizeKFold",
    "ForwardSplit",
    "LeaveOneOut",
    "RandomAssignmentKFold",
    "RemainderLastKFold",
    "StratifiedEqualSizeGroupKFold",
    "StratifiedEqualSizeKFold",
]

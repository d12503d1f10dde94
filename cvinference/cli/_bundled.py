"""The datasets bundled with scikit-learn that ``--data`` names, in a module of their own.

The parser names them in its help, before anything heavy is imported: the
data module (``_data.py``) imports numpy and the package's input checks.
"""

BUNDLED = ("iris", "wine", "breast_cancer", "digits", "diabetes")

REGRESSION_BUNDLED = ("diabetes",)
"""The bundled datasets whose target is a quantity (a regression task), not a class label."""

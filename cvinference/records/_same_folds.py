"""Whether two records were cross-validated on identical folds."""


def same_folds(a, b):
    """Whether two results were cross-validated on identical folds in every repeat.

    Each record computes the digest of its folds once (``CVResult._fold_digest``), so asking
    again, for any pair, costs nothing; a 256-bit BLAKE2b digest makes a false "same" as
    likely as guessing a random 256-bit key.
    """
    return a is b or a._fold_digest == b._fold_digest

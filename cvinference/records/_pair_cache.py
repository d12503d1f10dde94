"""Values computed once per pair of records, kept while both records live."""

import weakref

_KEPT_FOR_PAIRS = {}
"""(id(a), id(b)) -> {key: value}. Identity, not ``==``: equal results made apart are different records."""


def _forget(pair):
    _KEPT_FOR_PAIRS.pop(pair, None)


def cached_for_pair(a, b, key, compute):
    """``compute()``, computed once per pair of results and ``key``.

    Results are immutable, so a kept value never goes stale. It is kept
    outside the results (which stay picklable) and only as long as both live:
    the entry is dropped when either is collected, before its id can be reused.
    """
    pair = (id(a), id(b))
    values = _KEPT_FOR_PAIRS.get(pair)
    if values is None:
        values = _KEPT_FOR_PAIRS[pair] = {}
        weakref.finalize(a, _forget, pair)
        weakref.finalize(b, _forget, pair)
    if key not in values:
        values[key] = compute()
    return values[key]

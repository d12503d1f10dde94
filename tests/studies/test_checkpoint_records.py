"""A study's checkpoint is checked as it is read, before any fit: each draw's number and record, and its folder.

Each test runs a small study once to write a genuine checkpoint, edits it as
a person or another program could, and runs the study again with a learner
that counts its fits: the second run must refuse the file with a ValueError
that names ``checkpoint``, the draw and the fix, fit nothing, and leave the
file as it was.
"""

import json
import os
import tempfile

import pytest
from sklearn.datasets import make_classification
from sklearn.naive_bayes import GaussianNB

import cvinference as cvi
from cvinference.studies._checkpoint import Checkpoint

X, Y = make_classification(400, 4, n_informative=2, n_redundant=0, random_state=0)
N_DRAWS = 3
AFRESH = "Delete the file, or choose another checkpoint path, to start afresh."


class CountingNB(GaussianNB):
    fits = 0

    def fit(self, X, y):
        type(self).fits += 1
        return super().fit(X, y)


STUDIES = {
    "fold_size_study": lambda checkpoint, sample_size=40: cvi.fold_size_study(
        CountingNB(), X, Y, sample_size=sample_size, n_splits=3, n_draws=N_DRAWS, random_state=0,
        checkpoint=checkpoint),
    "conditional_error_study": lambda checkpoint, sample_size=40: cvi.conditional_error_study(
        CountingNB(), X, Y, sample_size=sample_size, cv=3, max_repeats=2, n_draws=N_DRAWS, random_state=0,
        checkpoint=checkpoint),
    "winner_table": lambda checkpoint, sample_size=40: cvi.winner_table(
        CountingNB(), GaussianNB(var_smoothing=1e-3), X, Y, sample_size=sample_size, cv=3, n_draws=N_DRAWS,
        random_state=0, checkpoint=checkpoint),
    "precision_study": lambda checkpoint, sample_size=40: cvi.precision_study(
        CountingNB(), X, Y, sample_size=sample_size, folds=(2, 3), n_draws=N_DRAWS, random_state=0,
        checkpoint=checkpoint),
}


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """Each study's genuine checkpoint (its JSON), at sample_size 40 and 41."""
    folder = tmp_path_factory.mktemp("written")
    checkpoints = {}
    for name, study in STUDIES.items():
        for sample_size in (40, 41):
            path = folder / f"{name}-{sample_size}.json"
            study(path, sample_size)
            checkpoints[name, sample_size] = json.loads(path.read_text())
    return checkpoints


def _refused(study, path, *fragments):
    """Run ``study`` on the edited ``path``: the refusal's message, after checking that nothing was fitted or
    written."""
    before = path.read_bytes()
    CountingNB.fits = 0
    with pytest.raises(ValueError) as excinfo:
        STUDIES[study](path)
    message = " ".join(str(excinfo.value).split())
    assert CountingNB.fits == 0
    assert path.read_bytes() == before
    assert message.startswith(f"checkpoint={str(path)!r} ")
    for fragment in fragments:
        assert fragment in message, message
    return message


def _edited(written, study, tmp_path, edit):
    data = json.loads(json.dumps(written[study, 40]))
    edit(data)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    return path


def _draw(data, draw, part=None):
    return data["draws"][str(draw)] if part is None else data["parts"][part][str(draw)]


# Each case: the study, the edit, and the words the refusal must hold beside the draw and the fix.
CASES = {
    "999 correct of 15": ("fold_size_study", lambda data: _draw(data, 1)["correct"][2].__setitem__(0, 999),
                          "record for draw 1", "record['correct'][2][0] must not exceed record['sizes'][2][0]; got "
                                               "999 >"),
    "an empty record": ("fold_size_study", lambda data: data["draws"].__setitem__("2", {}),
                        "record for draw 2", "it has no key 'sizes'"),
    "a string count": ("fold_size_study", lambda data: _draw(data, 0)["sizes"][0].__setitem__(1, "13"),
                       "record for draw 0", "record['sizes'][0][1] must be an integer >= 1; got "
                                            "record['sizes'][0][1]='13'"),
    "a float count": ("fold_size_study", lambda data: _draw(data, 0)["correct"][0].__setitem__(1, 3.0),
                      "record for draw 0", "record['correct'][0][1] must be an integer >= 0"),
    "a negative count": ("fold_size_study", lambda data: _draw(data, 0)["correct"][0].__setitem__(1, -1),
                         "record for draw 0", "record['correct'][0][1] must be an integer >= 0; got "
                                              "record['correct'][0][1]=-1"),
    "sizes of another sample": ("fold_size_study", lambda data: _draw(data, 0)["sizes"][1].__setitem__(0, 99),
                                "record for draw 0", "record['sizes'][1] must add up to 40"),
    "an accuracy of 2.41": ("fold_size_study", lambda data: _draw(data, 0).__setitem__("conditional", 2.41),
                            "record['conditional'] must be a proportion between 0 and 1; got "
                            "record['conditional']=2.41"),
    "an accuracy of no row count": ("fold_size_study",
                                    lambda data: _draw(data, 0).__setitem__("conditional", 0.5001),
                                    "record['conditional'] must be a proportion k/360 of 360 rows"),
    "an unknown key": ("fold_size_study", lambda data: _draw(data, 0).__setitem__("note", 1),
                       "it has the unknown key 'note'"),
    "a draw out of range": ("fold_size_study", lambda data: data["draws"].__setitem__("3", _draw(data, 0)),
                            "holds draw 3, and this study makes draws 0 to 2 (n_draws=3)"),
    "a draw number written oddly": ("fold_size_study",
                                    lambda data: data["draws"].__setitem__("01", data["draws"].pop("1")),
                                    "holds a draw numbered '01'"),
    "a record that is a list": ("conditional_error_study", lambda data: data["draws"].__setitem__("0", [0.1]),
                                "record for draw 0", "record must be a JSON object of the keys conditional, cv"),
    "an error of 2.41": ("conditional_error_study", lambda data: _draw(data, 2)["cv"][0].__setitem__(1, 2.41),
                         "record for draw 2", "record['cv'][0][1] must be a proportion between 0 and 1"),
    "an error of no sample count": ("conditional_error_study",
                                    lambda data: _draw(data, 2)["cv"][0].__setitem__(1, 0.11),
                                    "record['cv'][0][1] must be a proportion k/40 of 40 rows"),
    "a repeat too few": ("conditional_error_study", lambda data: _draw(data, 1)["cv"][0].pop(),
                         "record for draw 1", "record['cv'][0] must be a tuple of 2 items"),
    "a learner too few": ("winner_table", lambda data: _draw(data, 0)["conditional"].pop(),
                          "record for draw 0", "record['conditional'] must be a tuple of 2 items"),
    "a negative loss": ("precision_study", lambda data: _draw(data, 1, "K=3").__setitem__("cv_loss", -0.5),
                        "record for draw 1 of part 'K=3'", "record['cv_loss'] must be a finite number >= 0"),
    "the first part without the truth": ("precision_study",
                                         lambda data: _draw(data, 0, "K=2").pop("true_loss"),
                                         "record for draw 0 of part 'K=2'", "it has no key 'true_loss'"),
    "a part the study has not": ("precision_study",
                                 lambda data: data["parts"].__setitem__("K=7", data["parts"]["K=3"]),
                                 "holds the draws of part 'K=7', and this study has only the parts 'K=2', 'K=3'"),
}


@pytest.mark.parametrize("case", CASES)
def test_an_edited_record_is_refused_before_any_fit_naming_the_draw_and_the_fix(case, written, tmp_path):
    study, edit, *fragments = CASES[case]
    _refused(study, _edited(written, study, tmp_path, edit), *fragments, AFRESH)


def _plausible_accuracy(data):
    """Draw 0's conditional accuracy one row better: still k/360 of the 360 rows outside the sample."""
    record = _draw(data, 0)
    record["conditional"] = (round(record["conditional"] * 360) + 1) / 360


def _swapped(data):
    data["draws"]["0"], data["draws"]["1"] = data["draws"]["1"], data["draws"]["0"]


PLAUSIBLE = {
    "an accuracy one row better": ("fold_size_study", _plausible_accuracy, "record for draw 0"),
    "two draws swapped": ("fold_size_study", _swapped, "record for draw 0"),
    "a loss a little lower": ("precision_study",
                              lambda data: _draw(data, 1, "K=3").__setitem__("cv_loss", _draw(data, 1, "K=3")[
                                  "cv_loss"] * 0.9), "record for draw 1 of part 'K=3'"),
    "a draw copied from the other part": ("precision_study",
                                          lambda data: data["parts"]["K=3"].__setitem__("0", {
                                              **_draw(data, 0, "K=3"), "cv_loss": _draw(data, 0, "K=2")["cv_loss"]}),
                                          "record for draw 0 of part 'K=3'"),
}


@pytest.mark.parametrize("case", PLAUSIBLE)
def test_a_plausible_edit_is_refused_by_its_digest(case, written, tmp_path):
    """Issue 46: an edit that leaves every record possible was used. Each record's digest (SHA-256 of the study's
    fingerprint, the draw's place and the record) finds it; the record checks run first, so the message shows that
    the edited record passed them."""
    study, edit, where = PLAUSIBLE[case]
    path = _edited(written, study, tmp_path, edit)
    _refused(study, path, where, "was changed after the study wrote it: it does not match the digest saved with "
                                 "it (an edit by hand, or by another program)", AFRESH)


@pytest.mark.parametrize("version", [0, 2, "1"])
def test_a_checkpoint_of_another_version_is_refused_naming_both_versions(written, tmp_path, version):
    """Every format starts at version 1 with the first release (0.1.0): a checkpoint of another version (as a
    newer cvinference may write) is refused before any fit, naming its version and the one this reads."""
    data = json.loads(json.dumps(written["fold_size_study", 40]))
    assert data["version"] == 1
    data["version"] = version
    path = tmp_path / "other_version.json"
    path.write_text(json.dumps(data))
    _refused("fold_size_study", path, f"has checkpoint version {version!r}, and this cvinference reads version 1")


def test_a_checkpoint_without_its_digests_is_refused(written, tmp_path):
    """The digests came before the first release: a checkpoint without them was edited, and is refused."""
    data = json.loads(json.dumps(written["fold_size_study", 40]))
    del data["digests"]
    path = tmp_path / "no_digests.json"
    path.write_text(json.dumps(data))
    _refused("fold_size_study", path, "does not match the digest saved with it")


def test_a_record_from_a_run_of_another_sample_size_is_refused(written, tmp_path):
    """A record copied from the checkpoint of a run with sample_size=41: its conditional accuracy is measured on
    the 359 rows outside its sample, and its fold sizes add up to 41."""
    other = written["fold_size_study", 41]["draws"]["1"]
    path = _edited(written, "fold_size_study", tmp_path, lambda data: data["draws"].__setitem__("1", other))
    _refused("fold_size_study", path, "record for draw 1", "record['conditional'] must be a proportion k/360", AFRESH)
    other = {**other, "conditional": written["fold_size_study", 40]["draws"]["1"]["conditional"]}
    path = _edited(written, "fold_size_study", tmp_path, lambda data: data["draws"].__setitem__("1", other))
    _refused("fold_size_study", path, "record for draw 1", "must add up to 40; got", "which adds up to 41", AFRESH)


def test_a_draw_written_twice_with_different_records_is_refused(written, tmp_path):
    path = tmp_path / "twice.json"
    text = json.dumps(written["fold_size_study", 40])
    first = json.dumps(written["fold_size_study", 40]["draws"]["0"])
    second = json.dumps(written["fold_size_study", 40]["draws"]["1"])
    path.write_text(text.replace(f'"0": {first}', f'"0": {first}, "0": {second}'))
    _refused("fold_size_study", path, "holds the key '0' twice, with different values", AFRESH)


def test_a_draw_written_twice_with_the_same_record_is_read(written, tmp_path):
    path = tmp_path / "twice.json"
    first = json.dumps(written["fold_size_study", 40]["draws"]["0"])
    path.write_text(json.dumps(written["fold_size_study", 40]).replace(f'"0": {first}', f'"0": {first}, "0": {first}'))
    expected = STUDIES["fold_size_study"](None)
    CountingNB.fits = 0
    assert STUDIES["fold_size_study"](path) == expected and CountingNB.fits == 0


@pytest.mark.parametrize("study", STUDIES)
def test_a_genuine_partial_checkpoint_passes_the_checks_and_resumes(study, written, tmp_path):
    """The checks accept what every study writes: a checkpoint missing a draw, as a killed run leaves it, resumes
    to the uninterrupted result, fitting only that draw."""
    data = json.loads(json.dumps(written[study, 40]))
    for draws in [data["draws"], *data.get("parts", {}).values()]:
        draws.pop("1", None)
    path = tmp_path / "partial.json"
    path.write_text(json.dumps(data))
    expected = STUDIES[study](None)
    CountingNB.fits = 0
    assert STUDIES[study](path) == expected
    assert 0 < CountingNB.fits
    assert json.loads(path.read_text()) == written[study, 40]


def test_a_file_left_half_written_by_a_killed_save_does_not_stop_the_resume(written, tmp_path):
    """A save writes a temporary file and moves it into place: a kill midway leaves the temporary file, cut
    short, beside the previous checkpoint, which the restarted run reads and finishes as usual."""
    path = _edited(written, "fold_size_study", tmp_path, lambda data: data["draws"].pop("2"))
    torn = tmp_path / ".cvinference-killed.tmp"
    torn.write_text(json.dumps(written["fold_size_study", 40])[:100])
    expected = STUDIES["fold_size_study"](None)
    assert STUDIES["fold_size_study"](path) == expected
    assert json.loads(path.read_text()) == written["fold_size_study", 40]


def test_a_checkpoint_cut_short_is_refused_and_left_alone(written, tmp_path):
    """Saves replace the file whole, so a study never leaves a cut file: one is damaged, and refused."""
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(written["fold_size_study", 40])[:-20])
    _refused("fold_size_study", path, "cannot be read as a study checkpoint")


# ---------------------------------------------------------------------------
# A checkpoint the study could not keep is refused before any fit


def _refused_path(path, *fragments):
    CountingNB.fits = 0
    with pytest.raises(ValueError) as excinfo:
        STUDIES["fold_size_study"](path)
    message = " ".join(str(excinfo.value).split())
    assert CountingNB.fits == 0
    assert message.startswith(f"checkpoint={os.fspath(path)!r}") or message.startswith("checkpoint must be")
    for fragment in fragments:
        assert fragment in message, message
    return message


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes in a read-only folder")
def test_a_checkpoint_in_a_read_only_folder_is_refused_before_any_fit(tmp_path):
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        _refused_path(folder / "study.json", "is in a folder this process cannot write (Permission denied)",
                      "choose a checkpoint path in another folder")
        assert os.listdir(folder) == []
    finally:
        folder.chmod(0o700)


def test_a_folder_that_refuses_the_save_is_refused_before_any_fit(tmp_path, monkeypatch):
    """As the test above, for root too: the probe's temporary file cannot be made (as in a read-only folder)."""
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    _refused_path(tmp_path / "study.json", "is in a folder this process cannot write (Permission denied)",
                  f"make {str(tmp_path)!r} writable, or choose a checkpoint path in another folder")
    assert os.listdir(tmp_path) == []


def test_a_checkpoint_whose_folder_is_a_file_is_refused_before_any_fit(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    _refused_path(blocker / "study.json", "an existing, writable folder")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads and writes any file")
def test_a_checkpoint_that_cannot_be_read_or_written_is_refused_before_any_fit(written, tmp_path):
    path = _edited(written, "fold_size_study", tmp_path, lambda data: None)
    path.chmod(0o400)
    try:
        _refused_path(path, "exists and this process cannot read or write it", "make it readable and writable")
    finally:
        path.chmod(0o600)


def test_a_checkpoint_the_process_may_not_use_is_refused_before_any_fit(written, tmp_path, monkeypatch):
    """As the test above, for root too: the file's permissions say no."""
    path = _edited(written, "fold_size_study", tmp_path, lambda data: None)
    access = os.access
    monkeypatch.setattr(os, "access", lambda file, mode: False if os.fspath(file) == str(path) else access(file, mode))
    _refused_path(path, "exists and this process cannot read or write it")


def test_checkpoint_without_a_record_schema_accepts_any_object_and_refuses_anything_else(tmp_path):
    """The low-level class alone (no study): records are JSON objects, and draw numbers are checked."""
    path = tmp_path / "plain.json"
    Checkpoint(path, "key").save(0, {"anything": [1, "a"]})
    assert Checkpoint(path, "key", n_draws=1).records == {0: {"anything": [1, "a"]}}
    with pytest.raises(ValueError, match="holds draw 0, and this study makes draws 0 to -1"):
        Checkpoint(path, "key", n_draws=0)
    data = json.loads(path.read_text())
    data["draws"]["0"] = 5
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="record must be a dict; got record=5"):
        Checkpoint(path, "key")

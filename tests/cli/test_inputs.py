"""The command line's inputs: data sets and CSV files, estimators and their hyper-parameters.

Every user mistake is a ``UserError`` whose one-line message names the value and the fix.
"""

import sys

import numpy as np
import pytest
from sklearn.compose import ColumnTransformer
from sklearn.model_selection import KFold, cross_val_score, cross_validate
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

from cvinference.cli._data import BUNDLED, Dataset, load_data
from cvinference.cli._errors import UserError
from cvinference.cli._estimators import ALIASES, NEEDS_SCALING, build_estimator


def write(tmp_path, text, name="data.csv", encoding="utf-8"):
    path = tmp_path / name
    path.write_bytes(text.encode(encoding) if isinstance(text, str) else text)
    return str(path)


@pytest.fixture(params=["pandas", "stdlib"])
def reader(request, monkeypatch):
    """Run a test with each CSV reader: pandas, and the csv module with pandas made unimportable."""
    if request.param == "pandas":
        pytest.importorskip("pandas")
    else:
        monkeypatch.setitem(sys.modules, "pandas", None)
    return request.param


def user_error(function, *args, **kwargs):
    with pytest.raises(UserError) as info:
        function(*args, **kwargs)
    message = str(info.value)
    assert "\n" not in message
    return message


MIXED = (
    "color,size,weight,label\n"
    "red,1.5,10,a\n"
    "blue,NA,11,b\n"
    ",2.5,12,a\n"
    "green,3,,b\n"
    "red,4,14,a\n"
)


# ---------------------------------------------------------------------------
# Bundled data sets


@pytest.mark.parametrize("name, shape, n_classes", [
    ("iris", (150, 4), 3), ("wine", (178, 13), 3), ("breast_cancer", (569, 30), 2), ("digits", (1797, 64), 10),
])
def test_bundled_data_sets_load_with_their_shapes(name, shape, n_classes):
    data = load_data(name)
    assert name in BUNDLED
    assert data.X.shape == shape and data.X.dtype == np.float64
    assert data.y.shape == (shape[0],) and np.unique(data.y).size == n_classes
    assert data.n_samples == shape[0] and len(data.feature_names) == shape[1]
    assert data.name == name and data.categorical == () and data.has_missing is False


def test_bundled_data_set_refuses_a_target():
    message = user_error(load_data, "iris", target="species")
    assert "--target species applies to CSV files only" in message and "drop --target" in message


def test_unknown_bundled_name_lists_the_valid_names():
    message = user_error(load_data, "irsi")
    assert "unknown data set 'irsi'" in message and "did you mean 'iris'?" in message
    assert "iris, wine, breast_cancer, digits" in message and ".csv" in message


# ---------------------------------------------------------------------------
# CSV files: reading


def test_csv_with_numeric_categorical_and_missing_values_with_impute(tmp_path, reader):
    data = load_data(write(tmp_path, MIXED), target="label", impute=True)
    assert data.feature_names == ("color", "size", "weight") and data.categorical == ("color",)
    assert data.has_missing is True and data.n_samples == 5 and data.target_name == "label"
    assert data.X.dtype == object and data.X.shape == (5, 3)
    assert list(data.X[:, 0][[0, 1, 3, 4]]) == ["red", "blue", "green", "red"]
    assert np.isnan(data.X[2, 0]) and np.isnan(data.X[1, 1]) and np.isnan(data.X[3, 2])
    assert data.X[0, 1] == 1.5 and type(data.X[0, 1]) is float
    assert data.y.tolist() == ["a", "b", "a", "b", "a"]


def test_csv_missing_feature_values_without_impute_are_an_error(tmp_path, reader):
    message = user_error(load_data, write(tmp_path, MIXED), target="label")
    assert "has 3 missing feature values in 3 columns: color (1), size (1), weight (1)" in message
    assert "pass --impute" in message


def test_numeric_csv_gives_a_float_matrix_and_integer_labels(tmp_path, reader):
    path = write(tmp_path, "x1,x2,y\n1,2.5,0\n3,4e1,1\n5,-6,1.0\n")
    data = load_data(path, target="y")
    assert data.X.dtype == np.float64 and data.X.tolist() == [[1, 2.5], [3, 40], [5, -6]]
    assert data.y.dtype == np.int64 and data.y.tolist() == [0, 1, 1]
    assert data.categorical == () and data.has_missing is False and data.name == path


def test_the_stdlib_reader_gives_the_same_dataset_as_pandas(tmp_path, monkeypatch):
    pytest.importorskip("pandas")
    texts = [
        MIXED,
        # quoted commas and newlines, blank and short lines, an unnamed column, a BOM, spaces
        '\ufeffid,class,"note, quoted",\n1,yes,"a, b",x\n\n2,no,"multi\nline",y\n   \n3,yes,plain\n4,no, spaced ,z\n',
        "a,b,t\n1,NaN,u\n2,n/a,v\nnan,4,u\n",
    ]
    targets = ["label", "class", "t"]
    for k, (text, target) in enumerate(zip(texts, targets, strict=True)):
        path = write(tmp_path, text, name=f"file{k}.csv")
        with_pandas = load_data(path, target=target, impute=True)
        with monkeypatch.context() as patch:
            patch.setitem(sys.modules, "pandas", None)
            with_stdlib = load_data(path, target=target, impute=True)
        assert with_pandas == with_stdlib, k
    assert with_pandas != load_data("iris")
    short = load_data(write(tmp_path, texts[1], name="again.csv"), target="class", impute=True)
    assert short.feature_names == ("id", "note, quoted", "Unnamed: 3")
    assert short.categorical == ("note, quoted", "Unnamed: 3")
    assert short.X[2, 1] == "plain" and np.isnan(short.X[2, 2]) and short.X[3, 1] == " spaced "


# ---------------------------------------------------------------------------
# CSV files: mistakes


def test_missing_file_and_directory(tmp_path):
    missing = str(tmp_path / "nope.csv")
    assert user_error(load_data, missing, target="y") == f"--data {missing}: no such file; check the path"
    message = user_error(load_data, str(tmp_path), target="y")
    assert message == f"--data {tmp_path} is a directory; pass the path of a .csv file"


@pytest.mark.parametrize("content, expected", [
    ("", "is empty"),
    ("\n\n", "is empty"),
    ("a,b\n", "has a header but no data rows"),
    (b"a,b\n\xff\xfe,1\n", "cannot read --data"),
    ("a,b\n1,2\n3,4,5\n", "cannot read --data"),
])
def test_unreadable_or_empty_csv(tmp_path, reader, content, expected):
    path = write(tmp_path, content)
    message = user_error(load_data, path, target="b")
    assert message.startswith(f"--data {path}" if expected != "cannot read --data" else "cannot read --data")
    assert expected in message


def test_a_csv_needs_a_target_and_the_message_lists_the_columns(tmp_path, reader):
    message = user_error(load_data, write(tmp_path, MIXED))
    assert "--target is required with a CSV file" in message and "one of: color, size, weight, label" in message


def test_unknown_target_column_lists_the_columns_truncated(tmp_path, reader):
    message = user_error(load_data, write(tmp_path, MIXED), target="lable")
    assert "--target lable: no such column" in message and "(did you mean 'label'?)" in message
    assert message.endswith("its columns are: color, size, weight, label")
    header = ",".join(f"c{i}" for i in range(30))
    wide = write(tmp_path, header + "\n" + ",".join("1" * 30) + "\n", name="wide.csv")
    message = user_error(load_data, wide, target="y")
    assert "c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, ... (20 more, 30 in all)" in message and "c29" not in message


def test_target_with_missing_values(tmp_path, reader):
    message = user_error(load_data, write(tmp_path, "x,y\n1,a\n2,\n3,b\n4,NA\n"), target="y")
    assert "--target y has 2 missing values (data rows 2, 4)" in message and "drop those rows" in message


def test_target_with_a_single_class(tmp_path, reader):
    message = user_error(load_data, write(tmp_path, "x,y\n1,a\n2,a\n"), target="y")
    assert "--target y has a single class ('a') in all 2 rows" in message and "at least two classes" in message


def test_target_with_continuous_numbers(tmp_path, reader):
    message = user_error(load_data, write(tmp_path, "x,y\n1,0.5\n2,1\n"), target="y")
    assert "--target y holds continuous numbers (for example '0.5')" in message


def test_csv_with_only_the_target_column(tmp_path, reader):
    message = user_error(load_data, write(tmp_path, "y\na\nb\n"), target="y")
    assert "has no feature columns: its only column is the target 'y'" in message


@pytest.mark.parametrize("content, expected", [
    ("x,x,y\n1,2,a\n3,4,b\n", "has two columns named 'x'"),
    ("x,z,y\n1,inf,a\n3,4,b\n", "feature column 'z' of {path} has an infinite value (data row 1)"),
    ("x,z,y\n1,,a\n3,NA,b\n", "feature column 'z' of {path} has no value in any row"),
])
def test_other_csv_mistakes(tmp_path, reader, content, expected):
    path = write(tmp_path, content)
    assert expected.format(path=path) in user_error(load_data, path, target="y", impute=True)


# ---------------------------------------------------------------------------
# Estimators: aliases and dotted paths


@pytest.mark.parametrize("alias, class_name", [
    ("logreg", "LogisticRegression"), ("tree", "DecisionTreeClassifier"), ("nb", "GaussianNB"),
    ("knn", "KNeighborsClassifier"), ("svm", "SVC"), ("rf", "RandomForestClassifier"),
    ("gb", "GradientBoostingClassifier"), ("dummy", "DummyClassifier"),
])
def test_aliases_build_their_classes_with_scaling_where_needed(alias, class_name):
    estimator, description = build_estimator(alias, dataset=load_data("iris"))
    assert alias in ALIASES and description.startswith(f"{alias}: ")
    if alias in NEEDS_SCALING:
        assert isinstance(estimator, Pipeline)
        assert [type(step).__name__ for _, step in estimator.steps] == ["StandardScaler", class_name]
        assert description.startswith(f"{alias}: StandardScaler + {class_name}(")
    else:
        assert type(estimator).__name__ == class_name
        assert description.startswith(f"{alias}: {class_name}(")


def test_logreg_defaults_and_the_seed():
    iris = load_data("iris")
    estimator, description = build_estimator("logreg", dataset=iris)
    assert description == "logreg: StandardScaler + LogisticRegression(max_iter=1000)"
    assert estimator[-1].max_iter == 1000 and estimator[-1].random_state is None
    estimator, description = build_estimator("logreg", params='{"max_iter": 50}', dataset=iris, random_state=3)
    assert description == "logreg: StandardScaler + LogisticRegression(max_iter=50, random_state=3)"
    tree, _ = build_estimator("tree", params={"random_state": 7}, dataset=iris, random_state=3)
    assert tree.random_state == 7  # the user's choice wins over the seed
    knn, description = build_estimator("knn", dataset=iris, random_state=3)
    assert "random_state" not in description and "random_state" not in knn.get_params()


def test_dotted_paths_to_classifier_classes():
    iris = load_data("iris")
    extra, description = build_estimator("sklearn.ensemble.ExtraTreesClassifier", dataset=iris, random_state=0)
    assert type(extra).__name__ == "ExtraTreesClassifier" and extra.random_state == 0
    assert description == "sklearn.ensemble.ExtraTreesClassifier: ExtraTreesClassifier(random_state=0)"
    for path in ("sklearn.linear_model.LogisticRegression", "sklearn.svm.SVC",
                 "sklearn.neighbors.KNeighborsClassifier", "sklearn.linear_model.LogisticRegressionCV"):
        estimator, _ = build_estimator(path, dataset=iris)
        assert isinstance(estimator, Pipeline) and isinstance(estimator[0], StandardScaler), path


@pytest.mark.parametrize("spec, expected", [
    ("lgreg", "unknown estimator 'lgreg' (did you mean 'logreg'?): use one of logreg, tree, nb, knn, svm, rf, "
              "gb, dummy, or the dotted path of a classifier class"),
    ("nosuch.module.Classifier", "estimator 'nosuch.module.Classifier': cannot import module 'nosuch.module' "
                                 "(ModuleNotFoundError: No module named 'nosuch')"),
    ("sklearn.ensemble.ExtraTreeClassifier", "module 'sklearn.ensemble' has no attribute 'ExtraTreeClassifier' "
                                             "(did you mean 'ExtraTreesClassifier'?)"),
    ("sklearn.linear_model.LinearRegression", "estimator 'sklearn.linear_model.LinearRegression' is a regressor, "
                                              "and the target holds class labels (classification)"),
    ("sklearn.cluster.KMeans", "estimator 'sklearn.cluster.KMeans' is not a classifier"),
    ("sklearn.model_selection.cross_val_score", "'sklearn.model_selection.cross_val_score' is a function, "
                                                "not a classifier class"),
    ("sklearn.ensemble", "'sklearn.ensemble' is a module, not a classifier class"),
    ("collections.OrderedDict", "'collections.OrderedDict' is not a scikit-learn estimator"),
    ("sklearn.multiclass.OneVsRestClassifier", "cannot create OneVsRestClassifier() without arguments"),
    (".Classifier", "'.Classifier' is not a valid dotted path"),
])
def test_estimator_mistakes(spec, expected):
    assert expected in user_error(build_estimator, spec, dataset=load_data("iris"))


@pytest.mark.parametrize("params, expected", [
    ("{C: 1}", "invalid JSON in the hyper-parameters of 'logreg', '{C: 1}': Expecting property name enclosed "
               "in double quotes at line 1 column 2 (char 1)"),
    ('{"C": 1,}', "at line 1 column 9 (char 8)"),
    ("", "Expecting value at line 1 column 1 (char 0)"),
    ("[1, 2]", "the hyper-parameters of 'logreg' must be a JSON object of name: value pairs, got list '[1, 2]'"),
    ('"C=1"', "must be a JSON object of name: value pairs, got str"),
    ('{"c": 1}', "estimator 'logreg' has no hyper-parameter 'c' (did you mean 'C'?); its hyper-parameters are: "
                 "C, class_weight, dual,"),
    ('{"C": -1}', "estimator 'logreg' rejects the hyper-parameters {\"C\": -1}: The 'C' parameter of "
                  "LogisticRegression must be a float in the range (0.0, inf]. Got -1 instead; change that value"),
    ('{"penalty": "l3"}', "rejects the hyper-parameters {\"penalty\": \"l3\"}"),
])
def test_params_json_mistakes(params, expected):
    assert expected in user_error(build_estimator, "logreg", params=params, dataset=load_data("iris"))


def test_params_json_sets_hyper_parameters():
    estimator, description = build_estimator(
        "rf", params='{"n_estimators": 7, "max_depth": null, "class_weight": "balanced"}', dataset=load_data("iris"),
    )
    assert (estimator.n_estimators, estimator.max_depth, estimator.class_weight) == (7, None, "balanced")
    assert description == "rf: RandomForestClassifier(class_weight='balanced', n_estimators=7)"


# ---------------------------------------------------------------------------
# The pipeline: encoding and imputation inside each fold


def test_categorical_columns_are_one_hot_encoded_inside_the_pipeline(tmp_path):
    data = load_data(write(tmp_path, MIXED), target="label", impute=True)
    estimator, description = build_estimator("logreg", dataset=data)
    assert description == (
        "logreg: SimpleImputer(median; most_frequent for categorical) + OneHotEncoder(color) + "
        "StandardScaler(numeric) + LogisticRegression(max_iter=1000)"
    )
    preprocess = estimator.named_steps["preprocess"]
    assert isinstance(preprocess, ColumnTransformer)
    (_, categorical, cat_columns), (_, numeric, num_columns) = preprocess.transformers
    assert cat_columns == [0] and num_columns == [1, 2]
    assert [name for name, _ in categorical.steps] == ["impute", "onehot"]
    assert categorical[-1].handle_unknown == "ignore" and categorical[0].strategy == "most_frequent"
    assert [name for name, _ in numeric.steps] == ["impute", "scale"] and numeric[0].strategy == "median"
    _, description = build_estimator("tree", dataset=data)
    assert description == ("tree: SimpleImputer(median; most_frequent for categorical) + OneHotEncoder(color) + "
                           "DecisionTreeClassifier()")


def test_without_missing_values_categorical_pipeline_has_no_imputer(tmp_path):
    data = load_data(write(tmp_path, "c,x,y\nu,1,a\nv,2,b\nu,3,a\nv,4,b\n"), target="y")
    estimator, description = build_estimator("nb", dataset=data)
    assert description == "nb: OneHotEncoder(c) + GaussianNB()"
    (_, categorical, _), (_, numeric, _) = estimator[0].transformers
    assert [name for name, _ in categorical.steps] == ["onehot"] and numeric == "passthrough"
    numeric_only = load_data(write(tmp_path, "x,z,y\n1,NA,a\n2,3,b\n", name="n.csv"), target="y", impute=True)
    estimator, description = build_estimator("knn", dataset=numeric_only)
    assert description == "knn: SimpleImputer(median) + StandardScaler + KNeighborsClassifier()"
    assert [name for name, _ in estimator.steps] == ["impute", "scale", "classifier"]


@pytest.mark.filterwarnings("ignore:Found unknown categories:UserWarning")
@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_cross_validation_runs_with_a_category_seen_in_one_fold_only(tmp_path, alias):
    rng = np.random.default_rng(0)
    lines = ["color,size,label"]
    for i in range(40):
        color = "purple" if i == 0 else ("red", "blue")[i % 2]   # 'purple' is in the first fold only
        size = "" if i % 7 == 3 else f"{rng.normal() + (i % 2):.3f}"
        lines.append(f"{color},{size},{'ab'[i % 2]}")
    data = load_data(write(tmp_path, "\n".join(lines) + "\n"), target="label", impute=True)
    estimator, _ = build_estimator(alias, params='{"n_estimators": 5}' if alias in ("rf", "gb") else None,
                                   dataset=data, random_state=0)
    cv = KFold(4)
    scores = cross_val_score(estimator, data.X, data.y, cv=cv, error_score="raise")
    assert scores.shape == (4,) and np.all((scores >= 0) & (scores <= 1))
    if alias == "tree":
        fitted = cross_validate(estimator, data.X, data.y, cv=cv, return_estimator=True)["estimator"]
        seen = [set(est[0].named_transformers_["categorical"][-1].categories_[0]) for est in fitted]
        assert seen[0] == {"red", "blue"}  # fitted without the test fold, which alone holds 'purple'
        assert all(s == {"red", "blue", "purple"} for s in seen[1:])


def test_user_error_is_the_one_the_command_line_reports():
    import cvinference.cli._main as cli

    assert cli.UserError is UserError
    assert isinstance(load_data("iris"), Dataset)

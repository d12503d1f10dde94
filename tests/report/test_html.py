"""Results in notebooks: ``_repr_html_`` gives real HTML tables, monospace where columns must line up."""

import html.parser
import warnings

import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference._utils._notebook import MONOSPACE


class _Tables(html.parser.HTMLParser):
    """Every ``<table>`` of a fragment as a list of rows of cell texts, and every ``<pre>``'s text."""

    def __init__(self, text):
        super().__init__()
        self.tables, self.pres, self._cell, self._in_pre = [], [], None, False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = ""
        elif tag == "pre":
            self._in_pre = True
            self.pres.append("")

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.tables[-1][-1].append(self._cell)
            self._cell = None
        elif tag == "pre":
            self._in_pre = False

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data
        elif self._in_pre:
            self.pres[-1] += data


@pytest.fixture(scope="module")
def pair():
    X, y = load_breast_cancer(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cvi.CVEvaluator(cv=5, n_repeats=2, random_state=0).compare(
            GaussianNB(), DecisionTreeClassifier(random_state=0), X, y)


def _text_table(summary, title):
    """The rows of the table below ``title`` in the text summary, split at runs of spaces (oracle: the text)."""
    lines = summary.splitlines()
    start = lines.index(title) + 1
    rows = []
    for line in lines[start:]:
        if not line.strip():
            break
        rows.append(line.split())
    return rows


def test_a_pairs_fold_tables_are_html_tables_with_the_texts_numbers(pair):
    page = _Tables(pair._repr_html_())
    summary = pair.summary()
    for repeat in range(2):
        text_rows = _text_table(summary, f"per fold (repeat {repeat})")
        html_rows = page.tables[repeat]
        assert [cell for row in html_rows[1:] for cell in row[:-1]] == [cell for row in text_rows[1:]
                                                                        for cell in row[:-1]]
        assert len(html_rows) == 6 and html_rows[0][:2] == ["fold", "m_j"]  # titles, then the 5 folds


def test_every_table_of_the_text_is_an_html_table(pair):
    page = _Tables(pair._repr_html_())
    # two fold tables (one per repeat), the intervals of A and of B, and the tests
    assert len(page.tables) == 5
    assert page.tables[2][0] == ["interval", "estimate", "bounds", "target"] == page.tables[3][0]
    assert page.tables[4][0][:4] == ["test", "statistic", "df", "2-sided p"]
    assert [row[0] for row in page.tables[4][1:]] == [
        "matched-sample t (repeat 0)", "independent-sample z (repeat 0)", "McNemar (repeat 0)",
        "corrected t (2x5-fold)"]
    assert not page.pres  # the record's report is tables and paragraphs, no preformatted text


def test_numbers_are_monospace_and_text_is_escaped(pair):
    fragment = pair._repr_html_()
    assert f'text-align: right; {MONOSPACE}' in fragment
    renamed = cvi.CVResult.from_dict({**pair.a.to_dict(), "name": "<b>tuned</b> & co"})
    one = renamed._repr_html_()
    assert "&lt;b&gt;tuned&lt;/b&gt; &amp; co" in one and "<b>tuned</b>" not in one


def test_a_results_figures_are_a_table_above_its_summary(pair):
    interval = cvi.accuracy_interval(pair.a, repeat=0)
    page = _Tables(interval._repr_html_())
    figures = dict(row for row in page.tables[0])
    assert figures["estimate"] == f"{interval.estimate:.6g}" and figures["low"] == f"{interval.low:.6g}"
    assert figures["method"] == interval.method
    assert page.pres == [interval.summary()]
    test = cvi.mcnemar_test(pair.a, pair.b, repeat=0)
    figures = dict(row for row in _Tables(test._repr_html_()).tables[0])
    assert figures["pvalue"] == f"{test.pvalue:.6g}" and figures["statistic"] == f"{test.statistic:.6g}"

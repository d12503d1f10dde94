"""Sphinx configuration of cvinference's documentation site.

Build it from the repository root (after ``pip install -e ".[docs]"``) with::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

The guide pages are the Markdown files of this folder, read by MyST; the API
reference (``api.md``) is generated from the docstrings by autosummary and
numpydoc, one page per public name, under ``docs/generated/`` (not kept in git).
"""

import importlib
import pkgutil
import sys
import warnings
from pathlib import Path

from sphinx.pycode import ModuleAnalyzer

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's cvinference, installed or not

import cvinference

project = "cvinference"
author = "the cvinference developers"
copyright = "the cvinference developers"
release = cvinference.__version__
version = release

extensions = [
    "myst_parser",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx_gallery.gen_gallery",
]

# The gallery: every script of examples/gallery runs when the site is built, and its figures are those of the
# library's own plot() methods (matplotlib's Agg backend, which sphinx-gallery selects for the build).
GALLERY = Path(__file__).resolve().parents[1] / "examples" / "gallery"


def _warning_line(message, category, filename, lineno, line=None):
    """A warning in an example's output as a reader sees it, without the path of the machine that built the site."""
    return f"{category.__name__}: {message}\n"


warnings.formatwarning = _warning_line  # the build's own process, not a reader's
sphinx_gallery_conf = {
    "examples_dirs": str(GALLERY),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",  # the numbered front door (plot_01_, ...) first
}

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}  # .rst: the generated API pages
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "auto_examples/*.ipynb", "auto_examples/*.py",
                    "auto_examples/*.zip", "auto_examples/*.json", "auto_examples/*.md5"]
templates_path = ["_templates"]

# MyST: directives in ::: fences (tests/test_docs.py reads ``` blocks as examples), except api.md's autosummary
# tables, in ```{eval-rst} blocks: the form in which autosummary finds them in Markdown to generate their pages.
# Headings get anchors, so that links such as cli.md#cvinference-demo resolve (a missing one fails the build).
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 4

# The API reference: one generated page per public name, its docstring rendered by numpydoc.
autosummary_generate = True
autosummary_imported_members = True
autodoc_typehints = "none"
autodoc_member_order = "bysource"
numpydoc_show_class_members = False
numpydoc_validation_checks = set()
numpydoc_xref_param_type = False

html_theme = "pydata_sphinx_theme"
html_title = "cvinference"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    # A gallery page's only entry there would be its source link: its figures of several panels get the width.
    "secondary_sidebar_items": {"**": ["page-toc", "sourcelink"],
                                **{f"auto_examples/{example.stem}": [] for example in GALLERY.glob("plot_*.py")}},
}
html_static_path = ["_static"]
html_css_files = ["wide-gallery.css"]
# The guide pages have no sub-pages: no empty navigation column beside their wide tables and outputs.
html_sidebars = {page.stem: [] for page in Path(__file__).parent.glob("*.md") if page.stem != "api"}
html_sidebars["auto_examples/index"] = []


def _skip_foreign_members(app, what, name, obj, skip, options):
    """Document only what cvinference defines: not what a class inherits from scikit-learn or Python."""
    function = getattr(obj, "fget", None) or getattr(obj, "__func__", None) or obj
    module = getattr(function, "__module__", None) or ""
    if what == "class" and not module.startswith("cvinference"):
        return True
    return None


def _attribute_doc(name):
    """The docstring written under a constant's assignment in the module that defines it, as lines."""
    package_name, _, attribute = name.rpartition(".")
    package = importlib.import_module(package_name)
    value = getattr(package, attribute)
    modules = [package_name, *(info.name for info in pkgutil.walk_packages(package.__path__, package_name + "."))]
    for module_name in modules:
        module = importlib.import_module(module_name)
        if getattr(module, attribute, None) is value:
            doc = ModuleAnalyzer.for_module(module_name).find_attr_docs().get(("", attribute))
            if doc:
                return list(doc)
    return []


def _document_constants(app, what, name, obj, options, lines):
    """A constant's page shows its own docstring, not that of its type (``tuple``, ``int``)."""
    if what == "data":
        lines[:] = _attribute_doc(name)


def setup(app):
    app.connect("autodoc-skip-member", _skip_foreign_members)
    app.connect("autodoc-process-docstring", _document_constants)

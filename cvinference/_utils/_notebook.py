"""Results in notebooks: an HTML view of ``summary()`` and tables through optional pandas."""

import html


def summary_html(result):
    """``result.summary()`` as an HTML-escaped ``<pre>`` block, for Jupyter's ``_repr_html_``."""
    return f"<pre>{html.escape(result.summary())}</pre>"


def import_pandas():
    """The pandas module, or an ImportError that says how to install it."""
    try:
        import pandas
    except ImportError as error:
        raise ImportError("to_frame needs pandas; install it with pip install 'cvinference[pandas]'") from error
    return pandas

"""Tables as polars DataFrames (the ``polars`` extra): any result's or record's ``to_frame()``, column by column."""


def to_polars(table):
    """A polars DataFrame of ``table``: a result or record (its ``to_frame()``), or a pandas DataFrame.

    Every ``to_frame()`` of the package returns pandas; this gives the same
    columns, in the same order, as polars, column by column (no pyarrow
    needed).

    Parameters
    ----------
    table : object with ``to_frame()``, or pandas.DataFrame
        What to convert.

    Returns
    -------
    polars.DataFrame

    Raises
    ------
    ImportError
        Without polars, saying how to install it.
    TypeError
        For an object that is neither.

    Examples
    --------
    >>> from cvinference import CVResult
    >>> from cvinference.report import to_polars
    >>> to_polars(CVResult(y_true=["a", "b"], y_pred=["a", "a"], fold=[0, 1])).columns
    ['repeat', 'instance', 'fold', 'y_true', 'y_pred', 'correct', 'loss']
    """
    try:
        import polars
    except ImportError:
        raise ImportError("to_polars needs polars; install it with pip install 'cvinference[polars]'") from None
    frame = table.to_frame() if hasattr(table, "to_frame") else table
    if not (hasattr(frame, "columns") and hasattr(frame, "__getitem__")):
        raise TypeError(f"table must be a result or record with to_frame(), or a pandas DataFrame; got "
                        f"{type(table).__name__}.")
    return polars.DataFrame({str(column): frame[column].to_numpy() for column in frame.columns})

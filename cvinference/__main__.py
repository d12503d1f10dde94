"""``python -m cvinference``: the command line (``cvinference.cli._entry``, which takes Ctrl-C in hand first)."""

if __name__ == "__main__":
    from .cli._entry import run

    run()

"""Puts ``tests/`` on ``sys.path`` (pytest's rootdir-based import of a conftest without ``__init__.py``),
so that every test module can import the shared case builder ``result_cases``."""

"""Sphinx configuration for trustme-analysis (built by .ci/run with ``sphinx-build -W``)."""

project = "trustme-analysis"
author = "trustme-analysis developers"
copyright = "2026, trustme-analysis developers"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
]

autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
napoleon_google_docstring = True
napoleon_numpy_docstring = False
# pyspiel is a compiled extension: its classes have no Python source for viewcode, and their signatures are not
# introspectable, which is expected rather than a documentation error.
# "ref.python": a type hint written as a bare class name that several game packages define (``Rules`` in annotations
# under ``from __future__ import annotations``) is ambiguous to Sphinx; docstrings name such classes fully qualified.
suppress_warnings = ["autodoc.import_object", "ref.python"]
nitpicky = False

exclude_patterns = ["_build"]
html_theme = "alabaster"

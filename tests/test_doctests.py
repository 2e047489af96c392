"""Every example in a docstring of the two packages runs (doctest), module by module."""

import doctest
import importlib
import pkgutil

import pytest

import cfr
import trustme_analysis


def _modules():
    for package in (trustme_analysis, cfr):
        yield package.__name__
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not info.name.endswith("__main__"):
                yield info.name


MODULES = list(_modules())


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_some_modules_have_examples():
    tried = sum(doctest.testmod(importlib.import_module(n), optionflags=doctest.ELLIPSIS).attempted for n in MODULES)
    assert tried >= 7

"""Marks the node ids listed in ``tests/slow_tests.txt`` as ``slow``.

``make test`` deselects slow tests (``-m "not slow"`` in setup.cfg) so that it stays near
10 minutes on 2 cores; ``make test-all`` runs them.  The list holds the slowest tests of a
measured clean-clone run (mostly cold compiles of large adjoints); tests whose cost is known
when written carry ``@pytest.mark.slow`` themselves.
"""
import pathlib

import pytest

_LIST = pathlib.Path(__file__).with_name("slow_tests.txt")
SLOW = {line.strip() for line in _LIST.read_text().splitlines()
        if line.strip() and not line.startswith("#")}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.nodeid in SLOW:
            item.add_marker(pytest.mark.slow)

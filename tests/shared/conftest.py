"""A real S3-protocol server (moto's server mode) on loopback, one per test module."""

from __future__ import annotations

import logging

import pytest


@pytest.fixture(scope="module")
def s3():
    from testkit.s3 import S3Server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    with S3Server() as server:
        yield server

"""The object-storage servers the shared-library tests run against, each on loopback, started by the tests themselves:
moto's S3 server (one per test module, as ``s3``), and, once per session, fake-gcs-server for Google Cloud Storage and
Azurite for Azure Blob Storage (testkit.gcs, testkit.azure). ``store`` runs a test once on each of the three.

A server that cannot run here (Node.js or an install missing) skips its tests with the reason, except where
``CI`` is set or ``COURTROOM_REQUIRE_EMULATORS=1``: there the tests fail on it instead.
"""

from __future__ import annotations

import logging

import pytest

STORES = ("s3", "gs", "az")


def _serve(factory):
    from testkit.object_store import Unavailable, emulators_required

    server = factory()
    try:
        server.start()
    except Unavailable as exc:
        server.stop()
        if emulators_required():
            pytest.fail(f"{server.name} emulator unavailable, and CI or COURTROOM_REQUIRE_EMULATORS=1 requires it: "
                        f"{exc}", pytrace=False)
        pytest.skip(f"{server.name} tests skipped: {exc}")
    except BaseException:
        server.stop()
        raise
    return server


@pytest.fixture(scope="module")
def s3():
    from testkit.s3 import S3Server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = _serve(S3Server)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def gcs():
    from testkit.gcs import GCSServer

    server = _serve(GCSServer)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def azure():
    from testkit.azure import AzuriteServer

    server = _serve(AzuriteServer)
    yield server
    server.stop()


@pytest.fixture(params=STORES)
def store(request):
    """The test's object store: S3 (moto), Google Cloud Storage (fake-gcs-server) or Azure Blob Storage (Azurite)."""
    return request.getfixturevalue({"s3": "s3", "gs": "gcs", "az": "azure"}[request.param])

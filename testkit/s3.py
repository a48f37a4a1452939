"""A real S3-protocol server on loopback for the tests of a library on object storage: moto's server mode (a
Werkzeug HTTP server speaking the S3 REST API, conditional writes included), one bucket, and the ``LibraryLocation``
that reaches it with test credentials (never real ones)."""

from __future__ import annotations

from typing import Self

ACCESS_KEY = "courtroom-test"
SECRET_KEY = "courtroom-test-secret"


class S3Server:
    def __init__(self, bucket: str = "team-library") -> None:
        self.bucket = bucket
        self._server = None
        self.endpoint = ""

    def __enter__(self) -> Self:
        from moto.server import ThreadedMotoServer

        self._server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        self._server.start()
        host, port = self._server.get_host_and_port()
        self.endpoint = f"http://{host}:{port}"
        self.client().create_bucket(Bucket=self.bucket)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.stop()

    def client(self):
        import boto3

        return boto3.client("s3", endpoint_url=self.endpoint, aws_access_key_id=ACCESS_KEY,
                            aws_secret_access_key=SECRET_KEY, region_name="us-east-1")

    def uri(self, prefix: str = "library") -> str:
        return f"s3://{self.bucket}/{prefix}"

    def location(self, prefix: str = "library", read_only: bool = False):
        from courtroom_desktop.core.library.shared.location import LibraryLocation

        options = {"aws_endpoint": self.endpoint, "allow_http": "true", "aws_region": "us-east-1",
                   "aws_access_key_id": ACCESS_KEY, "aws_secret_access_key": SECRET_KEY}
        return LibraryLocation(self.uri(prefix), "s3", read_only, options)

    def keys(self, prefix: str = "") -> list[str]:
        pages = self.client().get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=prefix)
        return [item["Key"] for page in pages for item in page.get("Contents", [])]

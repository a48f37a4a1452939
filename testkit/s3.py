"""A real S3-protocol server on loopback for the tests of a library on object storage: moto's server mode (a
Werkzeug HTTP server speaking the S3 REST API, conditional writes included), one bucket, and the ``LibraryLocation``
that reaches it with test credentials (never real ones). The other stores' servers: testkit.gcs, testkit.azure."""

from __future__ import annotations

from testkit.object_store import ObjectStoreServer

ACCESS_KEY = "courtroom-test"
SECRET_KEY = "courtroom-test-secret"


class S3Server(ObjectStoreServer):
    kind = "s3"
    name = "S3"

    def __init__(self, bucket: str = "team-library") -> None:
        super().__init__(bucket)
        self._server = None

    def start(self) -> None:
        from moto.server import ThreadedMotoServer

        self._server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        self._server.start()
        host, port = self._server.get_host_and_port()
        self.endpoint = f"http://{host}:{port}"
        self.client().create_bucket(Bucket=self.bucket)

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None

    def client(self):
        import boto3

        return boto3.client("s3", endpoint_url=self.endpoint, aws_access_key_id=ACCESS_KEY,
                            aws_secret_access_key=SECRET_KEY, region_name="us-east-1")

    def options(self) -> dict[str, str]:
        return {"aws_endpoint": self.endpoint, "allow_http": "true", "aws_region": "us-east-1", **self.credentials()}

    def credentials(self) -> dict[str, str]:
        return {"aws_access_key_id": ACCESS_KEY, "aws_secret_access_key": SECRET_KEY}

    def environment(self) -> dict[str, str]:
        return {"AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET_KEY}

    def keys(self, prefix: str = "") -> list[str]:
        pages = self.client().get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=prefix)
        return [item["Key"] for page in pages for item in page.get("Contents", [])]

"""Test kit: helpers shared by the test suite (``tests/``), the stress harness (``stress/``), the benchmarks
(``bench/``) and ``scripts/make_samples.py``; the product (``courtroom_desktop``) never imports it, and it is not
shipped with the app.

    pdfgen        real PDFs rendered from structured text (sample library, test and benchmark documents)
    loopback      the loopback HTTP server the fakes share (thread, port, start/stop, request log); free_port
    fake_ollama   FakeOllama, a loopback server speaking enough of Ollama's HTTP API
    fake_openai   FakeOpenAI, a loopback OpenAI-compatible server that checks the API key
    keyrings      MemoryKeyring and BrokenKeyring, in-memory keyring backends standing for the OS keyring
    s3, gcs, azure  object-storage servers on loopback (moto, fake-gcs-server, Azurite) for shared libraries;
                  object_store: what they share
"""

"""The core's services: the only way into the core for the window (``ui``) and the command line (``cli``), beside the
records (``core.records``, ``core.court.records``), the settings (``core.config``) and the errors (``core.errors``).
An import-linter contract in pyproject.toml holds them to that.

    services.trials      a workspace's use cases (ingest, search, start, resume, export: ``Workspace``), decisions,
                         a stored trial's state
    services.library     notes, watched folders, a text document's text, the embedder's identity and where it sends
                         text, the cancel token of long work
    services.models      the model servers on this computer, pulls, the doctor, API keys, the demo label, where each
                         role's text goes
    services.export      what a report and a decision memo say
    services.evaluation  the evaluation harnesses behind `courtroom eval`
    services.check       a draft's sentences with their locations, and the claims worth checking in it

Each service looks its names up when they are used (``_lazy``), so importing one costs nothing until then.
"""

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

#: The core modules a first run of the window needs, in that order: the trial list and records (pydantic), the library
#: (numpy, PyMuPDF, pyarrow) and its vector store, the ONNX embedder's runner, retrieval, the court's engine, the
#: embedded chat model's wrapper, and the report writers. The window's first worker imports them ahead, one at a time
#: (ui/warmup.py), so that no use case imports them on the window's thread; the core names its own modules here.
FIRST_IMPORTS = (
    "courtroom_desktop.core.court.store",
    "courtroom_desktop.core.library.library",
    "courtroom_desktop.core.library.store.vectors",
    "courtroom_desktop.core.library.embed.onnx",
    "courtroom_desktop.core.retrieval.retriever",
    "courtroom_desktop.core.court.engine",
    "courtroom_desktop.core.llm.embedded",
    "courtroom_desktop.core.reports",
)

"""One exception tree for the whole core.

    CourtroomError
     +-- ConfigError        a setting is missing or invalid (names the field and the file)
     +-- IngestError        one file could not be ingested (names the file and the reason)
     +-- LibraryError       the library stores are unusable or disagree
     +-- RetrievalError     a search could not run
     +-- ModelError         a chat model failed (names role, provider, model and what came back)
     |    +-- ModelUnavailable   server down, model missing, timed out
     +-- TrialError         a trial cannot start or resume
     +-- ReportError        a report could not be written
     +-- Cancelled          the user cancelled long work

Errors from PyMuPDF, LanceDB, tantivy, httpx and the model providers are mapped into this tree
where they enter the core, so the window and the command line only ever show these messages.
"""

from __future__ import annotations


class CourtroomError(Exception):
    """Base of every error the core raises on purpose; its message is meant for a person."""


class ConfigError(CourtroomError):
    pass


class IngestError(CourtroomError):
    def __init__(self, path: str, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class LibraryError(CourtroomError):
    pass


class RetrievalError(CourtroomError):
    pass


class ModelError(CourtroomError):
    def __init__(self, message: str, *, role: str = "", provider: str = "", model: str = "",
                 raw: str = ""):
        where = "/".join(p for p in (role, provider, model) if p)
        super().__init__(f"[{where}] {message}" if where else message)
        self.role = role
        self.provider = provider
        self.model = model
        self.raw = raw


class ModelUnavailable(ModelError):
    pass


class TrialError(CourtroomError):
    pass


class ReportError(CourtroomError):
    pass


class Cancelled(CourtroomError):
    def __init__(self, message: str = "cancelled"):
        super().__init__(message)

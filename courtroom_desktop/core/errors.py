"""One exception tree for the whole core.

    CourtroomError
     +-- ConfigError        a setting is missing or invalid (names the field and the file)
     +-- IngestError        one file could not be ingested (names the file and the reason)
     +-- CheckError         a draft could not be read for checking (names the file and the reason)
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

from typing import TYPE_CHECKING

from courtroom_desktop.core.lexicon.message import Message

if TYPE_CHECKING:
    from courtroom_desktop.core.records import Usage


class CourtroomError(Exception):
    """Base of every error the core raises on purpose; its message is meant for a person.

    reason: what went wrong, without the where that the message may add (a file, a role); the message by default.
    fix:    what a person can do about it ("" when there is nothing obvious); the window and the doctor show it.
    """

    def __init__(self, message: str = "", *, reason: str = "", fix: str = ""):
        super().__init__(message)
        self.message = message
        self.reason = reason or message
        self.fix = fix

    def __str__(self) -> str:
        """The message as it was given: a core message (lexicon.message.Message) stays one, so that ``str(exc)``
        can still be said in another language."""
        return self.message


class ConfigError(CourtroomError):
    pass


class IngestError(CourtroomError):
    def __init__(self, path: str, reason: str, *, fix: str = ""):
        super().__init__(Message("{path}: {reason}", path, reason), reason=reason, fix=fix)
        self.path = path


class CheckError(CourtroomError):
    """A draft to check could not be read (an encrypted or scanned PDF, a damaged .docx, an unknown extension)."""

    def __init__(self, path: str, reason: str, *, fix: str = ""):
        super().__init__(Message("{path}: {reason}", path, reason), reason=reason, fix=fix)
        self.path = path


class LibraryError(CourtroomError):
    pass


class RetrievalError(CourtroomError):
    pass


class ModelError(CourtroomError):
    """role, provider, model: where it happened (prefixed to the message); raw: what the model answered last;
    first_raw: its first answer when a retry failed too; usage: what the failed calls cost (a records.Usage)."""

    def __init__(self, message: str, *, role: str = "", provider: str = "", model: str = "", raw: str = "",
                 fix: str = "", first_raw: str = "", usage: Usage | None = None):
        where = "/".join(p for p in (role, provider, model) if p)
        super().__init__(Message("[{where}] {message}", where, message) if where else message, reason=message, fix=fix)
        self.role = role
        self.provider = provider
        self.model = model
        self.raw = raw
        self.first_raw = first_raw
        self.usage = usage

    def for_role(self, role: str, provider: str, model: str) -> ModelError:
        """The same error, naming the role (and the provider and model where it did not): for errors raised below
        the role's level (model loading, file lookup)."""
        if self.role:
            return self
        return type(self)(self.reason, role=role, provider=self.provider or provider, model=self.model or model,
                          raw=self.raw, fix=self.fix, first_raw=self.first_raw, usage=self.usage)


class ModelUnavailable(ModelError):
    pass


class TrialError(CourtroomError):
    pass


class ReportError(CourtroomError):
    pass


class Cancelled(CourtroomError):
    def __init__(self, message: str = "cancelled"):
        super().__init__(message)

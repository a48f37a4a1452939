"""Courtroom Desktop: put a claim on trial against your own PDF library."""

__version__ = "0.1.0"
APP_NAME = "Courtroom Desktop"
APP_ID = "courtroom-desktop"

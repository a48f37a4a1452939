"""The window: PySide6 + qasync, thin widgets and Qt models over core records."""

"""Widgets: the window's panels. They show models, call controllers and open dialogs; none awaits core code. The
building blocks they share with the dialogs (buttons, tables, the wrapping row) are in ``ui.controls``."""

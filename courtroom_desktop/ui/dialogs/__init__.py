"""Dialogs: settings, export, scope, keyboard shortcuts."""

"""Widgets: they show models and call controllers; none awaits core code."""

"""JSON schemas as llama.cpp's grammar compiler sees them.

llama.cpp turns a JSON schema into a sampling grammar, but ignores numeric bounds: ``confidence`` with
``minimum: 0, maximum: 1`` may still come out as ``7``, which the pydantic validation then rejects (the bundled
135M model did so in about a third of its rulings). :func:`grammar_schema` rewrites every bounded number or integer
into an ``enum`` of the values in its range (numbers on a grid of 0.01, 0.1 or 1 depending on the width), which the
grammar does enforce. Strings, objects and unbounded numbers pass through unchanged. The prompt still shows the
original schema; only the grammar sees this one.
"""

from __future__ import annotations

import copy
import math
from typing import Any

#: Most values one bounded number may expand to (beyond that, it is left unbounded).
MAX_ENUM = 401


def _grid(low: float, high: float, step: float, integer: bool) -> list[Any] | None:
    count = math.floor((high - low) / step + 1e-9) + 1
    if count < 1 or count > MAX_ENUM:
        return None
    values: list[Any] = []
    for k in range(count):
        value = low + k * step
        if integer:
            values.append(int(round(value)))
        else:
            value = round(value, 6)
            values.append(int(value) if value == int(value) else value)
    return values


def _bounded_values(node: dict[str, Any]) -> list[Any] | None:
    kind = node.get("type")
    if kind not in ("number", "integer") or "enum" in node or "const" in node:
        return None
    low = node.get("minimum")
    high = node.get("maximum")
    exclusive_low = node.get("exclusiveMinimum")
    exclusive_high = node.get("exclusiveMaximum")
    integer = kind == "integer"
    low_bound = low if low is not None else exclusive_low
    high_bound = high if high is not None else exclusive_high
    if low_bound is None or high_bound is None:
        return None
    lo = float(low_bound)
    hi = float(high_bound)
    width = hi - lo
    if width < 0:
        return None
    if integer:
        lo, hi, step = math.ceil(lo), math.floor(hi), 1.0
    else:
        step = 0.01 if width <= 4 else 0.1 if width <= 40 else 1.0
        lo = math.ceil(lo / step - 1e-9) * step
    values = _grid(lo, hi, step, integer)
    if values is None:
        return None
    if exclusive_low is not None and low is None:
        values = [v for v in values if v > exclusive_low]
    if exclusive_high is not None and high is None:
        values = [v for v in values if v < exclusive_high]
    return values or None


def _rewrite(node: Any) -> Any:
    if isinstance(node, list):
        return [_rewrite(item) for item in node]
    if not isinstance(node, dict):
        return node
    values = _bounded_values(node)
    if values is not None:
        kept = {k: v for k, v in node.items() if k in ("title", "description", "default")}
        return {**kept, "enum": values}
    return {key: _rewrite(value) for key, value in node.items()}


def grammar_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``schema`` whose bounded numbers are enums, for llama.cpp's grammar."""
    rewritten: dict[str, Any] = _rewrite(copy.deepcopy(schema))
    return rewritten

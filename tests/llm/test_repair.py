"""The repair helper: pure functions that turn a model's answer into a validated object."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel, Field

from courtroom_desktop.core.llm.repair import (
    RepairError,
    balanced_objects,
    extract_json_object,
    fenced_blocks,
    parse_structured,
    strip_think,
)


class Verdict(BaseModel):
    label: Literal["supported", "refuted", "mixed", "insufficient evidence"]
    confidence: float = Field(ge=0, le=1)
    findings: list[str] = []


GOOD = '{"label": "refuted", "confidence": 0.8, "findings": ["[E1] says otherwise"]}'


# ---------------------------------------------------------------- strip_think

def test_strip_think_removes_closed_blocks_and_keeps_the_answer():
    assert strip_think("<think>the user wants {json}</think>\n" + GOOD) == GOOD


def test_strip_think_removes_several_blocks_case_insensitively():
    text = "<THINK>a</THINK>x<thinking>b {c}</thinking>y"
    assert strip_think(text) == "xy"


def test_strip_think_unclosed_block_hides_the_rest():
    assert strip_think('{"a": 1}\n<think>and then {"b": 2}') == '{"a": 1}'


def test_strip_think_lone_closing_tag_hides_what_precedes():
    # Some models omit the opening tag (the template opened it).
    assert strip_think('I reason {"x": 1} here</think>' + GOOD) == GOOD


def test_strip_think_leaves_plain_text_alone():
    assert strip_think("  no tags at all  ") == "no tags at all"


# ---------------------------------------------------------------- fences and balanced objects

def test_fenced_blocks_finds_language_tagged_and_bare_fences():
    text = "a\n```json\n{\"x\": 1}\n```\nb\n```\n{\"y\": 2}\n```"
    assert [b.strip() for b in fenced_blocks(text)] == ['{"x": 1}', '{"y": 2}']


def test_fenced_blocks_accepts_an_unterminated_last_fence():
    assert fenced_blocks('```json\n{"x": 1}').pop().strip() == '{"x": 1}'


def test_balanced_objects_ignores_braces_inside_strings_and_escapes():
    text = 'pre {"a": "}{ \\" }", "b": {"c": [1, {"d": 2}]}} post {"e": 3}'
    assert balanced_objects(text) == ['{"a": "}{ \\" }", "b": {"c": [1, {"d": 2}]}}', '{"e": 3}']


def test_balanced_objects_skips_an_unbalanced_opening_brace():
    assert balanced_objects('prose {note and then {"a": 1}') == ['{"a": 1}']


# ---------------------------------------------------------------- extract_json_object

@pytest.mark.parametrize(
    "text",
    [
        GOOD,
        f"Here is the verdict:\n{GOOD}\nLet me know if you need more.",
        f"```json\n{GOOD}\n```",
        f"Sure!\n```JSON\n{GOOD}\n```\nDone.",
        f"<think>Maybe {{\"label\": \"supported\"}}? No.</think>\n```json\n{GOOD}\n```",
        f"{GOOD[:-1]},}}",  # trailing comma
    ],
)
def test_extract_json_object_finds_the_object(text):
    assert extract_json_object(text)["label"] == "refuted"


def test_extract_takes_the_first_parseable_object_after_prose_with_braces():
    text = 'Use the {format} below. {"label": "mixed", "confidence": 0.5} and {"label": "refuted"}'
    assert extract_json_object(text)["label"] == "mixed"


def test_trailing_comma_inside_a_string_is_kept():
    assert extract_json_object('{"a": "x,}", "b": [1, 2,],}') == {"a": "x,}", "b": [1, 2]}


def test_extract_closes_an_object_cut_off_by_the_token_limit():
    # a number cut mid-way is dropped; a string cut mid-way is closed where it stops
    assert extract_json_object('{"label": "refuted", "confidence": 0.') == {"label": "refuted"}
    assert extract_json_object('Here: {"label": "mixed", "summary": "The trials dis') == {
        "label": "mixed", "summary": "The trials dis"}
    assert extract_json_object('{"a": [1, {"b": "c"}, 2') == {"a": [1, {"b": "c"}, 2]}


def test_extract_reports_a_truncated_object_with_nothing_complete():
    with pytest.raises(RepairError, match="incomplete"):
        extract_json_object('{"label')


def test_extract_reports_no_object():
    with pytest.raises(RepairError, match="no JSON object"):
        extract_json_object("I cannot answer that.")


def test_extract_reports_an_answer_that_was_only_reasoning():
    with pytest.raises(RepairError, match="empty"):
        extract_json_object("<think>" + GOOD)


def test_raw_newlines_inside_strings_are_accepted():
    raw = '{"summary": "line one' + "\n" + 'line two"}'
    assert extract_json_object(raw)["summary"] == "line one\nline two"


def test_extract_reports_an_object_that_is_not_json():
    with pytest.raises(RepairError, match="not valid JSON"):
        extract_json_object("{'label': 'refuted'}")


def test_a_json_array_is_not_an_object():
    with pytest.raises(RepairError):
        extract_json_object("[1, 2, 3]")


# ---------------------------------------------------------------- parse_structured

def test_parse_structured_returns_a_validated_instance():
    verdict = parse_structured(f"```json\n{GOOD}\n```", Verdict)
    assert isinstance(verdict, Verdict)
    assert verdict.confidence == 0.8 and verdict.findings == ["[E1] says otherwise"]


def test_parse_structured_names_the_failing_field():
    with pytest.raises(RepairError) as info:
        parse_structured('{"label": "refuted", "confidence": 1.7}', Verdict)
    assert "confidence" in info.value.reason
    assert "less than or equal to 1" in info.value.reason
    assert info.value.text == '{"label": "refuted", "confidence": 1.7}'


def test_parse_structured_names_a_bad_enum_value():
    with pytest.raises(RepairError) as info:
        parse_structured('{"label": "true", "confidence": 0.5}', Verdict)
    assert "label" in info.value.reason


def test_parse_structured_unwraps_a_single_wrapper_object():
    assert parse_structured('{"Verdict": ' + GOOD + "}", Verdict).label == "refuted"


def test_parse_structured_unwraps_a_schema_echo():
    echo = '{"type": "object", "properties": ' + GOOD + "}"
    assert parse_structured(echo, Verdict).confidence == 0.8


def test_parse_structured_does_not_invent_missing_fields():
    with pytest.raises(RepairError, match="label"):
        parse_structured('{"confidence": 0.5}', Verdict)

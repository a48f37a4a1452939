"""The reviewer's edits of a draft's claims (edit, merge, split, add a sentence) and the claims file (round trip, a
hand-edited file, the CLI's --list-claims --json output, broken files), on English and Chinese drafts: pasted text,
a Word .docx and a Markdown file."""

from __future__ import annotations

import json

import pytest

from courtroom_desktop.core.check.claims import find_claims
from courtroom_desktop.core.check.drafts import Location, read_draft, read_text
from courtroom_desktop.core.check.review import (
    add_sentence,
    dump_claims,
    edit,
    from_found,
    load_claims_file,
    merge,
    split,
)
from courtroom_desktop.core.errors import CheckError

EN = ("Bus ridership rose by 18% between 2014 and 2023. I enjoy cycling on sunny mornings.\n\n"
      "Most commuters now live near a stop. The new lines are faster than driving at rush hour.")
ZH = "据统计，2023年新能源汽车销量约为９５０万辆。我喜欢晴天骑车。\n\n大多数城市已经实行了新的排放标准。绿茶中的茶多酚含量高于红茶。"


def _paragraphs(text: str) -> dict[int, str]:
    return {n: p.strip() for n, p in enumerate(text.split("\n\n"), start=1)}


def _at(paragraphs: dict[int, str], location: Location) -> str:
    assert location.kind == "paragraph" and location.start is not None
    return paragraphs[location.paragraph][location.start:location.end]


def test_from_found_keeps_each_sentence_and_its_place():
    draft = read_text(EN)
    claims = from_found(find_claims(draft.sentences))
    assert [c.text for c in claims] == ["Bus ridership rose by 18% between 2014 and 2023.",
                                        "Most commuters now live near a stop.",
                                        "The new lines are faster than driving at rush hour."]
    assert [c.sentences for c in claims] == [(0,), (2,), (3,)]
    assert all(c.origin == "rules" and c.why for c in claims)
    assert claims[0].locations == (draft.sentences[0].location,)
    assert from_found(find_claims(draft.sentences), origin="model")[0].origin == "model"


def test_edit_keeps_the_place_and_refuses_empty_text():
    draft = read_text(EN)
    claim = from_found(find_claims(draft.sentences))[0]
    edited = edit(claim, "  Bus ridership rose by 18 percent.  ")
    assert (edited.text, edited.origin, edited.locations, edited.sentences, edited.why) == (
        "Bus ridership rose by 18 percent.", "edited", claim.locations, claim.sentences, claim.why)
    with pytest.raises(CheckError) as caught:
        edit(claim, "   ")
    assert "empty" in caught.value.reason and caught.value.fix


def test_merge_english_and_chinese_in_draft_order():
    draft = read_text(EN)
    claims = from_found(find_claims(draft.sentences))
    merged = merge([claims[2], claims[1]])  # chosen out of order: merged in draft order
    assert merged.text == "Most commuters now live near a stop. The new lines are faster than driving at rush hour."
    assert merged.sentences == (2, 3) and merged.origin == "merged"
    assert merged.locations == (draft.sentences[2].location, draft.sentences[3].location)
    assert merged.why == ("quantifier", "comparison")

    zh = read_text(ZH)
    zh_claims = from_found(find_claims(zh.sentences))
    zh_merged = merge(zh_claims[1:])
    assert zh_merged.text == "大多数城市已经实行了新的排放标准。绿茶中的茶多酚含量高于红茶。"  # no space between CJK
    assert zh_merged.sentences == (2, 3)
    for few in ([], claims[:1]):
        with pytest.raises(CheckError, match="two claims or more"):
            merge(few)


def test_split_narrows_a_paragraph_span_to_each_part():
    draft = read_text(EN)
    paragraphs = _paragraphs(EN)
    claim = from_found(find_claims(draft.sentences))[2]  # "The new lines are faster than driving at rush hour."
    at = claim.text.index(" than")
    left, right = split(claim, at)
    assert (left.text, right.text) == ("The new lines are faster", "than driving at rush hour.")
    assert left.origin == right.origin == "split" and left.sentences == right.sentences == (3,)
    assert _at(paragraphs, left.locations[0]) == left.text and _at(paragraphs, right.locations[0]) == right.text
    # merged back, the two halves stand at the whole sentence again
    again = merge([left, right])
    assert again.text == claim.text and again.locations == claim.locations

    zh = read_text(ZH)
    zh_claim = from_found(find_claims(zh.sentences))[0]  # 据统计，2023年新能源汽车销量约为９５０万辆。
    a, b = split(zh_claim, zh_claim.text.index("2023"))
    assert (a.text, b.text) == ("据统计，", "2023年新能源汽车销量约为９５０万辆。")
    assert _at(_paragraphs(ZH), b.locations[0]) == b.text

    for bad in (0, len(claim.text), -3, len(claim.text) + 5):
        with pytest.raises(CheckError, match="empty"):
            split(claim, bad)


def test_split_of_a_merged_or_edited_claim_keeps_all_its_locations():
    draft = read_text(EN)
    claims = from_found(find_claims(draft.sentences))
    merged = merge(claims[1:])
    left, right = split(merged, merged.text.index(" The new"))
    assert left.locations == right.locations == merged.locations
    edited = edit(claims[0], "Bus ridership rose by 18% since 2014, a big jump.")
    a, b = split(edited, 10)
    assert a.locations == b.locations == claims[0].locations


def test_add_sentence_and_a_bad_index():
    draft = read_text(EN)
    added = add_sentence(draft, 1)
    assert (added.text, added.sentences, added.locations, added.origin) == (
        "I enjoy cycling on sunny mornings.", (1,), (draft.sentences[1].location,), "added")
    with pytest.raises(CheckError) as caught:
        add_sentence(draft, 7)
    assert "sentence 7" in caught.value.reason and "pasted text" in str(caught.value)


def _docx(path, paragraphs):
    import docx

    document = docx.Document()
    document.add_heading("Transport report", level=1)
    for text in paragraphs:
        document.add_paragraph(text)
    document.save(str(path))
    return path


def test_claims_file_round_trip_on_a_word_draft(tmp_path):
    draft = read_draft(_docx(tmp_path / "draft.docx", EN.split("\n\n") + [ZH.split("\n\n")[0]]))
    found = from_found(find_claims(draft.sentences))
    texts = [c.text for c in found]
    assert texts[0].startswith("Bus ridership") and texts[-1].startswith("据统计")
    left, right = split(found[1], found[1].text.index(" now"))
    claims = [edit(found[0], "Bus ridership rose by 18 percent from 2014 to 2023."), left, right,
              merge([found[2], found[3]]), add_sentence(draft, 1)]
    path = tmp_path / "claims.json"
    path.write_text(dump_claims(claims), encoding="utf-8")
    assert load_claims_file(path, draft) == claims


def test_the_cli_json_output_loads_as_a_claims_file(tmp_path):
    draft = read_text(ZH)
    found = find_claims(draft.sentences)
    path = tmp_path / "claims.json"  # what `courtroom check DRAFT --list-claims --json` prints
    path.write_text(json.dumps({"draft": draft.source, "kind": draft.kind, "language": draft.language,
                                "sentences": len(draft.sentences), "claims": [c.model_dump() for c in found]},
                               ensure_ascii=False, indent=2), encoding="utf-8")
    assert load_claims_file(path, draft) == from_found(found)


def test_a_hand_edited_markdown_claims_file(tmp_path):
    md = tmp_path / "draft.md"
    md.write_text("# Commuting\n\n" + EN + "\n\n## 中文\n\n" + ZH + "\n", encoding="utf-8")
    draft = read_draft(md)
    paragraphs = {2: EN.split("\n\n")[0], 3: EN.split("\n\n")[1], 5: ZH.split("\n\n")[0], 6: ZH.split("\n\n")[1]}
    path = tmp_path / "claims.json"
    path.write_text(json.dumps([
        "ridership rose by 18%",                                          # a part of a sentence: its own span
        {"text": "most commuters   now live\nnear a stop."},             # spaces and case differ
        {"text": "The new lines beat driving at rush hour, being faster.", "why": "comparison"},  # reworded
        {"text": "Most commuters now live near a stop.", "sentences": [0]},  # a stale sentence index: found anyway
        "2023年新能源汽车销量约为９５０万辆",                                 # Chinese, a part
        "绿茶中茶多酚的含量比红茶高。",                                      # Chinese, reworded: characters overlap
        {"text": "I enjoy cycling on sunny mornings. Most commuters now live near a stop.", "sentences": [1, 2]},
    ], ensure_ascii=False, indent=1), encoding="utf-8")
    claims = load_claims_file(path, draft)
    assert [c.sentences for c in claims] == [(0,), (2,), (3,), (2,), (4,), (7,), (1, 2)]
    part = claims[0]
    assert part.text == "ridership rose by 18%" and _at(paragraphs, part.locations[0]) == part.text
    assert part.origin == "added"
    assert _at(paragraphs, claims[1].locations[0]) == "Most commuters now live near a stop."
    reworded = claims[2]
    assert reworded.text.startswith("The new lines beat") and reworded.origin == "edited"
    assert reworded.locations == (draft.sentences[3].location,) and reworded.why == ("comparison",)
    assert _at(paragraphs, claims[4].locations[0]) == "2023年新能源汽车销量约为９５０万辆"
    assert claims[5].locations == (draft.sentences[7].location,)
    assert [_at(paragraphs, loc) for loc in claims[6].locations] == ["I enjoy cycling on sunny mornings.",
                                                                      "Most commuters now live near a stop."]


def test_a_claim_not_in_the_draft_is_refused_with_its_item_number(tmp_path):
    draft = read_text(EN)
    path = tmp_path / "claims.json"
    path.write_text(json.dumps({"claims": [{"text": "Most commuters now live near a stop."},
                                           {"text": "Tram fares doubled in Vienna last winter."}]}), encoding="utf-8")
    with pytest.raises(CheckError) as caught:
        load_claims_file(path, draft)
    message = str(caught.value)
    assert "claims.json" in message and "claim 2" in message and "Tram fares doubled" in message
    assert "claim 2" in caught.value.fix

    path.write_text(json.dumps([{"why": ["number"]}]), encoding="utf-8")
    with pytest.raises(CheckError, match="claim 1 has no text"):
        load_claims_file(path, draft)


def test_broken_json_names_the_file_and_the_line(tmp_path):
    draft = read_text(EN)
    path = tmp_path / "claims.json"
    path.write_text('[\n  "Most commuters now live near a stop.",\n  "Bus ridership rose"\n  "oops"\n]\n',
                    encoding="utf-8")
    with pytest.raises(CheckError) as caught:
        load_claims_file(path, draft)
    assert "claims.json" in str(caught.value) and "line 4" in caught.value.reason and "line 4" in caught.value.fix
    path.write_text('{"items": []}', encoding="utf-8")
    with pytest.raises(CheckError, match="claims"):
        load_claims_file(path, draft)
    with pytest.raises(CheckError, match="not found"):
        load_claims_file(tmp_path / "missing.json", draft)



def test_a_list_of_check_claims_as_dumped_by_pydantic_loads_too(tmp_path):
    draft = read_text(EN)
    claims = from_found(find_claims(draft.sentences))
    claims = [claims[0], *split(claims[1], claims[1].text.index(" now"))]
    path = tmp_path / "claims.json"  # `courtroom check --list-claims --json` printing CheckClaim records
    path.write_text(json.dumps({"claims": [c.model_dump(mode="json") for c in claims]}), encoding="utf-8")
    assert load_claims_file(path, draft) == claims


def test_half_the_words_is_not_enough_to_place_a_reworded_claim(tmp_path):
    draft = read_text(EN)
    path = tmp_path / "claims.json"
    path.write_text(json.dumps(["Bus fares tripled in Oslo."]), encoding="utf-8")  # bus, fares, tripled, oslo: 1 of 4
    with pytest.raises(CheckError, match="claim 1 .*not in the draft"):
        load_claims_file(path, draft)
    path.write_text(json.dumps(["Bus ridership grew 18% since 2014."]), encoding="utf-8")  # 4 of 6 words
    assert load_claims_file(path, draft)[0].sentences == (0,)

"""How the court's reasons read in a language: one template per reason code (``core.court.reasons.Code``) for each
language the reports speak, English and Simplified Chinese.

The court stores reasons, never sentences (why a trial stopped, why the sides switched, why a "ready" was overruled,
the quality guard's flags, warnings, a citation's problem, what a hearing set aside). The window, the command line and
every report render them here with ``say_reason(reason, lang)``; adding a language adds a column to ``TEMPLATES`` and
touches neither the court nor its callers. Text the court did not write (a model's, an exception's message, an
option's name) is a parameter and stays as it is; so does a plain string an earlier version stored (code ``text``).

Templates are ``str.format`` strings over the reason's parameters. A parameter that is a reason is rendered first; one
that is several reasons is rendered and joined with the language's semicolon. Every whole-number parameter ``x`` also
gives ``x_s`` ('s' unless it is 1: English plurals). In Chinese, labels, tendencies, statuses and role names
(parameters in ``TERM_KEYS``) show their Chinese names.

Also here, because the window and the command line show them beside the reasons: what a verdict's confidence rests
on (``rests_on``) and what the verdict rule changed of the judge's draft (``correction``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from courtroom_desktop.core import lexicon
from courtroom_desktop.core.court.reasons import Code, Reason
from courtroom_desktop.core.lexicon import message
from courtroom_desktop.core.reports.words import WORDS, terms

LANGUAGES = lexicon.languages()  # the languages with a table when this module was first imported

TEMPLATES: Mapping[str, Mapping[str, str]] = lexicon.Sections("reason.")
"""The reason templates per language (TEMPLATES[lang][code]): the lexicon's reason. keys."""

# parameters that hold a label, tendency, status or role name: shown by their Chinese names in Chinese
TERM_KEYS = frozenset({"label", "proposed", "leans", "record_label", "status", "role", "side", "evidence_label",
                       "claim_is"})

# parameters some templates need that depend on the language: (params, lang) -> extra fields
_EXTRA: dict[str, Callable[[Mapping[str, Any], str], dict[str, str]]] = {
    Code.warning_private_left_out.value: lambda p, lang: {
        "more_text": lexicon.word(lang, "report.more_documents", more=p["more"]) if p.get("more") else "",
        "roles": str(p.get("roles", "")) if lang == "en" else lexicon.word(lang, "report.list").join(
            lexicon.section(lang, "role.").get(r.strip(), r.strip()) for r in str(p.get("roles", "")).split(",")),
    },
}


def reason_language(lang: str) -> str:
    """The language a reason is worded in: ``lang`` where the table has it, else English."""
    return lang if lang in TEMPLATES else "en"


def _value(key: str, value: Any, lang: str) -> Any:
    if isinstance(value, Reason):
        return say_reason(value, lang)
    if isinstance(value, tuple | list):
        return say_reasons(value, lang)
    if isinstance(value, message.Message):  # a core message in a reason ('the embedding failed: {problem}')
        return message.say(lang, value)
    if lang != "en" and key in TERM_KEYS and isinstance(value, str):
        return terms(lang).get(value, value)
    return value


def _named(value: str, lang: str) -> str:
    """A stored value with its name in ``lang`` first ('支持 (supported)'); as stored in English."""
    name = terms(lang).get(value) if lang != "en" else None
    return f"{name} ({value})" if name and name != value else value


def say_reason(reason: Reason, lang: str = "en") -> str:
    """``reason`` in language ``lang`` ('en' or 'zh'; others read in English). A code the table does not know (a
    newer version's) reads as its code and parameters, never as an error."""
    lang = reason_language(lang)
    template = TEMPLATES[lang].get(reason.code)
    fields = {key: _value(key, value, lang) for key, value in reason.params.items()}
    if template is None:
        return reason.code + (f" ({', '.join(f'{k}: {v}' for k, v in fields.items())})" if fields else "")
    fields.update({f"{key}_s": "" if value == 1 else "s" for key, value in reason.params.items()
                   if isinstance(value, int)})
    extra = _EXTRA.get(reason.code)
    if extra is not None:
        fields.update(extra(reason.params, lang))
    try:
        return template.format(**fields)
    except (KeyError, ValueError, IndexError):  # a stored reason short of a parameter: show what it has
        return template.split("{", 1)[0].rstrip(" :(") or reason.code


def say_reasons(reasons: Iterable[Reason], lang: str = "en") -> str:
    """Several reasons on one line, joined by the language's semicolon."""
    lang = reason_language(lang)
    return WORDS[lang]["semi"].join(say_reason(r, lang) for r in reasons)


def word(key: str, lang: str = "en") -> str:
    """A fixed wording of the reports' table (``core.reports.words``: 'findings', 'quality_flags', ...) in ``lang``,
    for the window and the command line to head what they show as the reports do."""
    return WORDS[reason_language(lang)][key]


# ---------------------------------------------------------------- beside the reasons: the verdict's basis and correction
def rests_on(verdict: Any, lang: str = "en") -> str:
    """'It rests on 2 supporting passages (randomised trial 1, cohort 1) and 1 refuting passage (case report 1).'
    ('' when no assessed passage was cited)."""
    lang = reason_language(lang)
    words = WORDS[lang]
    parts = []
    for key, word in (("supports", "supporting"), ("refutes", "refuting"), ("mixed", "mixed")):
        counts = [(row.level, getattr(row, key)) for row in verdict.basis if getattr(row, key)]
        total = sum(n for _, n in counts)
        if not total:
            continue
        if lang == "en":
            parts.append(f"{total} {word} passage{'s' if total > 1 else ''} ("
                         + ", ".join(f"{level} {n}" for level, n in counts) + ")")
        else:
            levels = words["list"].join(f"{level} {n}" for level, n in counts)
            parts.append(words[f"basis.{key}"].format(n=total, levels=levels))
    if not parts:
        return ""
    if lang == "en":
        return "It rests on " + (", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]) + "."
    joined = words["list"].join(parts[:-1]) + words["and"] + parts[-1] if len(parts) > 1 else parts[0]
    return words["rests_on"].format(parts=joined)


def quality_score(score: Any, lang: str = "en") -> str:
    """One of the quality guard's scores: 'Defense 0.70 (2 turns; no evidence 50%, no question 50%)'."""
    lang = reason_language(lang)
    parts = lexicon.section(lang, "quality.")
    side = parts["trial"] if score.side == "trial" else (terms(lang).get(score.side, score.side) if lang != "en"
                                                          else score.side)
    faults = [f"{parts[k]} {round(getattr(score, k) * 100)}%" for k in ("no_evidence", "weak_challenge", "monologue",
                                                                         "rejected", "no_question")
              if getattr(score, k)]
    turns = parts["turns"].format(n=score.turns, s="" if score.turns == 1 else "s")
    semi, comma = WORDS[lang]["semi"], WORDS[lang]["comma"]
    return f"{side} {score.score:.2f} ({turns}" + (semi + comma.join(faults) if faults else "") + ")"


def evidence_confidence(verdict: Any, lang: str = "en") -> str:
    """The weighed evidence's own label and confidence beside the judge's ('' when the verdict has none)."""
    value = getattr(verdict, "evidence_confidence", None)
    if value is None or verdict.evidence_label is None:
        return ""
    lang = reason_language(lang)

    def name(label: str) -> str:
        return _named(label, lang)

    return WORDS[lang]["evidence_confidence"].format(
        label=name(verdict.evidence_label.value), value=f"{value:.2f}", judge_label=name(verdict.label.value),
        judge_value=f"{verdict.confidence:.2f}")


def correction(verdict: Any, lang: str = "en") -> str:
    """What the verdict rule changed of the judge's draft ('' when the draft stood)."""
    if not verdict.corrected:
        return ""
    lang = reason_language(lang)
    label = (verdict.draft_label or verdict.label).value
    confidence = verdict.draft_confidence if verdict.draft_confidence is not None else verdict.confidence
    label = _named(label, lang)
    return WORDS[lang]["correction"].format(label=label, value=f"{confidence:.2f}")

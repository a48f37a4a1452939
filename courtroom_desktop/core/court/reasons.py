"""What the court says, as reasons: a code and its parameters, never a sentence in a language.

Why a trial stopped, why the sides switched, why a "ready for verdict" was overruled, the quality guard's flags, the
warnings, a citation's problem and the hearing's set-aside notes are ``Reason``s. How each reads in a language is one
table, ``core.reports.wording`` (English and Chinese); the court never writes the sentence. ``Code`` lists every code
the court may emit: the wording table has a template for each (``tests/reports/test_wording.py`` holds them to it).

Text the court did not write (a model's, an exception's message, an option's name) travels in a reason's parameters;
a plain string stored by an earlier version reads as ``Reason(code="text", params={"text": ...})``, shown as stored.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Union

from pydantic import model_validator

from courtroom_desktop.core.records import Frozen, Said


class Code(StrEnum):
    """Every reason code the court emits (the params each takes are in the wording table's templates)."""

    text = "text"                                          # text: as stored (model text, an older version's phrase)
    # why a trial stopped (rules.stop_reason)
    stop_every_option_heard = "stop_every_option_heard"    # options
    stop_round_limit = "stop_round_limit"                  # rounds
    stop_confidence = "stop_confidence"                    # confidence, threshold
    stop_judge_ready = "stop_judge_ready"
    # why the sides switched (rules.switch_reasons)
    switch_judge_asked = "switch_judge_asked"
    switch_tendency_unchanged = "switch_tendency_unchanged"  # leans, rounds
    switch_confidence_stalled = "switch_confidence_stalled"  # moved, rounds, delta, values
    switch_controversy_same = "switch_controversy_same"    # rounds, similarity, threshold, controversy
    switch_few_new_citations = "switch_few_new_citations"  # count, rounds, passages (ids: the new ones)
    # ... as earlier versions stored them (no longer emitted; stored trials still read)
    switch_confidence_flat = "switch_confidence_flat"      # delta, rounds
    switch_controversy_repeats = "switch_controversy_repeats"
    switch_few_new_passages = "switch_few_new_passages"    # passages, rounds
    # why a "ready for verdict", or a confidence at the stopping threshold, was overruled (rules.overrule_reasons)
    overrule_too_early = "overrule_too_early"              # rounds
    overrule_no_grounds = "overrule_no_grounds"
    overrule_confidence_no_grounds = "overrule_confidence_no_grounds"  # confidence, threshold
    # the verdict rule (rules.check_verdict, judge.verdict)
    rule_no_evidence = "rule_no_evidence"                  # label, proposed
    rule_contradiction = "rule_contradiction"              # label, leans, confidence
    rule_label_set = "rule_label_set"                      # label, leans, confidence, record_label
    rule_confidence_capped = "rule_confidence_capped"      # label, confidence, cap
    rule_scored_set = "rule_scored_set"                    # label, record_label, why (scored.decide: the label rule)
    # the quality guard (checks.quality_flags, counsel, rules.trial_flags, judge)
    flag_no_evidence = "flag_no_evidence"
    flag_parallel_monologue = "flag_parallel_monologue"
    flag_weak_challenge = "flag_weak_challenge"
    flag_rejected = "flag_rejected"                        # (rejected twice, counted over turns)
    flag_rejected_twice = "flag_rejected_twice"            # problem
    flag_quote_dropped = "flag_quote_dropped"              # problem
    flag_turns = "flag_turns"                              # flag, turns
    flag_injected_passages = "flag_injected_passages"      # ids
    flag_unanswered = "flag_unanswered"                    # side, count, ids
    flag_verdict_text = "flag_verdict_text"                # problem
    flag_verdict_text_table = "flag_verdict_text_table"    # problem
    flag_option = "flag_option"                            # option, flag (one reason or several)
    flag_confidence_disagreement = "flag_confidence_disagreement"  # label, confidence, evidence_label,
    #                                                        evidence_confidence, limit (rules.confidence_disagreement)
    # what is wrong with generated text (checks.generated_problems, counsel, judge)
    problem_template = "problem_template"
    problem_echo = "problem_echo"
    problem_repeats = "problem_repeats"
    problem_copies = "problem_copies"                      # role, round: an earlier argument, word for word or near
    problem_wrong_side = "problem_wrong_side"              # role, stance: argues the other side's case
    problem_no_citation = "problem_no_citation"
    problem_empty = "problem_empty"
    problem_argument = "problem_argument"                  # problem
    problem_summary = "problem_summary"                    # problem
    problem_finding = "problem_finding"                    # n, problem
    problem_option_unnamed = "problem_option_unnamed"      # option
    # a citation's problem (checks.check_citations, check_quotes)
    cite_not_in_pool = "cite_not_in_pool"                  # id
    cite_quote_missing = "cite_quote_missing"              # quote, id
    # a decision's hearing: what was set aside (hearing.hearing_of)
    hearing_not_scored = "hearing_not_scored"              # criterion
    hearing_score_uncited = "hearing_score_uncited"        # criterion, score
    hearing_score_not_own = "hearing_score_not_own"        # criterion, score, ids, option
    hearing_constraint_uncited = "hearing_constraint_uncited"  # constraint, status
    hearing_constraint_not_own = "hearing_constraint_not_own"  # constraint, status, ids, option
    # warnings (engine, counsel, judge)
    warning_injection = "warning_injection"                # id
    warning_queries_unusable = "warning_queries_unusable"  # role, problem
    warning_argument_rejected = "warning_argument_rejected"  # role, problems
    warning_assess_failed = "warning_assess_failed"        # problem
    warning_verdict_sent_back = "warning_verdict_sent_back"  # problems
    warning_unknown_citations = "warning_unknown_citations"  # ids
    warning_embedder_failed = "warning_embedder_failed"    # problem
    warning_private_left_out = "warning_private_left_out"  # documents, more, roles
    # why a passage a search found did not enter the pool (engine.admit; the coverage panel)
    turned_away_in_pool = "turned_away_in_pool"            # id: it is already in the pool as this passage
    turned_away_not_novel = "turned_away_not_novel"        # novelty, minimum, like: too close to a pooled passage


class Reason(Frozen):
    """A thing the court says: ``code`` (a ``Code``) and its parameters. A parameter is a value (numbers unrounded,
    text as it came), another reason ('rejected twice: {problem}'), or several ('{problems}', joined by ';')."""

    code: str
    params: dict[str, Said | int | float | Reason | tuple[Reason, ...]] = {}

    @model_validator(mode="before")
    @classmethod
    def _plain_string(cls, data: Any) -> Any:
        """A plain string (what an earlier version stored) is a reason of code 'text', shown as stored."""
        return {"code": Code.text.value, "params": {"text": data}} if isinstance(data, str) else data

    @classmethod
    def of(cls, code: Code, **params: Param) -> Reason:
        return cls(code=code.value, params=params)

    @classmethod
    def text(cls, text: str) -> Reason:
        """Text the court did not write (a model's, an exception's message), shown as it is."""
        return cls(code=Code.text.value, params={"text": text})

    def __hash__(self) -> int:
        return hash(self.model_dump_json())


Param = Union[str, int, float, Reason, tuple[Reason, ...]]  # noqa: UP007 - an alias needs the runtime Union

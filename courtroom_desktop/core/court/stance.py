"""Which side does an argument argue? A small rule on stance phrases, in English and Chinese, for the court to catch a
counsel arguing for the other side (a Prosecution, which argues the claim false, writing "the evidence is
overwhelmingly in favor of the claim"). It abstains whenever it is unsure: a turn is only sent back on a clear reading.

A sentence is read for phrases that say the claim is true or supported ("supports the claim", "the claim is correct",
"the evidence is in favor of", 支持该主张, 主张成立) and phrases that say it is false or unsupported ("refutes the claim",
"the claim is misleading", "no evidence that", 反驳该主张, 主张不成立). A phrase after a negation in its clause ("does
not support the claim", 并不支持) or followed by a weakening word ("the evidence in favor of the claim is weak", 证据很薄弱)
counts for the other way. A sentence that reports the other side ("the Defense says the claim is true") does not count,
unless it goes on to contradict it ("..., but [E2] is a chart review"): then it counts the other way. Questions do not
count. The argument leans the way that has hits, when the other way has at most half as many.

Tuned on tests/court/data/stance_tuning.jsonl; scored on stance_heldout.jsonl, written before the rule (its figures:
docs/court.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from courtroom_desktop.core.court.records import Stance

_CLAIM = r"(?:the|this|that|their|our|its|his|her|your|such an?|an?)\s+(?:claim|assertion|proposition|hypothesis|thesis)"
_EVIDENCE = (r"(?:evidence|data|results?|record|passages?|stud(?:y|ies)|trials?|findings?|literature|pool|research|"
             r"sources?|review|cohorts?|analys[ie]s|\[E\d+\])")
_GOOD = (r"(?:true|correct|right|accurate|valid|sound|justified|well[- ]supported|supported|well[- ]founded|credible|"
         r"confirmed|proven|established|reasonable|plausible|borne out|vindicated)")
_BAD = (r"(?:false|wrong|incorrect|untrue|inaccurate|misleading|unsupported|unfounded|unproven|unwarranted|overstated|"
        r"doubtful|dubious|invalid|exaggerated|mistaken|baseless|flawed|questionable|untenable)")
_ADVERB = r"(?:\w+ly\s+)?"

# (pattern, polarity): +1 says the claim is true or supported, -1 that it is false or unsupported. A group named
# ``neg`` inside the match turns its polarity.
EN: list[tuple[re.Pattern[str], int]] = [(re.compile(p, re.I), s) for p, s in [
    (rf"\b(?:supports?|supporting|supported|confirms?|confirming|confirmed|proves?|proving|proved|vindicates?|"
     rf"corroborates?|establish(?:es|ed)?|bears? out|backs? up|in favou?r of|favou?rs?|agrees? with|concur with|"
     rf"accept(?:s|ing)?|evidence for)\s+{_CLAIM}", 1),
    (rf"\b{_EVIDENCE}\s+(?:is|are|was|were|weighs|points?|comes? down)\s+{_ADVERB}(?:in favou?r of|on the side of)", 1),
    (rf"\b{_EVIDENCE}\s+{_ADVERB}(?:favou?rs?|supports?|confirms?|proves?|establish(?:es)?)\b", 1),
    (r"\b(?:strong|clear|good|ample|solid|robust|compelling|consistent|convincing|overwhelming) evidence "
     r"(?:for|in favou?r of|that supports)\b", 1),
    (rf"{_CLAIM}\s+(?:is|was|remains|appears|seems)\s+(?P<neg>not\s+)?{_ADVERB}{_GOOD}\b", 1),
    (rf"{_CLAIM}\s+(?:is|was|remains|appears|seems)\s+(?P<neg>not\s+)?{_ADVERB}{_BAD}\b", -1),
    (rf"{_CLAIM}\s+(?:holds|stands|survives)\b", 1),
    (rf"{_CLAIM}\s+(?:fails|collapses|falls apart|falls short|overstates|(?:does not|doesn't|cannot|can't|can not)\s+"
     r"(?:hold|stand|survive|be accepted|be sustained))\b", -1),
    (rf"\b(?:refutes?|refuting|refuted|contradicts?|contradicting|contradicted|undermines?|undermining|undermined|"
     rf"disproves?|debunks?|weakens?|casts? doubt on|goes against|runs? counter to|against|reject(?:s|ing)?|"
     rf"dismiss(?:es|ing)?|contrary to|far from supporting|fails? to support|fails? to establish)\s+{_CLAIM}", -1),
    (rf"\b{_EVIDENCE}\s+(?:do|does|did)\s+not\s+(?:support|confirm|prove|establish|show|favou?r)\b", -1),
    (r"\bno (?:\w+ )?evidence (?:that|for|supports?|to support|shows?)\b", -1),
    (r"\bno (?:\w+ )?evidence against\b", 1),
    (r"\b(?:does not|doesn't|do not|did not|cannot|can't) survive scrutiny\b|\bcannot be accepted\b", -1),
]]
_CN_CLAIM = r"(?:该|这一|这个|此|上述|本)?(?:主张|说法|观点|论断|结论|论点)"
ZH: list[tuple[re.Pattern[str], int]] = [(re.compile(p), s) for p, s in [
    (rf"(?:支持|证实|证明|印证|佐证|同意|认同|接受)了?{_CN_CLAIM}", 1),
    (r"证据(?:压倒性地|有力地|充分地|明确地|清楚地|强烈地)?(?:支持|证实)", 1),
    (r"主张(?:是|为|确实|完全)?(?:正确|成立|属实|真实|可信|合理|站得住|得到(?:了)?(?:充分)?支持)", 1),
    (r"主张(?:是|为)?(?:错误|不成立|不正确|虚假|站不住脚|缺乏依据|具有误导性|有误导性|误导|夸大|不可信|无法成立|不能成立|"
     r"没有依据|证据不足)", -1),
    (rf"(?:反驳|否定|推翻|驳斥|削弱|质疑|驳倒|否认)了?{_CN_CLAIM}", -1),
    (rf"与{_CN_CLAIM}(?:相矛盾|矛盾|相悖|相反|不符)", -1),
    (r"(?:没有|缺乏|并无|毫无)(?:可靠|充分|足够|任何)?的?证据(?:表明|支持|证明|显示)", -1),
    (rf"(?:无法|不能|难以)(?:接受|支持|认同){_CN_CLAIM}", -1),
]]
NEGATION_EN = re.compile(r"\b(?:not|no|never|nothing|neither|nor|hardly|without|cannot|fails? to|failed to|lacks?|"
                         r"insufficient|\w+n't)\b(?:\s+\w+){0,3}\s*$", re.I)
NEGATION_ZH = re.compile(r"(?:不|没有|并未|未|无法|未能|难以|缺乏|并非|无)[^，,；;：:]{0,4}$")
WEAK_EN = re.compile(r"^[^,;:]{0,40}\b(?:is|are|was|were|remains?)\s+(?:\w+ly\s+)?(?:weak|thin|limited|insufficient|"
                     r"flawed|poor|inconclusive|slim|scant|lacking|unconvincing|unreliable|overstated)\b", re.I)
WEAK_ZH = re.compile(r"^[^，,；;。]{0,12}(?:薄弱|不足|有限|很弱|站不住|不可靠|不充分|值得怀疑)")
REPORTED_EN = re.compile(
    r"\b(?:the\s+)?(?:defen[cs]e|prosecution|prosecutor|other side|opposing counsel|opponent|my opponent|"
    r"counsel (?:for|against))\b\s+(?:\w+\s+){0,2}?(?:says?|said|argues?|argued|claims?|claimed|contends?|asserts?|"
    r"insists?|maintains?|calls?|called|suggests?|would have us believe|wants? us to believe|tells? us)\b", re.I)
REPORTED_ZH = re.compile(r"(?:控方|辩方|检方|对方|对手|另一方)(?:律师)?(?:认为|称|声称|主张|坚称|指出|说|断言|辩称)")
CONTRAST_EN = re.compile(r"\b(?:but|yet|however|although|though|whereas|while)\b|;\s*(?:it|this|that) is not\b", re.I)
CONTRAST_ZH = re.compile(r"但|然而|可是|却|不过")
QUESTION = re.compile(r"[?？]\s*[\"'”’)\]]*\s*$|吗\s*[。？?]?\s*$")
SENTENCE = re.compile(r"[^.!?。！？\n]+(?:[.!?。！？]+|\n|$)")
CLAUSE = re.compile(r"[,;:，；：]")


@dataclass(frozen=True)
class Reading:
    """Stance phrases found: ``support`` and ``refute`` hits, and the way the text leans (None: unsure)."""

    support: int
    refute: int

    @property
    def stance(self) -> Stance | None:
        if self.support > 0 and self.refute * 2 <= self.support and self.support > self.refute:
            return Stance.for_
        if self.refute > 0 and self.support * 2 <= self.refute and self.refute > self.support:
            return Stance.against
        return None


def _hits(sentence: str) -> list[tuple[int, int]]:
    """(position, polarity) of each stance phrase in ``sentence``, negations and weakenings applied."""
    found: list[tuple[int, int]] = []
    for patterns, negation, weak in ((EN, NEGATION_EN, WEAK_EN), (ZH, NEGATION_ZH, WEAK_ZH)):
        for pattern, polarity in patterns:
            for match in pattern.finditer(sentence):
                if any(abs(match.start() - p) < 3 for p, _ in found):
                    continue  # one phrase, one hit
                sign = polarity * (-1 if match.groupdict().get("neg") else 1)
                clause_start = max((m.end() for m in CLAUSE.finditer(sentence, 0, match.start())), default=0)
                if negation.search(sentence[clause_start:match.start()]):
                    sign = -sign
                elif sign > 0 and weak.search(sentence[match.end():]):
                    sign = -sign
                found.append((match.start(), sign))
    return found


def read(text: str) -> Reading:
    """The stance phrases of ``text``, sentence by sentence."""
    support = refute = 0
    for sentence in (m.group(0).strip() for m in SENTENCE.finditer(text or "")):
        if not sentence or QUESTION.search(sentence):
            continue
        hits = _hits(sentence)
        reported = REPORTED_EN.search(sentence) or REPORTED_ZH.search(sentence)
        if reported:
            contrast = CONTRAST_EN.search(sentence, reported.end()) or CONTRAST_ZH.search(sentence, reported.end())
            own = [(p, s) for p, s in hits if contrast and p >= contrast.start()]
            told = [(p, -s) for p, s in hits if contrast and reported.end() <= p < contrast.start()]
            hits = [(p, s) for p, s in hits if p < reported.start()] + told + own
        support += sum(1 for _, s in hits if s > 0)
        refute += sum(1 for _, s in hits if s < 0)
    return Reading(support, refute)


def stance_of(text: str) -> Stance | None:
    """The side ``text`` argues (``Stance.for_``: the claim is true; ``against``: it is false), or None when the
    phrases do not say clearly."""
    return read(text).stance


def wrong_side(text: str, stance: Stance) -> bool:
    """Does ``text`` clearly argue for the side opposite ``stance``?"""
    found = stance_of(text)
    return found is not None and found != stance

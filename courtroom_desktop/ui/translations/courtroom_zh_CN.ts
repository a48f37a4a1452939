<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name></name>
    <message>
        <source>&amp;Add files…</source>
        <translation>添加文件(&amp;A)…</translation>
    </message>
    <message>
        <source>Add PDF files to the library</source>
        <translation>向文献库添加 PDF 文件</translation>
    </message>
    <message>
        <source>Add &amp;folder…</source>
        <translation>添加文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>Add every PDF under a folder</source>
        <translation>添加文件夹中的所有 PDF</translation>
    </message>
    <message>
        <source>Add the &amp;sample library</source>
        <translation>添加示例文献库(&amp;S)</translation>
    </message>
    <message>
        <source>Six short articles to try the app on</source>
        <translation>六篇短文，供试用本应用</translation>
    </message>
    <message>
        <source>&amp;Start trial</source>
        <translation>开始审理(&amp;S)</translation>
    </message>
    <message>
        <source>Put the claim on trial</source>
        <translation>将主张提交审理</translation>
    </message>
    <message>
        <source>S&amp;top trial</source>
        <translation>停止审理(&amp;T)</translation>
    </message>
    <message>
        <source>Stop the trial (it can be resumed)</source>
        <translation>停止审理（之后可继续）</translation>
    </message>
    <message>
        <source>&amp;Resume trial</source>
        <translation>继续审理(&amp;R)</translation>
    </message>
    <message>
        <source>Continue the stopped or paused trial</source>
        <translation>继续已停止或暂停的审理</translation>
    </message>
    <message>
        <source>Chec&amp;k a draft…</source>
        <translation>核查草稿(&amp;K)…</translation>
    </message>
    <message>
        <source>Check every claim of a draft (PDF, Word, Markdown, text) against the library</source>
        <translation>对照文献库核查草稿（PDF、Word、Markdown、文本）中的每条主张</translation>
    </message>
    <message>
        <source>&amp;New trial</source>
        <translation>新建审理(&amp;N)</translation>
    </message>
    <message>
        <source>Clear the courtroom</source>
        <translation>清空法庭</translation>
    </message>
    <message>
        <source>&amp;Export report…</source>
        <translation>导出报告(&amp;E)…</translation>
    </message>
    <message>
        <source>Write the verdict report</source>
        <translation>撰写裁决报告</translation>
    </message>
    <message>
        <source>Se&amp;ttings…</source>
        <translation>设置(&amp;T)…</translation>
    </message>
    <message>
        <source>Models, retrieval, debate, data folder</source>
        <translation>模型、检索、辩论、数据文件夹</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Close the window</source>
        <translation>关闭窗口</translation>
    </message>
    <message>
        <source>Show &amp;library</source>
        <translation>显示文献库(&amp;L)</translation>
    </message>
    <message>
        <source>The library panel</source>
        <translation>文献库面板</translation>
    </message>
    <message>
        <source>Show trial &amp;history</source>
        <translation>显示审理历史(&amp;H)</translation>
    </message>
    <message>
        <source>Past trials</source>
        <translation>过往审理</translation>
    </message>
    <message>
        <source>Edit the &amp;claim</source>
        <translation>编辑主张(&amp;C)</translation>
    </message>
    <message>
        <source>Put the cursor in the claim</source>
        <translation>将光标置于主张中</translation>
    </message>
    <message>
        <source>Show the &amp;evidence</source>
        <translation>显示证据(&amp;E)</translation>
    </message>
    <message>
        <source>The evidence pool</source>
        <translation>证据池</translation>
    </message>
    <message>
        <source>Zoom &amp;in</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom the page in</source>
        <translation>放大页面</translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>Zoom the page out</source>
        <translation>缩小页面</translation>
    </message>
    <message>
        <source>&amp;Previous page</source>
        <translation>上一页(&amp;P)</translation>
    </message>
    <message>
        <source>Previous page of the document</source>
        <translation>文档的上一页</translation>
    </message>
    <message>
        <source>Ne&amp;xt page</source>
        <translation>下一页(&amp;X)</translation>
    </message>
    <message>
        <source>Next page of the document</source>
        <translation>文档的下一页</translation>
    </message>
    <message>
        <source>Open in the system &amp;viewer</source>
        <translation>在系统查看器中打开(&amp;V)</translation>
    </message>
    <message>
        <source>Open the passage&apos;s PDF in the system&apos;s viewer</source>
        <translation>在系统查看器中打开该段落所在的 PDF</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>Read the library and trials again</source>
        <translation>重新读取文献库和审理</translation>
    </message>
    <message>
        <source>&amp;Remove documents</source>
        <translation>移除文档(&amp;R)</translation>
    </message>
    <message>
        <source>Remove the selected documents</source>
        <translation>移除所选文档</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>Every shortcut</source>
        <translation>所有快捷键</translation>
    </message>
    <message>
        <source>&amp;About</source>
        <translation>关于(&amp;A)</translation>
    </message>
    <message>
        <source>About the app</source>
        <translation>关于本应用</translation>
    </message>
    <message>
        <source>Reset the &amp;layout</source>
        <translation>重置布局(&amp;L)</translation>
    </message>
    <message>
        <source>Panels back to their first sizes</source>
        <translation>将面板恢复为初始大小</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <extracomment>Menus and the toolbar: action names in order, None for a separator.</extracomment>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Trial</source>
        <translation>审理(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Follow the &amp;system</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;High contrast</source>
        <translation>高对比度(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Appearance</source>
        <extracomment>What the keyboard shortcuts dialog lists, in order.</extracomment>
        <translation>外观(&amp;A)</translation>
    </message>
    <message>
        <source>Lan&amp;guage</source>
        <translation>语言(&amp;G)</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>The window changes its language at its next start</source>
        <translation>窗口将在下次启动时切换语言</translation>
    </message>
    <message>
        <source>Settings</source>
        <extracomment>How long a worker thread running Python may keep the global interpreter lock while the GUI thread waits for it. Every Qt callback into Python (a timer, a signal, the asyncio loop&apos;s own step) has to take the lock; at Python&apos;s default of 5 ms one turn of the event loop can queue behind busy workers several times. `bench/gil_switch.py` compares the intervals under load (figures in docs/ui.md).</extracomment>
        <translation>设置</translation>
    </message>
    <message>
        <source>fix the file, or open Settings and press OK to rewrite it</source>
        <translation>请修复该文件，或打开设置并按“确定”重写它</translation>
    </message>
    <message>
        <source>Your situation in a few lines: every role reads it, as data (it is not evidence and is never cited). Evidence comes from your notes and documents.</source>
        <translation>用几行字说明你的情况：每个角色都会把它当作资料阅读（它不是证据，也从不被引用）。证据来自你的笔记和文档。</translation>
    </message>
    <message>
        <source>Options and criteria</source>
        <translation>选项与标准</translation>
    </message>
    <message>
        <source>Background</source>
        <translation>背景</translation>
    </message>
    <message>
        <source>e.g. Move to Lisbon</source>
        <translation>例如：搬到里斯本</translation>
    </message>
    <message>
        <source>e.g. Stay where I am</source>
        <translation>例如：留在原地</translation>
    </message>
    <message>
        <source>(optional)</source>
        <translation>（可选）</translation>
    </message>
    <message>
        <source>Option {number}</source>
        <translation>选项 {number}</translation>
    </message>
    <message>
        <source>Criteria</source>
        <translation>标准</translation>
    </message>
    <message>
        <source>A criterion a row, with its weight</source>
        <translation>每行一条标准及其权重</translation>
    </message>
    <message>
        <source>Criterion</source>
        <translation>标准</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Add criterion</source>
        <translation>添加标准</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Hard constraints</source>
        <translation>硬性约束</translation>
    </message>
    <message>
        <source>One a line</source>
        <translation>每行一条</translation>
    </message>
    <message>
        <source>One per line, e.g. rent under 1,500 euros a month</source>
        <translation>每行一条，例如：月租低于 1,500 欧元</translation>
    </message>
    <message>
        <source>e.g. I am 31, my contract ends in June, my parents live an hour away.</source>
        <translation>例如：我 31 岁，合同六月到期，父母住在一小时车程外。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Options&lt;/b&gt; (2 to {most}): each is heard in turn, counsel for and against it</source>
        <translation>&lt;b&gt;选项&lt;/b&gt;（2 至 {most} 个）：逐一审理，正反两方律师各自陈述</translation>
    </message>
    <message>
        <source>&lt;b&gt;Criteria&lt;/b&gt; (1 to {most}) and how much each matters: the judge scores every option on each, 0 to 10, with citations</source>
        <translation>&lt;b&gt;标准&lt;/b&gt;（1 至 {most} 个）及各自的重要程度：法官按每条标准给每个选项打 0 到 10 分，并附引用</translation>
    </message>
    <message>
        <source>&lt;b&gt;Hard constraints&lt;/b&gt; (up to {most}): an option shown to break one is out</source>
        <translation>&lt;b&gt;硬性约束&lt;/b&gt;（最多 {most} 条）：被证明违反任一约束的选项即被排除</translation>
    </message>
    <message>
        <source>&lt;b&gt;Background&lt;/b&gt; (optional): what every role should know about your situation</source>
        <translation>&lt;b&gt;背景&lt;/b&gt;（可选）：每个角色都应了解的你的情况</translation>
    </message>
    <message>
        <source>&lt;b&gt;{count} / {most} characters: too long.&lt;/b&gt; The court reads only the first {most}; shorten it to keep what matters.</source>
        <translation>&lt;b&gt;{count} / {most} 字符：过长。&lt;/b&gt;法庭只读前 {most} 个字符；请删减，保留要紧的内容。</translation>
    </message>
    <message>
        <source>{count} / {most} characters</source>
        <translation>{count} / {most} 字符</translation>
    </message>
    <message>
        <source>Bundled all-MiniLM-L6-v2 (English)</source>
        <extracomment>core.config.EMBEDDERS&apos; labels, for lupdate (shown through tr; tests/ui/test_translations.py keeps them equal)</extracomment>
        <translation>内置 all-MiniLM-L6-v2（英文）</translation>
    </message>
    <message>
        <source>Bundled multilingual-e5-small (Chinese, English and about 100 languages)</source>
        <translation>内置 multilingual-e5-small（中文、英文等约 100 种语言）</translation>
    </message>
    <message>
        <source>Bundled Universal Sentence Encoder multilingual (16 languages; best across languages)</source>
        <translation>内置 Universal Sentence Encoder multilingual（16 种语言；跨语言检索最佳）</translation>
    </message>
    <message>
        <source>A sentence-transformers folder on this computer</source>
        <translation>本机上的 sentence-transformers 文件夹</translation>
    </message>
    <message>
        <source>Ollama (/api/embed)</source>
        <translation>Ollama（/api/embed）</translation>
    </message>
    <message>
        <source>OpenAI-compatible server (/v1/embeddings)</source>
        <translation>兼容 OpenAI 的服务器（/v1/embeddings）</translation>
    </message>
    <message>
        <source>Embedding model</source>
        <translation>嵌入模型</translation>
    </message>
    <message>
        <source>Choose folder…</source>
        <translation>选择文件夹…</translation>
    </message>
    <message>
        <source>A sentence-transformers model folder on this computer</source>
        <translation>本机上的 sentence-transformers 模型文件夹</translation>
    </message>
    <message>
        <source>empty: English for the bundled MiniLM, all for any other model</source>
        <translation>留空：内置 MiniLM 为英语，其他模型为所有语言</translation>
    </message>
    <message>
        <source>leave empty to keep the stored key (or for a server that needs none)</source>
        <translation>留空则保留已存储的密钥（或用于无需密钥的服务器）</translation>
    </message>
    <message>
        <source>Stored in the operating system&apos;s keyring, per server, never in the settings file</source>
        <translation>按服务器存储在操作系统的密钥环中，绝不写入设置文件</translation>
    </message>
    <message>
        <source>Embedder:</source>
        <translation>嵌入模型：</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>Server URL:</source>
        <translation>服务器 URL：</translation>
    </message>
    <message>
        <source>Languages:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <source>API key:</source>
        <translation>API 密钥：</translation>
    </message>
    <message>
        <source>A sentence-transformers model folder</source>
        <translation>sentence-transformers 模型文件夹</translation>
    </message>
    <message>
        <source>Passages and queries are embedded by {embedder}, on this computer.</source>
        <translation>段落和查询由 {embedder} 在本机上做向量嵌入。</translation>
    </message>
    <message>
        <source>Passages and queries are embedded by {embedder}: another machine receives the text of every passage, so private documents are refused while it is chosen.</source>
        <translation>段落和查询由 {embedder} 做向量嵌入：另一台机器会收到每个段落的文本，因此选用它时私密文档会被拒绝。</translation>
    </message>
    <message>
        <source>Re-embed the library?</source>
        <translation>重新嵌入文献库？</translation>
    </message>
    <message>
        <source>The embedder is now {embedder}. The library&apos;s {count} documents must be embedded again before searches use it; until then, and if you cancel, searches use the current vectors.

Re-embed now?</source>
        <translation>嵌入模型现在是 {embedder}。文献库中的文档（{count} 篇）必须重新嵌入，搜索才会使用它；在此之前，以及你取消时，搜索仍使用当前的向量。

现在重新嵌入吗？</translation>
    </message>
    <message>
        <source>HTML (self-contained)</source>
        <translation>HTML（单文件）</translation>
    </message>
    <message>
        <source>JSON (data)</source>
        <translation>JSON（数据）</translation>
    </message>
    <message>
        <source>Export the verdict report</source>
        <translation>导出裁决报告</translation>
    </message>
    <message>
        <source>General reader: the plain-language summary</source>
        <translation>普通读者：通俗易懂的摘要</translation>
    </message>
    <message>
        <source>Expert: also every round&apos;s assessment, levels and weights</source>
        <translation>专家：另含每一轮的评估、等级和权重</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Trial:</source>
        <translation>审理：</translation>
    </message>
    <message>
        <source>Formats:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <source>Audience:</source>
        <translation>读者：</translation>
    </message>
    <message>
        <source>Folder:</source>
        <translation>文件夹：</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <source>Report folder</source>
        <translation>报告文件夹</translation>
    </message>
    <message>
        <source>{title} failed: {message}</source>
        <translation>{title}失败：{message}</translation>
    </message>
    <message>
        <source>Wrote {reports} report files and {sources} highlighted source page files. Double-click one to open it.</source>
        <translation>已写入 {reports} 个报告文件和 {sources} 个带高亮的原文页面文件。双击即可打开。</translation>
    </message>
    <message>
        <source>e.g. qwen2.5:7b (see ollama.com/library)</source>
        <translation>例如 qwen2.5:7b（见 ollama.com/library）</translation>
    </message>
    <message>
        <source>e.g. qwen2.5:7b</source>
        <translation>例如 qwen2.5:7b</translation>
    </message>
    <message>
        <source>Model setup</source>
        <translation>模型设置</translation>
    </message>
    <message>
        <source>Find models on this computer</source>
        <translation>查找本机上的模型</translation>
    </message>
    <message>
        <source>Look for Ollama, LM Studio, llama.cpp&apos;s server and vLLM on their usual ports (well under 2 s)</source>
        <translation>在常用端口上查找 Ollama、LM Studio、llama.cpp 服务器和 vLLM（远少于 2 秒）</translation>
    </message>
    <message>
        <source>Find the models your computer already serves, or pull one through Ollama below.</source>
        <translation>查找本机已在提供的模型，或在下方通过 Ollama 拉取一个。</translation>
    </message>
    <message>
        <source>Use this assignment</source>
        <translation>使用此分配</translation>
    </message>
    <message>
        <source>Fill the role editors with the proposed models (saved with OK or Apply)</source>
        <translation>用建议的模型填充各角色编辑框（按“确定”或“应用”保存）</translation>
    </message>
    <message>
        <source>Pull</source>
        <translation>拉取</translation>
    </message>
    <message>
        <source>Download this model through Ollama (it resumes where an earlier pull stopped)</source>
        <translation>通过 Ollama 下载此模型（从上次中断处继续）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the download (Ollama keeps what it has: pull again to resume)</source>
        <translation>停止下载（Ollama 会保留已下载部分：再次拉取即可继续）</translation>
    </message>
    <message>
        <source>Pull through Ollama:</source>
        <translation>通过 Ollama 拉取：</translation>
    </message>
    <message>
        <source>Looking for model servers on this computer…</source>
        <translation>正在查找本机上的模型服务器…</translation>
    </message>
    <message>
        <source>{server} ({count} models)</source>
        <translation>{server}（{count} 个模型）</translation>
    </message>
    <message>
        <source>Found {servers} in {seconds} s.</source>
        <translation>用时 {seconds} 秒，找到 {servers}。</translation>
    </message>
    <message>
        <source>No chat model found (only embedding models): pull one below.</source>
        <translation>未找到对话模型（只有嵌入模型）：请在下方拉取一个。</translation>
    </message>
    <message>
        <source>Name the model to pull, {hint}.</source>
        <translation>请填写要拉取的模型名称，{hint}。</translation>
    </message>
    <message>
        <source>A pull is already running: wait for it, or cancel it.</source>
        <translation>已有拉取任务在运行：请等待其完成，或将其取消。</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <source>Asking Ollama for {name}…</source>
        <translation>正在向 Ollama 请求 {name}…</translation>
    </message>
    <message>
        <source>{done} of {total}</source>
        <translation>{done} / {total}</translation>
    </message>
    <message>
        <source>resuming from {size}</source>
        <translation>从 {size} 处继续</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>A private note is never sent to a model server on another machine: a trial that would send it there refuses, and says which role and server.</source>
        <translation>私密笔记绝不会发送到另一台机器上的模型服务器：若审理会把它发送过去，就会拒绝，并说明是哪个角色、哪个服务器。</translation>
    </message>
    <message>
        <source>New note</source>
        <translation>新建笔记</translation>
    </message>
    <message>
        <source>Title, e.g. Lisbon: rents and commute</source>
        <translation>标题，例如：里斯本：房租与通勤</translation>
    </message>
    <message>
        <source>Note text</source>
        <translation>笔记正文</translation>
    </message>
    <message>
        <source>Type or paste the note. Lines starting with # or ## make sections; blank lines separate paragraphs.</source>
        <translation>输入或粘贴笔记。以 # 或 ## 开头的行构成章节；空行分隔段落。</translation>
    </message>
    <message>
        <source>Private: never send this note to a model server on another machine</source>
        <translation>私密：绝不将此笔记发送到其他机器上的模型服务器</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>A note needs a title and some text.</source>
        <translation>笔记需要标题和正文。</translation>
    </message>
    <message>
        <source>Embedded (llama.cpp, no server)</source>
        <translation>内置（llama.cpp，无需服务器）</translation>
    </message>
    <message>
        <source>OpenAI-compatible server</source>
        <translation>OpenAI 兼容服务器</translation>
    </message>
    <message>
        <source>not used</source>
        <translation>不使用</translation>
    </message>
    <message>
        <source>(bundled SmolLM2-135M)</source>
        <translation>（内置 SmolLM2-135M）</translation>
    </message>
    <message>
        <source>Use the default model</source>
        <extracomment>The ModelSpec fields each role&apos;s editor shows below its provider, URL, model and key. Of those, the ones only the embedded provider (llama.cpp in process) reads.</extracomment>
        <translation>使用默认模型</translation>
    </message>
    <message>
        <source>List models</source>
        <translation>列出模型</translation>
    </message>
    <message>
        <source>Ask the server which models it has</source>
        <translation>询问服务器有哪些模型</translation>
    </message>
    <message>
        <source>Choose GGUF…</source>
        <translation>选择 GGUF…</translation>
    </message>
    <message>
        <source>Use any GGUF model file on this computer (llama.cpp runs it in the app; Test checks that it loads)</source>
        <translation>使用本机上的任意 GGUF 模型文件（由 llama.cpp 在应用内运行；“测试”会检查能否加载）</translation>
    </message>
    <message>
        <source>leave empty to keep the stored key</source>
        <translation>留空则保留已存储的密钥</translation>
    </message>
    <message>
        <source>Provider:</source>
        <translation>提供方：</translation>
    </message>
    <message>
        <source>Base URL:</source>
        <translation>基础 URL：</translation>
    </message>
    <message>
        <source>Choose a GGUF model file</source>
        <translation>选择 GGUF 模型文件</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF 模型 (*.gguf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>{file}: press Test to check that it loads.</source>
        <translation>{file}：按“测试”检查它能否加载。</translation>
    </message>
    <message>
        <source>Document scope</source>
        <translation>文档范围</translation>
    </message>
    <message>
        <source>All documents in the library</source>
        <translation>文献库中的所有文档</translation>
    </message>
    <message>
        <source>Only these documents:</source>
        <translation>仅限以下文档：</translation>
    </message>
    <message>
        <source>Documents to choose from</source>
        <translation>可选文档</translation>
    </message>
    <message>
        <source>Check the documents the evidence may come from</source>
        <translation>勾选证据可以来自的文档</translation>
    </message>
    <message>
        <source>e.g. 3 Results; Discussion</source>
        <translation>例如 3 结果；讨论</translation>
    </message>
    <message>
        <source>Empty: every section</source>
        <translation>留空：所有章节</translation>
    </message>
    <message>
        <source>Only sections starting with (separate with ;):</source>
        <translation>仅限以下列开头的章节（用 ; 分隔）：</translation>
    </message>
    <message>
        <source>Retrieval</source>
        <extracomment>The settings the Retrieval, Debate and Library tabs show, in order: (section of AppConfig, field). The widget, its range, step, unit, label and tooltip come from the field itself (core/config.py, see ``dialogs.fields``).</extracomment>
        <translation>检索</translation>
    </message>
    <message>
        <source>Debate</source>
        <translation>辩论</translation>
    </message>
    <message>
        <source>Library &amp;&amp; data</source>
        <translation>文献库与数据</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>测试</translation>
    </message>
    <message>
        <source>Run the doctor&apos;s checks on these settings: server, model, context, a call, a structured call (a typed API key is stored first)</source>
        <translation>对这些设置运行诊断检查：服务器、模型、上下文、一次调用、一次结构化调用（会先存储输入的 API 密钥）</translation>
    </message>
    <message>
        <source>The doctor&apos;s checks</source>
        <translation>诊断检查结果</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Data folder:</source>
        <translation>数据文件夹：</translation>
    </message>
    <message>
        <source>Passage sizes apply to documents added or re-indexed from now on.</source>
        <translation>段落大小适用于今后添加或重新索引的文档。</translation>
    </message>
    <message>
        <source>Running the checks…</source>
        <translation>正在运行检查…</translation>
    </message>
    <message>
        <source>Keys are stored in {where}; never in the settings file.</source>
        <translation>密钥保存在 {where}；绝不写入设置文件。</translation>
    </message>
    <message>
        <source>Not applied: {problem}</source>
        <translation>未应用：{problem}</translation>
    </message>
    <message>
        <source>Data folder</source>
        <translation>数据文件夹</translation>
    </message>
    <message>
        <source>Asking the server…</source>
        <translation>正在询问服务器…</translation>
    </message>
    <message>
        <source>The server offers {count} models.</source>
        <translation>该服务器提供 {count} 个模型。</translation>
    </message>
    <message>
        <source>Starting the checks…</source>
        <translation>正在开始检查…</translation>
    </message>
    <message>
        <source>All checks passed.</source>
        <translation>所有检查均通过。</translation>
    </message>
    <message>
        <source>1 check failed: fix it.</source>
        <translation>1 项检查未通过：请修复。</translation>
    </message>
    <message>
        <source>{count} checks failed: fix them in order.</source>
        <translation>{count} 项检查未通过：请依次修复。</translation>
    </message>
    <message>
        <source>Rating for this job: {ratings}.</source>
        <translation>胜任此任务的评级：{ratings}。</translation>
    </message>
    <message>
        <source>The proposed models are in the editors: press Test to check and rate them, then OK to save.</source>
        <translation>建议的模型已填入编辑框：按“测试”进行检查和评级，再按“确定”保存。</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>Import from Zotero</source>
        <translation>从 Zotero 导入</translation>
    </message>
    <message>
        <source>The PDFs of your Zotero library come in with their title, authors, year, DOI and tags; citations then read ‘Smith et al. 2020’ and open the item in Zotero. Import again to keep in step: items deleted or taken out of the collection leave the library.</source>
        <translation>Zotero 文献库中的 PDF 会连同标题、作者、年份、DOI 和标签一起导入；引用将显示为“Smith et al. 2020”，并可在 Zotero 中打开该条目。再次导入即可保持同步：已删除或移出该集合的条目将离开文献库。</translation>
    </message>
    <message>
        <source>the whole library</source>
        <translation>整个文献库</translation>
    </message>
    <message>
        <source>A collection&apos;s name (any case); its subcollections come too</source>
        <translation>集合名称（不区分大小写）；其子集合也会一并导入</translation>
    </message>
    <message>
        <source>Read the data folder (Zotero is closed)</source>
        <translation>读取数据文件夹（Zotero 已关闭）</translation>
    </message>
    <message>
        <source>Zotero data folder</source>
        <translation>Zotero 数据文件夹</translation>
    </message>
    <message>
        <source>~/Zotero</source>
        <translation>~/Zotero</translation>
    </message>
    <message>
        <source>The folder that holds zotero.sqlite</source>
        <translation>包含 zotero.sqlite 的文件夹</translation>
    </message>
    <message>
        <source>While Zotero runs, allow it first: Settings → Advanced → ‘Allow other applications on this computer to communicate with Zotero’.</source>
        <translation>Zotero 运行时，请先允许访问：设置 → 高级 → “允许此计算机上的其他应用程序与 Zotero 通信”。</translation>
    </message>
    <message>
        <source>Collection:</source>
        <translation>集合：</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>Zotero&apos;s data folder</source>
        <translation>Zotero 的数据文件夹</translation>
    </message>
    <message>
        <source>Sample library</source>
        <translation>示例文献库</translation>
    </message>
    <message>
        <source>the sample PDFs are missing from resources/samples</source>
        <translation>resources/samples 中缺少示例 PDF</translation>
    </message>
    <message>
        <source>reinstall the app, or run scripts/make_samples.py</source>
        <translation>请重新安装应用，或运行 scripts/make_samples.py</translation>
    </message>
    <message>
        <source>Sample decision</source>
        <translation>示例决定</translation>
    </message>
    <message>
        <source>the sample decision is missing from resources/samples-decision</source>
        <translation>resources/samples-decision 中缺少示例决定</translation>
    </message>
    <message>
        <source>reinstall the app</source>
        <translation>请重新安装应用</translation>
    </message>
    <message>
        <source>#</source>
        <extracomment>What a cell sorts by (numbers where the text would sort badly: #, confidence).</extracomment>
        <translation>#</translation>
    </message>
    <message>
        <source>Drafts (*.pdf *.docx *.md *.markdown *.txt);;All files (*)</source>
        <translation>草稿 (*.pdf *.docx *.md *.markdown *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>found by the rules</source>
        <extracomment>Shown through tr: where a claim came from, and the export formats</extracomment>
        <translation>由规则找出</translation>
    </message>
    <message>
        <source>found by the model</source>
        <translation>由模型找出</translation>
    </message>
    <message>
        <source>edited</source>
        <translation>已编辑</translation>
    </message>
    <message>
        <source>merged</source>
        <translation>已合并</translation>
    </message>
    <message>
        <source>split</source>
        <translation>已拆分</translation>
    </message>
    <message>
        <source>added by hand</source>
        <translation>手动添加</translation>
    </message>
    <message>
        <source>number</source>
        <extracomment>Why the rules took a sentence for a claim (core.check.claims.FEATURES), shown through tr</extracomment>
        <translation>数字</translation>
    </message>
    <message>
        <source>comparison</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>causal</source>
        <translation>因果</translation>
    </message>
    <message>
        <source>quantifier</source>
        <translation>量词</translation>
    </message>
    <message>
        <source>superlative</source>
        <translation>最高级</translation>
    </message>
    <message>
        <source>attribution</source>
        <translation>出处</translation>
    </message>
    <message>
        <source>CSV (a spreadsheet)</source>
        <translation>CSV（电子表格）</translation>
    </message>
    <message>
        <source>page {page}</source>
        <translation>第 {page} 页</translation>
    </message>
    <message>
        <source>paragraph {paragraph}, characters {start}-{end}</source>
        <translation>第 {paragraph} 段，第 {start}-{end} 个字符</translation>
    </message>
    <message>
        <source>Claim</source>
        <translation>主张</translation>
    </message>
    <message>
        <source>Where in the draft</source>
        <translation>在草稿中的位置</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>From</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Worth checking</source>
        <translation>核查价值</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>裁决</translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <source>By</source>
        <translation>判定方式</translation>
    </message>
    <message>
        <source>Key passages</source>
        <translation>关键段落</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Sign-off</source>
        <translation>签核</translation>
    </message>
    <message>
        <source>All verdicts</source>
        <extracomment>The verdict filter&apos;s choices: (value, label); &quot;&quot; shows every claim. The verdict filter&apos;s choices (shown through tr)</extracomment>
        <translation>全部裁决</translation>
    </message>
    <message>
        <source>Unchecked</source>
        <translation>未核查</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>overridden: {label} ({who})</source>
        <translation>已推翻：{label}（{who}）</translation>
    </message>
    <message>
        <source>accepted ({who})</source>
        <translation>已接受（{who}）</translation>
    </message>
    <message>
        <source>checking…</source>
        <translation>核查中…</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>in a full trial…</source>
        <translation>正在完整审理…</translation>
    </message>
    <message>
        <source>waiting for a full trial</source>
        <translation>等待完整审理</translation>
    </message>
    <message>
        <source>full trial stopped</source>
        <translation>完整审理已停止</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>no passage states {quantities}</source>
        <translation>没有文段陈述 {quantities}</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>核查</translation>
    </message>
    <message>
        <source>Claims</source>
        <translation>主张</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Signed off</source>
        <translation>已签核</translation>
    </message>
    <message>
        <source>Made</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>The judge&apos;s confidence after each round; colour: the tendency of the ruling</source>
        <translation>法官在每轮之后的置信度；颜色：裁定的倾向</translation>
    </message>
    <message>
        <source>Confidence per round</source>
        <translation>每轮置信度</translation>
    </message>
    <message>
        <source>R{round}</source>
        <translation>第{round}轮</translation>
    </message>
    <message>
        <source>verdict threshold {percent}</source>
        <translation>裁决阈值 {percent}</translation>
    </message>
    <message>
        <source>The judge&apos;s confidence appears after each round</source>
        <translation>每轮结束后显示法官的置信度</translation>
    </message>
    <message>
        <source>Claim: is it true?</source>
        <translation>主张：是否属实？</translation>
    </message>
    <message>
        <source>Decision: should I do it?</source>
        <translation>决定：我该不该做？</translation>
    </message>
    <message>
        <source>Preparing the court…</source>
        <translation>正在准备法庭…</translation>
    </message>
    <message>
        <source>In session</source>
        <translation>审理中</translation>
    </message>
    <message>
        <source>Stopped: Resume continues</source>
        <translation>已停止：按“继续”可继续</translation>
    </message>
    <message>
        <source>Paused by an error: fix it, then Resume</source>
        <translation>因错误暂停：请修复后按“继续”</translation>
    </message>
    <message>
        <source>Verdict reached</source>
        <translation>已作出裁决</translation>
    </message>
    <message>
        <source>demo model: try the app, do not rely on this verdict</source>
        <translation>演示模型：可用来试用本应用，请勿依赖此裁决</translation>
    </message>
    <message>
        <source>Prosecution</source>
        <extracomment>The sides&apos; names as core.court.records.role_name gives them, for lupdate (shown through tr)</extracomment>
        <translation>控方</translation>
    </message>
    <message>
        <source>Defense</source>
        <translation>辩方</translation>
    </message>
    <message>
        <source>Counsel for</source>
        <translation>支持方律师</translation>
    </message>
    <message>
        <source>Counsel against</source>
        <translation>反对方律师</translation>
    </message>
    <message>
        <source>A claim to verify, or a decision to weigh…</source>
        <translation>要核实的主张，或要权衡的决定…</translation>
    </message>
    <message>
        <source>Clear the claim</source>
        <translation>清除主张</translation>
    </message>
    <message>
        <source>Type a claim, or pick a suggested one</source>
        <translation>输入主张，或选择一条建议的主张</translation>
    </message>
    <message>
        <source>Scope: all documents</source>
        <translation>范围：所有文档</translation>
    </message>
    <message>
        <source>Choose the documents (and sections) the evidence may come from</source>
        <translation>选择证据可来自的文档（及章节）</translation>
    </message>
    <message>
        <source>Background…</source>
        <translation>背景…</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Start the trial (Ctrl+Return)</source>
        <translation>开始审理 (Ctrl+Return)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the trial; it can be resumed later (Ctrl+.)</source>
        <translation>停止审理；之后可继续 (Ctrl+.)</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Continue a stopped or paused trial from its last complete turn (Ctrl+Shift+R)</source>
        <translation>从最后完成的一轮发言继续已停止或暂停的审理 (Ctrl+Shift+R)</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>Clear the courtroom for a new trial (Ctrl+N)</source>
        <translation>清空法庭以开始新的审理 (Ctrl+N)</translation>
    </message>
    <message>
        <source>&lt;b&gt;New here?&lt;/b&gt; Put a suggested claim on trial against six short medical articles, or weigh a sample decision from four notes. Both run on the bundled model, with no setup.</source>
        <translation>&lt;b&gt;初次使用？&lt;/b&gt;将一条建议的主张对照六篇医学短文进行审理，或根据四篇笔记权衡一个示例决定。两者都使用内置模型运行，无需任何设置。</translation>
    </message>
    <message>
        <source>Try the sample library</source>
        <translation>试用示例文献库</translation>
    </message>
    <message>
        <source>Try a sample decision</source>
        <translation>试用示例决定</translation>
    </message>
    <message>
        <source>Where to live next year: three options weighed on four criteria from four notes (a decision trial)</source>
        <translation>明年住在哪里：根据四篇笔记，按四项标准权衡三个选项（一次决定审理）</translation>
    </message>
    <message>
        <source>Transcript</source>
        <translation>庭审记录</translation>
    </message>
    <message>
        <source>One card a turn, ruling and verdict, read in order; a citation chip such as [E3] is a link: Tab moves to it, Enter opens its passage</source>
        <translation>每次发言、裁定和裁决各一张卡片，按顺序阅读；[E3] 这样的引用标签是链接：按 Tab 移到它上面，按 Enter 打开其段落</translation>
    </message>
    <message>
        <source>On trial:</source>
        <translation>审理中：</translation>
    </message>
    <message>
        <source>Scope: {title}</source>
        <translation>范围：{title}</translation>
    </message>
    <message>
        <source>1 document</source>
        <translation>1 个文档</translation>
    </message>
    <message>
        <source>Scope: {count} documents</source>
        <translation>范围：{count} 个文档</translation>
    </message>
    <message>
        <source>, {count} section filters</source>
        <translation>，{count} 个章节筛选</translation>
    </message>
    <message>
        <source>Evidence may come from every document</source>
        <translation>证据可以来自任何文档</translation>
    </message>
    <message>
        <source>&lt;a href=&quot;setup:models&quot;&gt;Set up a model&lt;/a&gt; (Settings → Models: find the models on this computer, or pull one)</source>
        <translation>&lt;a href=&quot;setup:models&quot;&gt;设置模型&lt;/a&gt;（设置 → 模型：查找本机上的模型，或拉取一个）</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>Text goes to: {servers}</source>
        <translation>文本发送至：{servers}</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>Private documents are never sent to a server on another machine: a trial that would send them there does not start, and one running stops before it would.</source>
        <translation>私密文档绝不会发送到其他机器上的服务器：会发送这些文档的审理不会开始，正在运行的审理会在发送前停止。</translation>
    </message>
    <message>
        <source>{options} options, {criteria} criteria…</source>
        <translation>{options} 个选项，{criteria} 条标准…</translation>
    </message>
    <message>
        <source>Options: </source>
        <translation>选项：</translation>
    </message>
    <message>
        <source>Criteria: </source>
        <translation>标准：</translation>
    </message>
    <message>
        <source>Options and criteria…</source>
        <translation>选项与标准…</translation>
    </message>
    <message>
        <source>Options to weigh (2 to 5), criteria with weights, hard constraints, and your background</source>
        <translation>要权衡的选项（2 到 5 个）、带权重的标准、硬性约束，以及你的背景</translation>
    </message>
    <message>
        <source>What every role should know about the case (read as data, never cited)</source>
        <translation>每个角色都应了解的案件背景（作为数据读取，从不引用）</translation>
    </message>
    <message>
        <source>Background: </source>
        <translation>背景：</translation>
    </message>
    <message>
        <source> · background</source>
        <translation> · 背景</translation>
    </message>
    <message>
        <source>Trial {id}</source>
        <translation>审理 {id}</translation>
    </message>
    <message>
        <source> of up to {count}</source>
        <translation>（最多 {count} 轮）</translation>
    </message>
    <message>
        <source>Round {round}{limit} · {role} is searching and arguing</source>
        <translation>第 {round} 轮{limit} · {role}正在检索并陈述</translation>
    </message>
    <message>
        <source>Round {round} ruled · confidence {confidence}</source>
        <translation>第 {round} 轮已裁定 · 置信度 {confidence}</translation>
    </message>
    <message>
        <source>The sides switched after round {round}</source>
        <translation>第 {round} 轮后双方互换立场</translation>
    </message>
    <message>
        <source>Verdict: {label}, confidence {confidence}</source>
        <translation>裁决：{label}，置信度 {confidence}</translation>
    </message>
    <message>
        <source>Counsel {seat}: {role}</source>
        <translation>律师 {seat}：{role}</translation>
    </message>
    <message>
        <source>Stored trials</source>
        <translation>已保存的审理</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Show the trial&apos;s transcript and evidence (Enter)</source>
        <translation>显示该审理的庭审记录和证据 (Enter)</translation>
    </message>
    <message>
        <source>Continue a stopped or paused trial</source>
        <translation>继续已停止或暂停的审理</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Write the verdict report (Ctrl+E)</source>
        <translation>撰写裁决报告 (Ctrl+E)</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete the selected trials</source>
        <translation>删除所选审理</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Read the trial store again (F5)</source>
        <translation>重新读取审理存储 (F5)</translation>
    </message>
    <message>
        <source>No trials yet: the trials you run are kept here, to reopen, resume or export.</source>
        <translation>尚无审理：你运行的审理会保存在这里，可重新打开、继续或导出。</translation>
    </message>
    <message>
        <source>The cited page appears here, the passage highlighted.</source>
        <extracomment>(x0, y0, x1, y1) as fractions of the page (core.records.Highlight.rects)</extracomment>
        <translation>被引用的页面显示在这里，并高亮该段落。</translation>
    </message>
    <message>
        <source>Page with the passage highlighted</source>
        <translation>高亮显示该段落的页面</translation>
    </message>
    <message>
        <source>Evidence pool</source>
        <translation>证据池</translation>
    </message>
    <message>
        <source>The passages found in this trial, one a row: select one to see it on its page</source>
        <translation>本次审理找到的段落，每行一个：选择一个即可在其页面上查看</translation>
    </message>
    <message>
        <source>Select a passage (or click a citation such as [E3]) to see it on its page.</source>
        <translation>选择一个段落（或点击 [E3] 这样的引用）即可在其页面上查看。</translation>
    </message>
    <message>
        <source>Passage text</source>
        <translation>段落文本</translation>
    </message>
    <message>
        <source>Previous page (PgUp)</source>
        <translation>上一页 (PgUp)</translation>
    </message>
    <message>
        <source>Previous page</source>
        <translation>上一页</translation>
    </message>
    <message>
        <source>Next page (PgDown)</source>
        <translation>下一页 (PgDown)</translation>
    </message>
    <message>
        <source>Next page</source>
        <translation>下一页</translation>
    </message>
    <message>
        <source>Zoom out (Ctrl+-)</source>
        <translation>缩小 (Ctrl+-)</translation>
    </message>
    <message>
        <source>Zoom out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <source>Zoom in (Ctrl+=)</source>
        <translation>放大 (Ctrl+=)</translation>
    </message>
    <message>
        <source>Zoom in</source>
        <translation>放大</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适合宽度</translation>
    </message>
    <message>
        <source>Fit the page width</source>
        <translation>适合页面宽度</translation>
    </message>
    <message>
        <source>Admitted</source>
        <translation>已采纳</translation>
    </message>
    <message>
        <source>Turned away</source>
        <translation>被拒</translation>
    </message>
    <message>
        <source>Cited</source>
        <translation>被引用</translation>
    </message>
    <message>
        <source>Round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Found by</source>
        <translation>由谁找到</translation>
    </message>
    <message>
        <source>Passage</source>
        <translation>段落</translation>
    </message>
    <message>
        <source>What became of it</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>turned away: {reason}</source>
        <translation>被拒：{reason}</translation>
    </message>
    <message>
        <source>admitted as {id}</source>
        <translation>采纳为 {id}</translation>
    </message>
    <message>
        <source>judged {reading}</source>
        <translation>判定为{reading}</translation>
    </message>
    <message>
        <source>flagged: reads like instructions to a model (never obeyed)</source>
        <translation>已标记：读起来像是给模型的指令（从不执行）</translation>
    </message>
    <message>
        <source>cited {count}×</source>
        <translation>被引用 {count} 次</translation>
    </message>
    <message>
        <source>{queries} queries searched; {found} passages found: {admitted} admitted, {turned} turned away. {retrieved} documents retrieved, {never} in scope never retrieved.</source>
        <translation>共搜索 {queries} 个查询；找到 {found} 个段落：采纳 {admitted} 个，拒绝 {turned} 个。检索到 {retrieved} 篇文档，范围内有 {never} 篇从未被检索到。</translation>
    </message>
    <message>
        <source>Coverage of the trial: {claim}</source>
        <translation>审理的覆盖范围：{claim}</translation>
    </message>
    <message>
        <source>Coverage of the trial</source>
        <translation>审理的覆盖范围</translation>
    </message>
    <message>
        <source>Documents the searches reached</source>
        <translation>检索涉及的文档</translation>
    </message>
    <message>
        <source>Passages found</source>
        <translation>找到的段落</translation>
    </message>
    <message>
        <source>never retrieved</source>
        <translation>从未被检索到</translation>
    </message>
    <message>
        <source>query: {query}</source>
        <translation>查询：{query}</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Passages found, in the order of the searches</source>
        <translation>找到的段落（按搜索顺序）</translation>
    </message>
    <message>
        <source>Go to the passage&apos;s page</source>
        <translation>转到该段落所在的页面</translation>
    </message>
    <message>
        <source>Open in viewer</source>
        <translation>在查看器中打开</translation>
    </message>
    <message>
        <source>Open the PDF in the system&apos;s viewer</source>
        <translation>在系统查看器中打开该 PDF</translation>
    </message>
    <message>
        <source>Cited page</source>
        <translation>被引用的页面</translation>
    </message>
    <message>
        <source>The page the passage is on; arrow keys scroll it</source>
        <translation>段落所在的页面；用方向键滚动</translation>
    </message>
    <message>
        <source>Document text with the passage highlighted</source>
        <translation>高亮显示该段落的文档文本</translation>
    </message>
    <message>
        <source>{id} is not in this trial&apos;s evidence pool</source>
        <translation>{id} 不在本次审理的证据池中</translation>
    </message>
    <message>
        <source>the Judge</source>
        <translation>法官</translation>
    </message>
    <message>
        <source>not cited yet</source>
        <translation>尚未被引用</translation>
    </message>
    <message>
        <source>{who} found it in round {round} at {time} by the query {query}</source>
        <translation>{who}在第 {round} 轮（{time}）通过查询 {query} 找到</translation>
    </message>
    <message>
        <source>level: {level} · cited by: {cited}</source>
        <translation>证据级别：{level} · 引用者：{cited}</translation>
    </message>
    <message>
        <source>reads like instructions to a model: treated as a quotation only</source>
        <translation>读起来像是给模型的指令：仅作为引文处理</translation>
    </message>
    <message>
        <source>(The document has changed since it was added: this is the passage the trial kept.)</source>
        <translation>（文档自加入后已有改动：这是审理保存的段落。）</translation>
    </message>
    <message>
        <source>Highlighted: {text}</source>
        <translation>高亮内容：{text}</translation>
    </message>
    <message>
        <source>The page cannot be shown: {reason}. The passage text above is what the trial kept.</source>
        <translation>无法显示该页：{reason}。上方的段落文本是审理保存的内容。</translation>
    </message>
    <message>
        <source>page {page} / {pages}</source>
        <translation>第 {page} / {pages} 页</translation>
    </message>
    <message>
        <source>{zoom} (fit)</source>
        <translation>{zoom}（适合宽度）</translation>
    </message>
    <message>
        <source>Documents in the library</source>
        <translation>文献库中的文档</translation>
    </message>
    <message>
        <source>Your library is empty. Drop PDFs, Markdown, text or Word files or folders here, use Add, write a note, or try the sample library (six short articles and a suggested claim).</source>
        <translation>文献库为空。可将 PDF、Markdown、文本或 Word 文件或文件夹拖放到此处，使用“添加”，写一篇笔记，或试用示例文献库（六篇短文和一条建议的主张）。</translation>
    </message>
    <message>
        <source>Add the sample library</source>
        <translation>添加示例文献库</translation>
    </message>
    <message>
        <source>Add files…</source>
        <translation>添加文件…</translation>
    </message>
    <message>
        <source>Add PDF, Markdown, text or Word files (Ctrl+O)</source>
        <translation>添加 PDF、Markdown、文本或 Word 文件 (Ctrl+O)</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <source>Add every PDF, Markdown, text and Word file under a folder (Ctrl+Shift+O)</source>
        <translation>添加文件夹中的所有 PDF、Markdown、文本和 Word 文件 (Ctrl+Shift+O)</translation>
    </message>
    <message>
        <source>Remove the selected documents from the library (Delete)</source>
        <translation>从文献库中移除所选文档 (Delete)</translation>
    </message>
    <message>
        <source>Re-index</source>
        <translation>重新索引</translation>
    </message>
    <message>
        <source>Extract and embed the selected documents again (all when none is selected)</source>
        <translation>重新提取并嵌入所选文档（未选择时处理全部）</translation>
    </message>
    <message>
        <source>New note…</source>
        <translation>新建笔记…</translation>
    </message>
    <message>
        <source>Write or paste a note: it becomes evidence like any document</source>
        <translation>撰写或粘贴笔记：它会像任何文档一样成为证据</translation>
    </message>
    <message>
        <source>Watch folder…</source>
        <translation>监视文件夹…</translation>
    </message>
    <message>
        <source>Keep a folder in step with the library: files added or changed there are ingested, files removed leave it</source>
        <translation>让文件夹与文献库保持同步：其中新增或更改的文件会被导入，移除的文件会离开文献库</translation>
    </message>
    <message>
        <source>From Zotero…</source>
        <translation>从 Zotero…</translation>
    </message>
    <message>
        <source>Import the PDFs of your Zotero library, or of one collection, with their metadata; again to keep in step</source>
        <translation>导入 Zotero 文献库或其中某个集合的 PDF 及其元数据；再次导入即可保持同步</translation>
    </message>
    <message>
        <source>Use in trials</source>
        <translation>审理使用情况</translation>
    </message>
    <message>
        <source>Which documents the stored trials cited most, and which they never retrieved (sorts the list by it)</source>
        <translation>已存储的审理引用最多的文档，以及从未检索到的文档（并据此对列表排序）</translation>
    </message>
    <message>
        <source>%v of %m files</source>
        <translation>%v / %m 个文件</translation>
    </message>
    <message>
        <source>Stop adding documents (what is done stays)</source>
        <translation>停止添加文档（已完成的部分保留）</translation>
    </message>
    <message>
        <source>Edit note</source>
        <translation>编辑笔记</translation>
    </message>
    <message>
        <source>Watch a folder</source>
        <translation>监视文件夹</translation>
    </message>
    <message>
        <source>Mark every document from this folder private? Private documents are never sent to a model server on another machine.</source>
        <translation>将此文件夹中的所有文档标记为私密？私密文档绝不会发送到其他机器上的模型服务器。</translation>
    </message>
    <message>
        <source>Edit note…</source>
        <translation>编辑笔记…</translation>
    </message>
    <message>
        <source>Not private</source>
        <translation>取消私密</translation>
    </message>
    <message>
        <source>Mark private</source>
        <translation>标为私密</translation>
    </message>
    <message>
        <source>Watch a folder…</source>
        <translation>监视文件夹…</translation>
    </message>
    <message>
        <source>Stop watching {folder}</source>
        <translation>停止监视 {folder}</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <source>{file}: starting</source>
        <translation>{file}：正在开始</translation>
    </message>
    <message>
        <source>{added} added, {updated} updated, {skipped} unchanged, {failed} failed</source>
        <translation>{added} 个已添加、{updated} 个已更新、{skipped} 个未变、{failed} 个失败</translation>
    </message>
    <message>
        <source> ({pages} pages in {seconds} s)</source>
        <translation>（{pages} 页，用时 {seconds} 秒）</translation>
    </message>
    <message>
        <source>Cancelled: </source>
        <translation>已取消：</translation>
    </message>
    <message>
        <source>Done: </source>
        <translation>完成：</translation>
    </message>
    <message>
        <source>Adding documents: </source>
        <translation>添加文献：</translation>
    </message>
    <message>
        <source>{ready} documents ready, {pages} pages</source>
        <translation>{ready} 个文档就绪，共 {pages} 页</translation>
    </message>
    <message>
        <source>, {failed} failed</source>
        <translation>，{failed} 个失败</translation>
    </message>
    <message>
        <source>Library: {where}</source>
        <translation>文献库：{where}</translation>
    </message>
    <message>
        <source>Settings &gt; Library &amp; data: Library location (library.uri); docs/scale.md</source>
        <translation>设置 &gt; 文献库与数据：文献库位置 (library.uri)；docs/scale.md</translation>
    </message>
    <message>
        <source>Use these models</source>
        <translation>使用这些模型</translation>
    </message>
    <message>
        <source>Save this model for each role (Settings → Models changes it later)</source>
        <translation>为每个角色保存此模型（之后可在 设置 → 模型 中更改）</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>暂不</translation>
    </message>
    <message>
        <source>Keep the bundled demo model</source>
        <translation>保留内置演示模型</translation>
    </message>
    <message>
        <source>&lt;b&gt;Models found on this computer&lt;/b&gt; ({servers}). The bundled demo model is only for trying the app; for verdicts worth reading, use these:</source>
        <translation>&lt;b&gt;在本机找到的模型&lt;/b&gt;（{servers}）。内置的演示模型只适合试用本应用；要得到值得一读的裁决，请使用这些：</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>{title}: {message}</source>
        <translation>{title}：{message}</translation>
    </message>
    <message>
        <source>Jump to round…</source>
        <translation>跳转到轮…</translation>
    </message>
    <message>
        <source>Show a round of the transcript from its first card</source>
        <translation>从第一张卡片起显示庭审记录的某一轮</translation>
    </message>
    <message>
        <source>Fold earlier rounds</source>
        <translation>折叠之前的轮</translation>
    </message>
    <message>
        <source>Show every round but the last on one line a card (each card&apos;s &apos;Unfold round&apos; link opens its round again)</source>
        <translation>除最后一轮外，每轮以一张卡片一行显示（每张卡片的“展开本轮”链接可重新展开该轮）</translation>
    </message>
    <message>
        <source>Unfold all</source>
        <translation>全部展开</translation>
    </message>
    <message>
        <source>Show every round in full</source>
        <translation>完整显示每一轮</translation>
    </message>
    <message>
        <source>Coverage…</source>
        <translation>覆盖情况…</translation>
    </message>
    <message>
        <source>Which documents the searches reached, which passages were admitted or turned away and why, which documents were never retrieved</source>
        <translation>检索覆盖了哪些文档，哪些段落被采纳或被拒绝及其原因，哪些文档从未被检索到</translation>
    </message>
    <message>
        <source>Record:</source>
        <translation>记录：</translation>
    </message>
    <message>
        <source>Round {round}</source>
        <translation>第 {round} 轮</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>文献库</translation>
    </message>
    <message>
        <source>Trial history</source>
        <translation>审理历史</translation>
    </message>
    <message>
        <source>{count} documents in the library</source>
        <translation>文献库中有 {count} 个文档</translation>
    </message>
    <message>
        <source>Add documents</source>
        <translation>添加文档</translation>
    </message>
    <message>
        <source>Documents (*.pdf *.md *.markdown *.txt *.docx);;PDF files (*.pdf);;All files (*)</source>
        <translation>文档 (*.pdf *.md *.markdown *.txt *.docx);;PDF 文件 (*.pdf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Add every document under a folder</source>
        <translation>添加文件夹中的所有文档</translation>
    </message>
    <message>
        <source>Verdict reached: export the report with Ctrl+E</source>
        <translation>已作出裁决：按 Ctrl+E 导出报告</translation>
    </message>
    <message>
        <source>Delete this trial and every event it recorded? Exported reports are not touched.</source>
        <translation>删除这次审理及其记录的所有事件吗？已导出的报告不受影响。</translation>
    </message>
    <message>
        <source>Delete {count} trials and every event they recorded? Exported reports are not touched.</source>
        <translation>删除这 {count} 次审理及其记录的所有事件吗？已导出的报告不受影响。</translation>
    </message>
    <message>
        <source>Delete trials</source>
        <translation>删除审理</translation>
    </message>
    <message>
        <source>Open or finish a trial first</source>
        <translation>请先打开或完成一次审理</translation>
    </message>
    <message>
        <source>Saving the settings</source>
        <translation>正在保存设置</translation>
    </message>
    <message>
        <source>check that the config folder is writable</source>
        <translation>请检查配置文件夹是否可写</translation>
    </message>
    <message>
        <source>Settings saved: the running trial keeps its models; the next one uses the new settings</source>
        <translation>设置已保存：正在进行的审理沿用其模型；下一次审理将使用新设置</translation>
    </message>
    <message>
        <source>Settings saved and applied</source>
        <translation>设置已保存并应用</translation>
    </message>
    <message>
        <source>cannot switch while a trial or an ingest runs</source>
        <translation>审理或导入进行中时无法切换</translation>
    </message>
    <message>
        <source>stop it, then apply the settings again</source>
        <translation>请先停止，然后重新应用设置</translation>
    </message>
    <message>
        <source>Put a claim on trial against your own PDF library: a Prosecution, a Defense and a Judge, every citation highlighted in its source.</source>
        <translation>用你自己的 PDF 文献库审理一个论断：控方、辩方和法官，每条引用都在原文中高亮。</translation>
    </message>
    <message>
        <source>Data folder: {folder}</source>
        <translation>数据文件夹：{folder}</translation>
    </message>
    <message>
        <source>About {app}</source>
        <translation>关于 {app}</translation>
    </message>
    <message>
        <source>Loading the library</source>
        <translation>正在加载文献库</translation>
    </message>
    <message>
        <source>Opening the library…</source>
        <translation>正在打开文献库…</translation>
    </message>
    <message>
        <source>Loading the embedding model…</source>
        <translation>正在加载嵌入模型…</translation>
    </message>
    <message>
        <source>Loading the embedded chat model…</source>
        <translation>正在加载内置对话模型…</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>Closing the previous models</source>
        <translation>正在关闭之前的模型</translation>
    </message>
    <message>
        <source>Loading the chat models</source>
        <translation>正在加载对话模型</translation>
    </message>
    <message>
        <source>Switching the data folder</source>
        <translation>正在切换数据文件夹</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Fix</source>
        <translation>修复方法</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>FAILED</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>settings</source>
        <extracomment>The doctor&apos;s own words for its checks, probes and results (core.llm.doctor: CHECKS, PROBES, RATINGS), for lupdate.</extracomment>
        <translation>设置</translation>
    </message>
    <message>
        <source>context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <source>server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>probe: JSON</source>
        <translation>探测：JSON</translation>
    </message>
    <message>
        <source>probe: citations</source>
        <translation>探测：引用</translation>
    </message>
    <message>
        <source>probe: known answer</source>
        <translation>探测：已知答案</translation>
    </message>
    <message>
        <source>rating</source>
        <translation>评级</translation>
    </message>
    <message>
        <source>pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>miss</source>
        <translation>未通过</translation>
    </message>
    <message>
        <source>good</source>
        <translation>良好</translation>
    </message>
    <message>
        <source>usable</source>
        <translation>可用</translation>
    </message>
    <message>
        <source>demo only</source>
        <translation>仅供演示</translation>
    </message>
    <message>
        <source>not rated</source>
        <translation>未评级</translation>
    </message>
    <message>
        <source>Added {when} by {who}</source>
        <translation>由 {who} 于 {when} 添加</translation>
    </message>
    <message>
        <source>Added {when}</source>
        <translation>于 {when} 添加</translation>
    </message>
    <message>
        <source>Added by {who}</source>
        <translation>由 {who} 添加</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>页数</translation>
    </message>
    <message>
        <source>Sections</source>
        <translation>章节</translation>
    </message>
    <message>
        <source>Chunks</source>
        <translation>文本块</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>In trials</source>
        <translation>审理中使用</translation>
    </message>
    <message>
        <source>private: its text is never sent to a model server on another machine</source>
        <translation>私密：其文本从不发送到另一台机器上的模型服务器</translation>
    </message>
    <message>
        <source>ready</source>
        <extracomment>A row&apos;s status words (core.records.DocStatus, and the ingest&apos;s own), for lupdate: shown through tr</extracomment>
        <translation>就绪</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>写入中</translation>
    </message>
    <message>
        <source>removing</source>
        <translation>移除中</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>indexing</source>
        <translation>建立索引</translation>
    </message>
    <message>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>note</source>
        <translation>笔记</translation>
    </message>
    <message>
        <source>retracted</source>
        <extracomment>A notice on a work (records.Notice.kind), shown beside its title wherever it appears (through tr)</extracomment>
        <translation>已撤稿</translation>
    </message>
    <message>
        <source>corrected</source>
        <translation>已更正</translation>
    </message>
    <message>
        <source>expression of concern</source>
        <translation>关注声明</translation>
    </message>
    <message>
        <source>cited {citations}× in {trials} trials</source>
        <translation>在 {trials} 次审理中被引用 {citations} 次</translation>
    </message>
    <message>
        <source>retrieved, never cited</source>
        <translation>被检索到，从未被引用</translation>
    </message>
    <message>
        <source>never retrieved ({trials} trials)</source>
        <translation>从未被检索到（{trials} 次审理）</translation>
    </message>
    <message>
        <source>reading page {done}/{pages}</source>
        <translation>读取第 {done}/{pages} 页</translation>
    </message>
    <message>
        <source>OCR page {done}/{pages}</source>
        <translation>OCR 第 {done}/{pages} 页</translation>
    </message>
    <message>
        <source>{count} passages</source>
        <translation>{count} 个段落</translation>
    </message>
    <message>
        <source>embedding {done}/{chunks}</source>
        <translation>嵌入 {done}/{chunks}</translation>
    </message>
    <message>
        <source> (private)</source>
        <translation>（私密）</translation>
    </message>
    <message>
        <source>in the scope of {scope} trials, retrieved in {retrieved}, cited in {cited} ({citations} citations)</source>
        <translation>在 {scope} 次审理的范围内，{retrieved} 次被检索到，{cited} 次被引用（共 {citations} 处引用）</translation>
    </message>
    <message>
        <source>from Zotero</source>
        <translation>来自 Zotero</translation>
    </message>
    <message>
        <source>from Retraction Watch</source>
        <translation>来自 Retraction Watch</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Stance</source>
        <translation>立场</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>证据级别</translation>
    </message>
    <message>
        <source>Page</source>
        <translation>页码</translation>
    </message>
    <message>
        <source>Found</source>
        <translation>发现于</translation>
    </message>
    <message>
        <source>Query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Cited by</source>
        <translation>引用者</translation>
    </message>
    <message>
        <source>supports</source>
        <extracomment>Assessed stances (core.court.records), for lupdate: shown through tr
----------
The judge&apos;s model&apos;s reading of an admitted passage, as the window words it.</extracomment>
        <translation>支持</translation>
    </message>
    <message>
        <source>refutes</source>
        <translation>反驳</translation>
    </message>
    <message>
        <source>mixed</source>
        <translation>不一</translation>
    </message>
    <message>
        <source>irrelevant</source>
        <translation>无关</translation>
    </message>
    <message>
        <source>for</source>
        <translation>赞成</translation>
    </message>
    <message>
        <source>against</source>
        <translation>反对</translation>
    </message>
    <message>
        <source>neither</source>
        <translation>无关</translation>
    </message>
    <message>
        <source>{who} found it in round {round} at {time} (novelty {novelty})</source>
        <translation>{who}在第 {round} 轮（{time}）找到（新颖度 {novelty}）</translation>
    </message>
    <message>
        <source>This passage reads like instructions to a model: it is treated as a quotation only.</source>
        <translation>这段文字读起来像是给模型的指令：仅作为引文对待。</translation>
    </message>
    <message>
        <source>Judge</source>
        <translation>法官</translation>
    </message>
    <message>
        <source>Counsel {seat}</source>
        <translation>律师 {seat}</translation>
    </message>
    <message>
        <source>round {round}, {who}, {time}</source>
        <translation>第 {round} 轮，{who}，{time}</translation>
    </message>
    <message>
        <source>both sides · </source>
        <translation>双方 · </translation>
    </message>
    <message>
        <source>judge: {stance}</source>
        <translation>法官：{stance}</translation>
    </message>
    <message>
        <source>The claim verifier&apos;s reading: supports {s}, refutes {r}, neither {n} (calibrated probabilities)</source>
        <translation>核验模型的读数：支持 {s}，反驳 {r}，无关 {n}（校准后的概率）</translation>
    </message>
    <message>
        <source>What the passage says, as the judge&apos;s model assessed it: {stance} (relevance {relevance})</source>
        <translation>法官模型评估的文段立场：{stance}（相关度 {relevance}）</translation>
    </message>
    <message>
        <source>Not assessed yet (the judge assesses new passages after each round)</source>
        <translation>尚未评估（法官在每轮结束后评估新文段）</translation>
    </message>
    <message>
        <source>The verifier and the judge&apos;s model disagree: both readings are kept.</source>
        <translation>核验模型与法官模型的读数不一致：两者都保留。</translation>
    </message>
    <message>
        <source>Found by {who}</source>
        <translation>由{who}找到</translation>
    </message>
    <message>
        <source>verdict</source>
        <translation>裁决</translation>
    </message>
    <message>
        <source>{role} (round {round})</source>
        <translation>{role}（第 {round} 轮）</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>Family</source>
        <translation>系列</translation>
    </message>
    <message>
        <source>Quantisation</source>
        <translation>量化</translation>
    </message>
    <message>
        <source>Argument format</source>
        <extracomment>the hints ``shown(...)`` leaves in a field&apos;s ``json_schema_extra``: JSON values (label, unit, step, choices, ...) a field&apos;s widget, what loads a value into it, and what reads its value The labels and units core/config.py gives its fields (``shown``), for lupdate: shown through tr</extracomment>
        <translation>论证格式</translation>
    </message>
    <message>
        <source>BM25 weight</source>
        <translation>BM25 权重</translation>
    </message>
    <message>
        <source>CPU threads</source>
        <translation>CPU 线程数</translation>
    </message>
    <message>
        <source>Calls at once</source>
        <translation>同时调用数</translation>
    </message>
    <message>
        <source>Candidates per method</source>
        <translation>每种方法的候选数</translation>
    </message>
    <message>
        <source>Claim finder</source>
        <translation>主张识别方式</translation>
    </message>
    <message>
        <source>Confidence stall below</source>
        <translation>置信度停滞阈值（低于）</translation>
    </message>
    <message>
        <source>Confidence stall over</source>
        <translation>置信度停滞（持续）</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <source>Embedder</source>
        <translation>嵌入模型</translation>
    </message>
    <message>
        <source>Embedding batch</source>
        <translation>嵌入批大小</translation>
    </message>
    <message>
        <source>Evidence hierarchy</source>
        <translation>证据等级</translation>
    </message>
    <message>
        <source>Flag judge vs evidence gap over</source>
        <translation>法官与证据差距标记阈值</translation>
    </message>
    <message>
        <source>Full trials</source>
        <translation>完整审理数</translation>
    </message>
    <message>
        <source>Fusion</source>
        <translation>融合方式</translation>
    </message>
    <message>
        <source>GPU layers</source>
        <translation>GPU 层数</translation>
    </message>
    <message>
        <source>Library location</source>
        <translation>文献库位置</translation>
    </message>
    <message>
        <source>Longest answer</source>
        <translation>最长回答</translation>
    </message>
    <message>
        <source>Minimum rounds</source>
        <translation>最少轮数</translation>
    </message>
    <message>
        <source>Model queries per turn</source>
        <translation>每次发言的模型检索数</translation>
    </message>
    <message>
        <source>Near-duplicate similarity</source>
        <translation>近似重复相似度</translation>
    </message>
    <message>
        <source>New cited passages over</source>
        <translation>新引用段落（持续）</translation>
    </message>
    <message>
        <source>Novelty of new evidence</source>
        <translation>新证据的新颖度</translation>
    </message>
    <message>
        <source>OCR of scanned pages</source>
        <translation>扫描页 OCR</translation>
    </message>
    <message>
        <source>OCR resolution</source>
        <translation>OCR 分辨率</translation>
    </message>
    <message>
        <source>OCR time per page</source>
        <translation>每页 OCR 时限</translation>
    </message>
    <message>
        <source>Object-storage endpoint</source>
        <translation>对象存储端点</translation>
    </message>
    <message>
        <source>Open the shared library read-only</source>
        <translation>以只读方式打开共享文献库</translation>
    </message>
    <message>
        <source>Overlap</source>
        <translation>重叠</translation>
    </message>
    <message>
        <source>Passage size</source>
        <translation>段落大小</translation>
    </message>
    <message>
        <source>Passages per claim</source>
        <translation>每条主张的段落数</translation>
    </message>
    <message>
        <source>Passages per search</source>
        <translation>每次检索的段落数</translation>
    </message>
    <message>
        <source>Passages per turn</source>
        <translation>每次发言的段落数</translation>
    </message>
    <message>
        <source>Read timeout</source>
        <translation>读取超时</translation>
    </message>
    <message>
        <source>Reranker</source>
        <translation>重排序器</translation>
    </message>
    <message>
        <source>Role switches at most</source>
        <translation>最多换边次数</translation>
    </message>
    <message>
        <source>Round limit</source>
        <translation>轮数上限</translation>
    </message>
    <message>
        <source>Switch after a steady tendency of</source>
        <translation>倾向稳定多久后换边</translation>
    </message>
    <message>
        <source>Switch after the same controversy for</source>
        <translation>同一争议持续多久后换边</translation>
    </message>
    <message>
        <source>Switch below new cited passages</source>
        <translation>新引用段落低于此数时换边</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Trial below confidence</source>
        <translation>低于此置信度时开庭审理</translation>
    </message>
    <message>
        <source>Vector weight</source>
        <translation>向量权重</translation>
    </message>
    <message>
        <source>Verdict at confidence</source>
        <translation>达到此置信度时裁决</translation>
    </message>
    <message>
        <source>calls</source>
        <translation>次调用</translation>
    </message>
    <message>
        <source>dpi</source>
        <translation>dpi</translation>
    </message>
    <message>
        <source>layers</source>
        <translation>层</translation>
    </message>
    <message>
        <source>passages</source>
        <translation>段</translation>
    </message>
    <message>
        <source>rounds</source>
        <translation>轮</translation>
    </message>
    <message>
        <source>s</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>threads</source>
        <translation>线程</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Hide claims worth less than</source>
        <translation>隐藏核查价值低于此值的论断</translation>
    </message>
    <message>
        <source>Keep a local replica of a shared library</source>
        <translation>为共享文献库保留本地副本</translation>
    </message>
    <message>
        <source>Local replica size limit</source>
        <translation>本地副本大小上限</translation>
    </message>
    <message>
        <source>GB</source>
        <translation>GB</translation>
    </message>
    <message>
        <source>Ingest engine</source>
        <translation>导入引擎</translation>
    </message>
    <message>
        <source>Ray cluster address</source>
        <translation>Ray 集群地址</translation>
    </message>
    <message>
        <source>Ray workers</source>
        <translation>Ray 工作进程数</translation>
    </message>
    <message>
        <source>Proposed for</source>
        <translation>建议用于</translation>
    </message>
    <message>
        <source>Claim or decision</source>
        <translation>主张或决定</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件数</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>决定</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>进行中</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Search queries</source>
        <extracomment>What a call asked for, by its schema (shown through tr)</extracomment>
        <translation>搜索查询</translation>
    </message>
    <message>
        <source>Argument</source>
        <translation>论证</translation>
    </message>
    <message>
        <source>Assessment of the new passages</source>
        <translation>对新段落的评估</translation>
    </message>
    <message>
        <source>Ruling</source>
        <translation>裁定</translation>
    </message>
    <message>
        <source>prosecution</source>
        <extracomment>The role whose model answered (core.records.ModelCall.role), shown through tr
----------
The roles (and the embedder) by their stored names, shown through tr (where each one&apos;s text goes)</extracomment>
        <translation>控方</translation>
    </message>
    <message>
        <source>defense</source>
        <translation>辩方</translation>
    </message>
    <message>
        <source>judge</source>
        <translation>法官</translation>
    </message>
    <message>
        <source>Kept with the trial on this computer only, and left out of every report and export unless asked (courtroom export --with-prompts).</source>
        <translation>仅随审理保存在本机，除非明确要求（courtroom export --with-prompts），否则不会出现在任何报告或导出中。</translation>
    </message>
    <message>
        <source>Free text</source>
        <translation>自由文本</translation>
    </message>
    <message>
        <source>, retried (the answer was not valid JSON)</source>
        <translation>，重试（回答不是有效的 JSON）</translation>
    </message>
    <message>
        <source>, again (the first was rejected)</source>
        <translation>，再次（第一次被驳回）</translation>
    </message>
    <message>
        <source>{tokens_in} → {tokens_out} tokens</source>
        <translation>{tokens_in} → {tokens_out} 个词元</translation>
    </message>
    <message>
        <source>Model calls</source>
        <translation>模型调用</translation>
    </message>
    <message>
        <source>The exact prompt</source>
        <translation>完整的提示词</translation>
    </message>
    <message>
        <source>The raw answer</source>
        <translation>原始回答</translation>
    </message>
    <message>
        <source>No model call was kept for this card: the trial ran before prompts were kept, or the call was still under way.</source>
        <translation>这张卡片没有保存模型调用：该审理早于保存提示词的版本，或调用仍在进行中。</translation>
    </message>
    <message>
        <source>The prompts of turn {number}</source>
        <translation>第 {number} 次发言的提示词</translation>
    </message>
    <message>
        <source>The prompts of turn {number} ({role}, round {round})</source>
        <translation>第 {number} 次发言的提示词（{role}，第 {round} 轮）</translation>
    </message>
    <message>
        <source>The prompts of the judge&apos;s ruling after round {round}</source>
        <translation>第 {round} 轮后法官裁定的提示词</translation>
    </message>
    <message>
        <source>The prompts of the verdict</source>
        <translation>裁决的提示词</translation>
    </message>
    <message>
        <source>embedder</source>
        <translation>嵌入模型</translation>
    </message>
    <message>
        <source>systematic review</source>
        <extracomment>The default evidence levels (config.DebateSettings.evidence_hierarchy), for lupdate: shown through tr</extracomment>
        <translation>系统综述</translation>
    </message>
    <message>
        <source>randomised trial</source>
        <translation>随机试验</translation>
    </message>
    <message>
        <source>cohort</source>
        <translation>队列研究</translation>
    </message>
    <message>
        <source>case report</source>
        <translation>病例报告</translation>
    </message>
    <message>
        <source>expert opinion</source>
        <translation>专家意见</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Supported</source>
        <extracomment>Shown through tr (the trials and checks tables, the verdict card)</extracomment>
        <translation>成立</translation>
    </message>
    <message>
        <source>Refuted</source>
        <translation>不成立</translation>
    </message>
    <message>
        <source>Mixed</source>
        <translation>部分成立</translation>
    </message>
    <message>
        <source>Insufficient evidence</source>
        <translation>证据不足</translation>
    </message>
    <message>
        <source>open</source>
        <extracomment>A challenge&apos;s status (core.court.records.ChallengeStatus) and who raises one, shown through tr</extracomment>
        <translation>未决</translation>
    </message>
    <message>
        <source>answered</source>
        <translation>已回应</translation>
    </message>
    <message>
        <source>partly answered</source>
        <translation>部分回应</translation>
    </message>
    <message>
        <source>unanswered</source>
        <translation>未回应</translation>
    </message>
    <message>
        <source>leans towards support</source>
        <extracomment>Shown through tr (the judge&apos;s cards)</extracomment>
        <translation>倾向于支持</translation>
    </message>
    <message>
        <source>leans towards refuting</source>
        <translation>倾向于驳斥</translation>
    </message>
    <message>
        <source>is undecided</source>
        <translation>尚未定论</translation>
    </message>
    <message>
        <source>every role</source>
        <translation>所有角色</translation>
    </message>
    <message>
        <source>{note} ({who} on the bundled {model}; set up a model in Settings → Models (Find models on this computer))</source>
        <translation>{note}（{who}使用内置的 {model}；请在 设置 → 模型 中设置模型（查找本机上的模型））</translation>
    </message>
    <message>
        <source>argues for doing it</source>
        <translation>主张去做</translation>
    </message>
    <message>
        <source>argues against doing it</source>
        <translation>主张不做</translation>
    </message>
    <message>
        <source>argues the claim is true</source>
        <translation>主张该主张属实</translation>
    </message>
    <message>
        <source>argues the claim is false</source>
        <translation>主张该主张不实</translation>
    </message>
    <message>
        <source>## Verdict: {label}</source>
        <translation>## 裁决：{label}</translation>
    </message>
    <message>
        <source>*Decision:* {text}</source>
        <translation>*决定：* {text}</translation>
    </message>
    <message>
        <source>*Claim:* {text}</source>
        <translation>*主张：* {text}</translation>
    </message>
    <message>
        <source>weighed evidence {percent} ({label})</source>
        <translation>证据权衡 {percent}（{label}）</translation>
    </message>
    <message>
        <source>{n} round</source>
        <translation>{n} 轮</translation>
    </message>
    <message>
        <source>{n} rounds</source>
        <translation>{n} 轮</translation>
    </message>
    <message>
        <source>{n} switch</source>
        <translation>{n} 次换边</translation>
    </message>
    <message>
        <source>{n} switches</source>
        <translation>{n} 次换边</translation>
    </message>
    <message>
        <source>**Confidence {percent}**</source>
        <translation>**置信度 {percent}**</translation>
    </message>
    <message>
        <source>What would change the recommendation</source>
        <translation>什么会改变建议</translation>
    </message>
    <message>
        <source>Open lines of argument</source>
        <translation>未决的论点</translation>
    </message>
    <message>
        <source>{id} ({by}, round {round}; {status}): {text}</source>
        <translation>{id}（{by}，第 {round} 轮；{status}）：{text}</translation>
    </message>
    <message>
        <source>Evidence weighed</source>
        <translation>权衡过的证据</translation>
    </message>
    <message>
        <source>, says: {stance}</source>
        <translation>，内容：{stance}</translation>
    </message>
    <message>
        <source>, cited by both sides</source>
        <translation>，双方均引用</translation>
    </message>
    <message>
        <source>, cited by {who}</source>
        <translation>，引用方：{who}</translation>
    </message>
    <message>
        <source>{level}, weight {weight}</source>
        <translation>{level}，权重 {weight}</translation>
    </message>
    <message>
        <source>*Stopped because:* {reason}</source>
        <translation>*停止原因：* {reason}</translation>
    </message>
    <message>
        <source>Option</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>Standing</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>Options by criteria</source>
        <translation>各选项按标准的得分</translation>
    </message>
    <message>
        <source>Scores 0–10 by the judge, counted only with a citation; ? = not established by your notes (counted at 5).</source>
        <translation>得分 0–10 由法官给出，只有附引用才计入；? = 你的笔记未能证实（按 5 分计）。</translation>
    </message>
    <message>
        <source>Worth finding out next:</source>
        <translation>接下来值得查明：</translation>
    </message>
    <message>
        <source>pp. {pages}</source>
        <translation>第 {pages} 页</translation>
    </message>
    <message>
        <source>p. {pages}</source>
        <translation>第 {pages} 页</translation>
    </message>
    <message>
        <source>Put a claim on trial: the Prosecution and the Defense argue from your library, the Judge rules after every round, and the verdict appears here.</source>
        <extracomment>An evidence id (E3) -&gt; its entry in the trial&apos;s pool (None when the pool has none: a rejected citation)</extracomment>
        <translation>把一个主张交付审理：控方与辩方依据你的文献库辩论，法官每轮作出裁定，裁决将显示在这里。</translation>
    </message>
    <message>
        <source>Rejected citation: {problem}</source>
        <translation>被驳回的引用：{problem}</translation>
    </message>
    <message>
        <source>Counsel {seat} &amp;middot; round {round}</source>
        <translation>律师 {seat} &amp;middot; 第 {round} 轮</translation>
    </message>
    <message>
        <source>searched: </source>
        <translation>检索：</translation>
    </message>
    <message>
        <source>new evidence </source>
        <translation>新证据 </translation>
    </message>
    <message>
        <source>{tokens} tokens, {seconds} s</source>
        <translation>{tokens} 个词元，{seconds} 秒</translation>
    </message>
    <message>
        <source>regenerated once</source>
        <translation>已重新生成一次</translation>
    </message>
    <message>
        <source>ruling after round {round}</source>
        <translation>第 {round} 轮后的裁定</translation>
    </message>
    <message>
        <source>confidence &lt;b&gt;{percent}&lt;/b&gt;</source>
        <translation>置信度 &lt;b&gt;{percent}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Key controversy:</source>
        <translation>关键争议：</translation>
    </message>
    <message>
        <source>Evidence:</source>
        <translation>证据：</translation>
    </message>
    <message>
        <source>Open questions:</source>
        <translation>未决问题：</translation>
    </message>
    <message>
        <source>For the next round:</source>
        <translation>下一轮：</translation>
    </message>
    <message>
        <source>To the {role}:</source>
        <translation>致{role}：</translation>
    </message>
    <message>
        <source>Ready for a verdict: </source>
        <translation>可以作出裁决：</translation>
    </message>
    <message>
        <source>&quot;Ready&quot; overruled: </source>
        <translation>“可裁决”被驳回：</translation>
    </message>
    <message>
        <source>Confidence stop overruled: </source>
        <translation>置信度停止被驳回：</translation>
    </message>
    <message>
        <source>The judge asked the sides to switch.</source>
        <translation>法官要求双方换边。</translation>
    </message>
    <message>
        <source>Counsel {seat} now {stance} as the {role}</source>
        <translation>律师 {seat} 现作为{role}{stance}</translation>
    </message>
    <message>
        <source>Why (the trigger and the numbers behind it):</source>
        <translation>原因（触发条件及其数据）：</translation>
    </message>
    <message>
        <source>Why (the triggers and the numbers behind them):</source>
        <translation>原因（触发条件及其数据）：</translation>
    </message>
    <message>
        <source>.</source>
        <translation>。</translation>
    </message>
    <message>
        <source>Fix:</source>
        <translation>解决办法：</translation>
    </message>
    <message>
        <source>Prompt…</source>
        <translation>提示词…</translation>
    </message>
    <message>
        <source>Unfold round {round}</source>
        <translation>展开第 {round} 轮</translation>
    </message>
    <message>
        <source>Fold round {round}</source>
        <translation>折叠第 {round} 轮</translation>
    </message>
    <message>
        <source>round {round}</source>
        <translation>第 {round} 轮</translation>
    </message>
    <message>
        <source>Reading the draft</source>
        <translation>正在读取草稿</translation>
    </message>
    <message>
        <source>Creating the check</source>
        <translation>正在创建核查</translation>
    </message>
    <message>
        <source>Reading the draft&apos;s references</source>
        <translation>读取草稿的参考文献</translation>
    </message>
    <message>
        <source>Opening a check</source>
        <translation>打开核查</translation>
    </message>
    <message>
        <source>a check is running</source>
        <translation>有一项核查正在运行</translation>
    </message>
    <message>
        <source>pause it first (it can be resumed later)</source>
        <translation>请先暂停它（之后可以继续）</translation>
    </message>
    <message>
        <source>Opening the check</source>
        <translation>正在打开核查</translation>
    </message>
    <message>
        <source>Reading the stored checks</source>
        <translation>正在读取已保存的核查</translation>
    </message>
    <message>
        <source>Deleting checks</source>
        <translation>删除核查</translation>
    </message>
    <message>
        <source>the check that is running was kept</source>
        <translation>正在运行的核查已保留</translation>
    </message>
    <message>
        <source>pause or cancel it first</source>
        <translation>请先暂停或取消它</translation>
    </message>
    <message>
        <source>Checking the claims</source>
        <translation>正在核查论断</translation>
    </message>
    <message>
        <source>Signing off</source>
        <translation>正在签核</translation>
    </message>
    <message>
        <source>Sending the claim to a full trial</source>
        <translation>正在把论断提交完整审理</translation>
    </message>
    <message>
        <source>Exporting the check</source>
        <translation>正在导出核查</translation>
    </message>
    <message>
        <source>Zotero changed: the library is in step again ({added} added or updated, {removed} removed).</source>
        <translation>Zotero 有变动：文献库已重新同步（{added} 个新增或更新，{removed} 个移除）。</translation>
    </message>
    <message>
        <source>Keeping Zotero in step</source>
        <translation>与 Zotero 保持同步</translation>
    </message>
    <message>
        <source>Reading the trials&apos; use of the library</source>
        <extracomment>What a write to the library returns: an ingest&apos;s summary, a Zotero import&apos;s (and where it was read), or those of every Zotero scope brought in step again How often the window asks Zotero whether its library changed (one small request to its local API)</extracomment>
        <translation>正在读取各次审理对文献库的使用情况</translation>
    </message>
    <message>
        <source>Reading the library</source>
        <translation>正在读取文献库</translation>
    </message>
    <message>
        <source>Adding documents</source>
        <translation>正在添加文档</translation>
    </message>
    <message>
        <source>Re-indexing</source>
        <translation>正在重建索引</translation>
    </message>
    <message>
        <source>Re-embedding the library</source>
        <translation>正在重新嵌入文献库</translation>
    </message>
    <message>
        <source>Importing from Zotero</source>
        <translation>正在从 Zotero 导入</translation>
    </message>
    <message>
        <source>Zotero ({where}): {items} items, {linked} documents with their metadata, {added} added, {updated} updated, {removed} removed.</source>
        <translation>Zotero（{where}）：{items} 个条目，{linked} 篇文档带有元数据，新增 {added}，更新 {updated}，移除 {removed}。</translation>
    </message>
    <message>
        <source>{count} items without a PDF here.</source>
        <translation>{count} 个条目在本机没有 PDF。</translation>
    </message>
    <message>
        <source>the library is busy with another ingest</source>
        <translation>文献库正忙于另一项导入</translation>
    </message>
    <message>
        <source>Removing documents</source>
        <translation>移除文档</translation>
    </message>
    <message>
        <source>the library is busy with an ingest</source>
        <translation>文献库正忙于导入</translation>
    </message>
    <message>
        <source>Saving the note</source>
        <translation>正在保存笔记</translation>
    </message>
    <message>
        <source>Marking documents private</source>
        <translation>正在把文档标为私密</translation>
    </message>
    <message>
        <source>Watching folders</source>
        <translation>正在监视文件夹</translation>
    </message>
    <message>
        <source>: catching up…</source>
        <translation>：正在同步…</translation>
    </message>
    <message>
        <source>Watched folders: {problem}</source>
        <translation>监视的文件夹：{problem}</translation>
    </message>
    <message>
        <source>up to date</source>
        <translation>已是最新</translation>
    </message>
    <message>
        <source>{n} added</source>
        <translation>新增 {n} 个</translation>
    </message>
    <message>
        <source>{n} updated</source>
        <translation>更新 {n} 个</translation>
    </message>
    <message>
        <source>{n} removed</source>
        <translation>移除 {n} 个</translation>
    </message>
    <message>
        <source>{n} failed</source>
        <translation>失败 {n} 个</translation>
    </message>
    <message>
        <source>{folder} is missing (nothing removed)</source>
        <translation>{folder} 不存在（未移除任何文档）</translation>
    </message>
    <message>
        <source>{folders}: {changes}</source>
        <translation>{folders}：{changes}</translation>
    </message>
    <message>
        <source>Watching 1 folder</source>
        <translation>正在监视 1 个文件夹</translation>
    </message>
    <message>
        <source>Watching {count} folders</source>
        <translation>正在监视 {count} 个文件夹</translation>
    </message>
    <message>
        <source>wait for it, or cancel it</source>
        <translation>请等待完成，或取消它</translation>
    </message>
    <message>
        <source>Starting the trial</source>
        <translation>正在开始审理</translation>
    </message>
    <message>
        <source>Resuming the trial</source>
        <translation>正在继续审理</translation>
    </message>
    <message>
        <source>Opening a trial</source>
        <translation>打开审理</translation>
    </message>
    <message>
        <source>a trial is running</source>
        <translation>有一场审理正在进行</translation>
    </message>
    <message>
        <source>stop it first (it can be resumed later)</source>
        <translation>请先停止它（之后可以继续）</translation>
    </message>
    <message>
        <source>Opening the trial</source>
        <translation>正在打开审理</translation>
    </message>
    <message>
        <source>Reading the prompts</source>
        <translation>正在读取提示词</translation>
    </message>
    <message>
        <source>Reading the trial&apos;s coverage</source>
        <translation>正在读取审理的覆盖范围</translation>
    </message>
    <message>
        <source>How claims are found: rules (works with any model), model (a structured call of the judge&apos;s model), both; auto: rules with the embedded model, both otherwise.</source>
        <translation>如何找出主张：rules（规则，适用于任何模型）、model（调用法官模型的结构化输出）、both（两者）；auto：内置模型用规则，否则两者都用。</translation>
    </message>
    <message>
        <source>Which claims get a full trial after their quick check: auto (contested, or less sure than trial_below), never, all.</source>
        <translation>快速检查之后哪些主张进入完整审理：auto（有争议的，或把握低于 trial_below 的）、never（从不）、all（全部）。</translation>
    </message>
    <message>
        <source>A quick verdict less sure than this goes to a full trial (trials = auto).</source>
        <translation>快速裁决的把握低于此值时转入完整审理（trials = auto 时）。</translation>
    </message>
    <message>
        <source>Passages the quick check retrieves per claim.</source>
        <translation>快速检查为每个主张检索的段落数。</translation>
    </message>
    <message>
        <source>Claims scoring less than this for check-worthiness (0: nothing to verify, 1: clearly a fact) are hidden on the review page and not checked by `courtroom check`; 0 keeps every claim found.</source>
        <translation>核查价值低于此值的论断（0：无可核实之处，1：明确的事实）在审阅页中隐藏，`courtroom check` 也不核查；0 保留找到的全部论断。</translation>
    </message>
    <message>
        <source>Rounds before a verdict may be given.</source>
        <translation>作出裁决之前至少进行的轮数。</translation>
    </message>
    <message>
        <source>The round limit: the verdict comes after this round at the latest.</source>
        <translation>轮数上限：最迟在这一轮之后作出裁决。</translation>
    </message>
    <message>
        <source>The verdict comes once the judge&apos;s confidence reaches this (after the minimum rounds) in a ruling that names the argument or evidence it rests on.</source>
        <translation>当法官的置信度达到此值（在最少轮数之后）且其裁定指明所依据的论点或证据时，给出裁决。</translation>
    </message>
    <message>
        <source>Counsel swap sides when the judge&apos;s tendency (support, refute, unclear) stayed the same in this many rulings in a row; 0: never for this.</source>
        <translation>法官的倾向（支持、驳斥、不确定）连续这么多次裁定不变时，双方律师换边；0：不因此换边。</translation>
    </message>
    <message>
        <source>Counsel swap sides when the judge&apos;s confidence moved less than this (its highest minus its lowest) over the last stall_rounds rounds; 0: never for this.</source>
        <translation>最近 stall_rounds 轮中法官置信度的变化（最高减最低）小于此值时，双方律师换边；0：不因此换边。</translation>
    </message>
    <message>
        <source>The rounds over which a confidence stall is judged (the last stall_rounds + 1 rulings).</source>
        <translation>判断置信度停滞所看的轮数（最近 stall_rounds + 1 次裁定）。</translation>
    </message>
    <message>
        <source>A passage enters the pool only if 1 - max cosine to it is at least this.</source>
        <translation>只有当 1 减去与已有段落的最大余弦相似度不低于此值时，段落才进入证据池。</translation>
    </message>
    <message>
        <source>Counsel swap sides when fewer passages than this were cited for the first time in the arguments of the last new_evidence_rounds rounds (passages that entered the pool but nobody cited do not count); 0: never for this.</source>
        <translation>最近 new_evidence_rounds 轮的论证中首次被引用的段落少于此数时，双方律师换边（进入证据池但无人引用的段落不算）；0：不因此换边。</translation>
    </message>
    <message>
        <source>The rounds over which newly cited passages are counted (min_new_evidence).</source>
        <translation>统计新引用段落所看的轮数（min_new_evidence）。</translation>
    </message>
    <message>
        <source>Counsel swap sides when the judge named the same key controversy in this many rulings in a row (every consecutive pair at least controversy_repeat_similarity alike); 0 or 1: never for this.</source>
        <translation>法官连续这么多次裁定指出同一关键争议时（每相邻两次的相似度都不低于 controversy_repeat_similarity），双方律师换边；0 或 1：不因此换边。</translation>
    </message>
    <message>
        <source>How many times counsel may swap sides in one trial.</source>
        <translation>一场审理中律师最多换边的次数。</translation>
    </message>
    <message>
        <source>Search queries a counsel&apos;s model may add per turn.</source>
        <translation>律师的模型每轮最多可追加的检索查询数。</translation>
    </message>
    <message>
        <source>Passages each counsel&apos;s search brings back per turn (before the novelty filter); more passages make longer prompts.</source>
        <translation>每位律师每轮检索带回的段落数（新颖度筛选之前）；段落越多，提示词越长。</translation>
    </message>
    <message>
        <source>text: free streaming text with inline [E#] citations; json: an argument plus a list of citations constrained to the pool&apos;s ids (for small models); auto: json for the embedded model, else text.</source>
        <translation>text：自由流式文本，行内以 [E#] 引用；json：论点加引用列表，引用限定为证据池中的编号（适合小模型）；auto：内置模型用 json，否则用 text。</translation>
    </message>
    <message>
        <source>Evidence levels, strongest first (in the dialog: separated by ;). Every level but &apos;other&apos; needs its keywords in evidence_keywords.</source>
        <translation>证据等级，从强到弱（对话框中以 ; 分隔）。除 &apos;other&apos; 外，每个等级都需要在 evidence_keywords 中给出关键词。</translation>
    </message>
    <message>
        <source>The verdict is flagged when the judge&apos;s confidence and the weighed evidence&apos;s (rules.evidence_confidence) differ by more than this, or point to different labels with either above it.</source>
        <translation>当法官的置信度与证据权衡的置信度（rules.evidence_confidence）相差超过此值，或两者指向不同结论且其中之一高于此值时，标记该裁决。</translation>
    </message>
    <message>
        <source>What embeds passages and queries: &apos;bundled&apos; (all-MiniLM-L6-v2, English, in the app), &apos;multilingual&apos; (multilingual-e5-small, 4-bit, in the app: about 100 languages in one space, so a question finds passages in another language; slower to ingest), &apos;crosslingual&apos; (Universal Sentence Encoder multilingual v3, in the app: 16 languages, trained to match a question with its answer in another language; the best of these when English questions must find Chinese passages or the reverse), &apos;local&apos; (a sentence-transformers model folder: embedding_model), &apos;ollama&apos; (an Ollama server&apos;s /api/embed) or &apos;openai&apos; (any OpenAI-compatible /v1/embeddings). A server on another machine receives the text of every passage: private documents are then refused (docs/embedders.md). Changing it re-embeds the library.</source>
        <translation>负责为段落和查询做向量嵌入的模型：&apos;bundled&apos;（all-MiniLM-L6-v2，英文，内置）、&apos;multilingual&apos;（multilingual-e5-small，4 位量化，内置：约 100 种语言共用一个向量空间，提问可以找到另一种语言的段落；导入较慢）、&apos;crosslingual&apos;（Universal Sentence Encoder multilingual v3，内置：16 种语言，专为把问题与另一种语言写成的答案对上而训练；英文问题要找中文段落或反过来时，它是这些选项中最好的）、&apos;local&apos;（本机上的 sentence-transformers 模型文件夹：embedding_model）、&apos;ollama&apos;（Ollama 服务器的 /api/embed）或 &apos;openai&apos;（任何兼容 OpenAI 的 /v1/embeddings）。另一台机器上的服务器会收到每个段落的文本：此时私密文档会被拒绝（docs/embedders.md）。更改它会重新嵌入文献库。</translation>
    </message>
    <message>
        <source>Languages the embedding model reads, as codes (&apos;en&apos;, &apos;zh&apos;, &apos;ja&apos;, &apos;ko&apos;; comma-separated) or &apos;all&apos;; empty: &apos;en&apos; for the bundled MiniLM, &apos;all&apos; for any other model. A query in a language it does not read leans on BM25 (retrieval.uncovered_vector_weight).</source>
        <translation>嵌入模型能读的语言，以代码表示（&apos;en&apos;、&apos;zh&apos;、&apos;ja&apos;、&apos;ko&apos;，逗号分隔）或 &apos;all&apos;；留空：内置 MiniLM 为 &apos;en&apos;，其他模型为 &apos;all&apos;。用它读不懂的语言提问时，检索主要依靠 BM25（retrieval.uncovered_vector_weight）。</translation>
    </message>
    <message>
        <source>Token budget of one chunk (passage).</source>
        <translation>一个文本块（段落）的词元预算。</translation>
    </message>
    <message>
        <source>Tokens repeated from the end of the previous chunk.</source>
        <translation>从上一个文本块末尾重复的词元数。</translation>
    </message>
    <message>
        <source>Passages per embedding batch.</source>
        <translation>每批嵌入的段落数。</translation>
    </message>
    <message>
        <source>Read scanned pages by OCR (RapidOCR, Chinese and English, on this machine): &apos;auto&apos; reads the pages that show an image but have no text layer, &apos;force&apos; every page (its text layer is replaced), &apos;off&apos; none (a document that is all scans is then refused). Pages read once are cached by content.</source>
        <translation>用 OCR 读取扫描页（RapidOCR，中文和英文，在本机运行）：&apos;auto&apos; 读取有图像但没有文字层的页面，&apos;force&apos; 读取每一页（替换其文字层），&apos;off&apos; 不读取（全部为扫描页的文档将被拒绝）。读过的页面按内容缓存。</translation>
    </message>
    <message>
        <source>Resolution pages are rendered at for OCR (dots per inch); a page is never rendered to more than 24 million pixels, whatever its size.</source>
        <translation>OCR 渲染页面的分辨率（每英寸点数）；无论页面多大，渲染都不超过 2400 万像素。</translation>
    </message>
    <message>
        <source>Give up on OCR of one page after this many seconds (the page is reported, the rest of the document goes on). Each page read by OCR extends file_timeout_s by this much.</source>
        <translation>一页的 OCR 超过这么多秒就放弃（报告该页，文档其余部分继续）。每个用 OCR 读取的页面都会让 file_timeout_s 延长这么多。</translation>
    </message>
    <message>
        <source>Where the library lives: empty for the data folder; another folder; or a prefix on object storage shared by a team: s3://bucket/prefix (AWS S3, or an S3-compatible server such as MinIO with library.endpoint), gs://bucket/prefix, az://container/prefix. Credentials come from the environment or the OS keyring (`courtroom library credentials`), never from this file (docs/scale.md).</source>
        <translation>资料库的位置：留空为数据文件夹；另一个文件夹；或团队共享的对象存储前缀：s3://bucket/prefix（AWS S3，或 MinIO 等 S3 兼容服务器，配合 library.endpoint）、gs://bucket/prefix、az://container/prefix。凭据来自环境变量或操作系统的密钥环（`courtroom library credentials`），绝不来自此文件（docs/scale.md）。</translation>
    </message>
    <message>
        <source>The object-storage server&apos;s URL for library.uri: an S3-compatible server (MinIO: http://minio.example:9000), an Azure account&apos;s blob URL, a GCS server&apos;s base URL; empty for AWS, Azure or Google Cloud themselves.</source>
        <translation>library.uri 所用对象存储服务器的 URL：S3 兼容服务器（MinIO：http://minio.example:9000）、Azure 账户的 blob URL、GCS 服务器的基础 URL；使用 AWS、Azure 或 Google Cloud 本身时留空。</translation>
    </message>
    <message>
        <source>Open a shared library (library.uri) for reading only: search and trials work, adding and removing documents is refused.</source>
        <translation>以只读方式打开共享资料库（library.uri）：可以检索和审理，添加和删除文档会被拒绝。</translation>
    </message>
    <message>
        <source>Who reads, chunks and embeds the files an ingest adds (the window&apos;s Add, `courtroom ingest`): this process, or Ray actors (a local Ray instance, or the cluster ray_address names; docs/scale.md). Storing is always this machine&apos;s.</source>
        <translation>谁来读取、切分并嵌入导入的文件（窗口中的“添加”、`courtroom ingest`）：本进程，或 Ray 执行者（本机的 Ray 实例，或 ray_address 指定的集群；见 docs/scale.md）。存储总是在本机完成。</translation>
    </message>
    <message>
        <source>With ingest_engine = ray: the Ray cluster (&apos;auto&apos;, host:6379, ray://host:10001); empty: a local Ray instance on this machine&apos;s CPUs.</source>
        <translation>当 ingest_engine = ray 时：所用的 Ray 集群（&apos;auto&apos;、host:6379、ray://host:10001）；留空则在本机 CPU 上启动本地 Ray 实例。</translation>
    </message>
    <message>
        <source>With ingest_engine = ray: how many actors prepare files (0: one per CPU of the cluster).</source>
        <translation>当 ingest_engine = ray 时：准备文件的执行者数量（0：集群每个 CPU 一个）。</translation>
    </message>
    <message>
        <source>A shared library (library.uri): keep a local read replica of its chunk table, so that searches read this disk, not the bucket; caught up in the background when another machine commits (docs/scale.md).</source>
        <translation>共享文献库（library.uri）：在本机保留其段落表的只读副本，检索读取本地磁盘而非存储桶；其他机器提交后在后台追赶更新（见 docs/scale.md）。</translation>
    </message>
    <message>
        <source>The most disk the local replica may take; a larger chunk table is not copied (searches read the bucket).</source>
        <translation>本地副本最多可占用的磁盘空间；更大的段落表不会被复制（检索直接读取存储桶）。</translation>
    </message>
    <message>
        <source>Context window in tokens (Ollama&apos;s own default, 2048, truncates silently).</source>
        <translation>上下文窗口的词元数（Ollama 自己的默认值 2048 会悄悄截断）。</translation>
    </message>
    <message>
        <source>Most tokens one answer may have.</source>
        <translation>一次回答最多的词元数。</translation>
    </message>
    <message>
        <source>Sampling temperature: 0 is the most deterministic.</source>
        <translation>采样温度：0 最确定。</translation>
    </message>
    <message>
        <source>Longest wait for the next bytes of an answer.</source>
        <translation>等待回答下一段字节的最长时间。</translation>
    </message>
    <message>
        <source>Embedded: CPU threads llama.cpp uses (0: automatic, one fewer than the cores in the window, at most 8; COURTROOM_LLAMA_THREADS overrides).</source>
        <translation>内置：llama.cpp 使用的 CPU 线程数（0：自动，窗口中为核心数减一，最多 8；COURTROOM_LLAMA_THREADS 可覆盖）。</translation>
    </message>
    <message>
        <source>Embedded: layers llama.cpp offloads to the GPU (0: none, -1: all; needs a llama-cpp-python built with GPU support).</source>
        <translation>内置：llama.cpp 卸载到 GPU 的层数（0：不卸载，-1：全部；需要支持 GPU 的 llama-cpp-python 构建）。</translation>
    </message>
    <message>
        <source>Calls to this model&apos;s server at once (a check of a draft runs claims side by side up to it; roles on one server share the smallest). The embedded model always answers one call at a time.</source>
        <translation>同时向该模型服务器发出的调用数（检查文稿时最多并行这么多条主张；同一服务器上的各角色共用其中最小值）。内置模型每次只回答一个调用。</translation>
    </message>
    <message>
        <source>Passages returned per search.</source>
        <translation>每次检索返回的段落数。</translation>
    </message>
    <message>
        <source>Candidates each method contributes per query before fusion.</source>
        <translation>融合之前每种方法为每个查询提供的候选数。</translation>
    </message>
    <message>
        <source>&apos;rrf&apos;: weighted reciprocal rank fusion, weight / (rrf_k + rank) summed over the lists; &apos;convex&apos;: weighted sum of normalised scores (score_normalisation).</source>
        <translation>&apos;rrf&apos;：加权倒数排名融合，各列表的 weight / (rrf_k + rank) 之和；&apos;convex&apos;：归一化分数的加权和（score_normalisation）。</translation>
    </message>
    <message>
        <source>Weight of the BM25 lists in fusion.</source>
        <translation>融合中 BM25 列表的权重。</translation>
    </message>
    <message>
        <source>Weight of the vector lists in fusion.</source>
        <translation>融合中向量列表的权重。</translation>
    </message>
    <message>
        <source>&apos;none&apos;, &apos;mmr&apos;, or a path to a cross-encoder model folder.</source>
        <translation>&apos;none&apos;、&apos;mmr&apos;，或交叉编码器模型文件夹的路径。</translation>
    </message>
    <message>
        <source>Passages more similar than this collapse to one.</source>
        <translation>相似度高于此值的段落合并为一个。</translation>
    </message>
    <message>
        <source>Exporting the report</source>
        <translation>正在导出报告</translation>
    </message>
    <message>
        <source>Reading the trial history</source>
        <translation>正在读取审理历史</translation>
    </message>
    <message>
        <source>Deleting trials</source>
        <translation>正在删除审理</translation>
    </message>
    <message>
        <source>Rendering the page</source>
        <extracomment>Pixels per PDF point at zoom 1 (a 72-point inch shown at 108 pixels, about a printed page on a laptop).</extracomment>
        <translation>正在渲染页面</translation>
    </message>
    <message>
        <source>Reading the document</source>
        <translation>正在读取文档</translation>
    </message>
    <message>
        <source>the PDF is no longer at {path}</source>
        <translation>PDF 已不在 {path}</translation>
    </message>
    <message>
        <source>cannot open {path} ({problem})</source>
        <translation>无法打开 {path}（{problem}）</translation>
    </message>
    <message>
        <source>{path} has no pages</source>
        <translation>{path} 没有页面</translation>
    </message>
    <message>
        <source>Listing the server&apos;s models</source>
        <extracomment>Progress reaches the window at most this often (Ollama sends a line per chunk).</extracomment>
        <translation>正在列出服务器的模型</translation>
    </message>
    <message>
        <source>Testing the models</source>
        <translation>正在测试模型</translation>
    </message>
    <message>
        <source>Storing the API key</source>
        <translation>正在保存 API 密钥</translation>
    </message>
    <message>
        <source>Finding the keyring</source>
        <translation>正在查找密钥环</translation>
    </message>
    <message>
        <source>Finding models on this computer</source>
        <translation>正在查找本机上的模型</translation>
    </message>
    <message>
        <source>Pulling a model</source>
        <translation>正在拉取模型</translation>
    </message>
    <message>
        <source>Cancelled: Ollama keeps what was downloaded of {name}; pull it again to resume.</source>
        <translation>已取消：Ollama 会保留 {name} 已下载的部分；再次拉取即可继续。</translation>
    </message>
    <message>
        <source>Pulled {name} ({size} in {seconds} s).</source>
        <translation>已拉取 {name}（{size}，用时 {seconds} 秒）。</translation>
    </message>
    <message>
        <source>searching the library…</source>
        <translation>正在搜索文献库…</translation>
    </message>
    <message>
        <source>interrupted: redone after resuming</source>
        <translation>已中断：继续后重做</translation>
    </message>
    <message>
        <source>Trial resumed at round {round}</source>
        <translation>审理从第 {round} 轮继续</translation>
    </message>
    <message>
        <source>; {what} is redone</source>
        <translation>；重做 {what}</translation>
    </message>
    <message>
        <source>arguing…</source>
        <translation>正在论证…</translation>
    </message>
    <message>
        <source>arguing again (the first answer was rejected)…</source>
        <translation>重新论证（第一次回答被驳回）…</translation>
    </message>
    <message>
        <source>1 new passage found; preparing the argument…</source>
        <translation>找到 1 个新段落；正在准备论证…</translation>
    </message>
    <message>
        <source>{count} new passages found; preparing the argument…</source>
        <translation>找到 {count} 个新段落；正在准备论证…</translation>
    </message>
    <message>
        <source>; then press Resume</source>
        <translation>；然后按“继续”</translation>
    </message>
    <message>
        <source>press Resume to continue</source>
        <translation>按“继续”接着审理</translation>
    </message>
    <message>
        <source>this is a bug: please report it with the log</source>
        <extracomment>How much lower than the window&apos;s thread the worker threads run (a nice increment, Linux: 0 to 19; 0 leaves them equal). Model calls, embedding, retrieval and ingest all run in workers; on a machine whose cores they keep busy, the scheduler then gives the GUI thread a core as soon as it wakes instead of sharing one with them. Nothing is slower while the window is idle: priority only decides who waits when both want a core (other programs that keep the cores busy at normal priority do slow a trial down more). `bench/worker_priority.py` measures it. ``COURTROOM_WORKER_NICE`` overrides it.</extracomment>
        <translation>这是程序缺陷：请附上日志报告它</translation>
    </message>
    <message>
        <source>one-token call</source>
        <translation>单 token 调用</translation>
    </message>
    <message>
        <source>structured call</source>
        <translation>结构化调用</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>参考文献条目</translation>
    </message>
    <message>
        <source>Cited in sentences</source>
        <translation>引用它的句子</translation>
    </message>
    <message>
        <source>In your library</source>
        <translation>在你的文献库中</translation>
    </message>
    <message>
        <source>Notice</source>
        <translation>声明</translation>
    </message>
    <message>
        <source>by DOI</source>
        <translation>按 DOI</translation>
    </message>
    <message>
        <source>by Zotero item key</source>
        <extracomment>How a reference was matched, shown through tr</extracomment>
        <translation>按 Zotero 条目键</translation>
    </message>
    <message>
        <source>by title</source>
        <translation>按标题</translation>
    </message>
    <message>
        <source>by first author and year</source>
        <translation>按第一作者和年份</translation>
    </message>
    <message>
        <source>The references of the draft appear here once a check is open.</source>
        <translation>打开一项核查后，草稿的参考文献会显示在这里。</translation>
    </message>
    <message>
        <source>References of the draft</source>
        <translation>草稿的参考文献</translation>
    </message>
    <message>
        <source>{count} references, {found} of them in your library.</source>
        <translation>共 {count} 条参考文献，其中 {found} 条在你的文献库中。</translation>
    </message>
    <message>
        <source>No reference list found in the draft (a heading &apos;References&apos;, &apos;Bibliography&apos; or &apos;参考文献&apos;).</source>
        <translation>草稿中没有找到参考文献列表（标题为“References”“Bibliography”或“参考文献”）。</translation>
    </message>
    <message>
        <source>Claims checked</source>
        <translation>已核查的主张</translation>
    </message>
    <message>
        <source>One claim of the draft a row, with its verdict and sign-off: select one to see its evidence</source>
        <translation>草稿中的每条主张占一行，附其裁决和签核：选择一条即可查看其证据</translation>
    </message>
    <message>
        <source>All {total} claims checked</source>
        <translation>全部 {total} 条论断已核查</translation>
    </message>
    <message>
        <source>{done} of {total} claims checked</source>
        <translation>已核查 {done}/{total} 条论断</translation>
    </message>
    <message>
        <source>The claim&apos;s verdict and evidence</source>
        <translation>该主张的裁决和证据</translation>
    </message>
</context>
<context>
    <name>CheckExportDialog</name>
    <message>
        <source>Export the check</source>
        <translation>导出核查</translation>
    </message>
    <message>
        <source>An annotated copy of the draft (highlights and notes)</source>
        <translation>草稿的批注副本（高亮和注释）</translation>
    </message>
    <message>
        <source>Check:</source>
        <translation>核查：</translation>
    </message>
    <message>
        <source>Wrote {n} files. Double-click one to open it.</source>
        <translation>已写入 {n} 个文件。双击其中一个即可打开。</translation>
    </message>
</context>
<context>
    <name>CheckTablePanel</name>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Write the check&apos;s report and the annotated draft</source>
        <translation>撰写核查报告和批注草稿</translation>
    </message>
    <message>
        <source>New check…</source>
        <translation>新建核查…</translation>
    </message>
    <message>
        <source>Check another draft</source>
        <translation>核查另一份草稿</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Stop taking claims; those in flight run again on resume</source>
        <translation>停止接收主张；进行中的主张会在继续时重新运行</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Go on with the claims left</source>
        <translation>继续处理剩余的主张</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the check (finished claims are kept)</source>
        <translation>停止核查（已完成的主张会保留）</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>Click a claim to see its evidence and sign it off; click a column to sort.</source>
        <translation>点击主张可查看其证据并签核；点击列标题可排序。</translation>
    </message>
    <message>
        <source>Paused: {reason}. Resume goes on with the claims left.</source>
        <translation>已暂停：{reason}。“继续”将处理剩余的主张。</translation>
    </message>
    <message>
        <source>{done} of {total} done</source>
        <translation>已完成 {done} / {total}</translation>
    </message>
    <message>
        <source>, about {left} left</source>
        <translation>，约剩 {left}</translation>
    </message>
    <message>
        <source> ({n} for a full trial)</source>
        <translation>（{n} 条待完整审理）</translation>
    </message>
</context>
<context>
    <name>CheckWindow</name>
    <message>
        <source>Check a draft</source>
        <translation>核查草稿</translation>
    </message>
    <message>
        <source>Claims</source>
        <translation>主张</translation>
    </message>
    <message>
        <source>References</source>
        <translation>参考文献</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>证据</translation>
    </message>
</context>
<context>
    <name>ClaimPane</name>
    <message>
        <source>Open its trial</source>
        <translation>打开其审理</translation>
    </message>
    <message>
        <source>Show the claim&apos;s full trial in the main window</source>
        <translation>在主窗口中显示该主张的完整审理</translation>
    </message>
    <message>
        <source>Send to full trial</source>
        <translation>转入完整审理</translation>
    </message>
    <message>
        <source>Put this claim through a full trial (prosecution, defence, judge); the check goes on with it</source>
        <translation>对此主张进行完整审理（控方、辩方、法官）；核查随之继续</translation>
    </message>
    <message>
        <source>Sign-off</source>
        <translation>签核</translation>
    </message>
    <message>
        <source>Your name</source>
        <translation>你的姓名</translation>
    </message>
    <message>
        <source>Why (optional; shown in the report)</source>
        <translation>理由（可选；显示在报告中）</translation>
    </message>
    <message>
        <source>Accept</source>
        <translation>接受</translation>
    </message>
    <message>
        <source>The court&apos;s verdict stands</source>
        <translation>维持法庭的裁决</translation>
    </message>
    <message>
        <source>Override</source>
        <translation>推翻</translation>
    </message>
    <message>
        <source>Your verdict, kept beside the court&apos;s</source>
        <translation>你的裁决，与法庭的裁决并列保留</translation>
    </message>
    <message>
        <source>Withdraw</source>
        <translation>撤回</translation>
    </message>
    <message>
        <source>Remove the sign-off</source>
        <translation>撤销签核</translation>
    </message>
    <message>
        <source>Reviewer:</source>
        <translation>审阅人：</translation>
    </message>
    <message>
        <source>Note:</source>
        <translation>备注：</translation>
    </message>
    <message>
        <source>Choose a claim in the table to see its evidence.</source>
        <translation>在表格中选择一条主张即可查看其证据。</translation>
    </message>
    <message>
        <source>Signed off: {words}, {when}</source>
        <translation>已签核：{words}，{when}</translation>
    </message>
    <message>
        <source>Not signed off yet.</source>
        <translation>尚未签核。</translation>
    </message>
    <message>
        <source>in the draft at {where}</source>
        <translation>位于草稿中的 {where}</translation>
    </message>
    <message>
        <source>checked because: {why}</source>
        <translation>核查原因：{why}</translation>
    </message>
    <message>
        <source>Full trial {id}: {status}</source>
        <translation>完整审理 {id}：{status}</translation>
    </message>
    <message>
        <source>{n} passages were retrieved: all are listed in the inspector.</source>
        <translation>共检索到 {n} 个段落：全部列在查看器中。</translation>
    </message>
</context>
<context>
    <name>ReviewPage</name>
    <message>
        <source>Name of the list of checks</source>
        <translation>这组核查的名称</translation>
    </message>
    <message>
        <source>A short name for the list of checks</source>
        <translation>这组核查的简短名称</translation>
    </message>
    <message>
        <source>Claims found in the draft</source>
        <translation>草稿中找到的主张</translation>
    </message>
    <message>
        <source>One claim a row: edit, split, merge or remove them before the check</source>
        <translation>每行一条主张：核查前可编辑、拆分、合并或删除</translation>
    </message>
    <message>
        <source>The chosen claim&apos;s words</source>
        <translation>所选主张的文字</translation>
    </message>
    <message>
        <source>Choose a claim: edit its words here, or put the cursor where it should be split</source>
        <translation>选择一条主张：在此编辑其文字，或将光标置于要拆分的位置</translation>
    </message>
    <message>
        <source>Apply the edit</source>
        <translation>应用编辑</translation>
    </message>
    <message>
        <source>Keep the new wording</source>
        <translation>保留新的措辞</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Drop the selected claims</source>
        <translation>舍弃所选主张</translation>
    </message>
    <message>
        <source>Merge selected</source>
        <translation>合并所选</translation>
    </message>
    <message>
        <source>One claim of the selected ones (in the draft&apos;s order)</source>
        <translation>将所选主张合并为一条（按草稿中的顺序）</translation>
    </message>
    <message>
        <source>Split at the cursor</source>
        <translation>在光标处拆分</translation>
    </message>
    <message>
        <source>Two claims, cut where the cursor is in the text below</source>
        <translation>在下方文本中光标所在处切分为两条主张</translation>
    </message>
    <message>
        <source>Add a sentence…</source>
        <translation>添加句子…</translation>
    </message>
    <message>
        <source>A sentence of the draft that is not a claim yet</source>
        <translation>草稿中尚未成为主张的句子</translation>
    </message>
    <message>
        <source>Claims scoring less than this for check-worthiness (0: nothing to verify, 1: clearly a fact) are hidden and not checked; 0 shows every claim</source>
        <translation>核查价值低于此值的论断（0：无可核实之处，1：明确的事实）将被隐藏且不核查；0 显示全部论断</translation>
    </message>
    <message>
        <source>Hide claims worth less than</source>
        <translation>隐藏核查价值低于此值的论断</translation>
    </message>
    <message>
        <source>Hide claims worth less than:</source>
        <translation>隐藏核查价值低于：</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>返回</translation>
    </message>
    <message>
        <source>Store the claims as a check and start checking them</source>
        <translation>将这些主张存储为一次核查并开始核查</translation>
    </message>
    <message>
        <source>Title:</source>
        <translation>标题：</translation>
    </message>
    <message>
        <source>pasted text</source>
        <translation>粘贴的文本</translation>
    </message>
    <message>
        <source>{name}: {sentences} sentences, {claims} claims found. Double-click a claim to edit it; select several to merge them.</source>
        <translation>{name}：{sentences} 个句子，找到 {claims} 条主张。双击主张可编辑；选择多条可合并。</translation>
    </message>
    <message>
        <source>{n} hidden</source>
        <translation>已隐藏 {n} 条</translation>
    </message>
    <message>
        <source>Check {n} claims</source>
        <translation>核查 {n} 条主张</translation>
    </message>
    <message>
        <source>Check 1 claim</source>
        <translation>核查 1 条主张</translation>
    </message>
    <message>
        <source>Editing the claim</source>
        <translation>正在编辑主张</translation>
    </message>
    <message>
        <source>Merging claims</source>
        <translation>正在合并主张</translation>
    </message>
    <message>
        <source>Splitting the claim</source>
        <translation>正在拆分主张</translation>
    </message>
    <message>
        <source>Adding a sentence</source>
        <translation>正在添加句子</translation>
    </message>
</context>
<context>
    <name>SentencePicker</name>
    <message>
        <source>Add a sentence of the draft</source>
        <translation>添加草稿中的句子</translation>
    </message>
    <message>
        <source>Filter the sentences</source>
        <translation>筛选句子</translation>
    </message>
    <message>
        <source>Add as a claim</source>
        <translation>添加为主张</translation>
    </message>
</context>
<context>
    <name>StartPage</name>
    <message>
        <source>Check a whole draft against your library: its claims are found, you review them, then each gets a quick check (and, when it is contested or unsure, a full trial).</source>
        <translation>对照你的文献库核查整份草稿：先找出其中的主张，经你审阅后，每条主张接受快速核查（若有争议或不确定，则进行完整审理）。</translation>
    </message>
    <message>
        <source>Choose a draft…</source>
        <translation>选择草稿…</translation>
    </message>
    <message>
        <source>A .pdf, .docx, .md or .txt file</source>
        <translation>.pdf、.docx、.md 或 .txt 文件</translation>
    </message>
    <message>
        <source>…or paste the draft&apos;s text here</source>
        <translation>…或在此粘贴草稿文本</translation>
    </message>
    <message>
        <source>Find the claims in the pasted text</source>
        <translation>在粘贴的文本中查找主张</translation>
    </message>
    <message>
        <source>Reading the draft and finding its claims…</source>
        <translation>正在读取草稿并查找其中的主张…</translation>
    </message>
    <message>
        <source>A new check</source>
        <translation>新建核查</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Show the check&apos;s results</source>
        <translation>显示核查结果</translation>
    </message>
    <message>
        <source>Open and resume</source>
        <translation>打开并继续</translation>
    </message>
    <message>
        <source>Go on with the claims left</source>
        <translation>继续处理剩余的主张</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete the selected checks (their trials are kept)</source>
        <translation>删除所选核查（其审理会保留）</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>No checks yet.</source>
        <translation>尚无核查。</translation>
    </message>
    <message>
        <source>Stored checks</source>
        <translation>已存储的核查</translation>
    </message>
    <message>
        <source>Choose a draft to check</source>
        <translation>选择要核查的草稿</translation>
    </message>
    <message>
        <source>Delete checks</source>
        <translation>删除核查</translation>
    </message>
    <message>
        <source>Delete {n} stored check(s)? The full trials they started are kept, and exported reports are not touched.</source>
        <translation>删除 {n} 个已存储的核查？由它们发起的完整审理会保留，已导出的报告不受影响。</translation>
    </message>
</context>
</TS>

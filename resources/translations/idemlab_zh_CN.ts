<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>QDockWidget</name>
    <message>
        <source>Closes the dock widget</source>
        <translation>关闭这个面板</translation>
    </message>
    <message>
        <source>Undocks and re-attaches the dock widget</source>
        <translation>让这个面板浮出窗口，或停靠回原处</translation>
    </message>
</context>
<context>
    <name>idem::AdvisorDialog</name>
    <message>
        <source>Design advisor — ask these questions first</source>
        <translation>设计顾问——设计时先问这些问题</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>&lt;p&gt;%1&lt;/p&gt;&lt;p&gt;&lt;b&gt;Try it:&lt;/b&gt; %2 — %3&lt;/p&gt;</source>
        <translation>&lt;p&gt;%1&lt;/p&gt;&lt;p&gt;&lt;b&gt;动手试试：&lt;/b&gt;%2 — %3&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;Open the matching scenario</source>
        <translation>打开对应场景(&amp;O)</translation>
    </message>
</context>
<context>
    <name>idem::AlertRule</name>
    <message>
        <source>%1: %2 duplicate %3 requests within one minute (threshold %4)</source>
        <translation>%1：一分钟内收到 %2 次重复的 %3 请求（阈值 %4）</translation>
    </message>
</context>
<context>
    <name>idem::BlankCover</name>
    <message>
        <source>Screen blanked: any key brings the stage back</source>
        <translation>已黑屏：按任意键恢复画面</translation>
    </message>
</context>
<context>
    <name>idem::BoltOn</name>
    <message>
        <source>dedup record lost</source>
        <translation>去重记录丢失</translation>
    </message>
    <message>
        <source>The dedup store loses the record of %1 (evicted, or lost in a fail-over): the next repeat looks new.</source>
        <translation>去重存储丢失了 %1 的记录（被淘汰，或在故障切换中丢失）：下一次重复请求看起来像新请求。</translation>
    </message>
    <message>
        <source>order status</source>
        <translation>订单状态</translation>
    </message>
    <message>
        <source>already refunded</source>
        <translation>已退款</translation>
    </message>
    <message>
        <source>%1 finds the refund already made (%2) and does not repeat it.</source>
        <translation>%1发现已经退过款（%2），不再重复退款。</translation>
    </message>
    <message>
        <source>order</source>
        <translation>订单</translation>
    </message>
</context>
<context>
    <name>idem::CompareView</name>
    <message>
        <source>Fire a scenario first; then compare two of its variants here.</source>
        <translation>请先发射一个场景，再在此对比它的两种方案。</translation>
    </message>
    <message>
        <source>Run &amp;both on the same input</source>
        <translation>以相同输入运行两种方案(&amp;B)</translation>
    </message>
    <message>
        <source>Not run yet on the fired input: %1</source>
        <translation>尚未以发射的输入运行：%1</translation>
    </message>
    <message>
        <source>Both ran on the fired input: %1</source>
        <translation>两种方案均以发射的输入运行：%1</translation>
    </message>
    <message>
        <source>Stopped before the end.</source>
        <translation>在结束前已停止。</translation>
    </message>
    <message>
        <source>This run is too long to draw side by side. Fire it on %1 to step through it.</source>
        <translation>这次运行太长，无法并排画出。请在 %1 上发起它，逐步查看。</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>表</translation>
    </message>
    <message>
        <source>Sequence diagram</source>
        <translation>时序图</translation>
    </message>
    <message>
        <source>The database this side runs on: the same variant on SQLite and on MariaDB or PostgreSQL shows what a test suite on SQLite hides.</source>
        <translation>这一侧运行在哪个数据库上：同一个变体分别在 SQLite 和 MariaDB 或 PostgreSQL 上运行，能看出只在 SQLite 上跑的测试掩盖了什么。</translation>
    </message>
    <message>
        <source>Left side&apos;s database</source>
        <translation>左侧的数据库</translation>
    </message>
    <message>
        <source>Right side&apos;s database</source>
        <translation>右侧的数据库</translation>
    </message>
    <message>
        <source>Left side&apos;s variant</source>
        <translation>左侧的变体</translation>
    </message>
    <message>
        <source>Right side&apos;s variant</source>
        <translation>右侧的变体</translation>
    </message>
    <message>
        <source>Left on %1, right on %2: the same statements, two databases.</source>
        <translation>左侧在 %1，右侧在 %2：同样的语句，两个数据库。</translation>
    </message>
</context>
<context>
    <name>idem::DatabaseTableView</name>
    <message>
        <source>Copy table as CSV</source>
        <translation>复制表格为 CSV</translation>
    </message>
    <message>
        <source>%1 (this variant does not use it)</source>
        <translation>%1（此方案不使用）</translation>
    </message>
    <message>
        <source>Table %1</source>
        <translation>数据表 %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 — %n row(s) not yet committed (hatched)</source>
        <translation>
            <numerusform>%1 —— %n 行尚未提交（斜线底纹）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>idem::DiagramExport</name>
    <message>
        <source>Cannot save the picture: %1 is a folder. Choose a file name.</source>
        <translation>无法保存图片：%1 是一个文件夹。请选择文件名。</translation>
    </message>
    <message>
        <source>Cannot save the picture: the folder %1 does not exist.</source>
        <translation>无法保存图片：文件夹 %1 不存在。</translation>
    </message>
    <message>
        <source>Cannot save the picture to %1: %2. Choose a folder you can write to.</source>
        <translation>无法将图片保存到 %1：%2。请选择一个有写入权限的文件夹。</translation>
    </message>
    <message>
        <source>Saving the picture to %1 failed: %2. Nothing was written.</source>
        <translation>将图片保存到 %1 失败：%2。未写入任何内容。</translation>
    </message>
    <message>
        <source>There is nothing to save yet: the diagram is empty.</source>
        <translation>暂无可保存的内容：图是空的。</translation>
    </message>
    <message>
        <source>The picture could not be encoded as PNG.</source>
        <translation>无法将图片编码为 PNG。</translation>
    </message>
    <message>
        <source>Exported from Idempotency Lab</source>
        <translation>由幂等实验室导出</translation>
    </message>
    <message>
        <source>The picture could not be drawn as SVG.</source>
        <translation>无法将图片绘制为 SVG。</translation>
    </message>
</context>
<context>
    <name>idem::Downstream</name>
    <message>
        <source>no answer from the coupon service: timeout</source>
        <translation>优惠券服务迟迟没有应答，超时</translation>
    </message>
    <message>
        <source>downstream</source>
        <translation>下游</translation>
    </message>
    <message>
        <source>call</source>
        <translation>调用</translation>
    </message>
    <message>
        <source>%1 calls the %2 (call %3), with the key %4.</source>
        <translation>%1调用%2（第 %3 次调用），携带键 %4。</translation>
    </message>
    <message>
        <source>%1 calls the %2 (call %3).</source>
        <translation>%1调用%2（第 %3 次调用）。</translation>
    </message>
    <message>
        <source>answer</source>
        <translation>应答</translation>
    </message>
    <message>
        <source>The %1 answers call %2: coupon %3.</source>
        <translation>%1应答第 %2 次调用：优惠券 %3。</translation>
    </message>
    <message>
        <source>answer lost</source>
        <translation>应答丢失</translation>
    </message>
    <message>
        <source>The %1 granted coupon %3, but its answer to call %2 is lost: the caller times out and believes nothing happened.</source>
        <translation>%1已经发放优惠券 %3，但对第 %2 次调用的应答丢了：调用方超时，以为什么都没发生。</translation>
    </message>
    <message>
        <source>dedup record</source>
        <translation>去重记录</translation>
    </message>
</context>
<context>
    <name>idem::DuplicateAlert</name>
    <message>
        <source>Alert threshold</source>
        <translation>告警阈值</translation>
    </message>
    <message>
        <source>More repeats of one key within a minute than this raise an alert</source>
        <translation>同一个键一分钟内的重复次数超过这个值就告警</translation>
    </message>
    <message>
        <source>Queries</source>
        <translation>查询次数</translation>
    </message>
    <message>
        <source>Status queries for the same payment within the minute (they never alert)</source>
        <translation>一分钟内对同一笔支付的状态查询次数（查询永远不告警）</translation>
    </message>
</context>
<context>
    <name>idem::ExperimentView</name>
    <message>
        <source>Verdicts per variant (random duplicates, timings and crashes)</source>
        <translation>各方案的结论（随机重复次数、间隔与崩溃点）</translation>
    </message>
    <message>
        <source>Runs many intents of this scenario under each checked variant. Every batch of %1 intents draws its own duplicates (1-3), source, timing and crash point; the database decides each verdict. Runs in the background: the window stays usable.</source>
        <translation>在勾选的每个方案下运行本场景的大量业务意图。每批 %1 个意图各自随机抽取重复次数（1-3）、重复来源、重复间隔和崩溃点；每个结论都由数据库判定。实验在后台运行，窗口可以照常使用。</translation>
    </message>
    <message>
        <source>Intents per variant: </source>
        <translation>每个方案的业务意图数：</translation>
    </message>
    <message>
        <source>&amp;Start the experiment</source>
        <translation>开始实验(&amp;S)</translation>
    </message>
    <message>
        <source>Cance&amp;l</source>
        <translation>取消(&amp;L)</translation>
    </message>
    <message>
        <source>Variants in the experiment</source>
        <translation>参与实验的方案</translation>
    </message>
    <message>
        <source>Intents per variant</source>
        <translation>每个方案的业务意图数</translation>
    </message>
    <message>
        <source>Verdicts per variant</source>
        <translation>各方案的结论</translation>
    </message>
    <message>
        <source>%1 — %2: %3</source>
        <translation>%1 —— %2：%3</translation>
    </message>
    <message>
        <source> — per intent %1 statements, %2 rows written</source>
        <translation> — 每个意图 %1 条语句，写入 %2 行</translation>
    </message>
</context>
<context>
    <name>idem::ExplanationView</name>
    <message>
        <source>&lt;p&gt;Pick a scenario on the left.&lt;/p&gt;</source>
        <translation>&lt;p&gt;请在左侧选择一个场景。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Where the duplicates come from</source>
        <translation>重复从哪里来</translation>
    </message>
    <message>
        <source>This variant</source>
        <translation>本方案</translation>
    </message>
    <message>
        <source>The crash point</source>
        <translation>崩溃点</translation>
    </message>
    <message>
        <source>What to watch</source>
        <translation>观察要点</translation>
    </message>
    <message>
        <source>Explanation</source>
        <translation>讲解</translation>
    </message>
</context>
<context>
    <name>idem::FirePanel</name>
    <message>
        <source>★ %1 (recommended)</source>
        <translation>★ %1（推荐）</translation>
    </message>
    <message>
        <source>&amp;Duplicates</source>
        <translation>重复次数(&amp;D)</translation>
    </message>
    <message>
        <source>S&amp;ource</source>
        <translation>重复来源(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Timing</source>
        <translation>重复间隔(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Crash point</source>
        <translation>崩溃点(&amp;C)</translation>
    </message>
    <message>
        <source>Crash &amp;attempt</source>
        <translation>崩溃的尝试(&amp;A)</translation>
    </message>
    <message>
        <source>S&amp;eed</source>
        <translation>随机种子(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Intents</source>
        <translation>业务意图(&amp;I)</translation>
    </message>
    <message>
        <source>Fire! 发射</source>
        <translation>发射！</translation>
    </message>
    <message>
        <source>Run the scenario with these settings (F5)</source>
        <translation>按当前设置运行场景（F5）</translation>
    </message>
    <message>
        <source>How many more times the same intent arrives</source>
        <translation>同一业务意图额外重复到达的次数</translation>
    </message>
    <message>
        <source>Decides the order of concurrent arrivals and statement costs</source>
        <translation>决定并发到达的先后顺序和语句耗时</translation>
    </message>
    <message>
        <source>Independent business intents, each with its own duplicates</source>
        <translation>相互独立的业务意图，各自有自己的重复请求</translation>
    </message>
    <message>
        <source>Varia&amp;nt</source>
        <translation>方案(&amp;N)</translation>
    </message>
    <message>
        <source>crash %1 (attempt %2)</source>
        <translation>在“%1”崩溃（第 %2 次尝试）</translation>
    </message>
    <message>
        <source>seed %1</source>
        <translation>随机种子 %1</translation>
    </message>
    <message>
        <source>duplicates: %1</source>
        <translation>重复 %1 次</translation>
    </message>
    <message>
        <source>intents: %1</source>
        <translation>业务意图 %1 个</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Retries at most</source>
        <translation>最多重试次数</translation>
    </message>
    <message>
        <source>Lock lease (ms)</source>
        <translation>锁租约（毫秒）</translation>
    </message>
    <message>
        <source>Visibility timeout (ms)</source>
        <translation>可见性超时（毫秒）</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>%1 %2 is not a whole number (allowed %3 to %4)</source>
        <translation>%1 %2 不是整数（允许 %3 到 %4）</translation>
    </message>
    <message>
        <source>%1 %2 is out of range (allowed %3 to %4)</source>
        <translation>%1 %2 超出范围（允许 %3 到 %4）</translation>
    </message>
    <message>
        <source>%1 has no variant “%2” (its variants: %3)</source>
        <translation>%1没有方案“%2”（可选方案：%3）</translation>
    </message>
    <message>
        <source>%1 does not occur in %2 (its sources: %3)</source>
        <translation>%2中不会出现%1（可选重复来源：%3）</translation>
    </message>
    <message>
        <source>%1 has no setting “%2” (its settings: %3)</source>
        <translation>%1没有设置项“%2”（可选设置项：%3）</translation>
    </message>
    <message>
        <source>%1 cannot be %2 (allowed: %3)</source>
        <translation>%1不能是 %2（允许：%3）</translation>
    </message>
    <message>
        <source>Interval between attempts (ms)</source>
        <translation>尝试间隔（毫秒）</translation>
    </message>
    <message>
        <source>In-progress expiry (ms)</source>
        <translation>处理中状态过期时间（毫秒）</translation>
    </message>
    <message>
        <source>Dedup record retention (ms)</source>
        <translation>防重记录保留期（毫秒）</translation>
    </message>
    <message>
        <source>Cache TTL (ms)</source>
        <translation>缓存 TTL（毫秒）</translation>
    </message>
    <message>
        <source>%1 has no crash point “%2” (it offers: %3)</source>
        <translation>%1没有崩溃点“%2”（可选：%3）</translation>
    </message>
    <message>
        <source>%1 has no settings of its own; “%2” is not one</source>
        <translation>%1没有自己的设置项，因此没有“%2”</translation>
    </message>
    <message>
        <source>Data&amp;base</source>
        <translation>数据库(&amp;B)</translation>
    </message>
    <message>
        <source>Isolation level</source>
        <translation>隔离级别</translation>
    </message>
    <message>
        <source>Read committed</source>
        <translation>读已提交</translation>
    </message>
    <message>
        <source>Repeatable read</source>
        <translation>可重复读</translation>
    </message>
    <message>
        <source>Serializable</source>
        <translation>可串行化</translation>
    </message>
    <message>
        <source>SQLite has this level only: one writer at a time, so a second writer&apos;s BEGIN IMMEDIATE waits for the first. Choose MariaDB or PostgreSQL for the others.</source>
        <translation>SQLite 只有这一个级别：同一时刻只有一个写者，第二个写者的 BEGIN IMMEDIATE 要等第一个结束。其他级别请选 MariaDB 或 PostgreSQL。</translation>
    </message>
    <message>
        <source>Each statement sees what was committed before it began. InnoDB takes no gap locks at this level: a locking read of a missing key waits instead of deadlocking.</source>
        <translation>每条语句看到它开始之前已提交的数据。在这个级别 InnoDB 不加间隙锁：对不存在的键做加锁读时会等待，而不是死锁。</translation>
    </message>
    <message>
        <source>Each statement sees what was committed before it began (PostgreSQL&apos;s default): two transactions can both find nothing and both insert.</source>
        <translation>每条语句看到它开始之前已提交的数据（PostgreSQL 的默认级别）：两个事务可能都查不到记录，于是都插入。</translation>
    </message>
    <message>
        <source>The transaction reads one snapshot throughout (MariaDB&apos;s default); locking reads take gap locks, which can deadlock.</source>
        <translation>整个事务读同一个快照（MariaDB 的默认级别）；加锁读会加间隙锁，可能因此死锁。</translation>
    </message>
    <message>
        <source>The transaction reads one snapshot throughout; a write that meets a newer committed version fails with a serialization failure.</source>
        <translation>整个事务读同一个快照；写入时若遇到更新的已提交版本，就以序列化失败告终。</translation>
    </message>
    <message>
        <source>As if the transactions ran one after another: every read locks what it read, so conflicting transactions deadlock and one is rolled back.</source>
        <translation>如同事务一个接一个地执行：每次读都锁住读到的范围，冲突的事务因此死锁，其中一个被回滚。</translation>
    </message>
    <message>
        <source>As if the transactions ran one after another: the server refuses a commit that no such order explains (serialization failure).</source>
        <translation>如同事务一个接一个地执行：任何先后顺序都解释不了的提交，服务器拒绝（序列化失败）。</translation>
    </message>
    <message>
        <source>A private MariaDB 10.11 server (InnoDB, the article&apos;s MySQL dialect) that the lab starts itself: row and gap locks, waits, deadlocks. The first start takes a few seconds.</source>
        <translation>实验室自己启动的私有 MariaDB 10.11 服务器（InnoDB，即文章所用的 MySQL 方言）：行锁和间隙锁、锁等待、死锁。第一次启动需要几秒钟。</translation>
    </message>
    <message>
        <source>A private PostgreSQL 15 server that the lab starts itself: row locks, waits, serialization failures. The first start takes a few seconds.</source>
        <translation>实验室自己启动的私有 PostgreSQL 15 服务器：行锁、锁等待、序列化失败。第一次启动需要几秒钟。</translation>
    </message>
    <message>
        <source>SQLite, inside the lab: nothing to start, one writer at a time (a second writer waits for the whole database).</source>
        <translation>SQLite，内嵌在实验室里：无需启动任何东西，同一时刻只有一个写者（第二个写者要等整个数据库）。</translation>
    </message>
    <message>
        <source>%1 (not on %2)</source>
        <translation>%1（%2 上不可用）</translation>
    </message>
    <message>
        <source>%1 (default)</source>
        <translation>%1（默认）</translation>
    </message>
    <message>
        <source>How much the transactions of concurrent attempts see of each other, and which conflicts the server refuses: it decides whether a check inside a transaction lets a duplicate through, waits, deadlocks or fails to serialize.</source>
        <translation>并发尝试的事务彼此能看到多少，以及服务器拒绝哪些冲突：它决定事务内的检查是放过重复、等待、死锁，还是序列化失败。</translation>
    </message>
    <message>
        <source>Needs MariaDB or PostgreSQL: SQLite has no SELECT … FOR UPDATE (it locks the whole database instead).</source>
        <translation>需要 MariaDB 或 PostgreSQL：SQLite 没有 SELECT … FOR UPDATE（它改为锁住整个数据库）。</translation>
    </message>
    <message>
        <source>No %1 form of its SQL yet: it runs on SQLite.</source>
        <translation>它的 SQL 还没有 %1 写法：只能在 SQLite 上运行。</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>There is no database “%1” (the lab has: %2)</source>
        <translation>没有名为“%1”的数据库（实验室支持：%2）</translation>
    </message>
    <message>
        <source>%1 has no isolation level “%2” (its levels: %3)</source>
        <translation>%1 没有隔离级别“%2”（它支持：%3）</translation>
    </message>
    <message>
        <source>Database the run uses</source>
        <translation>本次运行使用的数据库</translation>
    </message>
    <message>
        <source>Isolation level of the run&apos;s transactions</source>
        <translation>本次运行中事务的隔离级别</translation>
    </message>
    <message>
        <source>crash %1 (relay pass %2)</source>
        <translation>在“%1”崩溃（中继 %2）</translation>
    </message>
    <message>
        <source>Which attempt dies at the crash point (1 = the original; at after-publish, which pass of the relay)</source>
        <translation>第几次尝试在崩溃点挂掉（1 = 原始请求；after-publish 时是消息中继的第几轮）</translation>
    </message>
    <message>
        <source>Plays the recording %1: %2 is not installed on this computer, so the database&apos;s answers, its locks and its rows come from that trace.</source>
        <translation>正在播放录制 %1：本机没有安装 %2，所以数据库的回答、锁和表中的行都来自这份轨迹。</translation>
    </message>
    <message>
        <source>The lab starts a redis-server of its own for the run (a local socket, nothing written to disk) and stops it afterwards.</source>
        <translation>实验室为这次运行启动一个自己的 redis-server（只用本机套接字，不写磁盘），运行结束后停掉。</translation>
    </message>
    <message>
        <source>Redis is not installed on this computer (Debian package %1).</source>
        <translation>这台电脑没有安装 Redis（Debian 软件包 %1）。</translation>
    </message>
    <message>
        <source>Where this variant keeps its keys: a table of the run&apos;s database that plays Redis, or a real Redis whose keys expire in real time.</source>
        <translation>这个方案把键放在哪里：运行数据库里扮演 Redis 的一张表，或者一个真实的 Redis，键按真实时间过期。</translation>
    </message>
    <message>
        <source>This variant keeps nothing in Redis.</source>
        <translation>这个方案不在 Redis 里存任何东西。</translation>
    </message>
    <message>
        <source>Simulated (a table)</source>
        <translation>模拟（一张表）</translation>
    </message>
    <message>
        <source>A real Redis (private server)</source>
        <translation>真实的 Redis（私有服务器）</translation>
    </message>
    <message>
        <source>Where the variant keeps its keys</source>
        <translation>方案存放键的地方</translation>
    </message>
    <message>
        <source>real Redis</source>
        <translation>真实 Redis</translation>
    </message>
    <message>
        <source>Redis</source>
        <translation>Redis</translation>
    </message>
    <message>
        <source>%1 is not installed on this computer: its Debian package %2 is missing. To install it: %3. SQLite needs nothing.</source>
        <translation>这台计算机没有安装 %1：缺少 Debian 软件包 %2。安装方法：%3。SQLite 无需安装任何东西。</translation>
    </message>
    <message>
        <source>%1 (workbench)</source>
        <translation>%1（工作台）</translation>
    </message>
</context>
<context>
    <name>idem::HtmlReport</name>
    <message>
        <source>Idempotency Lab report</source>
        <translation>幂等实验室报告</translation>
    </message>
    <message>
        <source>Idempotency Lab — %1 / %2</source>
        <translation>幂等实验室 — %1 / %2</translation>
    </message>
    <message>
        <source>This trace cannot be trusted: %1</source>
        <translation>这份运行轨迹不可信：%1</translation>
    </message>
    <message>
        <source> — accepted cost</source>
        <translation>（可接受的代价）</translation>
    </message>
    <message>
        <source>Wrong answers</source>
        <translation>错误应答</translation>
    </message>
    <message>
        <source>intent</source>
        <translation>业务意图</translation>
    </message>
    <message>
        <source>attempt</source>
        <translation>尝试</translation>
    </message>
    <message>
        <source>told</source>
        <translation>告知调用方</translation>
    </message>
    <message>
        <source>result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>the database shows</source>
        <translation>数据库实际</translation>
    </message>
    <message>
        <source>Alerts</source>
        <translation>告警</translation>
    </message>
    <message>
        <source>t (ms)</source>
        <translation>时间 (ms)</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>count when it fired</source>
        <translation>触发时计数</translation>
    </message>
    <message>
        <source>final count</source>
        <translation>最终计数</translation>
    </message>
    <message>
        <source>message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Configuration</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>汇总</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>seq</source>
        <translation>序号</translation>
    </message>
    <message>
        <source>actor</source>
        <translation>参与者</translation>
    </message>
    <message>
        <source>kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>what</source>
        <translation>内容</translation>
    </message>
    <message>
        <source>what happened</source>
        <translation>发生了什么</translation>
    </message>
    <message>
        <source>Locks: waits, deadlocks and serialization failures</source>
        <translation>锁：等待、死锁与序列化失败</translation>
    </message>
    <message>
        <source>Locks at the end of the run:</source>
        <translation>运行结束时的锁：</translation>
    </message>
</context>
<context>
    <name>idem::Judge</name>
    <message>
        <source>the changed request was not carried out; the original stands</source>
        <translation>改过参数的请求并没有执行，原来那笔仍然有效</translation>
    </message>
    <message>
        <source>the changed request was not carried out; nothing was done</source>
        <translation>改过参数的请求并没有执行，什么也没有做</translation>
    </message>
    <message>
        <source>nothing was done</source>
        <translation>什么也没有做</translation>
    </message>
    <message>
        <source>the result is %1</source>
        <translation>结果是 %1</translation>
    </message>
    <message>
        <source>it was done</source>
        <translation>已经做了</translation>
    </message>
    <message>
        <source>it was done: %1</source>
        <translation>已经做了：%1</translation>
    </message>
    <message>
        <source>this request was not carried out; a request with other parameters under the same key was</source>
        <translation>这个请求并没有执行，执行的是同一个键下参数不同的另一个请求</translation>
    </message>
</context>
<context>
    <name>idem::KeysOverlay</name>
    <message>
        <source>Fire: run the fire panel&apos;s settings (from any tab; shows Live)</source>
        <translation>发射：按发射面板的设置运行（在任何标签页都可以，随后切到“实时”）</translation>
    </message>
    <message>
        <source>Space</source>
        <translation>空格</translation>
    </message>
    <message>
        <source>Play / pause</source>
        <translation>播放 / 暂停</translation>
    </message>
    <message>
        <source>→ or Page Down</source>
        <translation>→ 或 Page Down</translation>
    </message>
    <message>
        <source>Next step (a presentation remote sends these)</source>
        <translation>下一步（翻页笔发送的就是这两个键）</translation>
    </message>
    <message>
        <source>← or Page Up</source>
        <translation>← 或 Page Up</translation>
    </message>
    <message>
        <source>Step back</source>
        <translation>后退一步</translation>
    </message>
    <message>
        <source>Start / end of the run</source>
        <translation>跳到运行的开头 / 结尾</translation>
    </message>
    <message>
        <source>Slower / faster</source>
        <translation>减慢 / 加快</translation>
    </message>
    <message>
        <source>Escape or Enter</source>
        <translation>Esc 或 Enter</translation>
    </message>
    <message>
        <source>Leave the field being edited: the keys above work again</source>
        <translation>结束正在编辑的输入框，上面这些键恢复作用</translation>
    </message>
    <message>
        <source>Next / previous region</source>
        <translation>下一个 / 上一个区域</translation>
    </message>
    <message>
        <source>Enter or Space</source>
        <translation>Enter 或空格</translation>
    </message>
    <message>
        <source>Press the focused button, tick the focused check box</source>
        <translation>按下获得焦点的按钮，勾选获得焦点的复选框</translation>
    </message>
    <message>
        <source>Enter (scenario list)</source>
        <translation>Enter（场景列表中）</translation>
    </message>
    <message>
        <source>Load the highlighted scenario (↑/↓ only highlight)</source>
        <translation>载入高亮的场景（↑/↓ 只移动高亮）</translation>
    </message>
    <message>
        <source>Live, Compare, Pagination, Experiment</source>
        <translation>实时、对比、分页、压力实验</translation>
    </message>
    <message>
        <source>Ctrl+Page Up / Down</source>
        <translation>Ctrl+Page Up / Page Down</translation>
    </message>
    <message>
        <source>Previous / next tab</source>
        <translation>上一个 / 下一个标签页</translation>
    </message>
    <message>
        <source>Compare ↔ Live</source>
        <translation>对比 ↔ 实时</translation>
    </message>
    <message>
        <source>Show or hide the side panels</source>
        <translation>显示或隐藏侧边面板</translation>
    </message>
    <message>
        <source>Presenter mode: full screen, large fonts</source>
        <translation>演示模式：全屏、大字号</translation>
    </message>
    <message>
        <source>Dark theme</source>
        <translation>深色主题</translation>
    </message>
    <message>
        <source>Zoom in / out / normal size</source>
        <translation>放大 / 缩小 / 恢复正常大小</translation>
    </message>
    <message>
        <source>Design advisor</source>
        <translation>设计顾问</translation>
    </message>
    <message>
        <source>This list</source>
        <translation>显示本列表</translation>
    </message>
    <message>
        <source>Keyboard</source>
        <translation>键盘操作</translation>
    </message>
    <message>
        <source>Escape or ? closes this list.</source>
        <translation>按 Esc 或 ? 关闭本列表。</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Black screen (a remote&apos;s blank key); the same key or any other brings the stage back</source>
        <translation>黑屏（翻页笔上的黑屏键）；再按一次或按任意键恢复画面</translation>
    </message>
    <message>
        <source>Choose a guided lesson</source>
        <translation>选择一节课程</translation>
    </message>
    <message>
        <source>Leave the lesson: back to free play</source>
        <translation>退出课程，回到自由练习</translation>
    </message>
    <message>
        <source>Predict first: the verdict hidden until the end</source>
        <translation>先预测：结论到运行结束才显示</translation>
    </message>
    <message>
        <source>Play to the next turn (a crash, a refusal, a retry, an alert)</source>
        <translation>播放到下一个转折（崩溃、拒绝、重试、告警）</translation>
    </message>
    <message>
        <source>Page Down / Up (lesson)</source>
        <translation>Page Down / Up（课程中）</translation>
    </message>
    <message>
        <source>Next frame (first a prediction&apos;s answer) / back</source>
        <translation>下一帧（有预测时先揭晓答案）/ 上一帧</translation>
    </message>
    <message>
        <source>Space / F5 / Escape (lesson)</source>
        <translation>空格 / F5 / Escape（课程中）</translation>
    </message>
    <message>
        <source>Play the frame again / fire its run anew / its run as it was</source>
        <translation>重放这一帧 / 重新发射它的运行 / 回到它原来的运行</translation>
    </message>
    <message>
        <source>Sequence, state, tables or Compare alone (the same key: all again)</source>
        <translation>单独显示时序图、状态图、数据表或对比（再按一次：回到全部）</translation>
    </message>
</context>
<context>
    <name>idem::LessonHandout</name>
    <message>
        <source>%1 ms between attempts</source>
        <translation>两次尝试间隔 %1 毫秒</translation>
    </message>
    <message>
        <source>at most %1 retries</source>
        <translation>最多重试 %1 次</translation>
    </message>
    <message>
        <source>in-progress expiry %1 ms</source>
        <translation>处理中状态 %1 毫秒后过期</translation>
    </message>
    <message>
        <source>dedup records kept %1 ms</source>
        <translation>去重记录保留 %1 毫秒</translation>
    </message>
    <message>
        <source>cache TTL %1 ms</source>
        <translation>缓存 TTL %1 毫秒</translation>
    </message>
    <message>
        <source>lock lease %1 ms</source>
        <translation>锁租约 %1 毫秒</translation>
    </message>
    <message>
        <source>visibility timeout %1 ms</source>
        <translation>可见性超时 %1 毫秒</translation>
    </message>
    <message>
        <source>%1 (recommended)</source>
        <translation>%1（推荐）</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>Variant</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>the run of frame %1 goes on</source>
        <translation>接着第 %1 帧的运行</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message numerus="yes">
        <source>The first %n part(s) of this diagram are left out: the last %1 lead to the pause.</source>
        <translation>
            <numerusform>此图的前 %n 部分从略：最后 %1 部分通向暂停处。</numerusform>
        </translation>
    </message>
    <message>
        <source>At the pause:</source>
        <translation>暂停时：</translation>
    </message>
    <message>
        <source>Frame %1 / %2</source>
        <translation>第 %1 / %2 帧</translation>
    </message>
    <message>
        <source>The run is loaded but not fired yet: the class sees only its settings.</source>
        <translation>运行已载入但尚未发射：全班只看到它的设置。</translation>
    </message>
    <message>
        <source>Predict:</source>
        <translation>先预测：</translation>
    </message>
    <message>
        <source>Your answer: ______</source>
        <translation>你的答案：______</translation>
    </message>
    <message>
        <source>%1 — hand-out</source>
        <translation>%1 — 讲义</translation>
    </message>
    <message>
        <source>Idempotency Lab %1 · lesson %2 · %3 frames · %4 questions</source>
        <translation>幂等实验室 %1 · 课程 %2 · %3 帧 · %4 道题</translation>
    </message>
    <message>
        <source>Answers</source>
        <translation>答案</translation>
    </message>
    <message>
        <source>Read from the runs, as the lesson reveals them.</source>
        <translation>答案读自真实的运行，与课程揭晓时相同。</translation>
    </message>
    <message>
        <source>Frame %1:</source>
        <translation>第 %1 帧：</translation>
    </message>
    <message>
        <source>No request has been sent yet at this pause: the sequence diagram begins with the first one.</source>
        <translation>停在这里时还没有发出任何请求：时序图从第一个请求开始画。</translation>
    </message>
    <message>
        <source>Locks on the server</source>
        <translation>服务器上的锁</translation>
    </message>
    <message>
        <source>Locks at the pause:</source>
        <translation>暂停时的锁：</translation>
    </message>
    <message>
        <source>not run here (no server)</source>
        <translation>本机没有该服务器，未运行</translation>
    </message>
    <message>
        <source>Challenge</source>
        <translation>挑战</translation>
    </message>
    <message>
        <source>the starter&apos;s smallest failing run: schedule %1</source>
        <translation>初始处理函数的最小失败运行：调度 %1</translation>
    </message>
    <message>
        <source>On the Workbench</source>
        <translation>在工作台上</translation>
    </message>
    <message>
        <source>The starter handler:</source>
        <translation>初始处理函数：</translation>
    </message>
    <message>
        <source>passed: %1 schedules run</source>
        <translation>通过：运行了 %1 种调度</translation>
    </message>
    <message>
        <source>failed (%1): %2 schedules run; the smallest failing run has %3 attempts, %4 statements, %5 preemptions (schedule %6)</source>
        <translation>未通过（%1）：运行了 %2 种调度；最小的失败运行有 %3 次尝试、%4 条语句、%5 次抢占（调度 %6）</translation>
    </message>
    <message>
        <source>Check on SQLite:</source>
        <translation>在 SQLite 上检查：</translation>
    </message>
</context>
<context>
    <name>idem::LessonPanel</name>
    <message>
        <source>Frame %1 / %2</source>
        <translation>第 %1 / %2 帧</translation>
    </message>
    <message>
        <source>table %1</source>
        <translation>表 %1</translation>
    </message>
    <message>
        <source>state %1</source>
        <translation>状态 %1</translation>
    </message>
    <message>
        <source>lane “%1”</source>
        <translation>泳道“%1”</translation>
    </message>
    <message>
        <source>Look at: %1</source>
        <translation>请看：%1</translation>
    </message>
    <message>
        <source>Page Down: next frame · Page Up: back · Space: play this frame again</source>
        <translation>Page Down：下一帧 · Page Up：上一帧 · 空格：重放这一帧</translation>
    </message>
    <message>
        <source>Predict: %1</source>
        <translation>先预测：%1</translation>
    </message>
    <message>
        <source>Let the class answer, then Page Down reveals what the run did</source>
        <translation>先让大家作答，再按 Page Down 揭晓运行的结果</translation>
    </message>
    <message>
        <source>The run says: %1</source>
        <translation>运行结果：%1</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>the Locks view</source>
        <translation>锁视图</translation>
    </message>
    <message>
        <source>This frame runs on %1, which is not installed on this computer (Debian package %2), so its run is not shown. Page Down goes on with the lesson.</source>
        <translation>这一帧要在 %1 上运行，本机没有安装它（Debian 软件包 %2），所以这里不显示它的运行。按 Page Down 继续本课。</translation>
    </message>
    <message>
        <source>%1 is not installed on this computer (Debian package %2): this frame plays the run recorded on %1 with the lesson, the same statements, waits and answers.</source>
        <translation>这台电脑没有安装 %1（Debian 软件包 %2）：这一帧播放的是随课程附带、在 %1 上录下的运行，语句、锁等待和应答都与原来相同。</translation>
    </message>
    <message>
        <source>the SQL log</source>
        <translation>SQL 日志</translation>
    </message>
    <message>
        <source>What the frame says</source>
        <translation>这一帧的讲解</translation>
    </message>
</context>
<context>
    <name>idem::LessonPlayer</name>
    <message>
        <source>Going to the frame&apos;s pause</source>
        <translation>正在走到本帧的暂停处</translation>
    </message>
    <message>
        <source>Finding the smallest run that breaks the starter</source>
        <translation>正在找出打破初始处理函数的最小运行</translation>
    </message>
</context>
<context>
    <name>idem::LiveStage</name>
    <message>
        <source>Tables of the run</source>
        <translation>本次运行的数据表</translation>
    </message>
    <message>
        <source>SQL log</source>
        <translation>SQL 日志</translation>
    </message>
    <message>
        <source>SQL</source>
        <translation>SQL</translation>
    </message>
    <message>
        <source>%1 (guard)</source>
        <translation>%1（防重）</translation>
    </message>
    <message>
        <source>%1 — not used</source>
        <translation>%1（未使用）</translation>
    </message>
    <message>
        <source>This variant does not use the table %1</source>
        <translation>此方案不使用表 %1</translation>
    </message>
    <message>
        <source>Row versions</source>
        <translation>行版本</translation>
    </message>
    <message>
        <source>Show row versions (xmin, xmax)</source>
        <translation>显示行版本（xmin、xmax）</translation>
    </message>
    <message>
        <source>Only PostgreSQL keeps row versions (xmin, xmax) in its rows: choose PostgreSQL in the Fire panel to show them.</source>
        <translation>只有 PostgreSQL 在行里保存行版本（xmin、xmax）：在发射面板里选 PostgreSQL 才能显示。</translation>
    </message>
    <message>
        <source>Locks</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Database locks</source>
        <translation>数据库锁</translation>
    </message>
    <message>
        <source>%1: what the database holds and awaits at this step</source>
        <translation>%1：这一步数据库持有和等待的锁</translation>
    </message>
    <message>
        <source>Shows each row&apos;s xmin (the transaction that wrote this version) and xmax (the transaction that deleted or locked it, 0 for none), each named by the attempt whose transaction it is: a snapshot sees a row only if its xmin had committed when the snapshot was taken.</source>
        <translation>显示每行的 xmin（写下这个版本的事务）和 xmax（删除或锁住它的事务，0 表示没有），每个事务都标出它属于哪次尝试：只有当 xmin 在快照建立时已经提交，快照才看得见这一行。</translation>
    </message>
    <message>
        <source>Redis: the run&apos;s keys at this step</source>
        <translation>Redis：这一步时本次运行的键</translation>
    </message>
</context>
<context>
    <name>idem::LockStory</name>
    <message>
        <source>the server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>another transaction</source>
        <translation>另一个事务</translation>
    </message>
    <message>
        <source>%1 waits for %2: %3</source>
        <extracomment>&quot;#1 waits for #2, #3: gap lock on uk_orders_request_id&quot;</extracomment>
        <translation>%1 等待 %2：%3</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>%1 still waits at the end of the run</source>
        <translation>运行结束时 %1 仍在等待</translation>
    </message>
    <message>
        <source>%1 stops waiting: its statement ends the wait in a deadlock</source>
        <translation>%1 不再等待：它的语句以死锁告终</translation>
    </message>
    <message>
        <source>%1 gives up waiting (lock timeout)</source>
        <translation>%1 放弃等待（锁等待超时）</translation>
    </message>
    <message>
        <source>%1 stops waiting: the server refuses its statement (serialization failure)</source>
        <translation>%1 不再等待：服务器拒绝了它的语句（序列化失败）</translation>
    </message>
    <message>
        <source>%1 goes on: %2&apos;s transaction ended</source>
        <extracomment>&quot;#1 goes on: #3&apos;s transaction ended&quot;</extracomment>
        <translation>%1 继续执行：%2 的事务已结束</translation>
    </message>
    <message>
        <source>%1 goes on: the lock was let go</source>
        <translation>%1 继续执行：锁已释放</translation>
    </message>
    <message>
        <source>Deadlock: %1 rolled back %2&apos;s transaction%3</source>
        <extracomment>&quot;Deadlock: InnoDB rolled back #3&apos;s transaction (1213)&quot;</extracomment>
        <translation>死锁：%1 回滚了 %2 的事务%3</translation>
    </message>
    <message>
        <source>Serialization failure: %1 refused %2&apos;s statement%3</source>
        <translation>序列化失败：%1 拒绝了 %2 的语句%3</translation>
    </message>
    <message>
        <source>Lock timeout: %1 gave up waiting%2</source>
        <translation>锁等待超时：%1 放弃了等待%2</translation>
    </message>
    <message>
        <source>%1 ms: %2</source>
        <translation>%1 毫秒：%2</translation>
    </message>
    <message>
        <source>%1 ms: %2; %3</source>
        <translation>%1 毫秒：%2；%3</translation>
    </message>
    <message>
        <source>%1–%2 ms: %3; %4</source>
        <translation>%1–%2 毫秒：%3；%4</translation>
    </message>
    <message>
        <source>The server holds no lock for the run&apos;s transactions.</source>
        <translation>服务器没有为本次运行的事务持有任何锁。</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>尝试</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>表</translation>
    </message>
    <message>
        <source>Index</source>
        <translation>索引</translation>
    </message>
    <message>
        <source>Record</source>
        <translation>记录</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>of %1</source>
        <translation>属于 %1</translation>
    </message>
    <message>
        <source>another connection</source>
        <translation>另一个连接</translation>
    </message>
    <message>
        <source>held</source>
        <translation>已持有</translation>
    </message>
    <message>
        <source>a connection outside the run</source>
        <translation>本次运行之外的连接</translation>
    </message>
    <message>
        <source>waits</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>waits for %1</source>
        <translation>等待 %1</translation>
    </message>
    <message>
        <source>No statement waited for a lock.</source>
        <translation>没有语句等待过锁。</translation>
    </message>
    <message>
        <source>Lock waits: %1 · deadlocks: %2 · serialization failures: %3</source>
        <translation>锁等待：%1 · 死锁：%2 · 序列化失败：%3</translation>
    </message>
    <message>
        <source>Locks while it waits:</source>
        <translation>等待期间的锁：</translation>
    </message>
    <message>
        <source>Locks just before:</source>
        <translation>此前一刻的锁：</translation>
    </message>
    <message>
        <source>… and %1 more not listed here.</source>
        <translation>……另有 %1 条未列出。</translation>
    </message>
    <message>
        <source>The lab cancelled %1&apos;s wait%2: every session of the run was waiting and nothing was left to send</source>
        <extracomment>the code is the cancel&apos;s (1317, 57014), not a timeout&apos;s</extracomment>
        <translation>实验室取消了 %1 的等待%2：本次运行的每个会话都在等待，已没有可发送的语句</translation>
    </message>
    <message>
        <source>Lock timeout: the lab cancelled %1&apos;s wait at the timeout you set%2</source>
        <translation>锁超时：实验室在你设定的超时时刻取消了 %1 的等待%2</translation>
    </message>
</context>
<context>
    <name>idem::LockWaits</name>
    <message>
        <source>gap lock on %1</source>
        <translation>%1 上的间隙锁</translation>
    </message>
    <message>
        <source>lock on %1</source>
        <translation>%1 上的锁</translation>
    </message>
    <message>
        <source>row lock on %1 %2</source>
        <translation>%1 的行锁 %2</translation>
    </message>
    <message>
        <source>the same key, not committed yet</source>
        <translation>同一键值（尚未提交）</translation>
    </message>
    <message>
        <source>table lock on %1</source>
        <translation>%1 的表锁</translation>
    </message>
</context>
<context>
    <name>idem::Locks</name>
    <message>
        <source>row lock</source>
        <translation>行锁</translation>
    </message>
    <message>
        <source>gap lock</source>
        <translation>间隙锁</translation>
    </message>
    <message>
        <source>next-key lock</source>
        <translation>临键锁</translation>
    </message>
    <message>
        <source>insert intention</source>
        <translation>插入意向锁</translation>
    </message>
    <message>
        <source>table lock</source>
        <translation>表锁</translation>
    </message>
    <message>
        <source>table intention</source>
        <translation>表意向锁</translation>
    </message>
    <message>
        <source>transaction id</source>
        <translation>事务号</translation>
    </message>
    <message>
        <source>place in the row&apos;s queue</source>
        <translation>行的排队位置</translation>
    </message>
    <message>
        <source>write lock (whole database)</source>
        <translation>写锁（整个数据库）</translation>
    </message>
    <message>
        <source>The record itself, not the gap before it: another transaction cannot change or lock this row.</source>
        <translation>只锁记录本身，不锁它前面的间隙：别的事务不能修改或锁住这一行。</translation>
    </message>
    <message>
        <source>The gap before a key (or after the last one): nobody may insert there. Gap locks do not conflict with each other, so two transactions can hold the same gap.</source>
        <translation>某个键前面的间隙（或最后一个键之后）：谁都不能往里插入。间隙锁彼此不冲突，所以两个事务可以同时持有同一个间隙。</translation>
    </message>
    <message>
        <source>The record and the gap before it: a locking read at repeatable read takes these so that no row appears in what it read.</source>
        <translation>记录本身加上它前面的间隙：可重复读下的加锁读取会加这种锁，让读过的范围里不会冒出新行。</translation>
    </message>
    <message>
        <source>An INSERT asking to put a key into a gap: it waits while another transaction holds a gap or next-key lock there.</source>
        <translation>INSERT 请求把一个键放进某个间隙：只要别的事务在那里持有间隙锁或临键锁，它就得等。</translation>
    </message>
    <message>
        <source>A lock on the whole table.</source>
        <translation>锁住整张表。</translation>
    </message>
    <message>
        <source>Says that the transaction locks rows in this table; such locks do not block each other.</source>
        <translation>表示事务要锁这张表里的行；这种锁彼此不阻塞。</translation>
    </message>
    <message>
        <source>Every writing transaction holds its own id. PostgreSQL keeps row locks in the rows, so a transaction that needs a row another one changed waits for that one&apos;s id: for its end.</source>
        <translation>每个写事务都持有自己的事务号。PostgreSQL 把行锁记在行里，所以要用到别的事务改过的行时，就等那个事务的事务号，也就是等它结束。</translation>
    </message>
    <message>
        <source>PostgreSQL&apos;s tuple lock: the first in line for a row holds it while it waits for the row&apos;s transaction.</source>
        <translation>PostgreSQL 的元组锁：排在某行队首的事务持有它，同时等待占着这行的事务。</translation>
    </message>
    <message>
        <source>SQLite has one writer at a time: BEGIN IMMEDIATE takes the write lock of the whole database until COMMIT or ROLLBACK.</source>
        <translation>SQLite 同一时刻只有一个写者：BEGIN IMMEDIATE 拿到整个数据库的写锁，直到 COMMIT 或 ROLLBACK。</translation>
    </message>
    <message>
        <source>after the last key (supremum)</source>
        <translation>末键之后（supremum）</translation>
    </message>
    <message>
        <source>before the first key (infimum)</source>
        <translation>第一个键之前（infimum）</translation>
    </message>
</context>
<context>
    <name>idem::LocksModel</name>
    <message>
        <source>another connection</source>
        <translation>另一个连接</translation>
    </message>
    <message>
        <source>%1, of %2</source>
        <translation>%1，属于 %2</translation>
    </message>
    <message>
        <source>of %1</source>
        <translation>属于 %1</translation>
    </message>
    <message>
        <source>held</source>
        <translation>已持有</translation>
    </message>
    <message>
        <source>a connection outside the run</source>
        <translation>本次运行之外的连接</translation>
    </message>
    <message>
        <source>waits</source>
        <extracomment>Between attempts: &quot;#2, #3&quot;</extracomment>
        <translation>等待中</translation>
    </message>
    <message>
        <source>waits for %1</source>
        <translation>等待 %1</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>尝试</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>表</translation>
    </message>
    <message>
        <source>Index</source>
        <translation>索引</translation>
    </message>
    <message>
        <source>Record</source>
        <translation>记录</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
</context>
<context>
    <name>idem::LocksView</name>
    <message>
        <source>%1 waits for %2 (%3)</source>
        <translation>%1 等待 %2（%3）</translation>
    </message>
    <message>
        <source>PostgreSQL&apos;s locks for the run&apos;s attempts at this step: pg_locks, and the row locks it keeps in the rows themselves (pgrowlocks).</source>
        <translation>这一步 PostgreSQL 为本次运行各尝试持有和等待的锁：来自 pg_locks，以及它记在行里的行锁（pgrowlocks）。</translation>
    </message>
    <message>
        <source>InnoDB&apos;s locks for the run&apos;s attempts at this step (SHOW ENGINE INNODB STATUS): record, gap, next-key and insert intention locks, with their index.</source>
        <translation>这一步 InnoDB 为本次运行各尝试持有和等待的锁（SHOW ENGINE INNODB STATUS）：记录锁、间隙锁、临键锁和插入意向锁，以及所在的索引。</translation>
    </message>
    <message>
        <source>SQLite has no row or gap locks: one writer at a time holds the write lock of the whole database, from BEGIN IMMEDIATE to COMMIT or ROLLBACK, and every other writer waits for it. Below, the lab&apos;s own lock table.</source>
        <translation>SQLite 没有行锁和间隙锁：同一时刻只有一个写者持有整个数据库的写锁，从 BEGIN IMMEDIATE 到 COMMIT 或 ROLLBACK，其他写者都得等它。下面是实验室自己的锁表。</translation>
    </message>
    <message>
        <source>Nothing is locked at this step.</source>
        <translation>这一步没有任何锁。</translation>
    </message>
    <message>
        <source>The server listed only the first ten locks of a transaction.</source>
        <translation>服务器只列出了每个事务的前十个锁。</translation>
    </message>
    <message>
        <source>Database locks</source>
        <translation>数据库锁</translation>
    </message>
    <message>
        <source>Locks held and awaited at this step</source>
        <translation>这一步持有和等待的锁</translation>
    </message>
    <message>
        <source>Who waits for whom</source>
        <translation>谁在等谁</translation>
    </message>
    <message>
        <source>Locks awaited: %1 (highlighted).</source>
        <translation>等待中的锁：%1 个（高亮显示）。</translation>
    </message>
    <message>
        <source>Locks held: %1, none awaited.</source>
        <translation>持有 %1 个锁，没有等待。</translation>
    </message>
    <message>
        <source>refused: deadlock</source>
        <translation>被拒：死锁</translation>
    </message>
</context>
<context>
    <name>idem::MainWindow</name>
    <message>
        <source>About Idempotency Lab</source>
        <translation>关于幂等实验室</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Idempotency Lab 幂等实验室&lt;/h3&gt;&lt;p&gt;Fire duplicate requests at real SQL on a real SQLite database and watch which techniques keep the business effect exactly once.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;幂等实验室&lt;/h3&gt;&lt;p&gt;在真实的 SQLite 数据库上，用真实的 SQL 发射重复请求，观察哪些幂等手段能让业务后果恰好只发生一次。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Idempotency Lab 幂等实验室</source>
        <translation>幂等实验室</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
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
        <source>&amp;Open trace…</source>
        <translation>打开轨迹(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a saved trace and replay it</source>
        <translation>打开已保存的轨迹并回放</translation>
    </message>
    <message>
        <source>&amp;Save trace…</source>
        <translation>保存轨迹(&amp;S)…</translation>
    </message>
    <message>
        <source>Save the whole run as a JSON trace</source>
        <translation>将整次运行保存为 JSON 轨迹</translation>
    </message>
    <message>
        <source>Export diagram as &amp;PNG…</source>
        <translation>导出图为 PNG(&amp;P)…</translation>
    </message>
    <message>
        <source>The state or sequence diagram on screen</source>
        <translation>当前显示的状态图或时序图</translation>
    </message>
    <message>
        <source>Export diagram as S&amp;VG…</source>
        <translation>导出图为 SVG(&amp;V)…</translation>
    </message>
    <message>
        <source>Right-click any table for its own copy</source>
        <translation>右键点击任意表格可单独复制</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Fire</source>
        <translation>发射(&amp;F)</translation>
    </message>
    <message>
        <source>Run the fire panel&apos;s settings</source>
        <translation>按发射面板的设置运行</translation>
    </message>
    <message>
        <source>&amp;Play / pause</source>
        <translation>播放/暂停(&amp;P)</translation>
    </message>
    <message>
        <source>S&amp;tep</source>
        <translation>单步(&amp;T)</translation>
    </message>
    <message>
        <source>Step &amp;back</source>
        <translation>后退一步(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Reset</source>
        <translation>重置(&amp;R)</translation>
    </message>
    <message>
        <source>Run to the &amp;end</source>
        <translation>运行到结尾(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Slower</source>
        <translation>减慢(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Compare two variants</source>
        <translation>对比两种方案(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Dark theme</source>
        <translation>深色主题(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Presenter mode (large, high contrast)</source>
        <translation>演示模式（大字号、高对比度）(&amp;P)</translation>
    </message>
    <message>
        <source>Zoom &amp;in</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Normal size</source>
        <translation>正常大小(&amp;N)</translation>
    </message>
    <message>
        <source>Live 实时</source>
        <translation>实时</translation>
    </message>
    <message>
        <source>Compare 对比</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Scenario and fire panel</source>
        <translation>场景与发射面板</translation>
    </message>
    <message>
        <source>Outcome and explanation</source>
        <translation>结果与讲解</translation>
    </message>
    <message>
        <source>Open trace</source>
        <translation>打开轨迹</translation>
    </message>
    <message>
        <source>Idempotency Lab traces (*.json)</source>
        <translation>幂等实验室轨迹 (*.json)</translation>
    </message>
    <message>
        <source>Save trace</source>
        <translation>保存轨迹</translation>
    </message>
    <message>
        <source>Export diagram</source>
        <translation>导出图</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>SVG 图片 (*.svg)</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图片 (*.png)</translation>
    </message>
    <message>
        <source>Cannot export the diagram</source>
        <translation>无法导出图</translation>
    </message>
    <message>
        <source>Cannot run this configuration</source>
        <translation>无法运行此配置</translation>
    </message>
    <message>
        <source>Pagination 分页</source>
        <translation>分页</translation>
    </message>
    <message>
        <source>Design &amp;advisor: ask these questions first…</source>
        <translation>设计顾问：设计时先问这些问题(&amp;A)…</translation>
    </message>
    <message>
        <source>Six questions that pick the techniques for your own case</source>
        <translation>六个问题，为你自己的场景挑选幂等手段</translation>
    </message>
    <message>
        <source>Experiment 压力实验</source>
        <translation>压力实验</translation>
    </message>
    <message>
        <source>&lt;p&gt;Version %1&lt;/p&gt;</source>
        <translation>&lt;p&gt;版本 %1&lt;/p&gt;</translation>
    </message>
    <message>
        <source>F&amp;aster</source>
        <translation>加快(&amp;A)</translation>
    </message>
    <message>
        <source>Compare ↔ the run on screen</source>
        <translation>在对比页与当前运行之间切换</translation>
    </message>
    <message>
        <source>&amp;Live run</source>
        <translation>实时运行(&amp;L)</translation>
    </message>
    <message>
        <source>Co&amp;mpare</source>
        <translation>对比(&amp;M)</translation>
    </message>
    <message>
        <source>Pa&amp;gination</source>
        <translation>分页(&amp;G)</translation>
    </message>
    <message>
        <source>E&amp;xperiment</source>
        <translation>压力实验(&amp;X)</translation>
    </message>
    <message>
        <source>Next ta&amp;b</source>
        <translation>下一个标签页(&amp;B)</translation>
    </message>
    <message>
        <source>Previous t&amp;ab</source>
        <translation>上一个标签页(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>Every key the window obeys (?)</source>
        <translation>窗口响应的所有按键（?）</translation>
    </message>
    <message>
        <source>A&amp;bout</source>
        <translation>关于(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Copy the table in front as CSV</source>
        <translation>复制当前显示的表为 CSV(&amp;C)</translation>
    </message>
    <message>
        <source>Auto-pla&amp;y after Fire</source>
        <translation>发射后自动播放(&amp;Y)</translation>
    </message>
    <message>
        <source>Play each fired run by itself at the chosen speed</source>
        <translation>每次发射后按所选速度自动播放</translation>
    </message>
    <message>
        <source>Show the lab&apos;s internal&amp;s</source>
        <translation>显示实验室内部细节(&amp;S)</translation>
    </message>
    <message>
        <source>The set-up before the first attempt, and the lab&apos;s own helpers (an observer that copies rows, its copies)</source>
        <translation>第一次尝试之前的准备步骤，以及实验室自己的辅助角色（拷贝数据行的观察者和它的拷贝）</translation>
    </message>
    <message>
        <source>Close the panel %1</source>
        <translation>关闭面板“%1”</translation>
    </message>
    <message>
        <source>Detach or re-attach the panel %1</source>
        <translation>使面板“%1”浮动或停靠回窗口</translation>
    </message>
    <message>
        <source>More of this bar</source>
        <translation>此栏的更多按钮</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>G&amp;uided lessons</source>
        <translation>课程(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Choose a lesson…</source>
        <translation>选择课程(&amp;C)…</translation>
    </message>
    <message>
        <source>Narrated lessons of the article, driven by Page Down and Page Up (F2)</source>
        <translation>按文章讲解的课程，用 Page Down 和 Page Up 翻页（F2）</translation>
    </message>
    <message>
        <source>&amp;Open a lesson file…</source>
        <translation>打开课程文件(&amp;O)…</translation>
    </message>
    <message>
        <source>A lesson of your own, checked before it opens</source>
        <translation>自己编写的课程，打开前先检查</translation>
    </message>
    <message>
        <source>&amp;Leave the lesson</source>
        <translation>退出课程(&amp;L)</translation>
    </message>
    <message>
        <source>Back to free play (Shift+F2)</source>
        <translation>回到自由操作（Shift+F2）</translation>
    </message>
    <message>
        <source>Predict first: the verdict is hidden until the lesson shows it</source>
        <translation>先预测：课程揭晓之前不显示结论</translation>
    </message>
    <message>
        <source>The lesson %1 has frames 1 to %2.</source>
        <translation>课程 %1 只有第 1 到第 %2 帧。</translation>
    </message>
    <message>
        <source>%1 — %2 frames, %3 predictions</source>
        <translation>%1 — %2 帧，%3 道预测题</translation>
    </message>
    <message>
        <source>Lessons</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>Choose a lesson:</source>
        <translation>选择一门课程：</translation>
    </message>
    <message>
        <source>Cannot open the lesson</source>
        <translation>无法打开课程</translation>
    </message>
    <message>
        <source>Open lesson</source>
        <translation>打开课程</translation>
    </message>
    <message>
        <source>Lessons (*.json)</source>
        <translation>课程文件 (*.json)</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>P&amp;redict first</source>
        <translation>先预测(&amp;R)</translation>
    </message>
    <message>
        <source>Fire asks the class for the verdict first; the outcome stays hidden until the end (Ctrl+P)</source>
        <translation>发射前先让大家预测结论；结果在运行结束前都不显示（Ctrl+P）</translation>
    </message>
    <message>
        <source>Stop the &amp;work in progress</source>
        <translation>停止正在进行的工作(&amp;W)</translation>
    </message>
    <message>
        <source>Stop the run being measured, played to a step, compared or saved</source>
        <translation>停止正在测算、播放到某一步、对比或保存的运行</translation>
    </message>
    <message>
        <source>Sequence diagram alone</source>
        <translation>只看时序图</translation>
    </message>
    <message>
        <source>The sequence diagram fills the window; F6 again brings the whole stage back</source>
        <translation>时序图占满窗口；再按 F6 恢复整个舞台</translation>
    </message>
    <message>
        <source>State diagram alone</source>
        <translation>只看状态图</translation>
    </message>
    <message>
        <source>The state diagram fills the window; F7 again brings the whole stage back</source>
        <translation>状态图占满窗口；再按 F7 恢复整个舞台</translation>
    </message>
    <message>
        <source>Tables alone</source>
        <translation>只看数据表</translation>
    </message>
    <message>
        <source>The tables fill the window; F8 again brings the whole stage back</source>
        <translation>数据表占满窗口；再按 F8 恢复整个舞台</translation>
    </message>
    <message>
        <source>Compare alone</source>
        <translation>只看对比</translation>
    </message>
    <message>
        <source>Compare fills the window; F9 again brings it all back</source>
        <translation>对比页占满窗口；再按 F9 全部恢复</translation>
    </message>
    <message>
        <source>Play on and stop after the next step that matters: a crash, a refusal, an answer other than success, a retry, an alert (Ctrl+Right)</source>
        <translation>继续播放，在下一个关键步骤后停下：崩溃、被拒绝、非成功的应答、重试或告警（Ctrl+→）</translation>
    </message>
    <message>
        <source>Play to the ne&amp;xt turn</source>
        <translation>播放到下一个关键处(&amp;X)</translation>
    </message>
    <message>
        <source>The six &amp;verdicts</source>
        <translation>六种结论(&amp;V)</translation>
    </message>
    <message>
        <source>What exactly once, duplicated, inconsistent, misanswered, lost and stuck mean</source>
        <translation>恰好一次、重复执行、不一致、答复有误、丢失、卡住各是什么意思</translation>
    </message>
    <message>
        <source>Welcome to Idempotency Lab</source>
        <translation>欢迎来到幂等实验室</translation>
    </message>
    <message>
        <source>&amp;Start the five-minute lesson</source>
        <translation>开始五分钟入门课(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Not now</source>
        <translation>以后再说(&amp;N)</translation>
    </message>
    <message>
        <source>A very large lesson</source>
        <translation>规模很大的课</translation>
    </message>
    <message>
        <source>Frame %1 (%2) of this lesson loads a run estimated at about %3 SQL statements, above the limit of %4. Checking and playing it may take minutes; Esc stops it. Open it anyway?</source>
        <translation>这节课的第 %1 帧（%2）加载的运行估计约有 %3 条 SQL 语句，超过了上限 %4。检查和播放它可能要好几分钟，按 Esc 可以停止。仍然打开吗？</translation>
    </message>
    <message>
        <source>Checking the lesson %1</source>
        <translation>正在检查课程 %1</translation>
    </message>
    <message>
        <source>Stopped: the lesson was not opened.</source>
        <translation>已停止：课程没有打开。</translation>
    </message>
    <message>
        <source>Not opened: none of the lesson&apos;s runs was started.</source>
        <translation>未打开：这节课的运行一个也没有启动。</translation>
    </message>
    <message>
        <source>&lt;p&gt;Free software under the MIT licence.&lt;/p&gt;</source>
        <translation>&lt;p&gt;自由软件，采用 MIT 许可证。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Export &amp;HTML report…</source>
        <translation>导出 HTML 报告(&amp;H)…</translation>
    </message>
    <message>
        <source>The whole run as one page to hand in: settings, outcome, both diagrams, every event (as idemlab export --format html)</source>
        <translation>整次运行写成一个可以提交的网页：设置、结果、两张图和每个事件（与 idemlab export --format html 相同）</translation>
    </message>
    <message>
        <source>Export sequence diagram as &amp;Mermaid…</source>
        <translation>导出时序图为 Mermaid(&amp;M)…</translation>
    </message>
    <message>
        <source>The whole run&apos;s sequence diagram as Mermaid text, for Markdown and slides</source>
        <translation>整次运行的时序图，写成 Mermaid 文本，可用于 Markdown 和幻灯片</translation>
    </message>
    <message>
        <source>Export sequence diagram as Plant&amp;UML…</source>
        <translation>导出时序图为 PlantUML(&amp;U)…</translation>
    </message>
    <message>
        <source>The whole run&apos;s sequence diagram as PlantUML text</source>
        <translation>整次运行的时序图，写成 PlantUML 文本</translation>
    </message>
    <message>
        <source>Export lesson hand-ou&amp;t…</source>
        <translation>导出课程讲义(&amp;T)…</translation>
    </message>
    <message>
        <source>The lesson on screen as a page to print: every frame, its diagrams and questions, the answers at the end</source>
        <translation>把当前课程写成可打印的网页：每一帧的讲解、图和问题，答案放在最后</translation>
    </message>
    <message>
        <source>The frame&apos;s run is on its way: it goes on. Page Down or Page Up moves to another frame.</source>
        <translation>这一帧的运行正在准备，会继续进行。按 Page Down 或 Page Up 可换到别的帧。</translation>
    </message>
    <message>
        <source>Blan&amp;k the screen</source>
        <translation>黑屏(&amp;K)</translation>
    </message>
    <message>
        <source>A black screen over the whole window, as presentation programs give (B or .); the same key or any other brings the stage back</source>
        <translation>像演示软件那样让整个窗口变黑（B 或 .）；再按一次或按任意键恢复画面</translation>
    </message>
    <message>
        <source>Up to frame %1 (%2), this lesson&apos;s runs come to about %3 SQL statements, whose steps kept in memory would take about %4 MB, above the limit of %5 MB for a lesson&apos;s runs together. Checking and playing it may take minutes; Esc stops it. Open it anyway?</source>
        <translation>到第 %1 帧（%2）为止，这节课的运行合计约 %3 条 SQL 语句，留在内存里的各个步骤约需 %4 MB，超过了一节课所有运行合计 %5 MB 的上限。检查和播放它可能要好几分钟，按 Esc 可以停止。仍然打开吗？</translation>
    </message>
    <message>
        <source>Frame %1 (%2) of this lesson loads a run estimated at about %3 SQL statements, whose steps kept in memory would take about %4 MB, above the limit of %5 MB. Checking and playing it may take minutes; Esc stops it. Open it anyway?</source>
        <translation>这节课的第 %1 帧（%2）加载的运行估计约有 %3 条 SQL 语句，留在内存里的各个步骤约需 %4 MB，超过了 %5 MB 的上限。检查和播放它可能要好几分钟，按 Esc 可以停止。仍然打开吗？</translation>
    </message>
    <message>
        <source>New here? The five-minute lesson sends a double click (three requests) to an order service, shows the three orders they make, then the dedup table whose unique key stops the repeats. Page Down moves on, Page Up goes back.

All lessons are in Guided lessons → Choose a lesson… (F2).</source>
        <translation>第一次来？“头五分钟”这节课把一次双击（三个请求）发给订单服务，先看它建出的三张订单，再看去重表的唯一键怎样挡住重复。Page Down 前进，Page Up 后退。

所有课程都在“课程 → 选择课程…”里（F2）。</translation>
    </message>
    <message>
        <source>The verdict is hidden until the lesson shows it</source>
        <translation>结论在课程揭晓之前不显示</translation>
    </message>
    <message>
        <source>&amp;Workbench</source>
        <translation>工作台(&amp;W)</translation>
    </message>
    <message>
        <source>Workbench 工作台</source>
        <translation>工作台</translation>
    </message>
    <message>
        <source>Pages: live run, compare, pagination, experiment, workbench</source>
        <translation>页面：实时运行、对比、分页、压力实验、工作台</translation>
    </message>
    <message>
        <source>Saved the handler to %1</source>
        <translation>处理函数已保存到 %1</translation>
    </message>
    <message>
        <source>Cannot save the handler</source>
        <translation>无法保存处理函数</translation>
    </message>
    <message>
        <source>Your handler&apos;s smallest failing run, at step %1 of %2: the first step where the judge&apos;s verdict is %3. Alt+5 goes back to the handler, with the statement of the step on screen marked.</source>
        <translation>你的处理函数最小的失败运行，停在第 %1 步（共 %2 步）：裁决第一次成为“%3”的那一步。按 Alt+5 回到处理函数，屏幕上这一步发出的语句会被标出。</translation>
    </message>
    <message>
        <source>Export events as sprea&amp;dsheet…</source>
        <translation>导出事件为电子表格(&amp;D)…</translation>
    </message>
    <message>
        <source>Every event as a row of an .xlsx workbook that LibreOffice and Excel open with every character right, and the run&apos;s settings on a second sheet (as idemlab export --format xlsx)</source>
        <translation>每个事件一行，写成 .xlsx 工作簿，LibreOffice 和 Excel 双击即可打开、字符不乱；第二个工作表是这次运行的设置（同 idemlab export --format xlsx）</translation>
    </message>
</context>
<context>
    <name>idem::MqConsume</name>
    <message>
        <source>processing the message</source>
        <translation>处理这条消息</translation>
    </message>
    <message>
        <source>visibility timeout: waiting for an ack</source>
        <translation>消息中间件等待 ack，直到可见性超时</translation>
    </message>
    <message>
        <source>consumer</source>
        <translation>消费者</translation>
    </message>
    <message>
        <source>ack lost</source>
        <translation>ack 丢失</translation>
    </message>
    <message>
        <source>The ack of message %1 (delivery %2) is lost: the broker will deliver the message again.</source>
        <translation>消息 %1 的 ack（第 %2 次投递）丢失了：消息中间件会再投递一次。</translation>
    </message>
    <message>
        <source>Processing time (ms)</source>
        <translation>处理耗时（毫秒）</translation>
    </message>
    <message>
        <source>How long the consumer works on a message before it acks; longer than the visibility timeout and the broker delivers it again meanwhile</source>
        <translation>消费者处理一条消息到 ack 之前花的时间；超过可见性超时，消息中间件会在此期间再投递一次</translation>
    </message>
    <message>
        <source>message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>redelivered</source>
        <translation>重新投递</translation>
    </message>
    <message>
        <source>Redis&apos;s pending-entries list says message %1 has been delivered %2 times. The consumer knows it is a redelivery, not whether the earlier one&apos;s work was done.</source>
        <translation>Redis 的待确认列表显示消息 %1 已投递 %2 次。消费者知道这是一次重新投递，却不知道上一次的处理有没有做完。</translation>
    </message>
    <message>
        <source>nothing to take</source>
        <translation>无可认领</translation>
    </message>
    <message>
        <source>%1 found nothing to take in %2: the entry was acked meanwhile.</source>
        <translation>%1在 %2 中没有可认领的条目：这条消息在此期间已被确认。</translation>
    </message>
</context>
<context>
    <name>idem::Names</name>
    <message>
        <source>double click (front end)</source>
        <translation>前端重复点击</translation>
    </message>
    <message>
        <source>gateway retry</source>
        <translation>网关重试</translation>
    </message>
    <message>
        <source>MQ redelivery</source>
        <translation>MQ 重投</translation>
    </message>
    <message>
        <source>producer resends the event</source>
        <translation>生产者重发事件</translation>
    </message>
    <message>
        <source>task re-run / drift</source>
        <translation>任务重跑 / 漂移</translation>
    </message>
    <message>
        <source>downstream timed out but succeeded</source>
        <translation>下游超时但实际已成功</translation>
    </message>
    <message>
        <source>payment provider callback retry</source>
        <translation>支付渠道回调重试</translation>
    </message>
    <message>
        <source>concurrent (same instant)</source>
        <translation>并发（同一时刻）</translation>
    </message>
    <message>
        <source>retry (seconds)</source>
        <translation>重试（秒级）</translation>
    </message>
    <message>
        <source>compensation (minutes)</source>
        <translation>补偿（分钟级）</translation>
    </message>
    <message>
        <source>cross-day (26 h)</source>
        <translation>跨天（26 小时）</translation>
    </message>
    <message>
        <source>no crash</source>
        <translation>不崩溃</translation>
    </message>
    <message>
        <source>before commit</source>
        <translation>提交之前</translation>
    </message>
    <message>
        <source>after the guard record</source>
        <translation>写入防重记录之后</translation>
    </message>
    <message>
        <source>after the business commit</source>
        <translation>业务提交之后</translation>
    </message>
    <message>
        <source>before the response</source>
        <translation>返回响应之前</translation>
    </message>
    <message>
        <source>after the ack</source>
        <translation>ack 之后</translation>
    </message>
    <message>
        <source>before the ack</source>
        <translation>ack 之前</translation>
    </message>
    <message>
        <source>downstream answer lost</source>
        <translation>下游应答丢失</translation>
    </message>
    <message>
        <source>long pause past the lease</source>
        <translation>长时间停顿，超过租约</translation>
    </message>
    <message>
        <source>after the relay published</source>
        <translation>中继已发出消息，未标记已发送</translation>
    </message>
    <message>
        <source>dedup store loses the record</source>
        <translation>去重存储丢失记录</translation>
    </message>
    <message>
        <source>success</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>in progress</source>
        <translation>处理中</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>no answer (timeout)</source>
        <translation>无应答（超时）</translation>
    </message>
    <message>
        <source>EXACTLY ONCE</source>
        <translation>恰好一次</translation>
    </message>
    <message>
        <source>DUPLICATED</source>
        <translation>重复执行</translation>
    </message>
    <message>
        <source>INCONSISTENT</source>
        <translation>不一致</translation>
    </message>
    <message>
        <source>LOST</source>
        <translation>丢失</translation>
    </message>
    <message>
        <source>STUCK</source>
        <translation>卡住</translation>
    </message>
    <message>
        <source>client</source>
        <translation>客户端</translation>
    </message>
    <message>
        <source>gateway</source>
        <translation>网关</translation>
    </message>
    <message>
        <source>service</source>
        <translation>服务</translation>
    </message>
    <message>
        <source>database</source>
        <translation>数据库</translation>
    </message>
    <message>
        <source>broker</source>
        <translation>消息中间件</translation>
    </message>
    <message>
        <source>scheduler</source>
        <translation>调度器</translation>
    </message>
    <message>
        <source>payment provider</source>
        <translation>支付渠道</translation>
    </message>
    <message>
        <source>MISANSWERED</source>
        <translation>答复有误</translation>
    </message>
    <message>
        <source>orders created</source>
        <translation>建出的订单</translation>
    </message>
    <message>
        <source>points granted</source>
        <translation>发放的积分</translation>
    </message>
    <message>
        <source>coupons issued</source>
        <translation>发出的优惠券</translation>
    </message>
    <message>
        <source>charges made</source>
        <translation>扣款</translation>
    </message>
    <message>
        <source>merchant credited</source>
        <translation>给商户记账</translation>
    </message>
    <message>
        <source>accounts debited</source>
        <translation>账户扣款</translation>
    </message>
    <message>
        <source>payouts made</source>
        <translation>打款</translation>
    </message>
    <message>
        <source>refunds made</source>
        <translation>退款</translation>
    </message>
    <message>
        <source>stock units taken</source>
        <translation>扣减的库存</translation>
    </message>
    <message>
        <source>rows shown twice</source>
        <translation>重复显示的行</translation>
    </message>
    <message>
        <source>rows never shown</source>
        <translation>从未显示的行</translation>
    </message>
    <message>
        <source>changes made by the repeats</source>
        <translation>重复请求造成的改动</translation>
    </message>
</context>
<context>
    <name>idem::Narration</name>
    <message>
        <source>%1 dies before committing: the database rolls its transaction back, as if it never started.</source>
        <translation>%1在提交前崩溃：数据库回滚它的事务，就像它从没开始过。</translation>
    </message>
    <message>
        <source>%1 dies after its guard record was written but before the business step: the record says someone is working on it, and nobody is.</source>
        <translation>%1写完防重记录、还没执行业务就崩溃了：记录显示有人在处理，其实没有人。</translation>
    </message>
    <message>
        <source>%1 dies after committing the business change but before marking its guard record done.</source>
        <translation>%1提交了业务变更，但在把防重记录标记为完成之前崩溃了。</translation>
    </message>
    <message>
        <source>%1 dies after all its work, before answering: the caller hears nothing and cannot tell whether it worked.</source>
        <translation>%1做完了所有工作，却在返回结果前崩溃：调用方什么也没收到，无法判断是否成功。</translation>
    </message>
    <message>
        <source>%1 dies right after acknowledging the message, before processing it: the broker will not deliver it again.</source>
        <translation>%1刚 ack 完消息、还没处理就崩溃了：消息中间件不会再投递这条消息。</translation>
    </message>
    <message>
        <source>%1 dies after processing the message, before acknowledging it: the broker will deliver it again.</source>
        <translation>%1处理完消息、还没 ack 就崩溃了：消息中间件会再投递一次。</translation>
    </message>
    <message>
        <source>%1 dies after publishing the event, before marking the outbox row sent: it will be published again.</source>
        <translation>%1发出事件后、把发件箱记录标记为已发送前崩溃了：这条事件会被再发一次。</translation>
    </message>
    <message>
        <source>%1 dies: %2.</source>
        <translation>%1崩溃：%2。</translation>
    </message>
    <message>
        <source>the business effect happened once and every answer agrees with the database.</source>
        <translation>业务效果只发生了一次，每个应答都与数据库一致。</translation>
    </message>
    <message>
        <source>the business effect happened more than once.</source>
        <translation>业务效果发生了不止一次。</translation>
    </message>
    <message>
        <source>the database contradicts itself: one part of the change is there, another is not.</source>
        <translation>数据库自相矛盾：变更的一部分在，另一部分不在。</translation>
    </message>
    <message>
        <source>the business effect never happened, though it should have.</source>
        <translation>本该发生的业务效果没有发生。</translation>
    </message>
    <message>
        <source>a record is left in progress for good, and every repeat is turned away.</source>
        <translation>有一条记录永远停在“处理中”，之后的每次重试都被挡在门外。</translation>
    </message>
    <message>
        <source>a caller was told something the database contradicts.</source>
        <translation>调用方得到的应答与数据库的事实不符。</translation>
    </message>
    <message>
        <source>Verdict for intent %1: %2, %3</source>
        <translation>意图 %1 的结论：%2，%3</translation>
    </message>
    <message>
        <source>the %1</source>
        <translation>%1</translation>
    </message>
    <message>
        <source>intent %1, #%2</source>
        <translation>意图 %1 的 #%2</translation>
    </message>
    <message>
        <source>Set-up: %1 statements create the tables and the rows the scenario starts from. Nothing has been sent yet.</source>
        <translation>准备阶段：%1条语句建好表和场景的初始数据，还没有发出任何请求。</translation>
    </message>
    <message>
        <source>(and %1 more)</source>
        <translation>（另有 %1 件）</translation>
    </message>
    <message>
        <source>%1: the %2 sends the request to the %3.</source>
        <translation>%1：%2向%3发出请求。</translation>
    </message>
    <message>
        <source>%1: the %2 got no definite answer in time and sends the request again (retry %3 of at most %4).</source>
        <translation>%1：%2没有及时得到明确应答，再发一次请求（第 %3 次重试，最多 %4 次）。</translation>
    </message>
    <message>
        <source>%1: the same request reaches the %3 once more, a duplicate from the %2. Cause: %4.</source>
        <translation>%1：同一个请求又一次到达%3，是来自%2的重复请求。来源：%4。</translation>
    </message>
    <message>
        <source>The %1 got no definite answer in time and tries again.</source>
        <translation>%1没有及时得到明确应答，准备重试。</translation>
    </message>
    <message>
        <source>%1 waits: another transaction holds the database&apos;s write lock.</source>
        <translation>%1在等待：另一个事务持有数据库的写锁。</translation>
    </message>
    <message>
        <source>%1 spends %2 ms outside the database: %3.</source>
        <translation>%1在数据库之外花了 %2 毫秒：%3。</translation>
    </message>
    <message>
        <source>%1 freezes for %2 ms (a long garbage-collection pause, a stalled virtual machine) while it still believes it holds its lease.</source>
        <translation>%1停顿了 %2 毫秒（长时间的垃圾回收、虚拟机卡顿），而它仍以为自己持有租约。</translation>
    </message>
    <message>
        <source>%1 wakes up after %2 ms and carries on, unaware of the time it lost.</source>
        <translation>%1在 %2 毫秒后醒来继续执行，并不知道自己丢了这段时间。</translation>
    </message>
    <message>
        <source>Alert: %1 seen again (count: %2). Monitoring cannot stop a duplicate, it only tells someone to look.</source>
        <translation>告警：%1出现了 %2 次。监控挡不住重复，只能提醒人去看。</translation>
    </message>
    <message>
        <source>intent %1</source>
        <translation>意图 %1</translation>
    </message>
    <message>
        <source>The judge counts %1 × %2 for %3, as expected.</source>
        <translation>裁判统计到%3 的 %2 共 %1 次，符合预期。</translation>
    </message>
    <message>
        <source>The judge counts %1 × %2 for %3 where %4 was expected: %5 too many.</source>
        <translation>裁判统计到%3 的 %2 共 %1 次，预期 %4 次：多了 %5 次。</translation>
    </message>
    <message>
        <source>The judge counts %1 × %2 for %3 where %4 was expected: %5 missing.</source>
        <translation>裁判统计到%3 的 %2 共 %1 次，预期 %4 次：少了 %5 次。</translation>
    </message>
    <message>
        <source>Set-up: %1.</source>
        <translation>准备阶段：%1。</translation>
    </message>
    <message>
        <source>The database rolls back the open transaction of the process that died: nothing it wrote there survives.</source>
        <translation>数据库回滚了崩溃进程未提交的事务：它在事务里写的内容全部作废。</translation>
    </message>
    <message>
        <source>The database refuses %1&apos;s insert into %2: %3. The unique key stops the repeat, whatever the code above it did.</source>
        <translation>数据库拒绝了 %1 对 %2 的插入：%3。不管上层代码怎么写，唯一键都能挡住这次重复。</translation>
    </message>
    <message>
        <source>%1&apos;s statement fails: %2.</source>
        <translation>%1的语句执行失败：%2。</translation>
    </message>
    <message>
        <source>%1 opens a transaction.</source>
        <translation>%1开启事务。</translation>
    </message>
    <message>
        <source>%1 commits: what it wrote is now visible to everyone.</source>
        <translation>%1提交事务：它写入的内容现在对所有人可见。</translation>
    </message>
    <message>
        <source>%1 rolls its transaction back: nothing of it stays.</source>
        <translation>%1回滚事务：其中的写入全部撤销。</translation>
    </message>
    <message>
        <source>%1&apos;s insert into %2 adds nothing: the row is already there.</source>
        <translation>%1 向 %2 的插入没有新增任何行：这一行已经存在。</translation>
    </message>
    <message>
        <source>%1 inserts a row into %2.</source>
        <translation>%1 向 %2 插入一行。</translation>
    </message>
    <message>
        <source>%1 inserts another %2 row for the same request, now %3 of them: nothing checks for a repeat.</source>
        <translation>%1为同一个请求又插入了一行 %2，现在共 %3 行：没有任何东西检查重复。</translation>
    </message>
    <message>
        <source>%1 inserts another %2 row for the same request, now %3 of them.</source>
        <translation>%1为同一个请求又插入了一行 %2，现在共 %3 行。</translation>
    </message>
    <message>
        <source>%1&apos;s UPDATE of %2 changes no row: its WHERE condition no longer holds.</source>
        <translation>%1对 %2 的 UPDATE 没有改到任何行：WHERE 条件已不成立。</translation>
    </message>
    <message>
        <source>%1 updates %2 row(s) of %3.</source>
        <translation>%1更新了 %3 的 %2 行。</translation>
    </message>
    <message>
        <source>%1 deletes %2 row(s) from %3.</source>
        <translation>%1从 %3 删除了 %2 行。</translation>
    </message>
    <message>
        <source>%1 reads from the database.</source>
        <translation>%1读取数据库。</translation>
    </message>
    <message>
        <source>%1 reads %2: no matching row.</source>
        <translation>%1查询 %2：没有匹配的行。</translation>
    </message>
    <message>
        <source>%1 reads %2: %3 row(s).</source>
        <translation>%1查询 %2：%3 行。</translation>
    </message>
    <message>
        <source>%1 runs %2.</source>
        <translation>%1执行 %2。</translation>
    </message>
    <message>
        <source>%1 is the first to claim the request (%2): it may do the work.</source>
        <translation>%1第一个认领了这个请求（%2）：由它来执行业务。</translation>
    </message>
    <message>
        <source>%1 finds the request still being processed (%2): it is told to ask again later, and does nothing.</source>
        <translation>%1发现请求仍在处理中（%2）：它被告知稍后再查，自己什么也不做。</translation>
    </message>
    <message>
        <source>The %2 no longer remembers this request, its retention ran out: %1 looks new.</source>
        <translation>%2已经不记得这个请求了，保留期已过：%1看起来像新请求。</translation>
    </message>
    <message>
        <source>%1 takes the request over (%2): the owner&apos;s record is older than the expiry, so the owner is presumed dead.</source>
        <translation>%1接管了这个请求（%2）：原持有者的记录已超过过期时间，推定它已经挂了。</translation>
    </message>
    <message>
        <source>Before doing anything, %1 looks in the business table: the work is already there, so it only repairs the guard record.</source>
        <translation>%1先回查业务表：业务已经做过了，所以它只补正防重记录。</translation>
    </message>
    <message>
        <source>%1 looks in the business table: the work is not there, so it is safe to do it.</source>
        <translation>%1回查业务表：业务还没做过，可以放心执行。</translation>
    </message>
    <message>
        <source>%1 marks its guard record done: every later repeat gets this result.</source>
        <translation>%1把防重记录标记为完成：之后的重复请求都会拿到这个结果。</translation>
    </message>
    <message>
        <source>%1 is no longer the owner (%2): another attempt took over, so its update is refused.</source>
        <translation>%1已经不是持有者（%2）：另一次尝试接管了，它的更新被拒绝。</translation>
    </message>
    <message>
        <source>%1 finds the work already done (%2) and does not repeat it.</source>
        <translation>%1发现业务已经完成（%2），不再重复执行。</translation>
    </message>
    <message>
        <source>The %2 lets %1 through.</source>
        <translation>%2放行 %1。</translation>
    </message>
    <message>
        <source>The %2 turns %1 away.</source>
        <translation>%2拒绝了 %1。</translation>
    </message>
    <message>
        <source>%1 acquires the %2.</source>
        <translation>%1获取了%2。</translation>
    </message>
    <message>
        <source>%1 finds the %2 held by another process and backs off.</source>
        <translation>%1发现%2被另一个进程持有，于是退出。</translation>
    </message>
    <message>
        <source>%1 releases the %2.</source>
        <translation>%1释放了%2。</translation>
    </message>
    <message>
        <source>%1&apos;s lease has run out: the %2 now belongs to another process, and its fencing token is stale.</source>
        <translation>%1的租约已到期：%2现在属于另一个进程，它手里的防护令牌已经过时。</translation>
    </message>
    <message>
        <source>%1 sets the %2: repeats within its lifetime are turned away.</source>
        <translation>%1设置了%2：有效期内的重复请求都会被挡住。</translation>
    </message>
    <message>
        <source>%1 stores its result with the %2: a repeat gets it back.</source>
        <translation>%1把结果存到%2：重复请求可以直接拿到。</translation>
    </message>
    <message>
        <source>The %2 expired before %1 stored its result: a repeat arriving now looks new.</source>
        <translation>%1还没存下结果，%2就已过期：此时到达的重复请求看起来像新请求。</translation>
    </message>
    <message>
        <source>%1 records the request (%2).</source>
        <translation>%1记录下这个请求（%2）。</translation>
    </message>
    <message>
        <source>%1 finds the request already recorded (%2): a repeat.</source>
        <translation>%1发现请求已有记录（%2）：这是重复请求。</translation>
    </message>
    <message>
        <source>%1 finds no record (%2) and believes it is the first; between this check and its insert, another attempt can do the same.</source>
        <translation>%1没查到记录（%2），以为自己是第一个；但在它查询和插入之间，另一次尝试也可能这样做。</translation>
    </message>
    <message>
        <source>%1 reads the row and its version number (%2).</source>
        <translation>%1读取这一行和它的版本号（%2）。</translation>
    </message>
    <message>
        <source>%1&apos;s version no longer matches (%2): someone changed the row since it was read, so its update changes nothing.</source>
        <translation>%1的版本号已对不上（%2）：读取之后这一行被别人改过，它的更新不会生效。</translation>
    </message>
    <message>
        <source>The %2 fires: the count of repeats crossed its threshold.</source>
        <translation>%2触发：重复次数超过了阈值。</translation>
    </message>
    <message>
        <source>The %2 already fired for this key: no second alert.</source>
        <translation>%2已为这个键告警过：不再重复告警。</translation>
    </message>
    <message>
        <source>The %2 counts %1, still below its threshold.</source>
        <translation>%2记下 %1，仍未达到阈值。</translation>
    </message>
    <message>
        <source>The %2 sees %1 as an ordinary repeat.</source>
        <translation>%2把 %1 视为正常的重复。</translation>
    </message>
    <message>
        <source>%1 marks its guard record failed: a retry may claim it again.</source>
        <translation>%1把防重记录标记为失败：重试时可以重新认领。</translation>
    </message>
    <message>
        <source>%1 reuses the key with a different payload: refused, a key names one request only.</source>
        <translation>%1用同一个键发来不同的参数：被拒绝，一个键只代表一个请求。</translation>
    </message>
    <message>
        <source>%1, %2: %3.</source>
        <translation>%1，%2：%3。</translation>
    </message>
    <message>
        <source>%1 cannot record %2 as %3: the record exists already (%4).</source>
        <translation>%1无法把 %2 记为 %3：记录已经存在（%4）。</translation>
    </message>
    <message>
        <source>%1 tries to take %2 over, but another attempt got there first: its conditional UPDATE changes 0 rows.</source>
        <translation>%1想接管 %2，但另一次尝试抢先了一步：它的条件 UPDATE 改到 0 行。</translation>
    </message>
    <message>
        <source>%1 cannot move %2 from %3 to %4: it is %5 now, so the conditional %6 changes 0 rows and the state stays.</source>
        <translation>%1无法把 %2 从 %3 改为 %4：它现在是 %5，所以带条件的 %6 改到 0 行，状态保持不变。</translation>
    </message>
    <message>
        <source>%1 (%2) is gone.</source>
        <translation>%1（%2）不见了。</translation>
    </message>
    <message>
        <source>%1 now holds %2 (%3).</source>
        <translation>%1现在持有 %2（%3）。</translation>
    </message>
    <message>
        <source>%1 starts %2 in state %3.</source>
        <translation>%1创建 %2，初始状态为 %3。</translation>
    </message>
    <message>
        <source>%1 sets %2 to %3 without looking at its state: it was %3 already, and the change is made a second time.</source>
        <translation>%1不看当前状态就把 %2 改为 %3：它本来就是 %3，同样的变更又做了一遍。</translation>
    </message>
    <message>
        <source>%1 sets %2 to %3 without looking at its state (it was %4).</source>
        <translation>%1不看当前状态就把 %2 改为 %3（原来是 %4）。</translation>
    </message>
    <message>
        <source>%1 moves %2 from %3 to %4.</source>
        <translation>%1把 %2 从 %3 改为 %4。</translation>
    </message>
    <message>
        <source>The %2 gets no answer for %1: it cannot tell whether the request took effect.</source>
        <translation>%2没有收到 %1 的应答：它无法判断请求是否生效。</translation>
    </message>
    <message>
        <source>%1 answers %2, but the answer is lost on the way: the %3 never learns it.</source>
        <translation>%1应答“%2”，但应答在路上丢了：%3 永远收不到。</translation>
    </message>
    <message>
        <source>%1 answers the %2: still in progress, ask again later.</source>
        <translation>%1应答%2：仍在处理中，请稍后再查。</translation>
    </message>
    <message>
        <source>%1 answers the %2 with an error%3: nothing was done, a retry is welcome.</source>
        <translation>%1向%2返回错误%3：什么也没做，可以重试。</translation>
    </message>
    <message>
        <source>%1 answers the %2: %3.</source>
        <translation>%1应答%2：%3。</translation>
    </message>
    <message>
        <source>Not yet committed: nobody else sees it.</source>
        <translation>尚未提交：别人还看不到。</translation>
    </message>
    <message>
        <source>one %1 row</source>
        <translation>%1 的一行</translation>
    </message>
    <message>
        <source>%1 %2 rows</source>
        <translation>%2 的 %1 行</translation>
    </message>
    <message>
        <source>the deletion of %1 %2 row(s)</source>
        <translation>删除 %2 的 %1 行</translation>
    </message>
    <message>
        <source>the removal of %1</source>
        <translation>删除 %1</translation>
    </message>
    <message>
        <source>the move of %1 to %2</source>
        <translation>%1 改为 %2</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>Nothing of its open transaction stays: %1.</source>
        <translation>它未提交的事务里的这些都没有留下：%1。</translation>
    </message>
    <message>
        <source>%1 commits: %2 — now in the database for everyone.</source>
        <translation>%1提交事务：%2——现在对所有人可见，留在了数据库里。</translation>
    </message>
    <message>
        <source>%1 rolls its transaction back: %2 — none of it stays.</source>
        <translation>%1回滚事务：%2——全都没有留下。</translation>
    </message>
    <message>
        <source>%1 writes its row of %2: a new one, or the one there updated.</source>
        <translation>%1写入它在 %2 里的那一行：要么新插入，要么更新已有的一行。</translation>
    </message>
    <message>
        <source>%1 inserts %2 rows into %3, not yet committed.</source>
        <translation>%1 向 %3 插入 %2 行，尚未提交。</translation>
    </message>
    <message>
        <source>%1 inserts %2 rows into %3.</source>
        <translation>%1 向 %3 插入 %2 行。</translation>
    </message>
    <message>
        <source>%1 inserts a row into %2, not yet committed.</source>
        <translation>%1 向 %2 插入一行，尚未提交。</translation>
    </message>
    <message>
        <source>%1 inserts another %2 row for the same request, not yet committed: if it commits there will be %3 of them, and nothing checks for a repeat.</source>
        <translation>%1为同一个请求又插入一行 %2，尚未提交：一旦提交就会有 %3 行，而且没有任何东西检查重复。</translation>
    </message>
    <message>
        <source>%1 inserts another %2 row for the same request, not yet committed: if it commits there will be %3 of them.</source>
        <translation>%1为同一个请求又插入一行 %2，尚未提交：一旦提交就会有 %3 行。</translation>
    </message>
    <message>
        <source>%1 commits: the database now holds %2 for this request.</source>
        <translation>%1提交事务：这个请求在数据库里现在有 %2。</translation>
    </message>
    <message>
        <source>%1: the %2 was not told success (it was refused), takes that for a failed delivery and sends the notice again (resend %3 of at most %4).</source>
        <translation>%1：%2没有收到“成功”（被拒绝了），把这当成通知没送达，于是再发一次（第 %3 次重发，最多 %4 次）。</translation>
    </message>
    <message>
        <source>The %1 was not told success and sends again.</source>
        <translation>%1没有收到“成功”，于是再发一次。</translation>
    </message>
    <message>
        <source>%1: the %2 was answered with an error, a failure that may pass, and sends the request again (retry %3 of at most %4).</source>
        <translation>%1：%2收到的是一个错误应答（可能只是暂时的失败），于是再发一次请求（第 %3 次重试，最多 %4 次）。</translation>
    </message>
    <message>
        <source>%1: the %2 was told the request is still being processed and asks again (retry %3 of at most %4).</source>
        <translation>%1：%2被告知请求仍在处理中，于是再问一次（第 %3 次重试，最多 %4 次）。</translation>
    </message>
    <message>
        <source>The %1 was answered with an error and tries again.</source>
        <translation>%1收到错误应答，准备重试。</translation>
    </message>
    <message>
        <source>The %1 was told to ask again later and does.</source>
        <translation>%1被告知稍后再问，于是准备再问一次。</translation>
    </message>
    <message>
        <source>The %2 recognises %1 as a repeat: it gets the stored result instead of doing the work again.</source>
        <translation>%2认出 %1 是重复请求：直接返回已保存的结果，不再重复执行。</translation>
    </message>
    <message>
        <source>%1 takes the request over (%2): its record says the last try failed, so a new try may do the work.</source>
        <translation>%1接管了这个请求（%2）：记录显示上一次尝试已失败，所以新的尝试可以重新执行。</translation>
    </message>
    <message>
        <source>%1 marks its guard record failed and keeps the error as the answer: every repeat, retries included, will get this error.</source>
        <translation>%1把防重记录标记为失败，并把这个错误当作最终应答保存下来：之后的每个重复请求（包括重试）都会拿到这个错误。</translation>
    </message>
    <message>
        <source>The %2 recognises %1 as a repeat and gives it the stored answer: the first try&apos;s error, though the work was never done.</source>
        <translation>%2认出 %1 是重复请求，返回已保存的应答：第一次尝试的错误，尽管业务从未执行成功。</translation>
    </message>
    <message>
        <source>%1 answers the %2 with the stored error%3: nothing was done, and a retry will get the same error.</source>
        <translation>%1向%2返回已保存的错误%3：什么也没做，重试也只会拿到同样的错误。</translation>
    </message>
    <message>
        <source>%1 ignores its failed statement, carries on as if it had worked and answers the %2: %3.</source>
        <translation>%1无视执行失败的语句，当作成功继续往下走，并应答%2：%3。</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation>（%1）</translation>
    </message>
    <message>
        <source>another transaction</source>
        <translation>另一个事务</translation>
    </message>
    <message>
        <source>%1 waits for the gap lock %2 holds on %3: a locking read of a key that is not there locks the place where it would go.</source>
        <translation>%1 等待 %2 持有的 %3 上的间隙锁：对一个不存在的键做加锁读，锁住的是它本该插入的位置。</translation>
    </message>
    <message>
        <source>%1 waits for the gap lock %2 hold on %3: a locking read of a key that is not there locks the place where it would go.</source>
        <translation>%1 等待 %2 持有的 %3 上的间隙锁：对一个不存在的键做加锁读，锁住的是它本该插入的位置。</translation>
    </message>
    <message>
        <source>%1 waits for the lock %2 holds on %3.</source>
        <translation>%1 等待 %2 持有的 %3 上的锁。</translation>
    </message>
    <message>
        <source>%1 waits for the lock %2 hold on %3.</source>
        <translation>%1 等待 %2 持有的 %3 上的锁。</translation>
    </message>
    <message>
        <source>Deadlock: the server rolled back %1&apos;s transaction. %1 is the victim the server chose to break the cycle of transactions waiting for each other; the others go on.</source>
        <translation>死锁：服务器回滚了 %1 的事务。几个事务互相等待成环，服务器选中 %1 作为牺牲者来打破僵局；其他事务继续。</translation>
    </message>
    <message>
        <source>Serialization failure: the server refuses %1&apos;s %2, which no one-at-a-time order of the transactions running beside it could give, and rolls %1&apos;s transaction back.</source>
        <translation>序列化失败：服务器拒绝了 %1 的 %2，因为与它并发的事务无论按什么先后顺序逐个执行，都得不到这样的结果；服务器回滚了 %1 的事务。</translation>
    </message>
    <message>
        <source>%1 gives up waiting for the lock (lock timeout): its %2 did not run.</source>
        <translation>%1 不再等待这把锁（锁等待超时）：它的 %2 没有执行。</translation>
    </message>
    <message>
        <source>intent %1, the %2 %3</source>
        <translation>意图 %1 的%2 %3</translation>
    </message>
    <message>
        <source>the %1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Every statement still running waits for another of the run, and nothing is left to send: the server has not broken this cycle and never will. The lab, not the server, cancels %1&apos;s %2, as a lock wait timeout would end it (MariaDB 1205, PostgreSQL 55P03).</source>
        <translation>仍在执行的每条语句都在等待本次运行中的另一条，而且已没有语句可发送：服务器没有打破这个等待环，以后也不会。于是由实验室（而不是服务器）取消 %1 的 %2，就像锁等待超时会做的那样（MariaDB 1205，PostgreSQL 55P03）。</translation>
    </message>
    <message>
        <source>%1 gives up waiting for the lock: the lab cancels its %2 at the lock timeout you set, as the server&apos;s own timeout would (MariaDB 1205, PostgreSQL 55P03).</source>
        <translation>%1 放弃等锁：实验室在你设定的锁超时时刻取消了它的 %2，就像服务器自己的超时那样（MariaDB 1205，PostgreSQL 55P03）。</translation>
    </message>
    <message>
        <source>%1 waits on %2 (%3): %2 asked for the same lock first and waits for it too, so %1 queues behind.</source>
        <translation>%1 排在 %2 后面等待（%3）：%2 先申请了同一把锁，也还在等，所以 %1 只能排在它后面。</translation>
    </message>
    <message>
        <source>%1 waits for the lock on %3: %2 holds it, and %4, which asked first and waits too, is ahead in the queue.</source>
        <translation>%1 等待 %3 上的锁：%2 持有它，而 %4 先申请、也在等待，排在队列前面。</translation>
    </message>
    <message>
        <source>%1 waits for the lock %2 took on the end of the table&apos;s primary key: with no index on the column it searched, that locking read scanned the whole table and locked every row and the place after the last one.</source>
        <translation>%1 等待 %2 在表主键末尾加的锁：要查的列上没有索引，那次加锁读只能扫描整张表，把每一行以及最后一行之后的位置都锁住了。</translation>
    </message>
    <message>
        <source>a row with the same unique key is already there (error %1)</source>
        <translation>唯一键上已经有一行相同的值（错误码 %1）</translation>
    </message>
    <message>
        <source>a CHECK constraint refuses the row (error %1)</source>
        <translation>这一行不满足 CHECK 约束（错误码 %1）</translation>
    </message>
    <message>
        <source>another transaction holds the database&apos;s lock (error %1)</source>
        <translation>数据库的锁被另一个事务占着（错误码 %1）</translation>
    </message>
    <message>
        <source>the disk refused the write (error %1)</source>
        <translation>磁盘拒绝了这次写入（错误码 %1）</translation>
    </message>
    <message>
        <source>%1 waits for %2: %3 holds it, and its statement goes on when that transaction ends.</source>
        <translation>%1 在等%2：锁在 %3 手里，那个事务结束后它的语句才能继续。</translation>
    </message>
    <message>
        <source>%1 waits for %2: %3 hold it, and its statement goes on when their transactions end.</source>
        <translation>%1 在等%2：锁在 %3 手里，那些事务结束后它的语句才能继续。</translation>
    </message>
    <message>
        <source>a deadlock, the server&apos;s error %1</source>
        <translation>死锁，服务器错误码 %1</translation>
    </message>
    <message>
        <source>a serialization failure, the server&apos;s error %1</source>
        <translation>序列化失败，服务器错误码 %1</translation>
    </message>
    <message>
        <source>a lock wait that the lab cancelled as a lock timeout would, answered by the server with error %1</source>
        <translation>实验室像锁等待超时那样取消了这次等锁，服务器对取消的应答是错误码 %1</translation>
    </message>
    <message>
        <source>a lock timeout, the server&apos;s error %1</source>
        <translation>锁等待超时，服务器错误码 %1</translation>
    </message>
    <message>
        <source>%1 waits for %2, held by a connection outside the run (%3). No step of the run can free it: the statement goes on when that connection lets go, or the run is stopped (Esc, Ctrl+C).</source>
        <translation>%1 在等%2，它被本次运行之外的一个连接持有（%3）。运行里没有哪一步能释放它：那个连接放手后语句才会继续，或者停止运行（Esc、Ctrl+C）。</translation>
    </message>
</context>
<context>
    <name>idem::NaturalOps</name>
    <message>
        <source>order %1 is gone</source>
        <translation>订单 %1 已删除</translation>
    </message>
    <message>
        <source>points %1</source>
        <translation>积分 %1</translation>
    </message>
    <message>
        <source>balance %1</source>
        <translation>余额 %1</translation>
    </message>
    <message>
        <source>order %1</source>
        <translation>订单 %1</translation>
    </message>
    <message>
        <source>message %1</source>
        <translation>消息 %1</translation>
    </message>
    <message>
        <source>not found</source>
        <translation>不存在</translation>
    </message>
    <message>
        <source>order %1: the later write %2 (at %3 ms) was overwritten by a late repeat; the order is %4 again</source>
        <translation>订单 %1：后来的写入 %2（%3 毫秒时）被一次迟到的重复请求覆盖了，订单又变回了 %4</translation>
    </message>
    <message>
        <source>observer</source>
        <translation>观察者</translation>
    </message>
    <message>
        <source>writer</source>
        <translation>写入者</translation>
    </message>
    <message>
        <source>snapshot</source>
        <translation>快照</translation>
    </message>
    <message>
        <source>The state after one application is recorded (%1 row(s)), to compare with the state after all repeats.</source>
        <translation>记下执行一次之后的状态（%1 行），用来和所有重复执行之后的状态比较。</translation>
    </message>
    <message>
        <source>Late repeat</source>
        <translation>迟到的重复</translation>
    </message>
    <message>
        <source>On: the last repeat of set-status arrives after another write changed the order</source>
        <translation>开：set-status 的最后一次重复，在另一次写入改过订单之后才到达</translation>
    </message>
</context>
<context>
    <name>idem::OrderCreate</name>
    <message>
        <source>risk service unavailable (503)</source>
        <translation>风控服务不可用（503）</translation>
    </message>
    <message>
        <source>price and risk checks</source>
        <translation>价格与风控校验</translation>
    </message>
    <message>
        <source>business error</source>
        <translation>业务出错</translation>
    </message>
    <message>
        <source>%1&apos;s business step fails with a transient error (%2): nothing was written, a retry may succeed.</source>
        <translation>%1的业务步骤遇到临时错误（%2）：什么也没写入，重试可能成功。</translation>
    </message>
    <message>
        <source>check then insert</source>
        <translation>先查后插</translation>
    </message>
    <message>
        <source>Request id</source>
        <translation>请求号</translation>
    </message>
    <message>
        <source>One requestId per order form, or a new one for every click (then repeats look like new orders)</source>
        <translation>每张下单表单一个 requestId，或者每次点击都生成新的（这时重复请求看起来像新订单）</translation>
    </message>
    <message>
        <source>one per order form</source>
        <translation>每张表单一个</translation>
    </message>
    <message>
        <source>a new one per click</source>
        <translation>每次点击一个新的</translation>
    </message>
    <message>
        <source>Payload of repeats</source>
        <translation>重复请求的参数</translation>
    </message>
    <message>
        <source>Changed: every repeat reuses the requestId with a different amount</source>
        <translation>改过：每次重复都沿用同一个 requestId，但金额不同</translation>
    </message>
    <message>
        <source>the same</source>
        <translation>相同</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>改过</translation>
    </message>
    <message>
        <source>Business step fails</source>
        <translation>业务步骤失败</translation>
    </message>
    <message>
        <source>On: the first business step fails with a transient error (the risk service answers 503)</source>
        <translation>开：第一次执行业务时遇到临时错误（风控服务返回 503）</translation>
    </message>
    <message>
        <source>dedup record</source>
        <translation>去重记录</translation>
    </message>
</context>
<context>
    <name>idem::Outbox</name>
    <message>
        <source>points awarded for order %1, which was never created</source>
        <translation>为订单 %1 发放了积分，但这个订单根本没有创建</translation>
    </message>
    <message>
        <source>no order exists for %1</source>
        <translation>%1 没有对应的订单</translation>
    </message>
    <message>
        <source>outbox relay</source>
        <translation>消息中继</translation>
    </message>
    <message>
        <source>consumer</source>
        <translation>消费者</translation>
    </message>
    <message>
        <source>publish</source>
        <translation>发布</translation>
    </message>
    <message>
        <source>deliver</source>
        <translation>投递</translation>
    </message>
    <message>
        <source>deliver again</source>
        <translation>再次投递</translation>
    </message>
    <message>
        <source>ack</source>
        <translation>ack</translation>
    </message>
    <message>
        <source>ack lost</source>
        <translation>ack 丢失</translation>
    </message>
    <message>
        <source>Broker redeliveries</source>
        <translation>消息中间件重投次数</translation>
    </message>
    <message>
        <source>How many more times the broker delivers each message: the consumer&apos;s acks are lost, and after the visibility timeout it delivers again (at least once)</source>
        <translation>消息中间件把每条消息多投递几次：消费者的 ack 丢在路上，过了可见性超时就再投递一次（至少一次投递）</translation>
    </message>
    <message>
        <source>outbox row</source>
        <translation>发件箱记录</translation>
    </message>
    <message>
        <source>%1 publishes event %2 to the broker.</source>
        <translation>%1把事件 %2 发布到消息中间件。</translation>
    </message>
    <message>
        <source>%1 delivers message %2 to the %3.</source>
        <translation>%1把消息 %2 投递给%3。</translation>
    </message>
    <message>
        <source>No ack for message %1 within the visibility timeout: %2 delivers it to the %3 again (delivery %4).</source>
        <translation>可见性超时内没有收到消息 %1 的 ack：%2把它再投递给%3（第 %4 次投递）。</translation>
    </message>
    <message>
        <source>%1 acknowledges message %2: the broker will not deliver it again.</source>
        <translation>%1 ack 了消息 %2：消息中间件不会再投递它。</translation>
    </message>
    <message>
        <source>The ack %1 sends for message %2 (delivery %3) is lost: the broker will deliver the message again.</source>
        <translation>%1为消息 %2 发出的 ack（第 %3 次投递）丢失了：消息中间件会再投递一次。</translation>
    </message>
</context>
<context>
    <name>idem::OutcomePanel</name>
    <message>
        <source>Fire to start a run</source>
        <translation>点击“发射”开始一次运行</translation>
    </message>
    <message>
        <source>so far: %1</source>
        <translation>目前：%1</translation>
    </message>
    <message>
        <source>Intents</source>
        <translation>业务意图</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <source>Effect “%1”</source>
        <translation>业务后果“%1”</translation>
    </message>
    <message>
        <source>Responses</source>
        <translation>响应</translation>
    </message>
    <message>
        <source>Per intent</source>
        <translation>按业务意图</translation>
    </message>
    <message>
        <source>Inconsistent</source>
        <translation>不一致</translation>
    </message>
    <message>
        <source>Integrity check</source>
        <translation>完整性检查</translation>
    </message>
    <message>
        <source>Wrong answer</source>
        <translation>答复有误</translation>
    </message>
    <message>
        <source>… and %1 more</source>
        <translation>……另有 %1 条</translation>
    </message>
    <message>
        <source>running… the verdict comes at the end</source>
        <translation>运行中……结论在结束时给出</translation>
    </message>
    <message>
        <source>Variant judged</source>
        <translation>判定的方案</translation>
    </message>
    <message>
        <source>%1 (expected %2)</source>
        <translation>%1（预期 %2）</translation>
    </message>
    <message>
        <source>Each strategy</source>
        <translation>各分页策略</translation>
    </message>
    <message>
        <source>⚠ ALERT: raised at %1 duplicates of %2 — %3</source>
        <translation>⚠ 告警：%2 重复 %1 次时触发 — %3</translation>
    </message>
    <message>
        <source>(%1 by the end of the run)</source>
        <translation>（运行结束时共 %1 次）</translation>
    </message>
    <message>
        <source>%1
— accepted cost</source>
        <translation>%1
（可接受的代价）</translation>
    </message>
    <message>
        <source>All six: Help → The six verdicts</source>
        <translation>全部六种：帮助 → 六种结论</translation>
    </message>
    <message>
        <source>Verdict: %1. %2</source>
        <translation>结论：%1。%2</translation>
    </message>
    <message>
        <source>The verdict is read from the database when the run ends</source>
        <translation>运行结束时，结论从数据库读出</translation>
    </message>
    <message>
        <source>so far %1</source>
        <translation>目前为%1</translation>
    </message>
    <message>
        <source>the effect “%1” never happened, expected %2</source>
        <translation>业务后果“%1”一次也没有发生，预期 %2 次</translation>
    </message>
    <message>
        <source>the effect “%1” happened once, expected %2</source>
        <translation>业务后果“%1”发生了 1 次，预期 %2 次</translation>
    </message>
    <message>
        <source>the effect “%1” happened %2 times, expected %3</source>
        <translation>业务后果“%1”发生了 %2 次，预期 %3 次</translation>
    </message>
    <message>
        <source>In the database, %1.</source>
        <translation>数据库中：%1。</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source> · %1 lock waits</source>
        <translation> · 等锁 %1 次</translation>
    </message>
    <message>
        <source>Cost per intent</source>
        <translation>每个意图的代价</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>lock waits: %1</source>
        <translation>锁等待：%1</translation>
    </message>
    <message>
        <source>deadlocks: %1</source>
        <translation>死锁：%1</translation>
    </message>
    <message>
        <source>serialization failures: %1</source>
        <translation>序列化失败：%1</translation>
    </message>
    <message>
        <source>(%1 on %2)</source>
        <translation>（%2 上为 %1）</translation>
    </message>
    <message>
        <source>The database&apos;s conflicts</source>
        <translation>数据库里的冲突</translation>
    </message>
    <message>
        <source>no transaction opened (each statement commits alone)</source>
        <translation>没有开启事务（每条语句各自提交）</translation>
    </message>
    <message>
        <source>%1 transactions</source>
        <translation>%1 个事务</translation>
    </message>
    <message>
        <source>%1 statements · %2 · %3 rows written</source>
        <translation>%1 条语句 · %2 · 写入 %3 行</translation>
    </message>
</context>
<context>
    <name>idem::OutcomeTexts</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>attempt %1 was told “%2”, but %3</source>
        <translation>第 %1 次请求收到的应答是“%2”，但数据库显示：%3</translation>
    </message>
</context>
<context>
    <name>idem::Pagination</name>
    <message>
        <source>the user reads page %1</source>
        <translation>用户正在看第 %1 页</translation>
    </message>
    <message>
        <source>%1 pages</source>
        <translation>%1 页</translation>
    </message>
    <message>
        <source>writer</source>
        <translation>写入者</translation>
    </message>
    <message>
        <source>page</source>
        <translation>一页</translation>
    </message>
    <message>
        <source>The user gets page %1: %2 row(s).</source>
        <translation>用户拿到第 %1 页：%2 行。</translation>
    </message>
    <message>
        <source>gave up</source>
        <translation>停止翻页</translation>
    </message>
    <message>
        <source>The reader stops after %1 pages, the most it will read.</source>
        <translation>读到第 %1 页就停下，这是它最多会读的页数。</translation>
    </message>
    <message>
        <source>feed changed</source>
        <translation>列表有变化</translation>
    </message>
    <message>
        <source>While the user reads page %1, other users add %2 order(s) and delete %3 the user has seen.</source>
        <translation>用户阅读第 %1 页期间，其他用户新增了 %2 条订单，并删除了 %3 条用户看过的订单。</translation>
    </message>
    <message>
        <source>Rows in the feed</source>
        <translation>列表总行数</translation>
    </message>
    <message>
        <source>Orders in the feed when the user opens the list</source>
        <translation>用户打开列表时列表里的订单数</translation>
    </message>
    <message>
        <source>Page size</source>
        <translation>每页行数</translation>
    </message>
    <message>
        <source>Orders per page</source>
        <translation>每页订单数</translation>
    </message>
    <message>
        <source>Inserts per page</source>
        <translation>每页期间插入数</translation>
    </message>
    <message>
        <source>New orders inserted while the user reads a page</source>
        <translation>用户看一页期间新插入的订单数</translation>
    </message>
    <message>
        <source>Deletes per page</source>
        <translation>每页期间删除数</translation>
    </message>
    <message>
        <source>Orders already seen that are deleted while the user reads a page</source>
        <translation>用户看一页期间被删除的已看过订单数</translation>
    </message>
    <message>
        <source>Equal timestamps</source>
        <translation>相同时间戳</translation>
    </message>
    <message>
        <source>On: orders come in groups sharing one created_at, and page boundaries fall inside a group</source>
        <translation>开：订单成组出现、共用同一个 created_at，分页边界落在组内</translation>
    </message>
</context>
<context>
    <name>idem::PaginationView</name>
    <message>
        <source>Page / row</source>
        <translation>页 / 行</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>Page %1 · %2 rows</source>
        <translation>第 %1 页 · %2 行</translation>
    </message>
    <message>
        <source>%1 repeated, %2 skipped</source>
        <translation>重复 %1，跳过 %2</translation>
    </message>
    <message>
        <source>order %1</source>
        <translation>订单 %1</translation>
    </message>
    <message>
        <source>shown again</source>
        <translation>再次出现</translation>
    </message>
    <message>
        <source>skipped: %1</source>
        <translation>跳过：%1</translation>
    </message>
    <message>
        <source>writer: +%1 new, −%2 deleted</source>
        <translation>写入方：新增 %1，删除 %2</translation>
    </message>
    <message>
        <source>%1 — %2 repeated, %3 skipped</source>
        <translation>%1 — 重复 %2，跳过 %3</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>EXPLAIN QUERY PLAN (page 2 on):
%1</source>
        <translation>EXPLAIN QUERY PLAN（第 2 页起）：
%1</translation>
    </message>
    <message>
        <source>Rows shown twice (solid) and skipped (light) per page</source>
        <translation>每页重复出现（深色）与被跳过（浅色）的行数</translation>
    </message>
    <message>
        <source>%1 repeated</source>
        <translation>%1 重复</translation>
    </message>
    <message>
        <source>%1 skipped</source>
        <translation>%1 跳过</translation>
    </message>
    <message>
        <source>Rows shown twice and skipped per page</source>
        <translation>每页重复出现与被跳过的行数</translation>
    </message>
    <message>
        <source>Pages read with %1</source>
        <translation>用 %1 读到的各页</translation>
    </message>
    <message>
        <source>Query plan of %1</source>
        <translation>%1 的查询计划</translation>
    </message>
</context>
<context>
    <name>idem::PauseSentence</name>
    <message>
        <source>attempt #%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>the %1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>the %1</source>
        <translation>%1</translation>
    </message>
    <message>
        <source>an attempt of intent %1</source>
        <translation>意图 %1 的某次请求</translation>
    </message>
    <message>
        <source>%1 of intent %2</source>
        <translation>意图 %2 的%1</translation>
    </message>
    <message>
        <source>%1&apos;s %2</source>
        <translation>%1的 %2</translation>
    </message>
    <message>
        <source>a statement of %1</source>
        <translation>%1的一条语句</translation>
    </message>
    <message>
        <source>a statement</source>
        <translation>一条语句</translation>
    </message>
    <message>
        <source>%1 hits a unique key (error code %2)</source>
        <translation>%1撞上唯一键（错误码 %2）</translation>
    </message>
    <message>
        <source>%1 fails a CHECK constraint (error code %2)</source>
        <translation>%1违反 CHECK 约束（错误码 %2）</translation>
    </message>
    <message>
        <source>%1 fails with error code %2</source>
        <translation>%1出错（错误码 %2）</translation>
    </message>
    <message>
        <source>%1 runs</source>
        <translation>执行 %1</translation>
    </message>
    <message>
        <source>%1 runs %2</source>
        <translation>%1执行 %2</translation>
    </message>
    <message>
        <source>%1 runs a statement</source>
        <translation>%1执行一条语句</translation>
    </message>
    <message>
        <source>a statement runs</source>
        <translation>有语句执行</translation>
    </message>
    <message>
        <source>%1&apos;s check decides</source>
        <translation>%1的检查有了结论</translation>
    </message>
    <message>
        <source>a check decides</source>
        <translation>某次检查有了结论</translation>
    </message>
    <message>
        <source>a check ends in “%1”</source>
        <translation>某次检查的结论是“%1”</translation>
    </message>
    <message>
        <source>%1&apos;s check ends in “%2”</source>
        <translation>%1的检查结论是“%2”</translation>
    </message>
    <message>
        <source>a %1 check ends in “%2”</source>
        <translation>%1的检查结论是“%2”</translation>
    </message>
    <message>
        <source>%1&apos;s %2 check ends in “%3”</source>
        <translation>%1遇到的%2检查结论是“%3”</translation>
    </message>
    <message>
        <source> from %1 to %2</source>
        <translation>从 %1 改为 %2</translation>
    </message>
    <message>
        <source> to %1</source>
        <translation>改为 %1</translation>
    </message>
    <message>
        <source> away from %1</source>
        <translation>从 %1 改成别的状态</translation>
    </message>
    <message>
        <source>a move of the state%1 is refused</source>
        <translation>把状态%1的一次尝试被拒绝</translation>
    </message>
    <message>
        <source>%1 tries to move the state%2 and is refused</source>
        <translation>%1想把状态%2，却被拒绝</translation>
    </message>
    <message>
        <source>the state moves%1</source>
        <translation>状态%1</translation>
    </message>
    <message>
        <source>%1 moves the state%2</source>
        <translation>%1把状态%2</translation>
    </message>
    <message>
        <source>%1 is sent</source>
        <translation>%1发出</translation>
    </message>
    <message>
        <source>the first request is sent</source>
        <translation>第一个请求发出</translation>
    </message>
    <message>
        <source>%1 is sent as a retry</source>
        <translation>%1作为重试发出</translation>
    </message>
    <message>
        <source>the caller retries</source>
        <translation>调用方重试</translation>
    </message>
    <message>
        <source>the caller retries after the answer “%1”</source>
        <translation>调用方在得到“%1”之后重试</translation>
    </message>
    <message>
        <source>%1 is sent as a retry after the answer “%2”</source>
        <translation>%1在上次得到“%2”之后作为重试发出</translation>
    </message>
    <message>
        <source>%1 crashes</source>
        <translation>%1崩溃</translation>
    </message>
    <message>
        <source>a process crashes</source>
        <translation>有进程崩溃</translation>
    </message>
    <message>
        <source> at the point “%1”</source>
        <translation>（崩溃点：%1）</translation>
    </message>
    <message>
        <source>%1 has to wait for a lock</source>
        <translation>%1开始等锁</translation>
    </message>
    <message>
        <source>a statement has to wait for a lock</source>
        <translation>有语句开始等锁</translation>
    </message>
    <message>
        <source>%1 stalls</source>
        <translation>%1卡住</translation>
    </message>
    <message>
        <source>a process stalls</source>
        <translation>有进程卡住</translation>
    </message>
    <message>
        <source>%1 wakes up and goes on</source>
        <translation>%1醒来继续执行</translation>
    </message>
    <message>
        <source>the stalled process wakes up</source>
        <translation>卡住的进程醒来</translation>
    </message>
    <message>
        <source>%1 raises an alert</source>
        <translation>%1发出告警</translation>
    </message>
    <message>
        <source>the first alert is raised</source>
        <translation>第一条告警响起</translation>
    </message>
    <message>
        <source>%1 starts work outside the database</source>
        <translation>%1开始做数据库之外的工作</translation>
    </message>
    <message>
        <source>work outside the database starts</source>
        <translation>数据库之外的工作开始</translation>
    </message>
    <message>
        <source>%1 gets its answer</source>
        <translation>%1收到应答</translation>
    </message>
    <message>
        <source>the first answer arrives</source>
        <translation>第一个应答到达</translation>
    </message>
    <message>
        <source>a caller is answered “%1”</source>
        <translation>调用方收到应答“%1”</translation>
    </message>
    <message>
        <source>%1 is answered “%2”</source>
        <translation>%1收到应答“%2”</translation>
    </message>
    <message>
        <source>the judge counts the effects</source>
        <translation>裁判清点业务效果</translation>
    </message>
    <message>
        <source>the judge gives its verdict</source>
        <translation>裁判给出结论</translation>
    </message>
    <message>
        <source>the first “%1” happens</source>
        <translation>第一次出现“%1”</translation>
    </message>
    <message>
        <source>“%1” happens to %2</source>
        <translation>%2出现“%1”</translation>
    </message>
    <message>
        <source> on page %1</source>
        <translation>（第 %1 页）</translation>
    </message>
    <message>
        <source> on a retry</source>
        <translation>（重试时）</translation>
    </message>
    <message>
        <source> on the first try</source>
        <translation>（第一次调用时）</translation>
    </message>
    <message>
        <source> (%1: %2)</source>
        <translation>（%1：%2）</translation>
    </message>
    <message>
        <source>The run stops before its first step.</source>
        <translation>运行停在第一步之前。</translation>
    </message>
    <message>
        <source>The run stops after step %1.</source>
        <translation>运行在第 %1 步之后暂停。</translation>
    </message>
    <message>
        <source>The run goes on to its end.</source>
        <translation>运行一直走到结束。</translation>
    </message>
    <message>
        <source>The run stops as soon as %1.</source>
        <translation>一旦%1，运行就暂停。</translation>
    </message>
    <message>
        <source>, changing %1 row</source>
        <translation>，改到 %1 行</translation>
    </message>
    <message>
        <source>, changing %1 rows</source>
        <translation>，改到 %1 行</translation>
    </message>
    <message>
        <source>, reading %1 row</source>
        <translation>，读到 %1 行</translation>
    </message>
    <message>
        <source>, reading %1 rows</source>
        <translation>，读到 %1 行</translation>
    </message>
    <message>
        <source>, touching %1 row</source>
        <translation>，涉及 %1 行</translation>
    </message>
    <message>
        <source>, touching %1 rows</source>
        <translation>，涉及 %1 行</translation>
    </message>
    <message>
        <source>%1&apos;s change of state is refused</source>
        <translation>%1改状态被拒绝</translation>
    </message>
    <message>
        <source>a change of state is refused</source>
        <translation>一次状态变更被拒绝</translation>
    </message>
    <message>
        <source>%1 changes a state</source>
        <translation>%1改变了状态</translation>
    </message>
    <message>
        <source>a state changes</source>
        <translation>状态发生变化</translation>
    </message>
    <message>
        <source>Redis tells %1 that a key has expired</source>
        <translation>Redis 告诉%1某个键已经过期</translation>
    </message>
    <message>
        <source>Redis first reports a key expired</source>
        <translation>Redis 第一次报告某个键已过期</translation>
    </message>
    <message>
        <source>%1 sends Redis a command</source>
        <translation>%1向 Redis 发出一条命令</translation>
    </message>
    <message>
        <source>the first command goes to Redis</source>
        <translation>第一条命令发往 Redis</translation>
    </message>
</context>
<context>
    <name>idem::PaymentCallback</name>
    <message>
        <source>%1: merchant credited but the order is %2</source>
        <translation>%1：已给商户入账，订单却是 %2</translation>
    </message>
    <message>
        <source>%1: order PAID but the merchant was never credited</source>
        <translation>%1：订单已是 PAID，商户却从未入账</translation>
    </message>
    <message>
        <source>%1: payment flow recorded but the order is %2 and nothing was credited</source>
        <translation>%1：支付流水已记录，但订单是 %2，也没有任何入账</translation>
    </message>
    <message>
        <source>stale %1 notice for %2 (order %3 is %4): acknowledged, not applied</source>
        <translation>%2 的过期 %1 通知（订单 %3 已是 %4）：已应答成功，但没有执行</translation>
    </message>
    <message>
        <source>pays again</source>
        <translation>重新支付</translation>
    </message>
    <message>
        <source>The user pays again (trade %1): the order goes back to paying.</source>
        <translation>用户重新支付（交易号 %1）：订单回到支付中。</translation>
    </message>
    <message>
        <source>query the payment</source>
        <translation>查询支付结果</translation>
    </message>
    <message>
        <source>%1 asks the payment provider for the real status of trade %2 instead of guessing.</source>
        <translation>%1不去猜测，而是向支付渠道回查交易 %2 的真实状态。</translation>
    </message>
    <message>
        <source>payment status</source>
        <translation>支付状态</translation>
    </message>
    <message>
        <source>The provider answers: trade %1 is %2.</source>
        <translation>支付渠道答复：交易 %1 的状态是 %2。</translation>
    </message>
    <message>
        <source>Late failure callback</source>
        <translation>迟到的失败回调</translation>
    </message>
    <message>
        <source>On: a stale FAILED callback arrives after the SUCCESS ones (with First payment fails: the first payment&apos;s FAILED again, while the second one is under way)</source>
        <translation>开：一条过时的 FAILED 回调在 SUCCESS 回调之后才到达（与“首次支付失败”同开时：第一次支付的 FAILED 再来一次，而此时第二次支付正在进行）</translation>
    </message>
    <message>
        <source>First payment fails</source>
        <translation>首次支付失败</translation>
    </message>
    <message>
        <source>On: the first payment fails; the user pays again under a new trade number and that one succeeds</source>
        <translation>开：第一次支付失败，用户用新的交易号重新支付并成功</translation>
    </message>
    <message>
        <source>order</source>
        <translation>订单</translation>
    </message>
</context>
<context>
    <name>idem::PlaybackBar</name>
    <message>
        <source>step %1/%2 · t = %3</source>
        <translation>第 %1/%2 步 · t = %3</translation>
    </message>
    <message>
        <source>Reset to the start (Home)</source>
        <translation>重置到开头（Home）</translation>
    </message>
    <message>
        <source>Step back (Left, Page Up)</source>
        <translation>后退一步（左方向键、Page Up）</translation>
    </message>
    <message>
        <source>Play / pause (Space)</source>
        <translation>播放/暂停（空格）</translation>
    </message>
    <message>
        <source>Step (Right, Page Down)</source>
        <translation>单步（右方向键、Page Down）</translation>
    </message>
    <message>
        <source>Run to the end (End)</source>
        <translation>运行到结尾（End）</translation>
    </message>
    <message>
        <source>slow motion</source>
        <translation>慢动作</translation>
    </message>
    <message>
        <source>slow</source>
        <translation>慢</translation>
    </message>
    <message>
        <source>normal</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>fast</source>
        <translation>快</translation>
    </message>
    <message>
        <source>instant</source>
        <translation>即时</translation>
    </message>
    <message>
        <source>Drag to any step of the run</source>
        <translation>拖动到本次运行的任意一步</translation>
    </message>
    <message>
        <source>Reset to the start</source>
        <translation>重置到开头</translation>
    </message>
    <message>
        <source>Step back</source>
        <translation>后退一步</translation>
    </message>
    <message>
        <source>Play or pause</source>
        <translation>播放或暂停</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Run to the end</source>
        <translation>运行到结尾</translation>
    </message>
    <message>
        <source>Playback speed ([ slower, ] faster); normal is one step a second</source>
        <translation>播放速度（[ 减慢，] 加快）；“正常”约每秒一步</translation>
    </message>
    <message>
        <source>Playback speed</source>
        <translation>播放速度</translation>
    </message>
    <message>
        <source>Auto-&amp;play</source>
        <translation>自动播放(&amp;P)</translation>
    </message>
    <message>
        <source>Play each fired run by itself, at the chosen speed</source>
        <translation>每次发射后按所选速度自动播放</translation>
    </message>
    <message>
        <source>Play fired runs by themselves</source>
        <translation>发射后自动播放</translation>
    </message>
    <message>
        <source>Step of the run</source>
        <translation>运行进度（第几步）</translation>
    </message>
    <message>
        <source>Step and virtual time</source>
        <translation>步数与虚拟时间</translation>
    </message>
    <message>
        <source>leaping to the end…</source>
        <translation>正在跳跃着播放到结尾……</translation>
    </message>
    <message>
        <source>about %1 s to the end</source>
        <translation>约 %1 秒后到结尾</translation>
    </message>
</context>
<context>
    <name>idem::RecentTraces</name>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>No trace opened yet</source>
        <translation>还没有打开过轨迹</translation>
    </message>
    <message>
        <source>%1 %2 — %3</source>
        <translation>%1 %2 — %3</translation>
    </message>
    <message>
        <source>%1 %2 — %3 (no longer there)</source>
        <translation>%1 %2 — %3（已不在原处）</translation>
    </message>
    <message>
        <source>%1 is no longer there: it was moved or deleted</source>
        <translation>%1 已不在原处：它被移动或删除了</translation>
    </message>
    <message>
        <source>&amp;Clear the list</source>
        <translation>清空列表(&amp;C)</translation>
    </message>
</context>
<context>
    <name>idem::Recording</name>
    <message>
        <source>The recording does not match this version of the lab: %1</source>
        <translation>这份录制与本版实验室对不上：%1</translation>
    </message>
    <message>
        <source>this version sends &quot;%1&quot; on %2, where the recording has no more statements.</source>
        <translation>本版在 %2 上发送“%1”，而录制在这条连接上已没有语句。</translation>
    </message>
    <message>
        <source>at event %1 it sent &quot;%2&quot; on %3, this version sends &quot;%4&quot;.</source>
        <translation>在第 %1 个事件，录制在 %3 上发送的是“%2”，本版发送的是“%4”。</translation>
    </message>
    <message>
        <source>at event %1 a statement returned more rows than a trace keeps (%2): this recording cannot be played.</source>
        <translation>在第 %1 个事件，一条语句返回的行数超过轨迹能保存的上限（%2）：这份录制无法播放。</translation>
    </message>
    <message>
        <source>at event %1 its statement on %2 had finished or waited, and this run is elsewhere.</source>
        <translation>在第 %1 个事件，录制中 %2 上的语句已结束或在等待，而本次运行走到了别处。</translation>
    </message>
    <message>
        <source>the recording ends at event %1, this run goes on.</source>
        <translation>录制在第 %1 个事件结束，本次运行却还在继续。</translation>
    </message>
    <message>
        <source>event %1 is &quot;%2&quot; of %3 in the recording, &quot;%4&quot; of %5 in this run.</source>
        <translation>第 %1 个事件在录制中是 %3 的“%2”，在本次运行中是 %5 的“%4”。</translation>
    </message>
    <message>
        <source>the table %1 held more rows than a trace keeps (%2): this recording cannot be played.</source>
        <translation>表 %1 的行数超过轨迹能保存的上限（%2）：这份录制无法播放。</translation>
    </message>
    <message>
        <source>%1 is a run on %2, which the lab runs itself: there is no recording to play.</source>
        <translation>%1 是在 %2 上的运行，实验室可以自己重跑：没有需要播放的录制。</translation>
    </message>
    <message>
        <source>%1 was written by a version of the lab that did not keep the server&apos;s committed rows: it can be replayed only where %2 is installed.</source>
        <translation>%1 由一个不保存服务器已提交行的旧版实验室写成：只能在安装了 %2 的电脑上回放。</translation>
    </message>
    <message>
        <source>%1 is a recording of another run than this one.</source>
        <translation>%1 录制的是另一次运行，不是这一次。</translation>
    </message>
</context>
<context>
    <name>idem::RedisView</name>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Set by</source>
        <translation>写入者</translation>
    </message>
    <message>
        <source>Counts until</source>
        <translation>有效至</translation>
    </message>
    <message>
        <source>Time left</source>
        <translation>剩余时间</translation>
    </message>
    <message>
        <source>no expiry</source>
        <translation>不过期</translation>
    </message>
    <message>
        <source>expired (Redis not asked yet)</source>
        <translation>已过期（尚未问过 Redis）</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1，于 %2</translation>
    </message>
    <message>
        <source>Redis holds none of the run&apos;s keys at this step.</source>
        <translation>这一步时 Redis 里没有本次运行的键。</translation>
    </message>
    <message>
        <source>Nothing has been sent to Redis yet.</source>
        <translation>还没有向 Redis 发送任何命令。</translation>
    </message>
    <message>
        <source>Keys in Redis at this step: %1. Their lives are the run&apos;s virtual time; Redis itself is told at most a second, and the lab waits until Redis reports a key gone before a command that needs it gone.</source>
        <translation>这一步时 Redis 里的键：%1 个。它们的有效期按运行的虚拟时间计算；实际告诉 Redis 的至多一秒，需要键已消失的命令，实验室会等到 Redis 报告键不在了才发出。</translation>
    </message>
    <message>
        <source>Expired but not yet asked about: %1.</source>
        <translation>已过期但尚未询问 Redis 的：%1 个。</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>two sentences</comment>
        <translation>%1%2</translation>
    </message>
    <message>
        <source>The run&apos;s keys in Redis at this step</source>
        <translation>这一步时本次运行在 Redis 里的键</translation>
    </message>
    <message>
        <source>No plain keys in Redis at this step; the stream is below.</source>
        <translation>这一步时 Redis 里没有普通的键；消息流在下面。</translation>
    </message>
    <message>
        <source>Stream</source>
        <translation>消息流</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Handed to</source>
        <translation>交给了</translation>
    </message>
    <message>
        <source>Deliveries</source>
        <translation>投递次数</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>闲置时长</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>The run&apos;s stream entries and their consumer group at this step</source>
        <translation>这一步时本次运行的消息流条目及其消费者组</translation>
    </message>
    <message>
        <source>acked</source>
        <translation>已确认</translation>
    </message>
    <message>
        <source>not handed to anyone yet</source>
        <translation>还没有交给任何消费者</translation>
    </message>
    <message>
        <source>pending: handed over, not acked</source>
        <translation>待确认：已交出，尚未确认</translation>
    </message>
    <message>
        <source>Stream entries: %1, of which pending (handed to a consumer, not acked): %2. A pending entry idle past the visibility time is claimed by the other consumer (XAUTOCLAIM), and its delivery count grows.</source>
        <translation>消息流条目：%1 条，其中待确认（已交给消费者、尚未确认）：%2 条。待确认条目闲置超过可见性超时后，会被另一个消费者认领（XAUTOCLAIM），它的投递次数随之增加。</translation>
    </message>
</context>
<context>
    <name>idem::RunController</name>
    <message>
        <source>Work in progress</source>
        <translation>正在进行的工作</translation>
    </message>
    <message>
        <source>Progress of the work in progress</source>
        <translation>正在进行的工作的进度</translation>
    </message>
    <message>
        <source>Cancel (Esc)</source>
        <translation>取消 (Esc)</translation>
    </message>
    <message>
        <source>Stop the work in progress</source>
        <translation>停止正在进行的工作</translation>
    </message>
    <message>
        <source>%1 · %2 steps</source>
        <translation>%1 · 已走 %2 步</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
</context>
<context>
    <name>idem::ScenarioPicker</name>
    <message>
        <source>How to choose, by scenario (常见场景怎么选)</source>
        <translation>常见场景怎么选</translation>
    </message>
    <message>
        <source>Naturally idempotent operations (天然幂等)</source>
        <translation>天然幂等的操作</translation>
    </message>
    <message>
        <source>Read idempotency (读幂等)</source>
        <translation>读幂等</translation>
    </message>
    <message>
        <source>Common misconceptions (常见误区)</source>
        <translation>常见误区</translation>
    </message>
    <message>
        <source>Production patterns (生产实践)</source>
        <translation>生产实践</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>Recommended technique</source>
        <translation>推荐幂等手段</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Scenarios</source>
        <translation>场景列表</translation>
    </message>
</context>
<context>
    <name>idem::ScheduledTask</name>
    <message>
        <source>compute the day&apos;s settlement</source>
        <translation>计算当天的结算</translation>
    </message>
    <message>
        <source>settled %1</source>
        <translation>%1 已结算</translation>
    </message>
    <message>
        <source>skipped: %1 holds the lock</source>
        <translation>跳过：锁由 %1 持有</translation>
    </message>
    <message>
        <source>fenced: token %1 is no longer the run&apos;s</source>
        <translation>被防护令牌拦下：令牌 %1 已不是当前这次执行的</translation>
    </message>
    <message>
        <source>%1: payouts written but the run is still %2</source>
        <translation>%1：打款已写入，执行记录却仍是 %2</translation>
    </message>
    <message>
        <source>%1: the run is DONE but nothing was paid</source>
        <translation>%1：执行记录是 DONE，却什么都没打款</translation>
    </message>
    <message>
        <source>node A</source>
        <translation>节点 A</translation>
    </message>
    <message>
        <source>node B</source>
        <translation>节点 B</translation>
    </message>
    <message>
        <source>job run</source>
        <translation>任务执行</translation>
    </message>
    <message>
        <source>%1: payouts written but the fence says not settled</source>
        <translation>%1：打款已写入，但防护记录显示尚未结算</translation>
    </message>
    <message>
        <source>%1: the fence says settled but nothing was paid</source>
        <translation>%1：防护记录显示已结算，却没有任何打款</translation>
    </message>
</context>
<context>
    <name>idem::SequenceSteps</name>
    <message>
        <source>UNIQUE violation</source>
        <translation>UNIQUE 冲突</translation>
    </message>
    <message>
        <source>CHECK failed</source>
        <translation>CHECK 失败</translation>
    </message>
    <message>
        <source>%1 at %2, %3</source>
        <translation>%1，时间 %2，%3</translation>
    </message>
    <message>
        <source>intent %1, attempt #%2</source>
        <translation>业务意图 %1，第 %2 次尝试</translation>
    </message>
    <message>
        <source>intent %1, set-up</source>
        <translation>业务意图 %1，准备阶段</translation>
    </message>
    <message>
        <source>values: %1</source>
        <translation>参数：%1</translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>locked</source>
        <translation>被锁</translation>
    </message>
    <message>
        <source>%1 (crash)</source>
        <translation>%1（崩溃）</translation>
    </message>
    <message>
        <source>1 row</source>
        <translation>1 行</translation>
    </message>
    <message>
        <source>%1 rows</source>
        <translation>%1 行</translation>
    </message>
    <message>
        <source>no answer (lost)</source>
        <translation>无应答（丢失）</translation>
    </message>
    <message>
        <source>↻ retry %1/%2</source>
        <translation>↻ 重试 %1/%2</translation>
    </message>
    <message>
        <source>%1 waits: database locked</source>
        <translation>%1 等待：数据库被锁</translation>
    </message>
    <message>
        <source>%1 waits for %2</source>
        <translation>%1 等待 %2</translation>
    </message>
    <message>
        <source>❚❚ paused %1</source>
        <translation>❚❚ 暂停 %1</translation>
    </message>
    <message>
        <source>▶ resumes</source>
        <translation>▶ 恢复</translation>
    </message>
    <message>
        <source>✕ crash: %1</source>
        <translation>✕ 崩溃：%1</translation>
    </message>
    <message>
        <source>⚑ alert: %1</source>
        <translation>⚑ 告警：%1</translation>
    </message>
    <message>
        <source>effect %1: %2 (expected %3)</source>
        <translation>业务后果 %1：%2（预期 %3）</translation>
    </message>
    <message>
        <source>verdict: %1</source>
        <translation>判定：%1</translation>
    </message>
    <message>
        <source>(call %1)</source>
        <translation>（调用 %1）</translation>
    </message>
    <message>
        <source>set-up: %1</source>
        <translation>准备：%1</translation>
    </message>
    <message>
        <source>set-up: %1 statements</source>
        <translation>准备：%1 条语句</translation>
    </message>
    <message>
        <source>Set-up before the first attempt:</source>
        <translation>首次尝试之前的准备：</translation>
    </message>
    <message>
        <source>… and %1 more</source>
        <translation>……另有 %1 项</translation>
    </message>
    <message>
        <source>rows returned: %1</source>
        <translation>返回行数：%1</translation>
    </message>
    <message>
        <source>rows changed: %1</source>
        <translation>改动行数：%1</translation>
    </message>
    <message>
        <source>deadlock: victim, rolled back</source>
        <translation>死锁：被选为牺牲者，已回滚</translation>
    </message>
    <message>
        <source>serialization failure: refused</source>
        <translation>序列化失败：被拒绝</translation>
    </message>
    <message>
        <source>lock timeout: gave up waiting</source>
        <translation>锁等待超时：放弃等待</translation>
    </message>
    <message>
        <source>waits for %1 · %2</source>
        <translation>等待 %1 · %2</translation>
    </message>
    <message>
        <source>after the wait</source>
        <translation>等待之后</translation>
    </message>
    <message>
        <source>intent %1, %2</source>
        <translation>业务意图 %1，%2</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>↺ ROLLBACK (connection closed by the crash)</source>
        <translation>↺ ROLLBACK（崩溃关闭了连接）</translation>
    </message>
    <message>
        <source>The process died with its transaction open. Its connection closed with it, and the server rolled the transaction back: nothing it wrote there stays. No ROLLBACK statement was sent.</source>
        <translation>进程在事务未结束时死掉，它的连接也随之关闭，服务器自行回滚了这个事务：事务里写下的一切都不会留下。程序并没有发送 ROLLBACK 语句。</translation>
    </message>
    <message>
        <source>any state</source>
        <translation>任一状态</translation>
    </message>
    <message>
        <source>(expired)</source>
        <translation>（已过期）</translation>
    </message>
</context>
<context>
    <name>idem::SequenceView</name>
    <message>
        <source>Fire a run to see its attempts here.</source>
        <translation>发射一次运行后，可在此看到各次尝试。</translation>
    </message>
    <message>
        <source>… 1 earlier event</source>
        <translation>… 之前还有 1 个事件</translation>
    </message>
    <message>
        <source>… %1 earlier events</source>
        <translation>… 之前还有 %1 个事件</translation>
    </message>
    <message>
        <source>Sequence diagram</source>
        <translation>时序图</translation>
    </message>
    <message>
        <source>Sequence diagram lanes</source>
        <translation>时序图的泳道</translation>
    </message>
    <message>
        <source>Waiting for a lock held by another transaction, from the wait to the step that released it</source>
        <translation>等待另一个事务持有的锁：从开始等待，到锁被释放的那一步</translation>
    </message>
</context>
<context>
    <name>idem::SqlLogModel</name>
    <message>
        <source>waits: the database is locked by %1</source>
        <translation>等待：数据库被 %1 锁住</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>尝试</translation>
    </message>
    <message>
        <source>Conn.</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Statement</source>
        <translation>语句</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>行数</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>rows returned: %1</source>
        <translation>返回行数：%1</translation>
    </message>
    <message>
        <source>rows changed: %1</source>
        <translation>改动行数：%1</translation>
    </message>
    <message>
        <source>%1 returned</source>
        <translation>返回 %1</translation>
    </message>
    <message>
        <source>%1 changed</source>
        <translation>改动 %1</translation>
    </message>
    <message>
        <source>waits for %1: %2</source>
        <translation>等待 %1 持有的锁：%2</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>a connection outside the run (%1)</source>
        <translation>本次运行之外的一个连接（%1）</translation>
    </message>
    <message>
        <source>%1, behind a connection outside the run (%2)</source>
        <translation>%1，排在本次运行之外的一个连接后面（%2）</translation>
    </message>
</context>
<context>
    <name>idem::SqlLogView</name>
    <message>
        <source>Copy SQL log as CSV</source>
        <translation>复制 SQL 日志为 CSV</translation>
    </message>
    <message>
        <source>SQL log</source>
        <translation>SQL 日志</translation>
    </message>
    <message>
        <source>The latest %1 statements are listed; the %2 before them are in the saved trace and in Copy SQL log as CSV.</source>
        <translation>这里列出最近的 %1 条语句；更早的 %2 条在保存的轨迹里，也在“复制 SQL 日志为 CSV”里。</translation>
    </message>
    <message>
        <source>Every session was told first: %1</source>
        <translation>每个会话一开始先收到：%1</translation>
    </message>
    <message>
        <source>Sent by the lab as each connection opened, before the run&apos;s statements below</source>
        <translation>实验室在每个连接打开时发出，早于下面这次运行的语句</translation>
    </message>
</context>
<context>
    <name>idem::StageDirector</name>
    <message>
        <source>Predict first</source>
        <translation>先预测</translation>
    </message>
    <message>
        <source>What will the verdict be? The outcome stays hidden until the end.</source>
        <translation>结论会是什么？结果在运行结束前都不显示。</translation>
    </message>
    <message>
        <source>Unknown scenario %1</source>
        <translation>未知场景 %1</translation>
    </message>
    <message>
        <source>Cannot run this configuration</source>
        <translation>无法运行此配置</translation>
    </message>
    <message>
        <source>Not run: the run on screen is unchanged.</source>
        <translation>没有运行：屏幕上的运行保持不变。</translation>
    </message>
    <message>
        <source>Running %1</source>
        <translation>正在运行 %1</translation>
    </message>
    <message>
        <source>Stopped before the end: the run on screen is unchanged.</source>
        <translation>在结束前已停止：屏幕上的运行保持不变。</translation>
    </message>
    <message>
        <source>A very large run</source>
        <translation>规模很大的运行</translation>
    </message>
    <message>
        <source>This run is estimated at about %1 SQL statements (%2 intents × %3 deliveries × %4 tries × %5 statements), above the limit of %6. It may take minutes; Esc stops it. Run it anyway?</source>
        <translation>这次运行估计约有 %1 条 SQL 语句（%2 个意图 × %3 次投递 × %4 次尝试 × %5 条语句），超过了上限 %6。可能要跑好几分钟，按 Esc 可以停止。仍然运行吗？</translation>
    </message>
    <message>
        <source>Comparing</source>
        <translation>正在对比</translation>
    </message>
    <message>
        <source>Going back to step %1</source>
        <translation>正在退回到第 %1 步</translation>
    </message>
    <message>
        <source>Going to step %1</source>
        <translation>正在前进到第 %1 步</translation>
    </message>
    <message>
        <source>Stopped at step %1 of %2.</source>
        <translation>已停在第 %1 步（共 %2 步）。</translation>
    </message>
    <message>
        <source>Saving the trace</source>
        <translation>正在保存轨迹</translation>
    </message>
    <message>
        <source>Stopped: the trace was not saved.</source>
        <translation>已停止：轨迹没有保存。</translation>
    </message>
    <message>
        <source>Cannot save the trace</source>
        <translation>无法保存轨迹</translation>
    </message>
    <message>
        <source>Saved the trace to %1</source>
        <translation>轨迹已保存到 %1</translation>
    </message>
    <message>
        <source>Opening %1</source>
        <translation>正在打开 %1</translation>
    </message>
    <message>
        <source>Cannot open the trace</source>
        <translation>无法打开轨迹</translation>
    </message>
    <message>
        <source>Pick a scenario and press F5 to fire.</source>
        <translation>选择一个场景，按 F5 发射。</translation>
    </message>
    <message>
        <source>Predicted %1: right.</source>
        <translation>预测“%1”：猜对了。</translation>
    </message>
    <message>
        <source>Predicted %1; the database says %2.</source>
        <translation>预测“%1”；数据库给出的是“%2”。</translation>
    </message>
    <message>
        <source>Predicted %1 — the verdict shows at the end.</source>
        <translation>已预测“%1”，结论在结束时揭晓。</translation>
    </message>
    <message>
        <source>Page Down: next frame</source>
        <translation>Page Down：下一帧</translation>
    </message>
    <message>
        <source>Space pauses</source>
        <translation>空格暂停</translation>
    </message>
    <message>
        <source>the end · Home starts again</source>
        <translation>已结束 · 按 Home 从头开始</translation>
    </message>
    <message>
        <source>→ next · Space plays</source>
        <translation>→ 下一步 · 空格播放</translation>
    </message>
    <message>
        <source>Stopped: nothing was written.</source>
        <translation>已停止：没有写入任何文件。</translation>
    </message>
    <message>
        <source>Cannot judge the run</source>
        <translation>无法判定这次运行</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Starting %1… (first start initialises it: a few seconds)</source>
        <translation>正在启动 %1…（第一次启动要先初始化：需要几秒钟）</translation>
    </message>
    <message>
        <source>%1 is running</source>
        <translation>%1 已在运行</translation>
    </message>
    <message>
        <source>Starting %1…</source>
        <translation>正在启动 %1…</translation>
    </message>
    <message>
        <source>Then to the end (step %1).</source>
        <translation>随后一直走到结尾（第 %1 步）。</translation>
    </message>
    <message>
        <source>Then to step %1.</source>
        <translation>随后走到第 %1 步。</translation>
    </message>
</context>
<context>
    <name>idem::StageHeader</name>
    <message>
        <source>Settin&amp;gs ◂</source>
        <translation>设置(&amp;G) ◂</translation>
    </message>
    <message>
        <source>Settin&amp;gs ▸</source>
        <translation>设置(&amp;G) ▸</translation>
    </message>
    <message>
        <source>Show or hide the scenario list and the fire panel (Ctrl+1)</source>
        <translation>显示或隐藏场景列表和发射面板（Ctrl+1）</translation>
    </message>
    <message>
        <source>Show the scenario list and the fire panel</source>
        <translation>显示场景列表和发射面板</translation>
    </message>
</context>
<context>
    <name>idem::StateMachineView</name>
    <message>
        <source>start</source>
        <translation>起点</translation>
    </message>
    <message>
        <source>%1 entities</source>
        <translation>%1 个实体</translation>
    </message>
    <message>
        <source>Pick a scenario to see its state machine.</source>
        <translation>选择一个场景以查看其状态机。</translation>
    </message>
    <message>
        <source>This variant keeps no state machine: watch the tables and the SQL log.</source>
        <translation>此方案不使用状态机：请观察数据表和 SQL 日志。</translation>
    </message>
    <message>
        <source>%1 → %2 is not in the diagram: an update without a status condition moved it anyway</source>
        <translation>%1 → %2 不在状态图中：一条不带状态条件的更新仍然推进了它</translation>
    </message>
    <message>
        <source>%1 → %2: accepted %3 times, rejected %4 times</source>
        <translation>%1 → %2：接受 %3 次，拒绝 %4 次</translation>
    </message>
    <message>
        <source>Intents whose entity is in this state now: %1</source>
        <translation>实体当前处于此状态的业务意图：%1</translation>
    </message>
    <message>
        <source>forbidden, yet accepted</source>
        <translation>状态图不允许，却被接受</translation>
    </message>
    <message>
        <source>refused: not in the diagram</source>
        <translation>被拒绝：状态图中没有</translation>
    </message>
    <message>
        <source>State diagram</source>
        <translation>状态图</translation>
    </message>
    <message>
        <source>(✓) not yet committed: nobody else sees it</source>
        <translation>(✓) 尚未提交：别人还看不到</translation>
    </message>
    <message>
        <source>↺ rolled back: the database kept nothing of it</source>
        <translation>↺ 已回滚：数据库里什么也没留下</translation>
    </message>
    <message numerus="yes">
        <source>%n time(s) inside a transaction not yet committed</source>
        <translation>
            <numerusform>%n 次发生在尚未提交的事务里</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n time(s) undone by a rollback: the database never kept it</source>
        <translation>
            <numerusform>%n 次被回滚撤销：数据库从未保留</numerusform>
        </translation>
    </message>
    <message>
        <source>Moved here inside a transaction not yet committed: %1. Nobody else sees it here, and a rollback takes it back.</source>
        <translation>在尚未提交的事务里移到了这里：%1。别人还看不到，回滚会把它撤回。</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
</context>
<context>
    <name>idem::StockDeduct</name>
    <message>
        <source>book the shipment at the warehouse</source>
        <translation>向仓库预约发货</translation>
    </message>
    <message>
        <source>%1: oversold, qty is %2</source>
        <translation>%1：超卖了，库存数量是 %2</translation>
    </message>
    <message>
        <source>%1: stock lost an update: %2 writes, but %3 units gone</source>
        <translation>%1：库存丢失了一次更新：写了 %2 次，却少了 %3 件</translation>
    </message>
    <message>
        <source>%1 is DEDUCTED but no stock was taken</source>
        <translation>%1 已是 DEDUCTED，库存却没有扣</translation>
    </message>
    <message>
        <source>%1: the deduction log says %2 units, the stock lost %3</source>
        <translation>%1：扣减记录写的是 %2 件，库存却少了 %3 件</translation>
    </message>
    <message>
        <source>stock check</source>
        <translation>库存检查</translation>
    </message>
    <message>
        <source>deduction record</source>
        <translation>扣减记录</translation>
    </message>
    <message>
        <source>out of stock</source>
        <translation>库存不足</translation>
    </message>
    <message>
        <source>%1 finds too little stock left (%2).</source>
        <translation>%1发现库存不足（%2）。</translation>
    </message>
    <message>
        <source>order</source>
        <translation>订单</translation>
    </message>
    <message>
        <source>Another order first</source>
        <translation>另一张订单在先</translation>
    </message>
    <message>
        <source>On: after this order&apos;s page was shown, another customer&apos;s order takes a unit of the same sku, so the version on the page is no longer the row&apos;s</source>
        <translation>开启：这张订单的页面打开之后，另一位顾客的订单先扣走了同一个商品的一件，页面上的版本号已不是这一行现在的版本</translation>
    </message>
    <message>
        <source>none of its own</source>
        <translation>没有自己的扣减记录</translation>
    </message>
    <message>
        <source>%1 finds no deduction of its own (%2): the version moved because another write changed the stock since the page was shown, so the request is refused as a stale page.</source>
        <translation>%1没有找到这张订单自己的扣减（%2）：版本号变了，是因为页面展示之后别的写入改过库存，所以这个请求按页面过期被拒绝。</translation>
    </message>
</context>
<context>
    <name>idem::TableModel</name>
    <message>
        <source>%1
Inserted by a transaction not yet committed: nobody else sees this row, and a rollback takes it away.</source>
        <translation>%1
由尚未提交的事务插入：别人还看不到这一行，回滚会把它拿走。</translation>
    </message>
    <message>
        <source>%1
Deleted by a transaction not yet committed: everyone else still sees this row.</source>
        <translation>%1
被尚未提交的事务删除：别人仍然看得到这一行。</translation>
    </message>
    <message>
        <source>%1
Changed by a transaction not yet committed: everyone else still sees the old value.</source>
        <translation>%1
被尚未提交的事务修改：别人看到的仍是旧值。</translation>
    </message>
    <message>
        <source>set-up</source>
        <translation>初始化</translation>
    </message>
    <message>
        <source>xmin %1: the transaction that wrote this version of the row. A snapshot sees it only if that transaction had committed when the snapshot was taken.</source>
        <translation>xmin %1：写下这一行这个版本的事务。只有当它在快照建立时已经提交，快照才看得见这个版本。</translation>
    </message>
    <message>
        <source>xmax 0: no transaction has deleted or locked this version.</source>
        <translation>xmax 0：没有事务删除或锁住这个版本。</translation>
    </message>
    <message>
        <source>xmax %1: the transaction that deleted, updated or locked this version. Until it commits, everyone else still sees the row; if it rolled back, the row stays as it was.</source>
        <translation>xmax %1：删除、更新或锁住这个版本的事务。它提交之前，其他人仍然看得见这一行；如果它回滚了，这一行保持原样。</translation>
    </message>
</context>
<context>
    <name>idem::Tcc</name>
    <message>
        <source>waiting for the Try&apos;s answer</source>
        <translation>等待 Try 的应答</translation>
    </message>
    <message>
        <source>insufficient funds</source>
        <translation>余额不足</translation>
    </message>
    <message>
        <source>frozen</source>
        <translation>已冻结</translation>
    </message>
    <message>
        <source>debited</source>
        <translation>已扣款</translation>
    </message>
    <message>
        <source>released</source>
        <translation>已释放</translation>
    </message>
    <message>
        <source>nothing frozen</source>
        <translation>没有冻结任何金额</translation>
    </message>
    <message>
        <source>%1 still frozen in account %2 after %3 ended: no phase will release it</source>
        <translation>%3 结束后，账户 %2 里仍冻结着 %1：没有任何阶段会再释放它</translation>
    </message>
    <message>
        <source>%1 was debited</source>
        <translation>%1 已扣款</translation>
    </message>
    <message>
        <source>%1 was debited %2 times</source>
        <translation>%1 被扣款 %2 次</translation>
    </message>
    <message>
        <source>%1 still frozen for %2</source>
        <translation>%2 仍冻结着 %1</translation>
    </message>
    <message>
        <source>nothing frozen or debited for %1</source>
        <translation>%1 既没有冻结也没有扣款</translation>
    </message>
    <message>
        <source>%1; tcc_log says %2</source>
        <translation>%1；tcc_log 记录的是 %2</translation>
    </message>
    <message>
        <source>TCC coordinator</source>
        <translation>TCC 协调者</translation>
    </message>
    <message>
        <source>TCC participant</source>
        <translation>TCC 参与者</translation>
    </message>
    <message>
        <source>Try held up</source>
        <translation>Try 被耽搁</translation>
    </message>
    <message>
        <source>The coordinator&apos;s Try for %1 is held up in the network.</source>
        <translation>协调者发给 %1 的 Try 在网络中被耽搁了。</translation>
    </message>
    <message>
        <source>Try timed out: Cancel</source>
        <translation>Try 超时：改发 Cancel</translation>
    </message>
    <message>
        <source>The coordinator stops waiting for the Try of %1 and sends Cancel instead.</source>
        <translation>协调者不再等待 %1 的 Try，改为发送 Cancel。</translation>
    </message>
    <message>
        <source>TCC log</source>
        <translation>TCC 事务日志</translation>
    </message>
    <message>
        <source>a repeat</source>
        <translation>重复请求</translation>
    </message>
    <message>
        <source>The %2 recognises %1 as a repeat and answers as before.</source>
        <translation>%2认出 %1 是重复请求，按上次的结果应答。</translation>
    </message>
    <message>
        <source>empty rollback</source>
        <translation>空回滚</translation>
    </message>
    <message>
        <source>Cancel arrives before any Try: %1 records an empty rollback, so a late Try will be refused.</source>
        <translation>Cancel 先于 Try 到达：%1记下一次空回滚，迟到的 Try 将被拒绝。</translation>
    </message>
    <message>
        <source>late Try refused</source>
        <translation>防悬挂：拒绝迟到的 Try</translation>
    </message>
    <message>
        <source>A late Try arrives after the Cancel: %1 refuses it, so no reservation hangs.</source>
        <translation>迟到的 Try 在 Cancel 之后到达：%1拒绝它，这样就不会有资源被悬挂。</translation>
    </message>
    <message>
        <source>Extra Confirms</source>
        <translation>额外的 Confirm 次数</translation>
    </message>
    <message>
        <source>How many more times the coordinator delivers Confirm (a recovery driving the transaction again)</source>
        <translation>协调者额外投递 Confirm 的次数（故障恢复时重新推进事务）</translation>
    </message>
    <message>
        <source>Cancel before Try</source>
        <translation>Cancel 先于 Try 到达</translation>
    </message>
    <message>
        <source>On: the Try is held up in the network; the coordinator times out and cancels, then the Try arrives</source>
        <translation>开：Try 在网络中被耽搁，协调者超时后发出 Cancel，之后 Try 才到达</translation>
    </message>
    <message>
        <source>tcc_log record</source>
        <translation>tcc_log 记录</translation>
    </message>
</context>
<context>
    <name>idem::TraceWords</name>
    <message>
        <source>marked failed</source>
        <translation>标记为失败</translation>
    </message>
    <message>
        <source>key reused for another request</source>
        <translation>同一个键用于另一个请求</translation>
    </message>
    <message>
        <source>original</source>
        <translation>原始请求</translation>
    </message>
    <message>
        <source>duplicate</source>
        <translation>重复</translation>
    </message>
    <message>
        <source>retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>dedup table</source>
        <translation>去重表</translation>
    </message>
    <message>
        <source>unique key</source>
        <translation>唯一键</translation>
    </message>
    <message>
        <source>claim</source>
        <translation>认领</translation>
    </message>
    <message>
        <source>fencing token</source>
        <translation>防护令牌</translation>
    </message>
    <message>
        <source>lease lock</source>
        <translation>租约锁</translation>
    </message>
    <message>
        <source>TTL key</source>
        <translation>TTL 键</translation>
    </message>
    <message>
        <source>version</source>
        <translation>版本号</translation>
    </message>
    <message>
        <source>alert rule</source>
        <translation>告警规则</translation>
    </message>
    <message>
        <source>claimed</source>
        <translation>已认领</translation>
    </message>
    <message>
        <source>in progress</source>
        <translation>处理中</translation>
    </message>
    <message>
        <source>retention expired</source>
        <translation>保留期已过</translation>
    </message>
    <message>
        <source>takeover</source>
        <translation>接管</translation>
    </message>
    <message>
        <source>found on recheck</source>
        <translation>复查时已存在</translation>
    </message>
    <message>
        <source>not found on recheck</source>
        <translation>复查时不存在</translation>
    </message>
    <message>
        <source>marked success</source>
        <translation>已标记成功</translation>
    </message>
    <message>
        <source>not the owner</source>
        <translation>不是持有者</translation>
    </message>
    <message>
        <source>done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>accepted</source>
        <translation>已接受</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>acquired</source>
        <translation>已获取</translation>
    </message>
    <message>
        <source>held by another</source>
        <translation>被他人持有</translation>
    </message>
    <message>
        <source>released</source>
        <translation>已释放</translation>
    </message>
    <message>
        <source>lease lost</source>
        <translation>租约已失效</translation>
    </message>
    <message>
        <source>set</source>
        <translation>已设置</translation>
    </message>
    <message>
        <source>result stored</source>
        <translation>结果已保存</translation>
    </message>
    <message>
        <source>expired before the result was stored</source>
        <translation>结果保存前已过期</translation>
    </message>
    <message>
        <source>inserted</source>
        <translation>已插入</translation>
    </message>
    <message>
        <source>found</source>
        <translation>已存在</translation>
    </message>
    <message>
        <source>not found</source>
        <translation>不存在</translation>
    </message>
    <message>
        <source>read</source>
        <translation>已读取</translation>
    </message>
    <message>
        <source>conflict</source>
        <translation>冲突</translation>
    </message>
    <message>
        <source>raised</source>
        <translation>已告警</translation>
    </message>
    <message>
        <source>already raised</source>
        <translation>已告警过</translation>
    </message>
    <message>
        <source>below the threshold</source>
        <translation>未达阈值</translation>
    </message>
    <message>
        <source>a normal repeat</source>
        <translation>正常重复</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>Redis lock</source>
        <translation>Redis 锁</translation>
    </message>
</context>
<context>
    <name>idem::TtlWindow</name>
    <message>
        <source>TTL (s)</source>
        <translation>TTL（秒）</translation>
    </message>
    <message>
        <source>How long the cache key lives, in seconds (TTL cache)</source>
        <translation>缓存键的存活时间，单位秒（TTL 缓存）</translation>
    </message>
    <message>
        <source>Retention (s)</source>
        <translation>保留期（秒）</translation>
    </message>
    <message>
        <source>How long dedup rows are kept, in seconds (dedup table)</source>
        <translation>去重记录的保留时间，单位秒（去重表）</translation>
    </message>
    <message>
        <source>dedup record</source>
        <translation>去重记录</translation>
    </message>
    <message>
        <source>Redis</source>
        <translation>Redis</translation>
    </message>
    <message>
        <source>%1 asks Redis until it reports the key gone (%2 answers %3): the TTL has run out, and nothing remembers the first request any more.</source>
        <translation>%1 反复询问 Redis，直到它亲口说这个键已经不在了（%2 返回 %3）：TTL 已经过去，再也没有什么记得第一次请求。</translation>
    </message>
</context>
<context>
    <name>idem::VerdictGlossary</name>
    <message>
        <source>The business effect happened once, the state agrees with it, and every caller was told what the database holds. This is what idempotency promises.</source>
        <translation>业务效果恰好发生一次，状态与之一致，每个调用方得到的答复都与数据库相符。这就是幂等所承诺的。</translation>
    </message>
    <message>
        <source>The business effect happened more than once: a second order, a second credit, a second coupon. The database holds the repeat.</source>
        <translation>业务效果发生了不止一次：第二张订单、第二次入账、第二张优惠券。数据库里留下了这次重复。</translation>
    </message>
    <message>
        <source>Effects and state disagree: money recorded for an order that is not paid, a status that moved backwards, stock that lost an update.</source>
        <translation>效果与状态对不上：订单没支付却记了钱，状态倒退了，库存丢了一次更新。</translation>
    </message>
    <message>
        <source>A caller was told something the database contradicts: &quot;rejected&quot; although the effect happened, or success with another request&apos;s result.</source>
        <translation>调用方得到的答复与数据库矛盾：效果已经发生却被告知“已拒绝”，或者拿到的成功结果是别的请求的。</translation>
    </message>
    <message>
        <source>The effect never happened, and no retry can make it happen any more.</source>
        <translation>效果始终没有发生，而且再怎么重试也不会发生了。</translation>
    </message>
    <message>
        <source>The effect happened, or still may, but the caller can never get a final answer (a record left &quot;in progress&quot; for ever).</source>
        <translation>效果已经发生或仍可能发生，但调用方永远得不到最终答复（比如一条记录永远停在“处理中”）。</translation>
    </message>
    <message>
        <source>The six verdicts</source>
        <translation>六种结论</translation>
    </message>
    <message>
        <source>The lab reads each verdict from the final database and from the answers callers got, never from the code that ran. For each intent the worst one wins, in this order:</source>
        <translation>实验室从最终的数据库和调用方得到的答复中读出每个结论，从不依据运行的代码本身。每个业务意图取最严重的一种，严重程度依次为：</translation>
    </message>
    <message>
        <source>&quot;Duplicated — accepted cost&quot; is a repeat the business chose to tolerate (a second notification): still a repeat, and said so.</source>
        <translation>“重复执行——可接受的代价”指业务选择容忍的重复（比如多发一条通知）：它仍然是重复，实验室照实说出来。</translation>
    </message>
</context>
<context>
    <name>idem::WindowExports</name>
    <message>
        <source>Not written</source>
        <translation>未写入</translation>
    </message>
    <message>
        <source>%1 is a file the window opened: choose another name, so that it stays as it is.</source>
        <translation>%1 是窗口打开的文件：请换一个文件名，让它保持原样。</translation>
    </message>
    <message>
        <source>Export the HTML report</source>
        <translation>导出 HTML 报告</translation>
    </message>
    <message>
        <source>HTML pages (*.html)</source>
        <translation>HTML 网页 (*.html)</translation>
    </message>
    <message>
        <source>Export the sequence diagram as Mermaid</source>
        <translation>导出时序图为 Mermaid</translation>
    </message>
    <message>
        <source>Mermaid diagrams (*.mmd *.md)</source>
        <translation>Mermaid 图 (*.mmd *.md)</translation>
    </message>
    <message>
        <source>Export the sequence diagram as PlantUML</source>
        <translation>导出时序图为 PlantUML</translation>
    </message>
    <message>
        <source>PlantUML diagrams (*.puml)</source>
        <translation>PlantUML 图 (*.puml)</translation>
    </message>
    <message>
        <source>Writing the report</source>
        <translation>正在写报告</translation>
    </message>
    <message>
        <source>Writing the sequence diagram</source>
        <translation>正在写时序图</translation>
    </message>
    <message>
        <source>Cannot export</source>
        <translation>无法导出</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>Export the lesson hand-out</source>
        <translation>导出课程讲义</translation>
    </message>
    <message>
        <source>Cannot export the hand-out</source>
        <translation>无法导出讲义</translation>
    </message>
    <message>
        <source>No lesson is open: choose one under Guided lessons first.</source>
        <translation>没有打开的课程：请先在“课程”菜单里选择一门。</translation>
    </message>
    <message>
        <source>Export the events as a spreadsheet</source>
        <translation>把事件导出为电子表格</translation>
    </message>
    <message>
        <source>Spreadsheets (*.xlsx)</source>
        <translation>电子表格 (*.xlsx)</translation>
    </message>
    <message>
        <source>Writing the spreadsheet</source>
        <translation>正在写电子表格</translation>
    </message>
</context>
<context>
    <name>idem::Workbench</name>
    <message>
        <source>waits for its turn in the schedule</source>
        <translation>按调度等待轮到自己</translation>
    </message>
</context>
<context>
    <name>idem::WorkbenchView</name>
    <message>
        <source>Line %1 does not compile: fix it first</source>
        <translation>第 %1 行无法编译：请先修正</translation>
    </message>
    <message>
        <source>Checking on %1…</source>
        <translation>正在 %1 上检查…</translation>
    </message>
    <message>
        <source>Line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>The handler cannot be checked: %1</source>
        <translation>处理函数无法检查：%1</translation>
    </message>
    <message>
        <source>The check could not run: %1</source>
        <translation>检查无法运行：%1</translation>
    </message>
    <message>
        <source>Passed: no schedule broke it.</source>
        <translation>通过：没有任何调度能让它出错。</translation>
    </message>
    <message>
        <source>Failed: the smallest run that breaks it is below.</source>
        <translation>未通过：让它出错的最小运行见下方。</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>未通过：%1</translation>
    </message>
    <message>
        <source>failed: over the target</source>
        <translation>未通过：超出目标</translation>
    </message>
    <message>
        <source>#%1 was told %2 (%3), but the database shows %4.</source>
        <translation>#%1 得到的应答是 %2（%3），但数据库里是 %4。</translation>
    </message>
    <message>
        <source>Verdict: %1.</source>
        <translation>裁决：%1。</translation>
    </message>
    <message>
        <source>Your handler failed: %1</source>
        <translation>你的处理函数出错：%1</translation>
    </message>
    <message>
        <source>Over the challenge&apos;s target: %1</source>
        <translation>超出挑战的目标：%1</translation>
    </message>
    <message>
        <source>You write:</source>
        <translation>你要写的：</translation>
    </message>
    <message>
        <source>; a crash before every statement and every answer lost</source>
        <translation>；在每条语句之前崩溃，并让每个应答丢失</translation>
    </message>
    <message>
        <source>; the first attempt stalls past its lease before each statement</source>
        <translation>；第一次尝试在每条语句之前停顿，直到租约过期</translation>
    </message>
    <message>
        <source>The lab attacks it with:</source>
        <translation>实验室用这些方式攻击它：</translation>
    </message>
    <message>
        <source>Target:</source>
        <translation>目标：</translation>
    </message>
    <message>
        <source>Hint %1:</source>
        <translation>提示 %1：</translation>
    </message>
    <message>
        <source>Show a hint (%1 of %2)</source>
        <translation>显示提示（第 %1 条，共 %2 条）</translation>
    </message>
    <message>
        <source>Cannot save the handler to %1: %2</source>
        <translation>无法把处理函数保存到 %1：%2</translation>
    </message>
    <message>
        <source>the starter, not saved yet (Ctrl+S)</source>
        <translation>起始代码，尚未保存（Ctrl+S）</translation>
    </message>
    <message>
        <source>edited, not saved (Ctrl+S)</source>
        <translation>已修改，尚未保存（Ctrl+S）</translation>
    </message>
    <message>
        <source>saved</source>
        <translation>已保存</translation>
    </message>
    <message>
        <source>%1 changed on disk; your unsaved edits are kept here (Ctrl+S writes them over it)</source>
        <translation>%1 在磁盘上被改动；你未保存的修改仍留在这里（Ctrl+S 会用它们覆盖文件）</translation>
    </message>
    <message>
        <source>Reloaded %1: it changed on disk</source>
        <translation>已重新载入 %1：它在磁盘上被改动了</translation>
    </message>
    <message>
        <source>Start over</source>
        <translation>从头开始</translation>
    </message>
    <message>
        <source>Replace the handler in the editor with the challenge&apos;s starter? Undo (Ctrl+Z) brings your text back.</source>
        <translation>用挑战的起始代码替换编辑器里的处理函数？撤销（Ctrl+Z）可以找回你的代码。</translation>
    </message>
    <message>
        <source>Line %1, column %2: %3</source>
        <translation>第 %1 行第 %2 列：%3</translation>
    </message>
    <message>
        <source>Challen&amp;ges</source>
        <translation>挑战(&amp;G)</translation>
    </message>
    <message>
        <source>Challenges</source>
        <translation>挑战</translation>
    </message>
    <message>
        <source>Reveals the challenge&apos;s hints one at a time</source>
        <translation>一次显示一条挑战提示</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Writes the handler to its file (Ctrl+S); edit it elsewhere too, it is reloaded when it changes</source>
        <translation>把处理函数写入它的文件（Ctrl+S）；也可以用别的编辑器修改，文件变化时会重新载入</translation>
    </message>
    <message>
        <source>Puts the challenge&apos;s starter handler back in the editor</source>
        <translation>把挑战的起始处理函数放回编辑器</translation>
    </message>
    <message>
        <source>Handler (JavaScript)</source>
        <translation>处理函数（JavaScript）</translation>
    </message>
    <message>
        <source>function* handle(request, db): yield each db call. Ctrl+Tab leaves the editor.</source>
        <translation>function* handle(request, db)：每次调用 db 都要 yield。Ctrl+Tab 离开编辑器。</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Runs every schedule of the attacks on your handler (F5 or Ctrl+Enter)</source>
        <translation>对你的处理函数运行攻击的每一种调度（F5 或 Ctrl+Enter）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stops the check (Escape)</source>
        <translation>停止检查（Esc）</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>数据库</translation>
    </message>
    <message>
        <source>Pree&amp;mptions:</source>
        <translation>抢占次数(&amp;M)：</translation>
    </message>
    <message>
        <source>The most times a schedule switches away from an attempt that had statements left</source>
        <translation>一种调度最多可以在某次尝试还有语句没执行时切换走几次</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Schedules run</source>
        <translation>已运行的调度</translation>
    </message>
    <message>
        <source>Skipped as repeats</source>
        <translation>因重复而跳过</translation>
    </message>
    <message>
        <source>Left out by the bound</source>
        <translation>超出上限而略去</translation>
    </message>
    <message>
        <source>Check results</source>
        <translation>检查结果</translation>
    </message>
    <message>
        <source>Step the failing run</source>
        <translation>单步查看失败的运行</translation>
    </message>
    <message>
        <source>Puts the smallest failing run on the stage at its first wrong step</source>
        <translation>把最小的失败运行放到舞台上，停在它第一次出错的那一步</translation>
    </message>
    <message>
        <source>Checking on %1: schedules run: %2…</source>
        <translation>正在 %1 上检查：已运行的调度 %2 种…</translation>
    </message>
    <message>
        <source>Check cancelled (schedules run: %1).</source>
        <translation>检查已取消（已运行的调度：%1 种）。</translation>
    </message>
    <message>
        <source>Schedules run: %1, with a crash before every statement and every answer lost where the challenge asks for them; none broke the handler.</source>
        <translation>已运行的调度：%1 种，并按挑战的要求在每条语句之前制造崩溃、让每个应答丢失；没有一种让处理函数出错。</translation>
    </message>
    <message>
        <source>%1, %2, duplicates: %3</source>
        <translation>%1，%2，重复请求：%3 个</translation>
    </message>
    <message>
        <source>statements per request: at most %1</source>
        <translation>每个请求的语句：最多 %1 条</translation>
    </message>
    <message>
        <source>Every hint is shown (%1)</source>
        <translation>提示已全部显示（%1 条）</translation>
    </message>
    <message>
        <source>Cannot save the handler: there is no folder for the lab&apos;s data</source>
        <translation>无法保存处理函数：没有存放实验室数据的文件夹</translation>
    </message>
    <message>
        <source>Cannot save the handler: cannot make the folder %1</source>
        <translation>无法保存处理函数：无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>%1 (attempt:statements in turn)</source>
        <translation>%1（按顺序写作 尝试:语句数）</translation>
    </message>
    <message>
        <source>Smallest failing run: %1 attempts, %2 statements, %3 preemptions; schedule %4; %5, %6.</source>
        <translation>最小的失败运行：%1 次尝试、%2 条语句、%3 次抢占；调度 %4；%5，%6。</translation>
    </message>
    <message>
        <source>%1 + Redis</source>
        <translation>%1 + Redis</translation>
    </message>
    <message>
        <source>Redis</source>
        <translation>Redis</translation>
    </message>
    <message>
        <source>Check with a private Redis</source>
        <translation>使用私有 Redis 检查</translation>
    </message>
    <message>
        <source>This challenge keeps nothing in Redis.</source>
        <translation>这个挑战不在 Redis 里存任何东西。</translation>
    </message>
    <message>
        <source>Redis is not installed (Debian package %1): %2</source>
        <translation>没有安装 Redis（Debian 软件包 %1）：%2</translation>
    </message>
    <message>
        <source>Checks with a private Redis: the handler may yield redis.call(...), and a consumer&apos;s messages come from a Redis stream</source>
        <translation>使用私有 Redis 检查：处理函数可以 yield redis.call(...)，消费者的消息来自 Redis 消息流</translation>
    </message>
    <message>
        <source>Not installed on this computer (Debian package %1): %2</source>
        <translation>这台电脑上没有安装（Debian 软件包 %1）：%2</translation>
    </message>
    <message>
        <source>SQLite in a file of its own for each run: one writer at a time</source>
        <translation>SQLite，每次运行一个独立的文件：同一时刻只有一个写者</translation>
    </message>
    <message>
        <source>A private %1 server the lab starts for the check: its locks, waits and isolation levels decide what your handler&apos;s statements see</source>
        <translation>实验室为这次检查启动的私有 %1 服务器：它的锁、等待和隔离级别决定你的处理函数的语句看到什么</translation>
    </message>
    <message>
        <source>The database your handler is checked on</source>
        <translation>检查你的处理函数所用的数据库</translation>
    </message>
    <message>
        <source>Isolation level</source>
        <translation>隔离级别</translation>
    </message>
    <message>
        <source>The isolation level every transaction of the check runs at: the same handler can pass at one level and fail at another</source>
        <translation>检查中每个事务使用的隔离级别：同一个处理函数可能在一个级别下通过、在另一个级别下失败</translation>
    </message>
    <message>
        <source>passed on %1</source>
        <translation>在 %1 上通过</translation>
    </message>
    <message>
        <source>failed on %1</source>
        <translation>在 %1 上未通过</translation>
    </message>
    <message>
        <source>not tried on %1</source>
        <translation>尚未在 %1 上试过</translation>
    </message>
    <message>
        <source>Isolation</source>
        <translation>隔离级别</translation>
    </message>
    <message>
        <source>#%1 was told %2 without a result, but the database shows %3.</source>
        <translation>#%1 得到的应答是 %2，却没有结果，但数据库里是 %3。</translation>
    </message>
    <message>
        <source>%1&apos;s own level: the one its transactions get unless told</source>
        <translation>%1 自己的默认级别：不另行指定时事务都用它</translation>
    </message>
</context>
<context>
    <name>idem::ZipWriter</name>
    <message>
        <source>the workbook would be larger than 4 GiB: export it as CSV</source>
        <translation>工作簿会超过 4 GiB：请改为导出 CSV</translation>
    </message>
</context>
<context>
    <name>idem::cli::ReportWords</name>
    <message>
        <source>State diagram</source>
        <translation>状态图</translation>
    </message>
    <message>
        <source>Sequence diagram</source>
        <translation>时序图</translation>
    </message>
</context>
<context>
    <name>idem::cli::RunSummary</name>
    <message>
        <source>  timing %1, source %2, duplicates %3, seed %4</source>
        <translation>  时机 %1，来源 %2，重复 %3 次，种子 %4</translation>
    </message>
    <message>
        <source>, crash %1 on attempt %2</source>
        <translation>，尝试 #%2 在 %1 崩溃</translation>
    </message>
    <message>
        <source>  intents %1, attempts %2, virtual time %3 ms</source>
        <translation>  意图 %1 个，尝试 %2 次，虚拟时间 %3 毫秒</translation>
    </message>
    <message>
        <source>  responses: %1</source>
        <translation>  应答：%1</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>  effect %1: %2 (expected %3)</source>
        <translation>  业务效果 %1：%2（预期 %3）</translation>
    </message>
    <message>
        <source>  ALERT %1</source>
        <translation>  告警：%1</translation>
    </message>
    <message>
        <source>  inconsistent: %1</source>
        <translation>  不一致：%1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>  wrong answer: attempt #%1 was told %2, but %3</source>
        <translation>  错误应答：尝试 #%1 收到的应答是“%2”，但数据库显示：%3</translation>
    </message>
    <message>
        <source>, %1 lock waits</source>
        <translation>，等锁 %1 次</translation>
    </message>
    <message>
        <source>  verdict: %1</source>
        <translation>  结论：%1</translation>
    </message>
    <message>
        <source> — accepted cost (the business accepts repeating this effect)</source>
        <translation>——可接受的代价（业务允许这个效果重复）</translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation>（%1）</translation>
    </message>
    <message>
        <source>  INCOMPLETE: the run was stopped before its end</source>
        <translation>  不完整：运行在结束前被停止了</translation>
    </message>
    <message>
        <source>  integrity: %1</source>
        <translation>  完整性检查：%1</translation>
    </message>
    <message>
        <source>, crash %1 on relay pass %2</source>
        <translation>，中继 %2 在 %1 崩溃</translation>
    </message>
    <message>
        <source>no transaction opened (each statement commits alone)</source>
        <translation>没有开启事务（每条语句各自提交）</translation>
    </message>
    <message>
        <source>%1 transactions</source>
        <translation>%1 个事务</translation>
    </message>
    <message>
        <source>  cost per intent: %1 statements, %2, %3 rows written</source>
        <translation>  每个意图的开销：%1 条语句，%2，写入 %3 行</translation>
    </message>
</context>
</TS>

"""The grader's sentences (feedback for entries that cannot run, progress, the report, gradebooks), in Chinese and English."""

from labkit.i18n import register

register(
    {
        # --- why a submission could not run (feedback, report) ------------------------------------
        "status.no_student_py": (
            "没有找到 {student_file}。提交里有: {found}",
            "no {student_file} found. The submission holds: {found}",
        ),
        "status.several_student_py": (
            "提交里有不止一个 {student_file} ({found})，无法判断该测哪一个",
            "several {student_file} files in the submission ({found}); no way to tell which to test",
        ),
        "status.bad_archive": (
            "压缩包打不开 (损坏、加密、太大或不是 zip/tar.gz)",
            "the archive cannot be opened (damaged, encrypted, too large, or not a zip/tar.gz)",
        ),
        "status.unsupported": (
            "不是文件夹、.py、.zip 或 .tar.gz，没有评分",
            "not a folder, .py, .zip or .tar.gz; not graded",
        ),
        "status.unreadable": ("读不了这个提交 (权限?)", "this submission cannot be read (permissions?)"),
        "status.too_many_files": (
            "提交里的文件和文件夹太多 (超过 20000 个)，没有评分",
            "too many files and folders in the submission (over 20000); not graded",
        ),
        "status.system_error": (
            "测试机没能运行这份提交 (进程数或磁盘空间用完了)，不是学生的问题: 请重新评分",
            "the machine could not run this submission (out of processes or disk space), through "
            "no fault of the student: grade it again",
        ),
        "status.grader_error": (
            "评分程序在处理 {entry} 时出错，这不是你的错: {cause}。请把这段话发给老师或助教。",
            "the grader failed on {entry}, through no fault of yours: {cause}. Please send this to your instructor.",
        ),
        "status.worker_timeout": (
            "评分 {entry} 的进程超过了它的时间 ({seconds:g} 秒) 或被暂停了，已被终止: {cause}。这份提交按超时计。",
            "grading {entry} ran past its time ({seconds:g} s) or was stopped, and was ended: "
            "{cause}. The submission counts as timed out.",
        ),
        "status.worker_died_own": (
            "评分 {entry} 的进程在运行它时结束了: {cause}。在这个隔离级别 ({level}) 提交的代码能"
            "结束这个进程，所以这算作这份提交的失败。",
            "the process grading {entry} ended while it ran: {cause}. At this sandbox level "
            "({level}) a submission's code can end that process, so this counts as the "
            "submission's failure.",
        ),
        # --- statuses in the report's and terminal's words ----------------------------------------
        "label.ok": ("全部运行完", "ran to the end"),  # loaded, and every case returned (right or wrong)
        "label.syntax_error": ("语法错误", "syntax error"),
        "label.not_utf8": ("不是 UTF-8", "not UTF-8"),
        "label.too_large": ("文件太大", "file too large"),
        "label.import_error": ("加载出错", "failed to load"),
        "label.missing_function": ("缺少函数", "missing function"),
        "label.timeout": ("超时", "timed out"),
        "label.crashed": ("进程崩溃", "crashed"),
        "label.memory": ("内存超限", "out of memory"),
        "label.disk": ("文件写满", "filled its folder"),
        "label.missing_file": ("找不到文件", "file missing"),
        "label.no_student_py": ("没有 {student_file}", "no {student_file}"),
        "label.several_student_py": ("多个 {student_file}", "several {student_file}"),
        "label.bad_archive": ("压缩包损坏", "bad archive"),
        "label.unsupported": ("不支持的文件", "unsupported file"),
        "label.unreadable": ("无法读取", "unreadable"),
        "label.too_many_files": ("文件太多", "too many files"),
        "label.grader_error": ("评分程序出错", "grader error"),
        "label.system_error": ("测试机出错", "machine error"),
        # --- decisions about a student's files, stated at the top of their feedback ---------------
        "feedback.notes": ("关于你提交的文件:", "About the files you handed in:"),
        "note.chose_backup": (
            "测试的是 {chosen}；{others} 在备份文件夹里，没有测试",
            "tested {chosen}; {others} sits in a backup folder and was not tested",
        ),
        "note.chose_lab_copy": (
            "提交的是整个实验文件夹，测试的是其中的 {chosen}；没有测试 {others}",
            "the whole lab folder was handed in: tested its {chosen}; not {others}",
        ),
        "note.chose_top_level": (
            "测试的是最外层的 {chosen}；没有测试更深处的 {others}",
            "tested the top-level {chosen}; not the deeper {others}",
        ),
        "note.chose_exact_name": (
            "测试的是名字正好是 {student_file} 的 {chosen}；没有测试 {others}",
            "tested {chosen}, the one named exactly {student_file}; not {others}",
        ),
        "note.attempt": (
            "一共提交了 {total} 次，计分的是第 {number} 次 ({rule})",
            "{total} attempts handed in; attempt {number} counts ({rule})",
        ),
        "note.rule_latest": ("按最后一次", "the latest"),
        "note.rule_best": ("按分数最高的一次", "the best"),
        "note.helpers": (
            "你的辅助模块也放在了 {student_file} 旁边: {files}",
            "your helper modules were put beside {student_file}: {files}",
        ),
        "note.online_text": ("在线文本不是代码，没有评分", "the online text is not code and was not graded"),
        "note.skipped": (
            "这些没有打开 (链接、特殊文件或不安全的路径): {files}",
            "not opened (links, special files or unsafe paths): {files}",
        ),
        "note.renamed": (
            "没有 {student_file}；测试的是定义了这些函数的 {file}。下次请命名为 {student_file}",
            "no {student_file}; tested {file}, which defines the functions. Name it {student_file} next time",
        ),
        # --- what SUBMISSIONS holds, said in the terminal's summary (labkit/instructor/lms/downloads.py) -------------------
        "download.layout": ("{layout} ({count} 个条目)", "{layout} ({count} entries)"),
        "download.plain": ("普通条目 (每个一名学生)", "plain (one student each)"),
        "download.and": ("、", ", "),
        "download.empty": ("没有条目", "no entries"),
        "download.folder": (
            "SUBMISSIONS: 文件夹 {folder}，认出的布局: {layouts}",
            "SUBMISSIONS: the folder {folder}, layout recognised: {layouts}",
        ),
        "download.zip": (
            "SUBMISSIONS: {zip} 是 LMS 的下载，认出的布局: {layouts}；直接读 zip，不解压",
            "SUBMISSIONS: {zip} is an LMS download, layout recognised: {layouts}; read from the zip, never extracted",
        ),
        "download.folder_zip": (
            "SUBMISSIONS: 文件夹 {folder} 里只有 {zip}，它是 LMS 的下载，认出的布局: {layouts}；直接读 zip，不解压",
            "SUBMISSIONS: the folder {folder} holds only {zip}, an LMS download, layout recognised: "
            "{layouts}; read from the zip, never extracted",
        ),
        "download.student_zip": (
            "SUBMISSIONS: {zip} 里的文件不是 Canvas、Moodle 或 Blackboard 下载的格式: 当作一名学生的提交 "
            "(普通条目)。要评一个班级文件夹，请先解压",
            "SUBMISSIONS: the files in {zip} are in no Canvas, Moodle or Blackboard layout: graded as "
            "one student's submission (plain). To grade a class folder, unzip it first",
        ),
        "download.unreadable": ("SUBMISSIONS: 读不了 {source}: {error}", "SUBMISSIONS: cannot read {source}: {error}"),
        "download.missing": ("SUBMISSIONS: {source} 不存在", "SUBMISSIONS: {source} does not exist"),
        "download.missing_relative": (
            "SUBMISSIONS: {given} 不存在 (从当前文件夹算起是 {source})",
            "SUBMISSIONS: {given} does not exist (taken from the current folder: {source})",
        ),
        "download.not_a_class": (
            "SUBMISSIONS: {source} 是一个文件，不是班级文件夹，也不是 LMS 下载的 .zip: 请给装着全班提交的文件夹或那个 .zip",
            "SUBMISSIONS: {source} is a file, neither a class's folder nor an LMS download's .zip: "
            "pass the folder that holds the class's submissions, or that .zip",
        ),
        "download.one_level_down": (
            "SUBMISSIONS: {source} 里 ({found}) 没有一个条目像 LMS 下载里的提交，但再往下一层有 LMS 的下载: "
            "是不是要给 {meant}?",
            "SUBMISSIONS: nothing in {source} ({found}) is named as in an LMS download, but one "
            "level down there is one: did you mean {meant}?",
        ),
        "download.nothing": (
            "SUBMISSIONS: {source} 里没有像提交的东西 (哪里都没有 .py、.zip 或 .tar.gz；找到的: {found})，"
            "请给装着全班提交的文件夹或 LMS 下载的 .zip",
            "SUBMISSIONS: nothing in {source} looks like a submission (no .py, .zip or .tar.gz in it; "
            "found: {found}): pass the folder that holds the class's submissions, or the LMS's .zip",
        ),
        "download.too_many": (
            "SUBMISSIONS: {zip} 的目录列了 {entries} 个条目 ({megabytes:.1f} MB)，比一个班级的下载多 (最多 {most} 个)，"
            "没有打开它。请看看它是什么；真是全班的下载的话，解压后把文件夹交给 SUBMISSIONS=",
            "SUBMISSIONS: the directory of {zip} lists {entries} entries ({megabytes:.1f} MB), more than a "
            "class's download holds (at most {most}): not opened. Look at what it is; if it really is the "
            "class's download, unzip it and pass the folder as SUBMISSIONS=",
        ),
        # --- LMS downloads: decisions stated in the feedback (lms stream) ---------------------------
        "lms.note.versions": (
            "{files} 是同一次上传里同一个文件的几个副本 (LMS 或浏览器改的名)；测试的是编号最大、最新的 {chosen}",
            "{files} are copies of one file in one upload (renamed by the LMS or the browser); "
            "tested {chosen}, the highest number, the newest",
        ),
        "lms.note.empty": (
            "{file} 是空文件 ({size} 字节，里面没有代码)，所以下面每个测试都找不到函数；是不是交错了文件?",
            "{file} is empty ({size} bytes, no code in it), so every check below finds no function: was the "
            "wrong file handed in?",
        ),
        "lms.note.link": (
            "提交的是一个网址 (link.html)，不是代码，没有评分",
            "a URL was submitted (link.html): not code, not graded",
        ),
        "lms.note.receipt_only": (
            "只有 Blackboard 的回执，没有附加文件；在提交框里输入的文字不是代码，没有评分",
            "only Blackboard's receipt, no file attached; text typed into the Submission Field is "
            "not code and was not graded",
        ),
        "lms.note.team": (
            "这是小组 {team} 的提交: 只评分一次；小组其他成员的成绩请在 LMS 里给",
            "a group submission ({team}): graded once; give its other members the grade in the LMS",
        ),
        # --- the run --------------------------------------------------------------------------------
        "grade.progress": (
            "评分中 {done}/{total} · 已用 {elapsed:.1f} 秒 · 预计还要 {eta:.1f} 秒",
            "grading {done}/{total} · {elapsed:.1f} s elapsed · ETA {eta:.1f} s",
        ),
        "grade.interrupted": (
            "已中断: 所有学生进程都已结束，什么也没有写；{out}/ 里还是之前的结果",
            "interrupted: every student process stopped, nothing written; {out}/ keeps its previous results",
        ),
        "grade.setup_failed": (
            "评分失败: {why}；没有评任何提交，{out}/ 里还是之前的结果",
            "grading failed: {why}; no submission was graded and {out}/ keeps its previous results",
        ),
        "grade.nobody_graded": (
            "评分失败: {count} 份提交全部是 grader_error，没有一份评上分 (第一份的原因: {why})；"
            "这是评分环境的问题，不是学生的: 修好后重新 make grade",
            "grading failed: all {count} submission(s) ended grader_error, none was graded (the "
            "first one's cause: {why}); the grading setup is at fault, not the students: fix it "
            "and run make grade again",
        ),
        "grade.write_failed": (
            "写不了 {out}/ ({error})；{out}/ 里还是之前的结果",
            "could not write {out}/ ({error}); {out}/ keeps its previous results",
        ),
        "sandbox.full": ("沙箱: {level} (隔离: {walls})", "sandbox: {level} (walls: {walls})"),
        "sandbox.weak": (
            "沙箱不完整，是老师用 UNSAFE= 选的: {level} (隔离: {walls})。学生代码能做的事比应有的多，见 README 的威胁模型",
            "SANDBOX BELOW FULL STRENGTH, chosen with UNSAFE=: {level} (walls: {walls}). Student code can do "
            "more than it should; see README's threat model",
        ),
        "sandbox.warning": (
            "警告: 按 UNSAFE={choice} 在不完整的沙箱 {level} 下评分，学生代码能: {open}。见 README 的威胁模型",
            "WARNING: grading at sandbox level {level}, below full strength, as UNSAFE={choice} chose: "
            "student code can {open}; see README's threat model",
        ),
        # --- refusing to grade: a level not chosen, what the child could read (labkit/instructor/audit.py) ----
        "sandbox.refuse_level": (
            "拒绝评分: 这里的沙箱是 {level}，挡不住学生代码: {open}。完整的沙箱需要{missing}。"
            "确认要在这一级评分: make grade … UNSAFE={choice}{given}",
            "refusing to grade: the sandbox here is {level}, which does not stop student code from: "
            "{open}. Full strength needs {missing}. To grade at this level knowingly: make grade … "
            "UNSAFE={choice}{given}",
        ),
        "sandbox.other_choice": (" (UNSAFE={given} 指的是别的级别)", " (UNSAFE={given} names another level)"),
        "sandbox.and": ("；", "; "),
        "sandbox.or": ("，或 ", ", or "),
        "sandbox.attack.read": (
            "读实验文件夹 (参考答案)、你的文件、/etc/shadow",
            "read the lab (the answer key), your files, /etc/shadow",
        ),
        "sandbox.attack.write": (
            "改它自己文件夹以外的文件 (grades.csv、实验文件夹、主目录)",
            "change files outside its own folder (grades.csv, the lab, your home folder)",
        ),
        "sandbox.attack.shared": (
            "在人人可写的文件夹 (/tmp、/var/tmp、/dev/shm) 留下别人看得到的文件",
            "leave files in world-writable folders (/tmp, /var/tmp, /dev/shm) that others see",
        ),
        "sandbox.attack.signal": (
            "给评分程序和别的进程发信号、让它们停住",
            "signal or stop the grader and other processes",
        ),
        "sandbox.attack.network": ("连网络 (TCP、UDP)", "open network connections (TCP, UDP)"),
        "sandbox.attack.sockets": (
            "连本机的套接字 (D-Bus 会话总线、ssh/gpg agent、X11)，等于以你的身份执行命令",
            "connect to local sockets (your D-Bus session bus, ssh and gpg agents, X11), i.e. run commands as you",
        ),
        "sandbox.attack.processes": ("用光评分用户的进程数", "use up the processes of the user running the grader"),
        "sandbox.attack.leftover": ("评完以后还留着进程", "leave processes running after it was graded"),
        "sandbox.attack.disk": (
            "用文件写满磁盘或内存 (它的文件夹、/tmp、/dev/shm、memfd)",
            "fill the disk or memory with files (its folder, /tmp, /dev/shm, memfd)",
        ),
        "sandbox.need.bwrap": (
            "bubblewrap (软件包 bubblewrap: apt-get install bubblewrap)",
            "bubblewrap (the package bubblewrap: apt-get install bubblewrap)",
        ),
        "sandbox.need.bwrap_refused": (
            "能启动的 bubblewrap (已安装，但这台机器不给它用户命名空间)",
            "a bubblewrap that can start (it is installed, but this machine refuses it user namespaces)",
        ),
        "sandbox.need.landlock": (
            "Landlock ABI 6 (Linux 6.12；这里: {abi})",
            "Landlock ABI 6 (Linux 6.12; here: {abi})",
        ),
        "sandbox.need.pid_namespace": (
            "每个学生进程自己的 pid 和挂载命名空间 (这台机器或容器不给用户命名空间)",
            "a pid and mount namespace of each child's own (this kernel or container refuses user namespaces)",
        ),
        "sandbox.need.processes": (
            "每个学生进程自己的进程数上限 (Linux 5.14 起的用户命名空间，或 root 能写的 pids cgroup)",
            "a process limit of each child's own (user namespaces, Linux 5.14+; or a pids cgroup root may write)",
        ),
        "sandbox.need.capped": ("去掉 {settings}", "leaving out {settings}"),
        "audit.refuse": (
            "拒绝评分: 沙箱 {level} 下学生代码能读到{findings}",
            "refusing to grade: at sandbox level {level} student code could read {findings}",
        ),
        "audit.finding": (
            "{what} {path} ({count} 个文件，如 {examples})，修复: {fix}",
            "{what} {path} ({count} file(s), e.g. {examples}); fix: {fix}",
        ),
        "audit.what.lab": (
            "实验文件夹 (参考答案、它的 git 历史和字节码、测试)",
            "the lab (the answer key, its git history and bytecode, the tests)",
        ),
        "audit.what.course": ("课程文件 (评分方案和密钥)", "the course file (the grading scheme and its secret)"),
        "audit.what.bytecode": ("评分程序的字节码 (包括参考答案的)", "the grader's bytecode (the answer key's too)"),
        "audit.what.submissions": ("全班的提交 (同学的代码)", "the class's submissions (classmates' code)"),
        "audit.what.out": (
            "之前的评分结果 (反馈里有每个学生的期望值)",
            "earlier results (their feedback holds each student's expected values)",
        ),
        "audit.what.roster": ("名单 (同学的姓名和编号)", "the roster (classmates' names and ids)"),
        "audit.what.metadata": (
            "Gradescope 的提交信息 (里面有之前每次提交的全部结果)",
            "Gradescope's submission metadata (it holds every earlier result in full)",
        ),
        "audit.fix.chmod": ("chmod go-rwx {path}", "chmod go-rwx {path}"),
        "audit.fix.move": (
            "把它移出 {shown} (沙箱让学生代码看得到 {shown}，它读这些文件时是文件的主人)",
            "move it out of {shown} (the sandbox shows {shown} to student code, which reads these files "
            "as their owner)",
        ),
        "feedback.sandbox": (
            "这次评分的沙箱是 {level}，不是完整的沙箱 (老师的选择)。",
            "Graded at sandbox level {level}, below full strength (your instructor's choice).",
        ),
        "sandbox.other_levels": (
            "其中 {count} 名学生的沙箱不是上面这一级 (多半更弱: 评分中途有一道墙失效): {students}",
            "{count} students were graded at another level than this one (most likely weaker: a wall "
            "failed during the run): {students}",
        ),
        # --- regrades -----------------------------------------------------------------------------
        "regrade.refuse": (
            "{out}/ 里已有 {count} 名学生的结果，其中 {lost} 名 ({examples} …) 不在这次的 SUBMISSIONS 里。"
            "只替换这次评分的 {graded} 名学生的行请加 MERGE=1，否则请换一个 OUT=",
            "{out}/ already holds results of {count} students, {lost} of them ({examples} …) not in these "
            "SUBMISSIONS. Add MERGE=1 to replace only the rows of the {graded} graded now, or choose "
            "another OUT=",
        ),
        "regrade.unreadable": (
            "{out}/grades.json 读不了 ({error})，不能在它上面合并或覆盖；请换一个 OUT= 或先移走它",
            "{out}/grades.json cannot be read ({error}); not merging into or replacing it: choose "
            "another OUT= or move it away",
        ),
        "regrade.other_cases": (
            "{out}/ 里的结果来自另一版测试表，不能合并；请整个班重新评分或换一个 OUT=",
            "{out}/ was graded with another case table and cannot be merged; regrade the whole class or "
            "choose another OUT=",
        ),
        "regrade.summary": (
            "合并: 评分 {graded} 名，{changed} 处变化，保留其他 {kept} 名",
            "merged: {graded} graded, {changed} changed, {kept} others kept",
        ),
        "regrade.added": ("{student}: — → {new} (新增)", "{student}: — → {new} (new)"),
        # --- gradebooks ---------------------------------------------------------------------------
        "roster.unreadable": ("读不了名单 {path} ({error})", "cannot read the roster {path} ({error})"),
        "roster.not_utf8": (
            "名单 {path} 不是 UTF-8 编码: 请从 LMS 重新导出 CSV",
            "the roster {path} is not UTF-8: export it from the LMS again as CSV",
        ),
        "roster.unknown": (
            "{path} 既不是 Canvas 成绩册导出，也不是 Moodle 评分表 (grading worksheet)",
            "{path} is neither a Canvas gradebook export nor a Moodle grading worksheet",
        ),
        "roster.unmatched": (
            "名单里找不到的提交 ({count}): {ids}",
            "submissions missing from the roster ({count}): {ids}",
        ),
        # --- the import line and every roster row accounted for (lms stream, issue 29) ---------------------------
        "gradebook.ready": (
            "{file} 已按名单写好，可以导入: {written} 行写了成绩，名单上其余的行上面都有交代",
            "{file} follows the roster and is ready to import: {written} rows got a grade, every other row "
            "is accounted for above",
        ),
        "gradebook.not_ready": (
            "{file} 已写出，但还不能直接导入: {problems}",
            "{file} is written but NOT ready to import: {problems}",
        ),
        "gradebook.empty": (
            "{file} 导入的会是空的一列: {count} 份提交没有一份对得上名单里的行 ({ids})。这是这门课、这个作业的成绩册吗?",
            "{file} would import an empty column: none of the {count} submissions matches a row of the "
            "roster ({ids}). Is it this course's gradebook?",
        ),
        "gradebook.and": ("；", "; "),
        "gradebook.problem.unmatched": (
            "{count} 份提交在名单里找不到，它们的成绩没有写进去 ({ids})",
            "{count} submissions match no row, and their grades are in it nowhere ({ids})",
        ),
        "gradebook.problem.failed": (
            "{count} 行因为评分程序或测试机出错留空，请重新评分 ({who})",
            "{count} rows left blank because the grader or the machine failed: grade them again ({who})",
        ),
        "gradebook.column": (
            "{file}: 写的是 {column} 这一列 (满分 {maximum})",
            "{file}: writes the column {column} (out of {maximum})",
        ),
        "gradebook.column_new": (
            "{file}: 新加的一列 {column} (满分 {maximum})；导入时 Canvas 会把它建成一个新作业",
            "{file}: a new column {column} (out of {maximum}); Canvas makes it a new assignment when you import it",
        ),
        "gradebook.column_missing": (
            "{file}: 成绩册里没有 {column} 这一列 (最接近的: {closest})；它作为新的一列写出，但这个成绩册里"
            "没有一份提交对得上 (见最后一行)",
            "{file}: the gradebook has no column {column} (the closest: {closest}); written as a new "
            "column, but no submission is in this gradebook (see the last line)",
        ),
        "gradebook.rows": ("名单 {total} 行 = {parts}", "the roster's {total} rows = {parts}"),
        "gradebook.part.graded": ("写了成绩 {count}", "{count} graded"),
        "gradebook.part.no_code_zero": (
            "没有可运行的代码、写了 0 分 {count}",
            "{count} with no code to run, written 0",
        ),
        "gradebook.part.no_code_blank": ("没有可运行的代码、留空 {count}", "{count} with no code to run, left blank"),
        "gradebook.part.failed": ("评分出错、留空 {count}", "{count} left blank (grading failed)"),
        "gradebook.part.no_submission": ("没有提交 {count}", "{count} without a submission"),
        "gradebook.part.excused": ("EX (免交) {count}", "{count} excused (EX)"),
        "gradebook.part.cannot_see": ("N/A (看不到这个作业) {count}", "{count} N/A (cannot see it)"),
        "gradebook.part.test_student": ("Test Student {count}", "{count} Test Student"),
        "gradebook.list.graded": ("  写了成绩 ({count}): {who}", "  graded ({count}): {who}"),
        "gradebook.list.no_code_zero": (
            "  没有可运行的代码，按课程文件写了 0 分 ({count}): {who}",
            "  no code to run, written 0 as the course file says ({count}): {who}",
        ),
        "gradebook.list.no_code_blank": (
            "  没有可运行的代码，按课程文件留空 ({count}): {who}",
            "  no code to run, left blank as the course file says ({count}): {who}",
        ),
        "gradebook.list.failed": ("  评分出错、留空 ({count}): {who}", "  left blank, grading failed ({count}): {who}"),
        "gradebook.list.no_submission": (
            "  没有提交、保持原样 ({count}): {who}",
            "  no submission, left as it was ({count}): {who}",
        ),
        "gradebook.list.excused": (
            "  EX (免交)、保持原样 ({count}): {who}",
            "  excused (EX), left as it was ({count}): {who}",
        ),
        "gradebook.list.cannot_see": (
            "  N/A (看不到这个作业)、保持原样 ({count}): {who}",
            "  N/A (cannot see it), left as it was ({count}): {who}",
        ),
        "report.gradebook": ("成绩册 {file}", "Gradebook: {file}"),
        # --- late submissions (lms stream, issue 29) --------------------------------------------------------
        "late.line": ("迟交 ({count}): {ids} — {policy}", "late ({count}): {ids} — {policy}"),
        "late.none": (
            "这个评分程序没有因此扣分；导入后由 LMS 自己的迟交规则处理 (如果设了的话)",
            "nothing taken off by this grader: the LMS's own late policy applies when you import (if it has one)",
        ),
        "late.penalty": (
            "canvas.csv 和 moodle.csv 里扣了 {penalty}% (grading.ini 的 [late] penalty)，grades.csv 里是没扣的分数；"
            "LMS 自己如果也设了迟交规则，导入时会再扣一次",
            "{penalty}% taken off in canvas.csv and moodle.csv (grading.ini's [late] penalty), grades.csv "
            "keeps the points earned; if the LMS has a late policy of its own, it applies again when you "
            "import",
        ),
        "note.late": (
            "这次提交迟交了 (LMS 是这样标的)；评分程序没有因此扣分，课程的迟交规则 (如果有) 由 LMS 处理。",
            "This submission came late (so the LMS says); this grader took nothing off for it: the course's "
            "late policy, if any, is the LMS's to apply.",
        ),
        "note.late_penalty": (
            "这次提交迟交了 (LMS 是这样标的)；按课程的规定，成绩册里的分数扣了 {penalty}%。",
            "This submission came late (so the LMS says); as the course decides, {penalty}% is taken off "
            "its points in the gradebook.",
        ),
        "report.late": ("迟交的提交 ({count})", "Late submissions ({count})"),
        # --- gradebooks as they really come (lms stream) ---------------------------------------------
        "lms.roster.columns": (
            "{path} 看起来是 Moodle 评分表，但分不清哪一列是 {missing}；找到的列: {found}",
            "{path} looks like a Moodle grading worksheet, but which column is the {missing} cannot be "
            "told; columns found: {found}",
        ),
        "lms.roster.shifted": (
            "{path} 第 {row} 行有 {cells} 个单元格，表头有 {width} 个: 写回去会错位，请从 LMS 重新导出",
            "{path} row {row} has {cells} cells, the header {width}: it would be written shifted; "
            "export it from the LMS again",
        ),
        "lms.roster.rows": (
            "{path} 有 {rows} 行，超过 {most} 行: 写回去会丢掉多出的行",
            "{path} has {rows} rows, more than {most}: the gradebook written back would lose the rest",
        ),
        "lms.roster.ids": (
            "{path} 的 {column} 列不是每行一个不同的编号 ({id})，不能靠它对应学生",
            "{path}: its {column} column does not hold one id per row ({id}); students cannot be matched by it",
        ),
        "lms.roster.other_lms": (
            "{path} 是 {kind} 的成绩册，但 SUBMISSIONS 是 {layout} 的下载: 请给它自己的成绩册",
            "{path} is a {kind} gradebook but SUBMISSIONS is a {layout} download: give it its own gradebook",
        ),
        "lms.roster.anonymous": (
            "匿名提交 ({count}) 的编号 (anon_…) 不在成绩册里，匿名解除前请在 SpeedGrader 里给分: {ids}",
            "anonymous submissions ({count}): their ids (anon_…) are not in the gradebook until "
            "anonymity is lifted; grade them in SpeedGrader: {ids}",
        ),
        "lms.roster.no_title": (
            "{path} 里没有 TITLE={title} 这一列；最接近的: {closest}。请用 TITLE= 给出其中一列 "
            "(括号里的编号可以不写)，或者加 NEW_COLUMN=1 把 {title} 作为新的一列写进去",
            "{path} has no column for TITLE={title}; the closest: {closest}. Give one of them as TITLE= "
            "(its id in brackets may be left out), or add NEW_COLUMN=1 to write {title} as a new column",
        ),
        "lms.roster.no_columns": ("(成绩册里没有作业列)", "(the gradebook has no assignment column)"),
        "lms.roster.title_twice": (
            "{path} 里有几列都是 TITLE={title} ({columns})：请用 TITLE= 给出带编号的那一列全名",
            "{path} has several columns for TITLE={title} ({columns}): give the one you mean, with its id, as TITLE=",
        ),
        "lms.roster.by_name": (
            "按姓名对应的提交 ({count}，下载里没有编号): {ids}",
            "matched by name ({count}; the download carries no id): {ids}",
        ),
        "lms.teams": (
            "小组提交 ({count})，每组只评分一次；小组其他成员的成绩请在 LMS 里给: {ids}",
            "group submissions ({count}), each graded once; give the other members of each group the grade in "
            "the LMS: {ids}",
        ),
        "lms.note.by_name": (
            "下载里没有你的编号，按姓名对应到成绩册里的 {name}",
            "the download carries no id: matched to {name} in the gradebook by name",
        ),
        # --- the terminal summary -----------------------------------------------------------------
        "report.done": (
            "{lab}: {count} 份提交评分完成，用时 {seconds:.1f} 秒 ({jobs} 个并行)",
            "{lab}: graded {count} submissions in {seconds:.1f} s ({jobs} at a time)",
        ),
        "report.done_merged": (
            "{lab}: 评分 {graded} 份 (合并后共 {count} 份)，用时 {seconds:.1f} 秒 ({jobs} 个并行)",
            "{lab}: graded {graded} (merged: {count} in all) in {seconds:.1f} s ({jobs} at a time)",
        ),
        "report.statuses": ("状态:", "status:"),
        "report.scores": (
            "分数 (已评分的 {count} 份提交{rest}): 平均 {mean:.1f}，中位数 {median:g} (满分 {top})",
            "score ({count} graded submissions{rest}): mean {mean:.1f}, median {median:g} (out of {top})",
        ),
        "report.grader_errors": (
            "评分程序出错的提交 ({count}，不计入统计，原因见各自的反馈，修好后用 MERGE=1 重评): {students}",
            "submissions the grader failed on ({count}, in no figure; their feedback says why; "
            "grade them again with MERGE=1 once fixed): {students}",
        ),
        "report.scores_rest": ("；另 {count} 份没有评分", "; {count} not graded"),
        "figures.test_student": (
            "Canvas 的测试学生 (Student View) 的提交 ({ids}) 照样评了分、写进了 grades.csv，但不计入全班的统计；"
            "成绩册里它那一行保持原样",
            "Canvas's Test Student (Student View) handed in {ids}: graded and in grades.csv, but left out "
            "of the class's figures; its gradebook row stays as it was",
        ),
        "report.mistakes_top": ("最常见的错误:", "most common mistakes:"),
        "report.mistakes_more": ("… 另有 {count} 种，见 {out}/report.html", "… and {count} more in {out}/report.html"),
        "report.where": (
            "结果: {out}/grades.csv、grades.json、report.html、feedback/",
            "written: {out}/grades.csv, grades.json, report.html, feedback/",
        ),
        "report.where_gradebook": (
            "结果: {out}/grades.csv、grades.json、report.html、feedback/、{file}",
            "written: {out}/grades.csv, grades.json, report.html, feedback/, {file}",
        ),
        # --- report.html --------------------------------------------------------------------------
        "report.title": ("{title} · {subject} — 评分报告", "{title} · {subject} — grading report"),
        "report.title_bare": ("{title} — 评分报告", "{title} — grading report"),  # a lab whose spec gives no title
        "report.overview": (
            "{count} 份提交，其中 {graded} 份已评分；满分 {top}。",
            "{count} submissions, {graded} of them graded; out of {top}.",
        ),
        "report.mistakes": ("常见错误", "Common mistakes"),
        "report.mistakes_about": (
            "评分程序给出的每条提示，按学生人数排序: 下节课先讲最上面的几条。",
            "Every hint the grader gave, most students first: the top ones are worth next class's time.",
        ),
        "report.no_mistakes": (
            "没有错误: 已评分的提交全部通过。",
            "No mistakes: every graded submission passed every case.",
        ),
        "report.col.ref": ("编号", "ref"),
        "report.col.hint": ("提示", "hint"),
        "report.col.students": ("学生数", "students"),
        "report.col.cases": ("测试", "cases"),
        "report.col.examples": ("例如", "for example"),
        "report.rates": ("各测试通过率", "Pass rate per case"),
        "report.rates_about": (
            "只统计已评分的 {graded} 份提交 (共 {count} 份)；语法错误、超时等没能全部运行完的也在内，没运行到的测试算不通过。",
            "Over the {graded} graded submissions (of {count}), those that failed to load or stopped early "
            "included: a case that did not run counts as failed.",
        ),
        "report.histogram": ("分数分布 (已评分的提交，满分 {top})", "Scores of the graded submissions (out of {top})"),
        "report.not_graded": ("没有评分的提交 ({count})", "Not graded ({count})"),
        "report.not_graded_about": (
            "这些提交没有评分 (没有可测的代码，或评分程序、测试机出错)，原因如下；它们不计入通过率和分数统计。",
            "These were not graded (no code to test, or the grader or the machine failed), for the "
            "reasons given; they are left out of the pass rates and the score figures.",
        ),
        "report.notes": ("对提交文件的处理", "Decisions about students' files"),
        "report.unmatched": ("名单里找不到的提交 ({count})", "Submissions missing from the roster ({count})"),
        "report.students": ("学生", "Students"),
        "report.students_about": (
            "点列标题排序；✗ 后面的编号对应上面的常见错误。",
            "Click a column's title to sort; the reference after a ✗ is the common mistake above.",
        ),
        "report.student": ("学生", "student"),
        "report.students_shown": (
            "学生太多，表里只列出 {shown}/{count} 名: 没有评分的和分数最低的；每个学生都在 grades.csv 和 feedback/ 里。",
            "The table lists {shown} of {count} students: those not graded and the lowest scores; "
            "every student is in grades.csv and feedback/.",
        ),
        "report.more": ("… 还有 {count} 条，全部见 {where}", "… and {count} more: all of them are in {where}"),
        "report.col.name": ("姓名", "name"),
        "report.col.status": ("状态", "status"),
        "report.col.score": ("分数", "score"),
        "report.col.late": ("迟交", "late"),
        "report.col.attempt": ("第几次", "attempt"),
        "report.col.mistakes": ("错误", "mistakes"),
        "report.yes": ("是", "yes"),
        "report.no": ("否", "no"),
        # --- Gradescope ---------------------------------------------------------------------------
        "gradescope.attempt": ("这是第 {attempt} 次提交。", "This is attempt {attempt}."),
        "gradescope.late": ("这次提交晚于截止时间。", "This submission came after the due date."),
        "gradescope.kept_best": (
            "保留之前的最高分 {score} (这次 {now})。",
            "Your earlier best, {score}, is kept (this one: {now}).",
        ),
        # --- caps on one student's outputs (labkit/instructor/outputs/caps.py) -------------------------------------------
        "bounds.feedback_cut": (
            "… 这里省略了 {kb} KB (每个学生的反馈最多 {cap} KB)",
            "… {kb} KB left out here (one student's feedback is kept within {cap} KB)",
        ),
        "bounds.record_cut": (
            "… 这里省略了 {kb} KB (grades.json 里每个学生最多 {cap} KB)",
            "… {kb} KB left out here (grades.json keeps at most {cap} KB per student)",
        ),
        "bounds.more_items": ("… 还有 {count} 项", "… {count} more"),
        # --- make dist ----------------------------------------------------------------------------
        "dist.not_stub": (
            "拒绝打包: 提交过的 {student_file} 通过了 {passed}/{total} 个测试，里面是答案，不是初始代码。"
            "请提交初始代码 (git show {stub_commit}:{student_file}) 后再 make dist",
            "refusing to build the handout: the committed {student_file} passes {passed} of {total} cases; it "
            "holds a solution, not the stub. Commit the stub (git show {stub_commit}:{student_file}) "
            "and run make dist again",
        ),
        "dist.baseline": (
            "拒绝打包: 打好的发放包里 make test 不是正好 0 通过 {total} 失败 ({why})",
            "refusing to build the handout: its make test is not exactly 0 passed, {total} failed ({why})",
        ),
        "dist.built": (
            "学生发放包: {folder}，以及它的两个压缩包 {archives} (Windows 上用 .zip)",
            "the student handout: {folder}, and its two archives {archives} (the .zip for Windows)",
        ),
        "dist.reference": (
            "拒绝打包: 打好的发放包里参考答案 {solution} 的 make test 不是 {total} 个全部通过 ({why})",
            "refusing to build the handout: in it, make test of the reference {solution} does not "
            "pass all {total} ({why})",
        ),
        "dist.scaffold": (
            "注意: {lab} 的 {files} 还留着 make new-lab 写给你的话 (\"把这个实验改成你的\")，学生会看到；先改成给学生的内容",
            "note: {lab}'s {files} still hold what make new-lab wrote for you (\"make this lab yours\"), "
            "which students will read; write the students' version first",
        ),
        "dist.not_committed": (
            "拒绝打包: {lab} 的 {path} 还没有提交 (发放包用已提交的版本: git add {path} 然后 git commit)",
            "refusing to build the handout: {lab}'s {path} is not committed (the handout is built "
            "from the committed tree: git add {path}, then git commit)",
        ),
        "dist.uncommitted": (
            "注意: 工作区里 {files} 有未提交的修改，发放包用的是已提交的版本",
            "note: {files} has uncommitted changes; the handout uses the committed version",
        ),
    }
)

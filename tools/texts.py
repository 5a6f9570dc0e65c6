"""The grader's sentences (feedback for entries that cannot run, progress, the report), in Chinese and English."""

from framework.harness.i18n import register

register({
    "status.no_student_py": ("没有找到 student.py: 提交里没有这个文件", "no student.py: the submission has no such file"),
    "status.several_student_py": ("提交里有不止一个 student.py ({found})，不知道该测哪一个",
                                  "several student.py files in the submission ({found}); which one to test?"),
    "status.bad_zip": ("zip 文件打不开 (损坏或不是 zip)", "the zip file cannot be opened (damaged, or not a zip)"),
    "status.unsupported": ("不是文件夹、.py 或 .zip，没有评分", "not a folder, .py or .zip; not graded"),
    "status.unreadable": ("读不了这个提交 (权限?)", "this submission cannot be read (permissions?)"),
    "grade.progress": ("评分中 {done}/{total} · 已用 {elapsed:.1f} 秒 · 预计还要 {eta:.1f} 秒",
                       "grading {done}/{total} · {elapsed:.1f} s elapsed · ETA {eta:.1f} s"),
    "report.lang": ("zh", "en"),
    "report.title": ("Lab09 · 多轮对话 — 评分报告", "Lab09 · multi-turn chat — grading report"),
    "report.overview": ("{count} 份提交，满分 {top}。", "{count} submissions, out of {top}."),
    "report.rates": ("各测试通过率", "Pass rate per case"),
    "report.histogram": ("分数分布 (满分 {top})", "Score histogram (out of {top})"),
    "report.students": ("学生", "Students"),
    "report.student": ("学生", "student"),
    "report.done": ("Lab09: {count} 份提交评分完成，用时 {seconds:.1f} 秒 ({jobs} 个并行)",
                    "Lab09: graded {count} submissions in {seconds:.1f} s ({jobs} jobs)"),
    "report.statuses": ("状态:", "status:"),
    "report.scores": ("分数: 平均 {mean:.1f}，中位数 {median:g} (满分 {top})",
                      "score: mean {mean:.1f}, median {median:g} (out of {top})"),
    "report.where": ("结果: {out}/grades.csv、grades.json、report.html、feedback/",
                     "written: {out}/grades.csv, grades.json, report.html, feedback/"),
})

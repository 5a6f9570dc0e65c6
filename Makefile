# Lab09 · 多轮对话 — `make help` lists the targets.
STUDENT     ?= framework/student.py
BASE_PYTHON ?= python3
VENV        ?= .venv

ifeq ($(origin PYTHON)-$(if $(strip $(PYTHON)),set),command line-set)
  RUN   := $(PYTHON)
  READY := python-check
else
  RUN   := $(VENV)/bin/python
  READY := $(VENV)/.lab09-ready
endif

LAB := $(RUN) -m pytest framework/verify.py --student="$(STUDENT)" -qq --tb=no -rN --no-header -p no:cacheprovider --lab-report
INSTRUCTOR := $(wildcard tools/grade.py)

.PHONY: help test test-full watch chat challenge clean python-check grade gradescope dist check bench

help:
	@echo "make test                  运行六个测试 (framework/student.py) / run the six cases"
	@echo "make test STUDENT=path.py  测试另一个文件 / test another file"
	@echo "make watch                 保存 student.py 就自动重新测试 / re-run the six cases on every save"
	@echo "make chat [SEED=n]         和一个小语言模型聊天 (用你的函数); DEMO=1 演示三轮 / chat with a tiny model"
	@echo "make test-full             六个测试 + 扩展检查 (选做) / the six plus the extended checks"
	@echo "make challenge             选做 trim_history 和问题改写的测试 / the optional cases"
	@echo "make clean                 删除运行产物 (不删 student.py 和 .venv) / remove run artefacts"
	@echo "chat: REWRITE=0 不改写, REWRITE_DELAY=ms 看降级, REWRITE_DEADLINE=ms (默认 500); 结束时写 chat-session.html"
	@echo "options: PYTHON=/path/to/python (已装 pytest), BASE_PYTHON=python3.12, LAB_LANG=en"
ifneq ($(INSTRUCTOR),)
	@echo "instructors:"
	@echo "make grade SUBMISSIONS=dir 给全班评分 [OUT=grades] [JOBS=n] / grade a class"
	@echo "    [ROSTER=gradebook.csv] [ATTEMPT=latest|best] [MERGE=1] [TITLE=Lab09] [UNSAFE=1]"
	@echo "make dist                  学生发放包 dist/lab09-step8.tar.gz/.zip (已提交的版本) / the student handout"
	@echo "make gradescope            Gradescope 自动评分包 / dist/gradescope-autograder.zip"
	@echo "make check                 测试框架自身的测试 (CI) / the harness's own test suite"
	@echo "make bench [PART=lab|grading] 计时目标 / timing goals of make test and make grade"
endif

test: $(READY)
	@$(LAB)

test-full: $(READY)
	@$(LAB) --full

challenge: $(READY)
	@$(LAB) --challenge

watch: $(READY)
	@$(RUN) -m framework.harness.watch --student "$(STUDENT)" -- $(LAB)

chat: $(READY)
	@$(RUN) -m framework.harness.chat --student "$(STUDENT)" $(if $(DEMO),--demo) $(if $(SEED),--seed $(SEED)) \
	  $(if $(filter 0 off no,$(REWRITE)),--no-rewrite) $(if $(REWRITE_DEADLINE),--rewrite-deadline $(REWRITE_DEADLINE)) \
	  $(if $(REWRITE_DELAY),--rewrite-delay $(REWRITE_DELAY)) $(if $(CHAT_PAGE),--page "$(CHAT_PAGE)")

clean:
	@find . \( -name '.venv*' -o -name .git \) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
	@rm -rf .pytest_cache dist chat-session.html

$(VENV)/.lab09-ready: requirements.txt
	@command -v "$(BASE_PYTHON)" >/dev/null 2>&1 || { echo "[setup] 找不到 $(BASE_PYTHON): 请安装 Python 3.10+，或 make test BASE_PYTHON=python3.12 / $(BASE_PYTHON) not found: install Python 3.10+ or set BASE_PYTHON=" >&2; exit 2; }
	@$(BASE_PYTHON) framework/harness/setup_venv.py "$(VENV)" requirements.txt "$@"

python-check:
	@$(RUN) framework/harness/setup_venv.py --check

ifneq ($(INSTRUCTOR),)
OUT ?= grades
grade: $(READY)
	@test -n "$(SUBMISSIONS)" || { echo "usage: make grade SUBMISSIONS=dir [OUT=grades] [JOBS=n] [ROSTER=csv] [ATTEMPT=latest|best] [MERGE=1]" >&2; exit 2; }
	@$(RUN) -m tools.grade "$(SUBMISSIONS)" --out "$(OUT)" $(if $(JOBS),--jobs $(JOBS)) \
	  $(if $(ROSTER),--roster "$(ROSTER)") $(if $(ATTEMPT),--attempt $(ATTEMPT)) $(if $(MERGE),--merge) \
	  $(if $(TITLE),--title "$(TITLE)") $(if $(UNSAFE),--unsafe)

dist: $(READY)
	@$(RUN) -m tools.dist handout --python "$(RUN)"

gradescope:
	@$(BASE_PYTHON) -m tools.dist gradescope

check: $(READY)
	@$(RUN) -m pytest -q -p no:cacheprovider tests

bench: $(READY)
	@$(RUN) -m tools.bench $(PART) --python "$(RUN)" $(if $(filter python-check,$(READY)),PYTHON="$(PYTHON)")
endif

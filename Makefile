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

PYTEST_COURSE := -qq --tb=no -rN --no-header -p no:cacheprovider --lab-report

.PHONY: help test test-full grade gradescope check clean bench python-check

help:
	@echo "make test                  运行六个测试 (framework/student.py) / run the six cases"
	@echo "make test STUDENT=path.py  测试另一个文件 / test another file (e.g. solutions/student.py)"
	@echo "make test-full             六个测试 + 扩展检查 (选做) / the six plus the extended checks"
	@echo "make clean                 删除运行产物 (不删 student.py 和 .venv) / remove run artefacts"
	@echo "make grade SUBMISSIONS=dir 给全班评分 (教师) / grade a class [OUT=grades] [JOBS=n]"
	@echo "make gradescope            生成 Gradescope 自动评分包 / build dist/gradescope-autograder.zip"
	@echo "make check                 测试框架自身的测试 (CI) / the harness's own test suite"
	@echo "make bench [PART=lab|grading] 计时目标 / timing goals of make test and make grade"
	@echo "options: PYTHON=/path/to/python (已装 pytest), BASE_PYTHON=python3.12, LAB_LANG=en"

test: $(READY)
	@$(RUN) -m pytest framework/verify.py --student="$(STUDENT)" $(PYTEST_COURSE)

test-full: $(READY)
	@$(RUN) -m pytest framework/verify.py --student="$(STUDENT)" --full $(PYTEST_COURSE)

OUT ?= grades
grade: $(READY)
	@test -n "$(SUBMISSIONS)" || { echo "usage: make grade SUBMISSIONS=dir [OUT=grades] [JOBS=n]" >&2; exit 2; }
	@$(RUN) -m tools.grade "$(SUBMISSIONS)" --out "$(OUT)" $(if $(JOBS),--jobs $(JOBS))

gradescope:
	@rm -rf dist/gradescope && mkdir -p dist/gradescope
	@cp -r framework tools dist/gradescope/ && cp tools/gradescope/setup.sh tools/gradescope/run_autograder dist/gradescope/
	@find dist/gradescope -name __pycache__ -prune -exec rm -rf {} + && rm -f dist/gradescope/framework/student.py
	@cd dist/gradescope && $(BASE_PYTHON) -c "import shutil; shutil.make_archive('../gradescope-autograder', 'zip', '.')"
	@echo "dist/gradescope-autograder.zip: upload it as the autograder of a Gradescope programming assignment"

check: $(READY)
	@$(RUN) -m pytest -q -p no:cacheprovider tests

bench: $(READY)
	@$(RUN) -m tools.bench $(PART) --python "$(RUN)" $(if $(filter python-check,$(READY)),PYTHON="$(PYTHON)")

clean:
	@find . \( -name '.venv*' -o -name .git \) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
	@rm -rf .pytest_cache dist

$(VENV)/.lab09-ready: requirements.txt
	@command -v "$(BASE_PYTHON)" >/dev/null 2>&1 || { echo "[setup] 找不到 $(BASE_PYTHON): 请安装 Python 3.10+，或 make test BASE_PYTHON=python3.12 / $(BASE_PYTHON) not found: install Python 3.10+ or set BASE_PYTHON=" >&2; exit 2; }
	@$(BASE_PYTHON) framework/setup_venv.py "$(VENV)" requirements.txt "$@"

python-check:
	@$(RUN) framework/setup_venv.py --check

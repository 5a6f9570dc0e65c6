# Lab09 · 多轮对话 — `make help` lists the targets.  Every target runs lab.py (`python lab.py` does the
# same without make, e.g. on Windows), with the lab's .venv once it is ready, else with BASE_PYTHON.
STUDENT     ?=
BASE_PYTHON ?= python3
VENV        ?= .venv

ifeq ($(origin PYTHON)-$(if $(strip $(PYTHON)),set),command line-set)
  RUNNER  := $(PYTHON)
  OPTIONS := --python "$(PYTHON)"
else
  RUNNER  := $(or $(if $(wildcard $(VENV)/.labkit-ready),$(firstword $(wildcard $(VENV)/bin/python $(VENV)/Scripts/python.exe))),$(BASE_PYTHON))
  # BASE_PYTHON= named by the student (not the default) also remakes a venv that another Python made
  OPTIONS := $(if $(filter-out file,$(origin BASE_PYTHON)),--base-python "$(BASE_PYTHON)") --venv "$(VENV)"
endif

# One shell line: a clear message if the interpreter is missing, else lab.py in place of the shell.
RUN = @command -v "$(RUNNER)" >/dev/null 2>&1 || { echo "[setup] 找不到 $(RUNNER): 请安装 Python 3.10+，或 make test BASE_PYTHON=python3.12 / $(RUNNER) not found: install Python 3.10+ or set BASE_PYTHON=" >&2; exit 2; }; exec "$(RUNNER)" lab.py --make $(OPTIONS) $(if $(LAB),--lab "$(LAB)")
INSTRUCTOR := $(wildcard labkit/instructor/grade.py)

.PHONY: help test test-full watch challenge clean grade gradescope dist tables new-lab check expected bench

help test test-full challenge watch clean:
	$(RUN) $@ --student "$(STUDENT)"

# A lab's own target (`make help` lists the lab's: Lab09's chat, Lab10's serve): lab.py runs it, and reads its
# settings (SEED=3, PORT=8000: the names the lab's spec gives them) from the environment, where make puts every
# variable of its command line.  A typo (make tset) gets lab.py's one line naming the targets there are.
.DEFAULT:
	$(RUN) $@ --student "$(STUDENT)"

ifneq ($(INSTRUCTOR),)
OUT ?= grades
grade:
	@test -n "$(SUBMISSIONS)" || { echo "usage: make grade SUBMISSIONS=dir|zip [OUT=grades] [JOBS=n] [ROSTER=gradebook.csv] [ATTEMPT=latest|best] [MERGE=1] [TITLE=column] [NEW_COLUMN=1] [UNSAFE=level|1] [CONFIG=course-file] (LAB=lab picks the lab; make help names its course file)" >&2; exit 2; }
	$(RUN) run -m labkit.instructor.grade "$(SUBMISSIONS)" --out "$(OUT)" $(if $(JOBS),--jobs $(JOBS)) \
	  $(if $(ROSTER),--roster "$(ROSTER)") $(if $(ATTEMPT),--attempt $(ATTEMPT)) $(if $(MERGE),--merge) \
	  $(if $(TITLE),--title "$(TITLE)") $(if $(NEW_COLUMN),--new-column) $(if $(UNSAFE),--unsafe "$(UNSAFE)") \
	  $(if $(CONFIG),--config "$(CONFIG)")

dist:
	$(RUN) run -m labkit.instructor.dist handout

gradescope:
	@"$(BASE_PYTHON)" -m labkit.instructor.dist gradescope

new-lab:
	@test -n "$(NAME)" || { echo "usage: make new-lab NAME=<name>: a new lab of the course in labs/<name>/" >&2; exit 2; }
	$(RUN) run -m labkit.instructor.new_lab "$(NAME)"

tables:
	$(RUN) run -m labkit.instructor.sheets --write
	$(RUN) run -m labkit.instructor.fixed_inputs --write

expected:
	$(RUN) run tests/expected.py

check:
	$(RUN) run tests/setup_suite.py
	$(RUN) run tests/run_suite.py

bench:
	$(RUN) run tests/bench.py $(PART) $(if $(filter --python%,$(OPTIONS)),PYTHON="$(PYTHON)")
else
# The student handout (make dist) has no labkit/instructor/: the instructors' targets say so in one line instead of
# make's "Nothing to be done".
grade dist gradescope tables new-lab check expected bench:
	@echo "make $@: 评分等老师用的目标不在学生发放包里 (可用的目标见 make help) / grading and the other instructors' targets are not part of the student handout (make help lists the ones it has)" >&2; exit 2
endif

# Each target creates .venv when it is missing and installs the project into it, with the extras it needs
# (pyproject.toml [project.optional-dependencies]). The stamp file is named after the extras, so `make test`
# after `make run` installs the extras `run` did not, and editing pyproject.toml or planner/_version.py (the
# version the installed metadata carries) reinstalls both.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
comma  := ,
# extras per target, "+"-separated in stamp names ("all+test" installs '.[all,test]')
RUN_EXTRAS  := dashboard
TEST_EXTRAS := all+test

# Engine tests that need no optional extra: what `make test-min` runs against the lowest core versions.
# Left out: the dashboard, browser and notebook tests, and the AWS/Azure adapter tests (boto3, azure-*).
MIN_VENV  := .venv-min
MIN_TESTS := tests/planner tests/pricing_adapters tests/test_packaging.py \
             --ignore=tests/pricing_adapters/test_aws.py --ignore=tests/pricing_adapters/test_azure.py \
             --ignore=tests/pricing_adapters/test_attacks.py
# Test tools for test-min: the [test] extra's, minus those only the left-out tests use; their newest
# releases that fit the pinned core versions.
MIN_TOOLS := 'pytest>=8' 'hypothesis>=6.100' 'scipy>=1.11' 'respx>=0.21'

# The FinOps Foundation's FOCUS validator, which tests/planner/test_focus.py runs on the FOCUS export of
# every shipped scenario. It lives in its own venv: it pins numpy<2 and pandas<3, which .venv has newer.
# 1.0.0 is the newest release (it checks FOCUS up to 1.0); it fails to import with multimethod >= 1.11.
FOCUS_VENV      := .venv-focus
FOCUS_VALIDATOR := focus-validator==1.0.0 'multimethod<1.11'

.PHONY: run test test-min bench install clean

# The project's own modules compiled to bytecode, before every target that runs them: an editable install
# leaves them as sources, and where PYTHONDONTWRITEBYTECODE is set (Docker images and CI often set it)
# every `fleetplan` process would compile them again: medians of 11 alternating runs, `fleetplan validate`
# 0.245 → 0.277 s and `fleetplan plan industrial.yaml --format json` 0.83 → 0.89 s (2026-12-03).
# compileall rewrites only the files whose source changed since.
COMPILE = $(BIN)/python -m compileall -q planner pricing_adapters fleetplan_dashboard

$(VENV)/.installed-%: pyproject.toml planner/_version.py
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[$(subst +,$(comma),$*)]'
	touch $@

install: $(VENV)/.installed-$(TEST_EXTRAS)
	$(COMPILE)

run: $(VENV)/.installed-$(RUN_EXTRAS)
	$(COMPILE)
	$(BIN)/streamlit run app.py --server.address 127.0.0.1 --browser.gatherUsageStats false

$(FOCUS_VENV)/.installed:
	test -d $(FOCUS_VENV) || $(PYTHON) -m venv $(FOCUS_VENV)
	$(FOCUS_VENV)/bin/pip install --quiet $(FOCUS_VALIDATOR)
	touch $@

# FLEETPLAN_FOCUS_VENV: under `make test` a missing validator fails the FOCUS test instead of skipping it.
test: $(VENV)/.installed-$(TEST_EXTRAS) $(FOCUS_VENV)/.installed
	$(COMPILE)
	AWS_EC2_METADATA_DISABLED=true FLEETPLAN_FOCUS_VENV=$(CURDIR)/$(FOCUS_VENV) $(BIN)/python -m pytest

# Proves the stated minimums: .venv-min gets exactly the `>=` bound of every core dependency (pinned
# with == in a constraints file generated from pyproject.toml; transitive dependencies newest), no
# extra, then the engine tests. A bound that fails here is not a minimum: raise it. Takes about
# 1.5 minutes on 2 cores, even with an empty pip cache (30 s install, 60 s tests); .venv-min is
# rebuilt each time so that nothing newer lingers from an earlier run. Needs PYTHON >= 3.11 (tomllib).
test-min: pyproject.toml
	rm -rf $(MIN_VENV)
	$(PYTHON) -m venv $(MIN_VENV)
	$(MIN_VENV)/bin/pip install --quiet --upgrade pip
	$(MIN_VENV)/bin/python -c "import re, tomllib; \
	deps = tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']; \
	pins = [re.sub(r'[\[;<,].*', '', d.split('>=')[0]).strip() + '==' + re.split(r'[,;\s]', d.split('>=')[1])[0] for d in deps]; \
	open('$(MIN_VENV)/constraints-min.txt', 'w').write(''.join(p + '\n' for p in pins))"
	cat $(MIN_VENV)/constraints-min.txt
	$(MIN_VENV)/bin/pip install --quiet -c $(MIN_VENV)/constraints-min.txt -e . $(MIN_TOOLS)
	$(MIN_VENV)/bin/pip freeze --exclude-editable | grep -i -f $(MIN_VENV)/constraints-min.txt
	AWS_EC2_METADATA_DISABLED=true $(MIN_VENV)/bin/python -m pytest -p no:cacheprovider $(MIN_TESTS)

# Every benchmark (benchmarks/README.md), or some: `make bench BENCH="plan_speed sweep_speed"`. Each prints
# the load average it ran under; quick runs take options, e.g. plan_speed.py --sections process.
BENCH ?= $(filter-out _%,$(basename $(notdir $(wildcard benchmarks/*.py))))
bench: $(VENV)/.installed-$(TEST_EXTRAS)
	$(COMPILE)
	for b in $(BENCH); do echo "== benchmarks/$$b.py"; $(BIN)/python benchmarks/$$b.py || exit 1; done

clean:
	rm -rf $(VENV) $(MIN_VENV) $(FOCUS_VENV) build *.egg-info

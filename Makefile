# Two commands set everything up on a fresh machine with Python 3.11+ and make:
#   make play   - create .venv if missing, install, open the sandbox on the default scenario
#   make test   - create .venv if missing, install with every extra (test, plot, cluster), run the whole suite headless
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
TSTAMP := $(VENV)/.installed-test
# the compiled kernels' sources and how they are built (sim.rules.compiled): installing builds
# them, so a change to one installs again
KERNELS := $(wildcard sim/rules/_compiled/*.pyx sim/rules/_compiled/*.pxi sim/rules/_compiled/*/*.pxi sim/rules/_compiled/*.pxd) setup.py

.PHONY: play test run bench clean goldens shots

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# pip byte-compiles what it installs on one core (Ray alone is some 2,600 files); compileall
# writes the same .pyc files on every core (-j 0). A fresh install of the test extras, six
# pairs on the 2-core machine: ~5 s shorter in five, equal in one (29.5-39.6 s against
# 34.7-49.7 s). A file a package ships that does not compile is skipped, as pip skips it
# (its error still shown): missing .pyc files only make a start slower.
COMPILE_DEPS := $(PY) -m compileall -q -j 0 "$$($(PY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" || true

$(STAMP): pyproject.toml $(KERNELS) | $(PY)
	$(PY) -m pip install --quiet --no-compile -e .
	$(COMPILE_DEPS)
	touch $@

$(TSTAMP): pyproject.toml $(KERNELS) | $(PY)
	$(PY) -m pip install --quiet --no-compile -e ".[test,plot,cluster]"
	$(COMPILE_DEPS)
	touch $@ $(STAMP)

play: $(STAMP)
	$(PY) -m sim play scenarios/default.toml

# sim byte-compiled first: the suite starts many `python -m sim` processes, and where
# PYTHONDONTWRITEBYTECODE is set none of them keeps what it compiles (about 1 s of CPU each);
# the tests too (0.7 s on both cores), which each worker then imports (with plain asserts,
# below) without compiling: collection 3.7 -> 3.0 s a worker in a fresh clone.
# OpenBLAS on one thread in each worker: the sight cross-checks' large matrix products would
# otherwise start a thread per core in both workers, which then wait spinning for work and
# take the cores from the other worker (tests/rules/visibility on both workers, two runs each
# way, the pure-Python loop of tests/bench at 60-62 ms: 52-57 s against 36-38 s, 100-109 s of
# CPU against 67-70 s). A product's last bit may depend on the thread count (81 of the 28
# million entries of the products _chord made in three visibility test files), the answers do
# not: the goldens verify and the benchmark battles' event hashes are the same either way.
# SIM_REQUIRE_COMPILED: the compiled kernels must be built here (the install leaves them out
# quietly where there is no C compiler; the suite must not then pass on the numpy path alone).
# --assert=plain: pytest rewrites every test module's asserts to show their values, and where
# PYTHONDONTWRITEBYTECODE is set (CI's clean clone) it keeps none of that work, so each worker
# paid it at every run: collecting the suite in a fresh clone took 13.5-14.7 s a worker, 3.9-4.4 s
# plain (6 December, evening), ~10 s of the 300 CI allows. A failing assert still fails, naming
# its line; run that test alone (`.venv/bin/python -m pytest tests/...::test_name`) to see its values.
test: $(TSTAMP)
	$(PY) -m compileall -q -j 0 sim tests > /dev/null
	SIM_REQUIRE_COMPILED=1 OPENBLAS_NUM_THREADS=1 SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy \
	  $(PY) -m pytest -q -n 2 --dist worksteal --assert=plain

# The sandbox tests' screenshots, for a person to look at (tests/sandbox/screenshots/): every mode,
# window size and scenario the tests draw (the suite draws them without writing the files)
shots: $(TSTAMP)
	OPENBLAS_NUM_THREADS=1 SANDBOX_SHOTS=all SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(PY) -m pytest -q -n 2 tests/sandbox

run: $(STAMP)
	$(PY) -m sim run scenarios/default.toml

# Every row of the README's "Where each mark stands" with the flags it was measured with, then
# the kernels' benchmarks of the other sections and the search player's decisions (about 5.5
# minutes on the idle 2-core machine, Ray's start included); run it twice for a range. Not here:
# the search player's strength (sim ladder: an hour and more)
bench: $(TSTAMP)
	$(PY) tests/bench/bench_battle.py --battles 3 --growth-battles 40 --cpu
	$(PY) tests/bench/bench_full_size.py --sizes 20,40,40@2000 --battles 3
	$(PY) tests/bench/bench_tactician.py --opponent tactician --battles 10 --cpu
	$(PY) tests/bench/bench_tactician.py --scenario scenarios/ladder/full_size.toml --battles 4 --cpu
	$(PY) tests/bench/bench_fork.py
	$(PY) tests/bench/bench_odds.py
	$(PY) tests/bench/bench_attacks.py --cpu --jobs 1
	$(PY) tests/bench/bench_visibility.py
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(PY) tests/bench/bench_frame.py
	$(PY) tests/bench/bench_startup.py
	PYTHONPATH=. $(PY) tests/bench/bench_batches.py
	$(PY) tests/bench/bench_ladder.py
	$(PY) tests/bench/bench_moves.py
	$(PY) tests/bench/bench_import.py
	@# the search player's decisions: its two runs side by side on the two cores, printed in turn
	@echo "$(PY) tests/bench/bench_search.py --battles 3 --seed 11 & ... --seed 14"
	@d=$$(mktemp -d); \
	  $(PY) tests/bench/bench_search.py --battles 3 --seed 11 > $$d/a 2>&1 & \
	  $(PY) tests/bench/bench_search.py --battles 3 --seed 14 > $$d/b 2>&1; b=$$?; wait $$!; a=$$?; \
	  cat $$d/a $$d/b; rm -rf $$d; [ $$a -eq 0 ] && [ $$b -eq 0 ]

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info sim/rules/_compiled/*.c sim/rules/_compiled/*.so sim/rules/_compiled/*.html

# Re-record every golden replay (after an intended rules change; review the diff!)
goldens: $(STAMP)
	@for f in scenarios/*.toml; do n=$$(basename $$f .toml); \
	  $(PY) -m sim run $$f --quiet --log scenarios/replays/$$n.jsonl || exit 1; echo "recorded $$n"; done

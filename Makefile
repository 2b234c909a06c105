# adtrans developer and user entry points.  Every target creates/uses the local
# virtual environment .venv, so a fresh clone needs only `make demo` or `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
NUMBA_CACHE_DIR ?= $(CURDIR)/.cache/numba
ADTRANS_CACHE_DIR ?= $(CURDIR)/.cache/adtrans
export NUMBA_CACHE_DIR ADTRANS_CACHE_DIR


.PHONY: test-all
test-all: $(STAMP)
	$(PY) -m pytest -q tests -p no:cacheprovider -m "" -n auto --dist loadfile

.PHONY: venv test demo bench gpu-check mpi-demo mpi-scaling checkpoint-bench clean

venv: $(STAMP)

$(STAMP): setup.cfg pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,examples]'
	touch $(STAMP)

# one pytest worker per core; a file's tests stay on one worker (its kernels compile once)
test: $(STAMP)
	$(PY) -m pytest -q tests -p no:cacheprovider -n auto --dist loadfile

demo: $(STAMP)
	$(PY) examples/minibude/run.py --check

bench: $(STAMP)
	$(PY) bench/run.py

gpu-check: $(STAMP)
	$(PY) -m pip install -q -e '.[cuda]' || echo "no NVRTC extra: the PTX step will be skipped"
	$(PY) scripts/gpu_check.py

checkpoint-bench: $(STAMP)
	$(PY) examples/lulesh/checkpoint_bench.py -s 10 -k 100 -n 5 10 20

mpi-demo: $(STAMP)
	$(PY) examples/mpi_heat/run.py --ranks 3
	$(VENV)/bin/mpiexec -n 8 $(PY) examples/lulesh/mpi_check.py grad -s 2 -i 3

# gradient time / primal time of LULESH under MPI at 1, 8, 27 ranks (SIZE, CYCLES, RANKS, MPIEXEC)
mpi-scaling: $(STAMP)
	MPIEXEC=$${MPIEXEC:-$(VENV)/bin/mpiexec} PYTHON=$(PY) sh examples/lulesh/scaling.sh

clean:
	rm -rf .cache build *.egg-info

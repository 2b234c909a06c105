"""Kernels reading NumPy structured (record) arrays, written the way users write them."""
import math

import numba
import numba.cuda
import numpy as np
from numba import njit, prange

SPRING = np.dtype([("k", "f8"), ("x0", "f8"), ("n", "i8")])


@njit
def springs_record_local(x, params):
    e = 0.0
    for i in range(x.shape[0]):
        p = params[i]
        e += 0.5 * p["k"] * (x[i] - p["x0"]) ** 2 * p["n"]
    return e


@njit
def springs_attributes(x, params):
    e = 0.0
    for i in range(len(params)):
        e += 0.5 * params[i].k * (x[i] - params[i].x0) ** 2
    return e


@njit
def springs_field_views(x, params, scale=1.0):
    k = params["k"]
    return scale * np.sum(0.5 * k * (x - params["x0"]) ** 2)


@njit(parallel=True)
def decay_prange(x, params, out):
    n, = x.shape
    for i in prange(n):
        out[i] = params[i]["k"] * math.exp(-x[i] * params["x0"][i])


@njit
def write_field(x, params):
    for i in range(x.shape[0]):
        params[i]["x0"] = params[i]["x0"] + x[i] * params[i]["k"]
    return np.sum(params["x0"] ** 2)


@njit
def iterate_records(x, params):
    e = 0.0
    for p in params:                       # <- iterating over a structured array
        e += p["k"] * x[0]
    return e


@njit
def _energy(p, xi):
    return p["k"] * xi * xi


@njit
def record_to_helper(x, params):
    e = 0.0
    for i in range(x.shape[0]):
        e += _energy(params[i], x[i])      # <- a record passed to a function
    return e


@njit
def store_through_record(x, params):
    for i in range(x.shape[0]):
        p = params[i]
        p["k"] = x[i]                      # <- a store through a record local
    return np.sum(params["k"])


def driver_fields(x, params):
    """A plain-Python driver: field arithmetic of its own, and a kernel call."""
    return np.sum(params["k"] * x) + springs_field_views(x, params)


def driver_rows(x, params):
    s = 0.0
    for i in range(x.shape[0]):
        r = params[i]
        s = s + r["k"] * x[i] ** 2 + params["x0"][i] * x[i]
    for it in range(2):
        s = s + springs_record_local(x * (it + 1.0), params)
    return s


@njit
def record_local_of_written(x, params):
    e = 0.0
    for i in range(x.shape[0]):
        p = params[i]                      # <- a record of an array the kernel writes
        params[i]["k"] = 2.0 * x[i]
        e += p["k"] * x[i]
    return e


@numba.cuda.jit
def cuda_record(x, params, out):
    i = numba.cuda.grid(1)
    if i < x.shape[0]:
        out[i] = params[i]["k"] * x[i]

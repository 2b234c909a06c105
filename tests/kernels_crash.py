"""Kernels that crashed adtrans (issue 13), written as users write Numba."""
import numpy as np
from numba import njit, prange


@njit(parallel=True)
def search_then_triangular(x, thresh, out):
    n, m = x.shape
    for i in prange(n):
        first = m
        for j in range(m):
            if x[i, j] > thresh:
                first = j
                break
        for j in range(first):
            for k in range(j + 1):
                out[i, j] += x[i, k] * x[i, j]


@njit
def search_then_triangular_serial(x, thresh, out):
    n, m = x.shape
    for i in range(n):
        first = m
        for j in range(m):
            if x[i, j] > thresh:
                first = j
                break
        for j in range(first):
            for k in range(j + 1):
                out[i, j] += x[i, k] * x[i, j]


@njit(parallel=True)
def while_search_then_triangular(x, thresh, out):
    n, m = x.shape
    for i in prange(n):
        j = 0
        while j < m:
            if x[i, j] > thresh:
                break
            j += 1
        for a in range(j):
            for b in range(a, j):
                out[i, a] += x[i, b] * x[i, a] * out[i, b]

# scikit-learn's GaussianProcessRegressor on the same divisions as varmap's gp (bench/gp-sklearn-workload.ts writes
# the input file and runs this with Debian's /usr/bin/python3; never part of the product). Reads a JSON file:
# {"X": row-major normalized inputs (the map's unit cube, log2 where varmap logs), "d", "y": log responses,
#  "restarts": varmap's optimizer starts, "nu": the Matérn smoothness, "splits": [{"p", "train", "test"}]}
# and prints one JSON line per split: {"p", "cpu": process CPU seconds of fit + predict, "are": mean |ŷ − y| / y}.
# The point prediction is varmap's default on a log response, exp(m − s²) with s the predictive sd of a new
# observation (sklearn's return_std includes the WhiteKernel noise).
import json
import sys
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import ConstantKernel, Matern, WhiteKernel

warnings.filterwarnings("ignore", category=ConvergenceWarning)
spec = json.load(open(sys.argv[1]))
d = spec["d"]
X = np.asarray(spec["X"], dtype=float).reshape(-1, d)
y = np.asarray(spec["y"], dtype=float)
for s in spec["splits"]:
    tr = np.asarray(s["train"], dtype=int)
    te = np.asarray(s["test"], dtype=int)
    t0 = time.process_time()
    matern = Matern(length_scale=[0.3] * d, length_scale_bounds=(1e-2, 1e2), nu=spec["nu"])
    # "plain": Matern + WhiteKernel on normalize_y's unit-variance response (the setup); "scaled": with a
    # fitted signal variance (ConstantKernel × Matern), one more hyperparameter, like varmap's profiled σ².
    signal = ConstantKernel(1.0, (1e-3, 1e3)) * matern if spec.get("kernel") == "scaled" else matern
    kernel = signal + WhiteKernel(1e-2, (1e-8, 10.0))
    gpr = GaussianProcessRegressor(kernel=kernel, n_restarts_optimizer=spec["restarts"] - 1, normalize_y=True, random_state=0)
    gpr.fit(X[tr], y[tr])
    m, sd = gpr.predict(X[te], return_std=True)
    pred = np.exp(m - sd * sd)
    cpu = time.process_time() - t0
    truth = np.exp(y[te])
    are = float(np.mean(np.abs(pred - truth) / truth))
    print(json.dumps({"p": s["p"], "cpu": cpu, "are": are}), flush=True)

# Prints the numbers nprand's tests compare with: numpy's legacy stream
# (np.random.seed, np.random.rand) and default_rng's uniform and normal.
# Run: /usr/bin/python3 gen_numpy.py > numpy.json
import json
import numpy as np

out = {"numpy": np.__version__}
np.random.seed(31337)
out["legacy_31337"] = np.random.rand(1000).tolist()
rng = np.random.default_rng(seed=31337)
out["pcg_uint64_31337"] = [str(v) for v in np.random.default_rng(31337).bit_generator.random_raw(8)]
out["default_rng_31337"] = {
    "normal": rng.normal(size=2000).tolist(),
    "uniform": rng.uniform(size=100).tolist(),
    "normal2": rng.normal(size=200000).tolist()[-3000:],
}
print(json.dumps(out))

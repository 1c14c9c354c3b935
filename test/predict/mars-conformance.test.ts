// The shared estimator conformance suite on Mars (MARS smooths, so no interpolation check), degree 1 and 2.
import { Mars } from "../../ts/predict/mars.js";
import { runConformance } from "./conformance.js";

// Degree 1 runs with every registered predictor (registry-conformance.test.ts).
runConformance({ name: "mars degree 2", create: (o) => new Mars(o), interpolates: false, minPoints: () => 2, dims: [2, 3], options: { degree: 2, nk: 31 } });

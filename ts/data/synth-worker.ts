// One `varmap synth` worker: writes its range of maps to its own part file (see writeSynth's `workers`).
import { parentPort, workerData } from "node:worker_threads";
import { synthPlan, writeSynthPart, type DesignName } from "./synth.js";

const w = workerData as { design: DesignName; seed: number | string; maps: number; path: string; from: number; to: number; header: boolean; sep: "," | "\t" };
const plan = synthPlan(w.design, w.seed, w.maps);
writeSynthPart(w.path, plan, w.seed, w.from, w.to, w.header, (done) => parentPort?.postMessage({ done }), w.sep);

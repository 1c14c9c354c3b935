// A cv job on the fixture maps, run as its own process by the resume test (which kills it with SIGKILL).
// Usage: node --import tsx test/pool/job-script.ts <out> <workers> <method> <maps> <reps> [nonfinite]
// With "nonfinite": map 0's responses are all 0 (every ARE 0/0 = NaN) and every 5th of map 1's is 0 (ARE Infinity).
import { gridMaps } from "./fixtures.js";
import { packMaps } from "../../ts/data/shared-maps.js";
import { cvPlan, job as cvJob } from "../../ts/jobs/cv.js";
import { runJob } from "../../ts/pool/job.js";

const [out, workers, method, nMaps, reps, variant] = process.argv.slice(2);
const grid = gridMaps(Number(nMaps), 8);
if (variant === "nonfinite") {
  grid[0].y.fill(0);
  for (let i = 0; i < grid[1].y.length; i += 5) grid[1].y[i] = 0;
}
const maps = packMaps(grid);
const { plan } = cvPlan(maps, { methods: [method], response: "linear", ps: [0.1, 0.3, 0.5, 0.7, 0.9], reps: Number(reps), seed: "11" });
runJob(cvJob, { maps, plan }, { out, workers: Number(workers), resume: true, quiet: true, label: "cv" }).then(
  (s) => process.stdout.write(JSON.stringify(s) + "\n"),
  (e) => {
    process.stderr.write(String(e?.stack ?? e) + "\n");
    process.exitCode = 1;
  },
);

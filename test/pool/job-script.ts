// A cv job on the fixture maps, run as its own process by the resume test (which kills it with SIGKILL).
// Usage: node --import tsx test/pool/job-script.ts <out> <workers> <method> <maps> <reps>
import { gridMaps } from "./fixtures.js";
import { packMaps } from "../../ts/data/shared-maps.js";
import { cvPlan, job as cvJob } from "../../ts/jobs/cv.js";
import { runJob } from "../../ts/pool/job.js";

const [out, workers, method, nMaps, reps] = process.argv.slice(2);
const maps = packMaps(gridMaps(Number(nMaps), 8));
const { plan } = cvPlan(maps, { methods: [method], response: "linear", ps: [0.1, 0.3, 0.5, 0.7, 0.9], reps: Number(reps), seed: "11" });
runJob(cvJob, { maps, plan }, { out, workers: Number(workers), resume: true, quiet: true, label: "cv" }).then(
  (s) => process.stdout.write(JSON.stringify(s) + "\n"),
  (e) => {
    process.stderr.write(String(e?.stack ?? e) + "\n");
    process.exitCode = 1;
  },
);

// Issue 16's bound on the real fread map: no method's mean ARE above 1,000 % at any p under any documented
// combination of the transform flags (--log-inputs none|auto × --log-response none|auto, the papers' setup being
// none/none), through the CLI on the 180 golden splits. The local methods (lr, lsp, delaunay, mars) are the ones
// that blew up before the clamps (lsp 1e10–1e31 % under --log-response); rbf and gp are checked by
// `node dist/bench/gp-workload.js` (minutes per combination).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliBuilt, cliIn } from "../helpers/cli.js";
import { goldenPath, hasShared, moanaMapArgs, readCsv, sharedSkipReason } from "../helpers/shared.js";

const dir = mkdtempSync(join(tmpdir(), "varmap-are-bound-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const varmap = cliIn(dir);
const METHODS = ["lr", "lsp", "delaunay", "mars"];

describe.skipIf(!cliBuilt || !hasShared)(
  `mean ARE below 1,000 % under every transform flag${!cliBuilt ? " — dist/ts/cli/main.js missing: run npm run build" : !hasShared ? ` — ${sharedSkipReason}` : ""}`,
  () => {
    for (const logInputs of ["none", "auto"])
      for (const logResponse of ["none", "auto"])
        it(`--log-inputs ${logInputs} --log-response ${logResponse}`, () => {
          const out = join(dir, `${logInputs}-${logResponse}`);
          const r = varmap(
            "cv",
            ...moanaMapArgs("freq_khz,threads,fsize_kb,rsize_kb"),
            "--splits",
            goldenPath("moana-splits.json"),
            "--methods",
            METHODS.join(","),
            "--log-inputs",
            logInputs,
            "--log-response",
            logResponse,
            "--out",
            out,
            "--quiet",
          );
          expect(r.code, r.err).toBe(0);
          const rows = readCsv(join(out, "table2.csv"));
          expect(rows.length).toBe(9);
          for (const row of rows)
            for (const m of METHODS) {
              const are = row[`are_${m}`] as number;
              expect(Number.isFinite(are), `${m} at p = ${row.p}`).toBe(true);
              expect(are * 100, `${m} at p = ${row.p}`).toBeLessThan(1000);
            }
        });
  },
);

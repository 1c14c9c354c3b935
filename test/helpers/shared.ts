// Access to ../shared (real data and reference outputs). Tests that need it skip, saying why, when it is absent.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { packageRoot } from "../../ts/package-root.js";

export const sharedDir = process.env.VARMAP_SHARED ?? resolve(packageRoot(), "..", "shared");
export const hasShared = existsSync(join(sharedDir, "golden")) && existsSync(join(sharedDir, "data"));
export const sharedSkipReason = `../shared not found at ${sharedDir} (set VARMAP_SHARED to its path): golden and real-data tests skipped`;
if (!hasShared) console.warn(sharedSkipReason);

export function goldenPath(name: string): string {
  return join(sharedDir, "golden", name);
}

/** The CLI arguments that read the golden MOANA map table (`moana-map.csv`, one row per configuration, response sd). */
export function moanaMapArgs(inputs = "u_freq,u_threads,u_fsize,u_rsize"): string[] {
  return [goldenPath("moana-map.csv"), "--map", "--id", "index", "--inputs", inputs, "--response", "sd"];
}
export function dataPath(name: string): string {
  return join(sharedDir, "data", name);
}

/** A small CSV reader for reference files (numbers where they parse, strings elsewhere). */
export function readCsv(path: string): Record<string, number | string>[] {
  const [head, ...lines] = readFileSync(path, "utf8")
    .split(/\r?\n/)
    .filter((l) => l.length > 0);
  const cols = head.split(",");
  return lines.map((l) => {
    const cells = l.split(",");
    const rec: Record<string, number | string> = {};
    cols.forEach((c, i) => {
      const v = cells[i];
      const num = v === "" ? NaN : Number(v);
      rec[c] = v !== undefined && v !== "" && !Number.isNaN(num) ? num : v === "NaN" || v === "NA" ? NaN : v;
    });
    return rec;
  });
}

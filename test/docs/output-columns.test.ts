// docs/guide/output-columns.md lists every output table of every verb with its columns (issue 44 item 4). This
// test runs each verb on small synthetic data (or the import fixtures) and checks each documented table's header
// against the real header, so the page cannot drift from the writers: a column added, renamed or moved without the
// page fails here. It also checks that every header is unique (pandas, R and DuckDB need unique names).
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../../ts/package-root.js";
import { cliBuilt, cliIn } from "../helpers/cli.js";
import { secondBackendRun } from "../helpers/once.js";

const PAGE = join(packageRoot(), "docs", "guide", "output-columns.md");
const FIX = join(packageRoot(), "test", "fixtures", "import");
const CONFIG = ["host_sched", "vm_sched", "mode", "freq_khz", "threads", "fsize_kb", "rsize_kb"];
const MAP = ["host_sched", "vm_sched", "mode"];
const IFACTORS = ["fs", "chunk_mib", "procs"];

/** Each documented table: the file a run below writes, and the columns its placeholder row (*…*) stands for. */
const TABLES: Record<string, { file: string; keys?: string[] }> = {
  "synth-moana": { file: "synth.csv", keys: CONFIG },
  "synth-truth": { file: "truth.csv", keys: CONFIG },
  "synth-mixture": { file: "mix-runs.csv" },
  "synth-interference": { file: "iruns.csv" },
  summarize: { file: "configs.csv", keys: CONFIG },
  predict: { file: "predictions.csv", keys: CONFIG },
  "predict-quantiles": { file: "quantiles.csv", keys: CONFIG },
  "predict-cdf": { file: "cdf.csv", keys: CONFIG },
  "predict-mixture": { file: "pmix.csv", keys: CONFIG },
  "predict-summary": { file: "quantiles-summary.csv", keys: CONFIG },
  "cv-are": { file: "cv/are.csv", keys: MAP },
  "cv-table2": { file: "cv/table2.csv" },
  "cv-coverage": { file: "cv/coverage.csv", keys: MAP },
  "dcv-ks": { file: "dcv/ks.csv" },
  "dcv-ks-summary": { file: "dcv/ks-summary.csv" },
  mixture: { file: "fits.csv", keys: CONFIG },
  "mixture-validate": { file: "val.csv", keys: CONFIG },
  "refit-summary": { file: "refit/summary.csv", keys: MAP },
  "refit-distributions": { file: "refit/distributions.csv", keys: CONFIG },
  whatif: { file: "whatif.csv", keys: CONFIG },
  gev: { file: "gev.csv", keys: CONFIG },
  "gev-diagnostics": { file: "diag.csv", keys: CONFIG },
  "gev-compare": { file: "compare.csv", keys: CONFIG.filter((c) => c !== "threads") },
  "gev-covariates": { file: "gev-cov.csv", keys: MAP },
  samplesize: { file: "ss.csv", keys: CONFIG },
  "samplesize-curves": { file: "ss-curves.csv", keys: CONFIG },
  convergence: { file: "conv.csv", keys: CONFIG },
  "convergence-curves": { file: "conv-curves.csv", keys: CONFIG },
  quantiles: { file: "q/quantiles.csv", keys: CONFIG },
  screen: { file: "screen.csv", keys: CONFIG },
  "screen-maps": { file: "screen-maps.csv", keys: MAP },
  "effects-anova": { file: "anova.csv", keys: MAP },
  "effects-importance": { file: "importance.csv", keys: MAP },
  "effects-pd": { file: "pd.csv", keys: MAP },
  "interference-pairs": { file: "pairs.csv", keys: IFACTORS },
  "interference-matrix": { file: "matrix.csv", keys: IFACTORS },
  "interference-apps": { file: "apps.csv", keys: IFACTORS },
  "interference-breakeven": { file: "breakeven.csv", keys: ["fs", "procs"] },
  "plan-batch": { file: "batch.csv", keys: ["mode", "threads"] },
  "plan-replay": { file: "pcurves.csv" },
  "import-hyperfine": { file: "imp-hyperfine.csv", keys: ["ms"] },
  "import-fio": { file: "imp-fio.csv", keys: ["bs"] },
  "import-gbench": { file: "imp-gbench.csv", keys: ["host", "benchmark", "arg0", "threads", "bytes"] },
  "import-pytest": { file: "imp-pytest.csv", keys: ["host", "kind", "n"] },
  "import-ior": { file: "imp-ior.csv", keys: ["host", "access"] },
  "import-iozone": { file: "imp-iozone.csv" },
};

const NEW = "host_sched,vm_sched,mode,freq_khz,threads,fsize_kb,rsize_kb\nCFQ,CFQ,initial-writers,2200000,12,384,96\n";
const MOANA = ["--preset", "moana"];

/** The runs that write every table (small: one map, filtered; about 25 s of CPU, most of it Node start-up). */
function commands(): string[][] {
  const w16 = ["--where", "threads <= 16"];
  const one = ["--where", "threads = 1 AND fsize_kb = 64"];
  return [
    ["synth", "--design", "moana", "--maps", "1", "--out", "synth.csv", "--truth", "truth.csv"],
    ["synth", "--design", "mixture", "--maps", "1", "--out", "mix-runs.csv"],
    ["synth", "--design", "interference", "--out", "iruns.csv"],
    ["summarize", "synth.csv", ...MOANA, "--where", "threads <= 4", "--out", "configs.csv"],
    ["fit", "synth.csv", ...MOANA, "--method", "lsp", "--conformal-folds", "5", ...w16, "--out", "models.json"],
    ["predict", "models.json", "--at", "new.csv", "--interval", "0.9", "--out", "predictions.csv"],
    ["fit", "synth.csv", ...MOANA, "--target", "distribution", ...w16, "--out", "dist.json"],
    ["predict", "dist.json", "--at", "new.csv", "--output", "quantiles", "--levels", "10", "--out", "quantiles.csv"],
    ["predict", "dist.json", "--at", "new.csv", "--output", "cdf", "--grid-points", "5", "--out", "cdf.csv"],
    ["predict", "dist.json", "--at", "new.csv", "--output", "mixture", "--kmax", "2", "--out", "pmix.csv"],
    ["cv", "synth.csv", ...MOANA, "--methods", "lr,lsp", "--p", "0.5", "--reps", "2", "--interval", "0.9", ...w16, "--out", "cv"],
    ["cv", "synth.csv", ...MOANA, "--target", "distribution", "--p", "0.5", "--reps", "1", ...w16, "--out", "dcv"],
    ["mixture", "synth.csv", ...MOANA, ...one, "--kmax", "2", "--out", "fits.csv"],
    ["mixture", "synth.csv", ...MOANA, ...one, "--kmax", "2", "--validate", "--split", "odd-even", "--validate-out", "val.csv"],
    ["refit", "synth.csv", ...MOANA, "--methods", "lr", "--families", "normal", "--kmax", "2", "--where", "threads <= 4", "--out", "refit"],
    ["fit", "synth.csv", ...MOANA, "--stat", "mean", "--method", "delaunay", "--out", "mean.json"],
    ["fit", "synth.csv", ...MOANA, "--stat", "sd", "--method", "delaunay", "--out", "sd.json"],
    [
      "whatif",
      "--mean",
      "mean.json",
      "--spread",
      "sd.json",
      "--grid",
      "freq_khz=1200000:3000000:400000;threads=1,4,16",
      "--fix",
      "host_sched=CFQ,vm_sched=CFQ,mode=initial-writers,fsize_kb=1024,rsize_kb=128",
      "--objective",
      "max-mean",
      "--max-cv",
      "0.2",
      "--top",
      "5",
      "--out",
      "whatif.csv",
    ],
    ["gev", "synth.csv", ...MOANA, ...one, "--out", "gev.csv", "--diagnostics", "diag.csv"],
    ["gev", "synth.csv", ...MOANA, "--where", "freq_khz = 1200000 AND fsize_kb = 64", "--compare", "threads=1,2", "--boot", "20", "--out", "compare.csv"],
    ["gev", "synth.csv", ...MOANA, "--where", "freq_khz = 1200000 AND fsize_kb = 64", "--loc-covariates", "log(threads)", "--out", "gev-cov.csv"],
    [
      "samplesize",
      "synth.csv",
      ...MOANA,
      "--where",
      "threads = 1 AND rsize_kb = 32 AND fsize_kb = 64",
      "--kmax",
      "2",
      "--out",
      "ss.csv",
      "--curves",
      "ss-curves.csv",
    ],
    ["convergence", "synth.csv", ...MOANA, ...one, "--out", "conv.csv", "--curves", "conv-curves.csv"],
    ["quantiles", "synth.csv", ...MOANA, ...one, "--probs", "0.5,0.999", "--out", "q"],
    ["screen", "synth.csv", ...MOANA, "--where", "threads <= 4", "--out", "screen.csv", "--maps-out", "screen-maps.csv"],
    ["fit", "synth.csv", ...MOANA, "--method", "lr", ...w16, "--out", "lr.json"],
    ["effects", "synth.csv", ...MOANA, ...w16, "--models", "lr.json", "--out", "anova.csv", "--importance-out", "importance.csv", "--pd-out", "pd.csv"],
    [
      "interference",
      "iruns.csv",
      ...["--experiment", "experiment", "--app", "app", "--instance", "instance", "--factors", IFACTORS.join(","), "--run", "rep"],
      ...["--response", "bw_gbps", "--metric", "throughput", "--aggregate", "median", "--sweep", "chunk_mib", "--bootstrap", "50"],
      ...["--out", "pairs.csv", "--matrix", "matrix.csv", "--apps", "apps.csv"],
    ],
    ["plan", "--grid", "mode=read,write;threads=1,2,4", "--budget-runs", "60", "--out", "batch.csv"],
    [
      "plan",
      "--replay",
      "synth.csv",
      ...MOANA,
      "--where",
      "fsize_kb = 1024 AND threads <= 4",
      "--reps",
      "1",
      "--replay-fraction",
      "0.3",
      "--precision",
      "0.2",
      "--out",
      "pcurves.csv",
    ],
    ["import", "hyperfine", join(FIX, "hyperfine", "sleep-scan.json"), "--out", "imp-hyperfine.csv"],
    ["import", "fio", join(FIX, "fio", "run1.json"), "--out", "imp-fio.csv"],
    ["import", "gbench", join(FIX, "gbench", "bm.json"), "--out", "imp-gbench.csv"],
    ["import", "pytest-benchmark", join(FIX, "pytest-benchmark", "sort.json"), "--out", "imp-pytest.csv"],
    ["import", "ior", join(FIX, "ior", "ior-t64k.json"), "--out", "imp-ior.csv"],
    ["import", "iozone", join(FIX, "iozone", "run1.txt"), "--out", "imp-iozone.csv"],
  ];
}

interface DocColumn {
  /** Literal names, or one regular expression for a template such as `are_<method>`. */
  names: string[];
  template?: RegExp;
  placeholder: boolean;
  optional: boolean;
}

/** The documented tables: id → its rows (the first table after each `<!-- table: id -->` marker). */
function documentedTables(text: string): Map<string, DocColumn[]> {
  const out = new Map<string, DocColumn[]>();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^<!-- table: ([\w-]+) -->$/.exec(lines[i].trim());
    if (!m) continue;
    let j = i + 1;
    while (j < lines.length && !lines[j].startsWith("|")) j++;
    const rows: DocColumn[] = [];
    for (j += 2; j < lines.length && lines[j].startsWith("|"); j++) {
      const cells = lines[j].split(/(?<!\\)\|/).map((c) => c.trim());
      const [name, type] = [cells[1], cells[2]];
      const optional = /optional/.test(type);
      if (name.startsWith("*")) {
        rows.push({ names: [], placeholder: true, optional });
        continue;
      }
      const names = [...name.matchAll(/`([^`]+)`/g)].map((x) => x[1]);
      if (names.some((n) => /<[^>]+>/.test(n))) {
        // Templates (`are_<method>`, `a<j>`, `b<j>`): every column any of them matches, in any interleaving.
        const alt = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/<[^>]+>/g, "[^,]+")).join("|");
        rows.push({ names, template: new RegExp(`^(?:${alt})$`), placeholder: false, optional });
      } else rows.push({ names, placeholder: false, optional });
    }
    out.set(m[1], rows);
  }
  return out;
}

/** Matches a header against the documented rows; returns the first mismatch, or null. */
function matchHeader(header: string[], doc: DocColumn[], keys: string[] = []): string | null {
  let i = 0;
  for (let r = 0; r < doc.length; r++) {
    const row = doc[r];
    if (row.placeholder) {
      for (const k of keys) {
        if (header[i] !== k) return `column ${i + 1}: expected key column '${k}', found '${header[i]}'`;
        i++;
      }
      continue;
    }
    if (row.template) {
      // A template takes every following column it matches that the next documented literal does not name.
      const next = doc.slice(r + 1).find((d) => !d.template && !d.placeholder);
      let n = 0;
      while (i < header.length && row.template.test(header[i]) && !next?.names.includes(header[i])) {
        i++;
        n++;
      }
      if (n === 0 && !row.optional) return `column ${i + 1}: expected a column like '${row.names[0]}', found '${header[i]}'`;
      continue;
    }
    if (row.optional && header[i] !== row.names[0]) continue;
    for (const name of row.names) {
      if (header[i] !== name) return `column ${i + 1}: expected '${name}', found '${header[i] ?? "(end of header)"}'`;
      i++;
    }
  }
  return i === header.length ? null : `undocumented column(s): ${header.slice(i).join(", ")}`;
}

describe("documentedTables / matchHeader", () => {
  const doc = documentedTables(
    [
      "<!-- table: t -->",
      "",
      "| column | type | unit | meaning |",
      "|---|---|---|---|",
      "| *key* | string | — | k |",
      "| `a`, `b` | number | — | x |",
      "| `are_<method>` | number | — | y |",
      "| `opt` | number, optional | — | z |",
      "| `c` | number | — | w |",
    ].join("\n"),
  ).get("t")!;
  it("reads literals, templates, optional rows and placeholders, and finds a drift", () => {
    expect(matchHeader(["g", "a", "b", "are_lr", "are_lsp", "c"], doc, ["g"])).toBeNull();
    expect(matchHeader(["g", "a", "b", "are_lr", "opt", "c"], doc, ["g"])).toBeNull();
    expect(matchHeader(["g", "a", "b", "are_lr", "c", "extra"], doc, ["g"])).toMatch(/undocumented column\(s\): extra/);
    expect(matchHeader(["g", "b", "a", "are_lr", "c"], doc, ["g"])).toMatch(/expected 'a', found 'b'/);
    expect(matchHeader(["h", "a", "b", "are_lr", "c"], doc, ["g"])).toMatch(/expected key column 'g'/);
  });
});

describe.skipIf(secondBackendRun || !cliBuilt)("docs/guide/output-columns.md against real headers", () => {
  it("documents every table every verb writes, column by column, with unique names", () => {
    const dir = mkdtempSync(join(tmpdir(), "varmap-columns-"));
    const varmap = cliIn(dir, { VARMAP_QUIET: "1" });
    writeFileSync(join(dir, "new.csv"), NEW);
    for (const args of commands()) {
      const r = varmap(...args, ...(args[0] === "import" ? [] : ["--quiet"]));
      expect(r.code, `varmap ${args.join(" ")}\n${r.err}`).toBe(0);
    }
    const doc = documentedTables(readFileSync(PAGE, "utf8"));
    expect([...doc.keys()].sort()).toEqual(Object.keys(TABLES).sort());
    for (const [id, t] of Object.entries(TABLES)) {
      const header = readFileSync(join(dir, t.file), "utf8").split("\n")[0].split(",");
      expect(new Set(header).size, `${t.file}: duplicate column names`).toBe(header.length);
      expect(matchHeader(header, doc.get(id)!, t.keys), `${id} (${t.file}): ${header.join(",")}`).toBeNull();
    }
  }, 300_000);
});

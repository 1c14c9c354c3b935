// `varmap cv <data> … --splits FILE --method lsp --predictions out.csv`: cross-validation on given divisions.
// Writes one row per test point and split (p, rep, index, prediction; factor columns first when the data has
// several maps) and prints the mean ARE per training fraction p.
import type { Command } from "commander";
import { VarmapError } from "../../errors.js";
import { loadDataset, optionsFromCli } from "../../data/load.js";
import { writeTable, type CellValue, type Column } from "../../data/write.js";
import { cvGivenSplits, type SplitResult } from "../../cv/given.js";
import { meanArePerP } from "../../cv/are.js";
import { readSplitsFile } from "../../cv/splits.js";
import { addDataOptions } from "../options.js";
import { addMethodOptions, methodOptionsFromCli } from "../method-options.js";
import { describeKey } from "./fit.js";

export function register(program: Command): void {
  const cmd = program
    .command("cv")
    .description("cross-validation on given train/test splits: predictions and mean ARE per training fraction")
    .argument("<data>", "runs table (.csv or .parquet), or a map table with --map");
  addMethodOptions(addDataOptions(cmd))
    .option("--splits <file>", 'given splits: JSON {"n", "splits": [{"p", "rep", "train": [id…]}]} (ids = --id values, else row positions)')
    .option("--predictions <path>", "write p,rep,index,prediction per test point and split (.csv, .json or .parquet)")
    .option("--json", "print the ARE table as JSON")
    .option("--quiet", "no notes on stderr")
    .action(async (file: string, opts: Record<string, unknown>) => {
      if (!opts.splits)
        throw new VarmapError("E_USAGE", "no splits given", { remedy: "pass --splits FILE (a JSON file of train/test divisions, e.g. ../shared/golden/moana-splits.json)" });
      const method = String(opts.method);
      const hyper = methodOptionsFromCli(opts, method);
      const load = optionsFromCli(opts);
      const splits = readSplitsFile(String(opts.splits));
      const data = await loadDataset(file, load);
      const response = load.logResponse ? "log" : "linear";
      const factors = data.table.roles.factors;
      const perMap = data.maps.map((m) => {
        if (splits.n !== undefined && splits.n !== m.rows && !opts.quiet)
          process.stderr.write(`varmap: note: the splits file says n = ${splits.n} but map ${describeKey(m.key)} has ${m.rows} rows\n`);
        const results = cvGivenSplits({ X: m.X, rows: m.rows, cols: m.inputNames.length, y: m.y, ids: m.ids, normalization: m.normalization }, splits, method, { ...hyper, response });
        return { map: m, results, table: meanArePerP(results) };
      });

      if (opts.predictions) await writeTable(String(opts.predictions), predictionColumns(perMap, factors));
      if (opts.json) {
        process.stdout.write(JSON.stringify({ method, splits: splits.source, maps: perMap.map((r) => ({ key: r.map.key, rows: r.map.rows, are: r.table })) }, null, 2) + "\n");
        return;
      }
      for (const r of perMap) {
        process.stdout.write(`${method} on ${describeKey(r.map.key)} (${r.map.rows} configurations, ${r.results.length} splits): mean ARE per p\n`);
        process.stdout.write("p\tsplits\tmean ARE\n");
        for (const t of r.table) process.stdout.write(`${t.p}\t${t.splits}\t${(100 * t.are).toFixed(2)}%\n`);
      }
      if (opts.predictions && !opts.quiet) process.stderr.write(`varmap: predictions written to ${opts.predictions}\n`);
    });
}

function predictionColumns(perMap: { map: { key: Record<string, string> }; results: SplitResult[] }[], factors: string[]): Column[] {
  const f: CellValue[][] = factors.map(() => []);
  const p: number[] = [], rep: number[] = [], index: CellValue[] = [], pred: number[] = [];
  for (const { map, results } of perMap)
    for (const r of results)
      r.ids.forEach((id, k) => {
        factors.forEach((name, i) => f[i].push(map.key[name]));
        p.push(r.p);
        rep.push(r.rep);
        index.push(id);
        pred.push(r.predictions[k]);
      });
  return [
    ...factors.map((name, i) => ({ name, values: f[i], type: "string" as const })),
    { name: "p", values: p },
    { name: "rep", values: Int32Array.from(rep), type: "int" as const },
    { name: "index", values: index },
    { name: "prediction", values: Float64Array.from(pred) },
  ];
}

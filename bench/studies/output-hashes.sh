#!/bin/bash
# The files a set of verbs writes on small synthetic data, hashed: run it with two checkouts (built) and diff the
# outputs to show a change moved no byte. Usage: bash bench/studies/output-hashes.sh <varmap checkout> <empty work dir>
# (VARMAP_BACKEND=wasm for the other backend). demo/report.html names its directory: compare it with the path replaced.
set -e
R=$1; W=$2; rm -rf $W; mkdir -p $W; cd $W
V="node $R/dist/ts/cli/main.js"
Q="--quiet"
$V synth --design moana --maps 1 --seed 3 --out runs.csv $Q
$V synth --design interference --seed 1 --out iruns.csv $Q
$V demo --out demo --workers 2 $Q > demo.stdout
$V cv runs.csv --preset moana --methods lr,lsp,delaunay,mars --p 0.3,0.7 --reps 3 --workers 2 --out cv $Q
$V refit runs.csv --preset moana --methods lr,lsp --kmax 2 --where "threads <= 4" --workers 2 --out refit $Q
$V mixture runs.csv --preset moana --where "threads = 1" --kmax 2 --out fits.csv $Q
$V gev runs.csv --preset moana --where "threads <= 2" --out gev.csv $Q
$V samplesize runs.csv --preset moana --where "threads = 1 AND rsize_kb = 32" --kmax 2 --out ss.csv $Q
$V fit runs.csv --preset moana --stat mean --method delaunay --out mean.json $Q
$V fit runs.csv --preset moana --stat sd --method delaunay --out sd.json $Q
$V whatif --mean mean.json --spread sd.json --grid "freq_khz=1200000:3000000:400000;threads=1,4,16" --fix host_sched=CFQ,vm_sched=CFQ,mode=initial-writers,fsize_kb=1024,rsize_kb=128 --objective max-mean --top 5 --out whatif.csv $Q
$V interference iruns.csv --experiment experiment --app app --instance instance --factors fs,chunk_mib,procs --run rep --response bw_gbps --metric throughput --out pairs.csv $Q
$V fit runs.csv --preset moana --target distribution --where "threads <= 16" --out dist.json $Q
$V cv runs.csv --preset moana --target distribution --p 0.5 --reps 1 --where "threads <= 16" --workers 2 --out dcv $Q
find . -type f ! -name "run-log.json" ! -name "*.stdout" | sort | xargs sha256sum | grep -v "manifest.json"

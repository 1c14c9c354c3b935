import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One temporary directory per run, removed at its end (VARMAP_KEEP_TEST_FILES=1 keeps it for a look).
    // dist/ must be at least as new as ts/ (the CLI tests spawn it): rebuilt when stale (test/helpers/fresh-dist.ts).
    globalSetup: ["test/helpers/global-temp.ts", "test/helpers/fresh-dist.ts"],
    // Forks: each test file gets its own process, so native addon and wasm state never leak between files.
    pool: "forks",
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});

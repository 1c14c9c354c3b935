// Parsing of option values shared by the CLI and the library (here, below cli/, so data/ and the jobs can use it).

/** "a, b,,c" -> ["a", "b", "c"]; undefined or "" -> []. */
export function splitList(s: string | undefined): string[] {
  return s ? s.split(",").map((x) => x.trim()).filter(Boolean) : [];
}

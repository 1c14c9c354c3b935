// Small HTML helpers for the report: escaping, tables, numbers.
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** An HTML table; numeric cells right-aligned. */
export function htmlTable(
  header: readonly string[],
  rows: readonly (readonly (string | number)[])[],
  opts: { caption?: string; className?: string } = {},
): string {
  const cell = (v: string | number, th = false) => {
    const tag = th ? "th" : "td";
    return typeof v === "number" ? `<${tag} class="num">${escapeHtml(fmt(v))}</${tag}>` : `<${tag}>${escapeHtml(v)}</${tag}>`;
  };
  return [
    `<table${opts.className ? ` class="${opts.className}"` : ""}>`,
    opts.caption ? `<caption>${escapeHtml(opts.caption)}</caption>` : "",
    `<thead><tr>${header.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr></thead>`,
    `<tbody>${rows.map((r) => `<tr>${r.map((v) => cell(v)).join("")}</tr>`).join("\n")}</tbody>`,
    `</table>`,
  ].join("\n");
}

/** Numbers for people: integers as they are, others to 4 significant digits. */
export function fmt(x: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "—" : String(x);
  if (Number.isInteger(x)) return String(x);
  return String(Number(x.toPrecision(4)));
}

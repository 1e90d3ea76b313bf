/**
 * Exits 0 when the file named by the first argument exists, 1 otherwise. Run
 * with read access to that one path, so the caller needs none.
 */
try {
  Deno.exit(Deno.statSync(Deno.args[0] ?? "").isFile ? 0 : 1);
} catch {
  Deno.exit(1);
}

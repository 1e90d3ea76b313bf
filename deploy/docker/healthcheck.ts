/**
 * The image's HEALTHCHECK (the Deno image has no curl): GETs the health URL given as the only
 * argument and exits 0 on a 200 whose body says `"status":"ok"`, 1 otherwise, within 3 seconds.
 * Run with `--allow-net` for that one address; it imports nothing, so it needs no cache.
 */
const url = Deno.args[0];
if (url === undefined) {
  Deno.stderr.writeSync(
    new TextEncoder().encode("usage: healthcheck.ts http://HOST:PORT/healthz\n"),
  );
  Deno.exit(2);
}
try {
  const response = await fetch(url, { signal: AbortSignal.timeout(3000) });
  const body = await response.json() as { status?: unknown };
  Deno.exit(response.status === 200 && body.status === "ok" ? 0 : 1);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  Deno.stderr.writeSync(new TextEncoder().encode(`unhealthy: ${message}\n`));
  Deno.exit(1);
}

/**
 * A free port on 127.0.0.1, for a permission scoped to one listen address:
 * the HTTP tests and the HTTP benchmark grant `--allow-net` for exactly it.
 */

/** A port that was free a moment ago, for a permission scoped to one listen address. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/**
 * The `/metrics` endpoint of the HTTP mode: the server's metrics in the
 * Prometheus text format, on the MCP port or, with a metrics address, on a
 * listener of its own (then only there). Like the health check it needs no
 * token, checks no Host or Origin and never touches Bitbucket: what it shows
 * carries no token, user name or argument.
 */
import { StartupError } from "../config.ts";
import { EXPOSITION_CONTENT_TYPE } from "../metrics/registry.ts";
import type { ServerMetrics } from "../metrics/server_metrics.ts";
import { formatHostPort, type ListenAddress } from "./listen_address.ts";

/** The path the metrics are served on. */
export const METRICS_PATH = "/metrics";

/** The answer to a request for {@link METRICS_PATH}: the metrics for GET and HEAD, else 405. */
export function metricsResponse(request: Request, metrics: ServerMetrics): Response {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return new Response(null, { status: 405, headers: { Allow: "GET, HEAD" } });
  }
  const headers = { "Content-Type": EXPOSITION_CONTENT_TYPE, "Cache-Control": "no-store" };
  return new Response(request.method === "HEAD" ? null : metrics.render(), { headers });
}

/** A listener serving the metrics alone. */
export interface MetricsServer {
  /** The metrics URL, with the port actually bound. */
  url: URL;
  finished: Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * Serves {@link METRICS_PATH} (and nothing else: 404) at `address`; an address
 * in use or not available stops start-up, naming it as the metrics', after
 * `undo` (stopping what was started before).
 */
export function serveMetrics(
  address: ListenAddress,
  metrics: ServerMetrics,
  undo: () => unknown = () => {},
): MetricsServer {
  let server: Deno.HttpServer;
  try {
    server = Deno.serve(
      { hostname: address.hostname, port: address.port, onListen() {} },
      (request) =>
        new URL(request.url).pathname === METRICS_PATH
          ? metricsResponse(request, metrics)
          : new Response(`not found: metrics are served at ${METRICS_PATH}\n`, { status: 404 }),
    );
  } catch (error) {
    undo();
    if (error instanceof Deno.errors.AddrInUse || error instanceof Deno.errors.AddrNotAvailable) {
      const where = formatHostPort(address.hostname, address.port);
      throw new StartupError(`cannot listen on ${where} for the metrics: ${error.message}`);
    }
    throw error;
  }
  const addr = server.addr as Deno.NetAddr;
  return {
    url: new URL(`http://${formatHostPort(addr.hostname, addr.port)}${METRICS_PATH}`),
    finished: server.finished,
    shutdown: () => server.shutdown(),
  };
}

/** Where the HTTP mode listens, and how such an address is written. */

/** Where the HTTP mode listens. */
export interface ListenAddress {
  /** A host name or IP address, IPv6 without brackets (as `Deno.serve` takes it). */
  hostname: string;
  /** 0 asks the system for a free port. */
  port: number;
}

/** The address used when `--http` names a port only. */
export const DEFAULT_LISTEN_HOSTNAME = "127.0.0.1";

/** `host:port` as it appears in a URL or a Deno net permission (IPv6 bracketed). */
export function formatHostPort(hostname: string, port: number): string {
  return hostname.includes(":") ? `[${hostname}]:${port}` : `${hostname}:${port}`;
}

import { StartupError } from "../config.ts";

/** Where the HTTP mode listens. */
export interface ListenAddress {
  /** A host name or IP address, IPv6 without brackets (as `Deno.serve` takes it). */
  hostname: string;
  /** 0 asks the system for a free port. */
  port: number;
}

/** The address used when `--http` names a port only. */
export const DEFAULT_LISTEN_HOSTNAME = "127.0.0.1";

/** Parses `--http`'s `[host:]port` (IPv6 in brackets: `[::1]:8080`); the host defaults to 127.0.0.1. */
export function parseListenAddress(raw: string): ListenAddress {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:\[\]]+):)?(\d{1,5})$/.exec(raw.trim());
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) {
    throw new StartupError(
      `--http takes [host:]port (e.g. 8080, 127.0.0.1:8080 or [::1]:8080), not ${
        JSON.stringify(raw)
      }`,
    );
  }
  const host = match[1] ?? DEFAULT_LISTEN_HOSTNAME;
  return { hostname: host.replace(/^\[(.*)\]$/, "$1"), port };
}

/** `host:port` as it appears in a URL or a Deno net permission (IPv6 bracketed). */
export function formatHostPort(hostname: string, port: number): string {
  return hostname.includes(":") ? `[${hostname}]:${port}` : `${hostname}:${port}`;
}

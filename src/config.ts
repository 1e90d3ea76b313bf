/**
 * The configuration a server starts with: flags and environment read and
 * checked (URL, token, timeout), and the Deno permissions it needs checked
 * before it starts, each refusal naming the fix.
 */
import { basePath } from "./bitbucket/transport/base_path.ts";
import type { ClientCertificate } from "./bitbucket/transport/client_auth.ts";

/** How long one Bitbucket request may take in all when `--timeout` is not given, in seconds. */
export const DEFAULT_TIMEOUT_SECONDS = 30;

/** The timeout of one Bitbucket request in milliseconds: `--timeout`, else the default. */
export function timeoutMsOf(flags: { timeoutSeconds?: number }): number {
  return (flags.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
}

/** Where to reach Bitbucket and how to authenticate: read once at start-up. */
export interface Config {
  baseUrl: URL;
  token: string;
  username?: string;
  timeoutMs: number;
  /** Largest Bitbucket response body read, in bytes (the client's default when absent). */
  maxResponseBytes?: number;
  /** The client certificate every request presents (mutual TLS), when one is configured. */
  clientCertificate?: ClientCertificate;
}

/** A problem that stops the server from starting: one actionable line, exit status 2. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartupError";
  }
}

/** The environment variables the server reads, and nothing else. */
export const ENV_VARS = [
  "BITBUCKET_URL",
  "BITBUCKET_TOKEN",
  "BITBUCKET_USERNAME",
  "BITBUCKET_MCP_STATE_KEY",
  "BITBUCKET_CLIENT_CERT",
  "BITBUCKET_CLIENT_KEY",
  "BITBUCKET_OAUTH_CLIENT_SECRET",
] as const;

/**
 * The variables a person's own server also reads, for profiles and signing
 * in (`login`, a stdio server on a signed-in session): the profile, the
 * incoming link, and where the config directory is. Each is optional: an
 * unreadable one reads as unset, and what needs it says which to permit.
 */
export const LOCAL_ENV_VARS = [
  "BITBUCKET_PROFILE",
  "BITBUCKET_OAUTH_CLIENT_ID",
  "HOME",
  "XDG_CONFIG_HOME",
  "APPDATA",
] as const;

/** The variables a server runs without: unreadable (not permitted) reads as unset. */
const OPTIONAL_VARS: ReadonlySet<string> = new Set([
  ...LOCAL_ENV_VARS,
  "BITBUCKET_USERNAME",
  "BITBUCKET_MCP_STATE_KEY",
  "BITBUCKET_CLIENT_CERT",
  "BITBUCKET_CLIENT_KEY",
  "BITBUCKET_OAUTH_CLIENT_SECRET",
]);

/** Reads one of our variables; undefined when unset or not permitted (the caller decides if that is fatal). */
export type EnvReader = (
  name: (typeof ENV_VARS)[number] | (typeof LOCAL_ENV_VARS)[number],
) => string | undefined;

/** Reads the process environment, refusing with the exact flag when a needed variable is not permitted. */
export const processEnv: EnvReader = (name) => {
  if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") {
    if (OPTIONAL_VARS.has(name)) return undefined;
    throw new StartupError(
      `cannot read ${name}: run with --allow-env=${ENV_VARS.join(",")}`,
    );
  }
  return Deno.env.get(name);
};

/**
 * Reads a variable a profile names (its token's), refusing with the flag to
 * add when it is not permitted; undefined when unset.
 */
export function readNamedVariable(name: string, why: string): string | undefined {
  if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") {
    throw new StartupError(`cannot read ${name} (${why}): add ${name} to --allow-env`);
  }
  return Deno.env.get(name);
}

/**
 * An environment whose `BITBUCKET_URL` falls back to `url` (a URL baked into a
 * compiled binary) when the variable is unset or empty; `--url` still wins
 * over both, and the fallback is validated like any other URL.
 */
export function withDefaultUrl(env: EnvReader, url: string | undefined): EnvReader {
  if (url === undefined) return env;
  return (name) => name === "BITBUCKET_URL" ? env(name) || url : env(name);
}

/** Checks and normalises a Bitbucket base URL. */
export function parseBaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new StartupError(
      `BITBUCKET_URL is not a URL (${raw}): use the base URL, e.g. https://bitbucket.example.com`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new StartupError(
      `BITBUCKET_URL must start with https:// or http://, not ${url.protocol}`,
    );
  }
  if (url.username || url.password) {
    throw new StartupError(
      "BITBUCKET_URL must not contain credentials: set BITBUCKET_TOKEN instead",
    );
  }
  if (url.search || url.hash) {
    throw new StartupError(
      "BITBUCKET_URL must not have a query or fragment: use the base URL only",
    );
  }
  url.pathname = basePath(url).replace(/\/rest$/, "") || "/";
  return url;
}

/**
 * The configuration of a server whose callers may bring their own token (HTTP
 * mode): the server-wide token is only a fallback and may be absent.
 */
export type SharedConfig = Omit<Config, "token"> & { token?: string };

/** How {@link readConfig} treats a missing `BITBUCKET_TOKEN`. */
export interface ReadConfigOptions {
  /** When true, a missing token is allowed (each HTTP request may carry its own). */
  tokenOptional: boolean;
}

/** Builds the configuration from flags and environment, flags winning; the token is required. */
export function readConfig(
  flags: { url?: string; timeoutSeconds?: number; maxResponseMb?: number },
  env: EnvReader,
): Config;
/** Builds the configuration; with `tokenOptional` the server-wide token may be absent. */
export function readConfig(
  flags: { url?: string; timeoutSeconds?: number; maxResponseMb?: number },
  env: EnvReader,
  options: ReadConfigOptions,
): SharedConfig;
export function readConfig(
  flags: { url?: string; timeoutSeconds?: number; maxResponseMb?: number },
  env: EnvReader,
  options: ReadConfigOptions = { tokenOptional: false },
): SharedConfig {
  const rawUrl = flags.url ?? env("BITBUCKET_URL");
  if (!rawUrl) {
    throw new StartupError(
      "BITBUCKET_URL is not set: set it (or --url) to your Bitbucket base URL, e.g. https://bitbucket.example.com",
    );
  }
  const baseUrl = parseBaseUrl(rawUrl);
  const token = env("BITBUCKET_TOKEN") || undefined;
  if (!token && !options.tokenOptional) {
    throw new StartupError(
      "BITBUCKET_TOKEN is not set: create an HTTP access token in Bitbucket (Manage account > HTTP access tokens) and export it, or sign in with your Bitbucket account (bitbucket-mcp login --oauth-client-id ID, then serve with the same --oauth-client-id)",
    );
  }
  const username = env("BITBUCKET_USERNAME") || undefined;
  const maxResponseBytes = flags.maxResponseMb === undefined
    ? undefined
    : Math.round(flags.maxResponseMb * 1024 * 1024);
  return {
    baseUrl,
    token,
    username,
    timeoutMs: timeoutMsOf(flags),
    maxResponseBytes,
  };
}

/**
 * Refuses to start, naming the flag to add, when the process may not listen on
 * `host` (`host:port` as in a URL, IPv6 bracketed; port 0 for any port).
 */
export async function checkListenPermission(host: string): Promise<void> {
  const status = await Deno.permissions.query({ name: "net", host: host.replace(/:0$/, "") });
  if (status.state !== "granted") {
    throw new StartupError(
      `no network permission to listen on ${host}: add it to --allow-net (e.g. --allow-net=${host},<bitbucket host>)`,
    );
  }
}

/** Exits with the flag to add when the process may not connect to the Bitbucket host. */
export async function checkNetPermission(baseUrl: URL): Promise<void> {
  const status = await Deno.permissions.query({ name: "net", host: baseUrl.host });
  if (status.state !== "granted") {
    throw new StartupError(
      `no network permission for ${baseUrl.host}: run with --allow-net=${baseUrl.host}`,
    );
  }
}

/** Refuses to start, naming the flag to add, when the process may not write the audit file. */
export function checkWritePermission(path: string): void {
  if (Deno.permissions.querySync({ name: "write", path }).state !== "granted") {
    throw new StartupError(
      `no write permission for the audit file ${path}: run with --allow-write=${path}`,
    );
  }
}

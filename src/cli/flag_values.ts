/**
 * The command line's values that are more than a word: `--http`'s listen
 * address and connection limits, and the confinement of `--project`/`--repo`. A malformed value
 * stops start-up with a line naming the flag.
 */
import { StartupError } from "../config.ts";
import { Confinement, KEY_PATTERN as SEGMENT } from "../policy/confinement.ts";
import { DEFAULT_LISTEN_HOSTNAME, type ListenAddress } from "../server/listen_address.ts";
import { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS } from "../server/connection_limits.ts";
import { DEFAULT_SESSION_LIMITS, type SessionLimits } from "../server/session_limits.ts";

/** Every bound of the HTTP mode: each connection's, and the 2025-era sessions'. */
export type HttpLimits = ConnectionLimits & SessionLimits;

/**
 * Parses `--http`'s `[host:]port` (IPv6 in brackets: `[::1]:8080`), or `flag`'s
 * (`--metrics-listen`); the host defaults to 127.0.0.1.
 */
export function parseListenAddress(raw: string, flag = "--http"): ListenAddress {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:\[\]]+):)?(\d{1,5})$/.exec(raw.trim());
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) {
    throw new StartupError(
      `${flag} takes [host:]port (e.g. 8080, 127.0.0.1:8080 or [::1]:8080), not ${
        JSON.stringify(raw)
      }`,
    );
  }
  const host = match[1] ?? DEFAULT_LISTEN_HOSTNAME;
  return { hostname: host.replace(/^\[(.*)\]$/, "$1"), port };
}

/** The confinement of `--project` and `--repo`, or undefined with neither; a malformed value stops start-up. */
export function parseConfinement(
  projects: readonly string[] | undefined,
  repos: readonly string[] | undefined,
): Confinement | undefined {
  if (projects === undefined && repos === undefined) return undefined;
  for (const p of projects ?? []) {
    if (!SEGMENT.test(p)) {
      throw new StartupError(
        `--project takes project keys, e.g. --project PROJ, not ${JSON.stringify(p)}`,
      );
    }
  }
  const pairs = (repos ?? []).map((value) => {
    const [project, repo, ...rest] = value.split("/");
    if (
      project === undefined || repo === undefined || rest.length > 0 || !SEGMENT.test(project) ||
      !SEGMENT.test(repo)
    ) {
      throw new StartupError(
        `--repo takes PROJECT/slug, e.g. --repo PROJ/web, not ${JSON.stringify(value)}`,
      );
    }
    return { project, repo };
  });
  const all = [...projects ?? [], ...pairs];
  if (all.length === 0) throw new StartupError("--project and --repo need at least one value");
  return new Confinement(projects ?? [], pairs);
}

/** Each HTTP limit's flag, and the field of {@link HttpLimits} it sets. */
const HTTP_LIMITS = {
  "http-header-timeout": { field: "headerTimeoutMs", unit: "seconds", max: 3600 },
  "http-idle-timeout": { field: "idleTimeoutMs", unit: "seconds", max: 3600 },
  "http-body-timeout": { field: "bodyTimeoutMs", unit: "seconds", max: 3600 },
  "http-max-connections": { field: "maxConnections", unit: "connections", max: 100_000 },
  "http-max-sessions": { field: "maxSessions", unit: "sessions", max: 100_000 },
  "http-session-timeout": { field: "sessionTimeoutMs", unit: "seconds", max: 86_400 },
} as const;

/** The flags that set the HTTP mode's connection and session limits. */
export const HTTP_LIMIT_FLAGS = Object.keys(HTTP_LIMITS) as (keyof typeof HTTP_LIMITS)[];

/**
 * The connection limits the flags give, each left out one at its default; a
 * value that is not a positive number (a whole one for the cap) stops start-up.
 */
export function parseHttpLimits(value: (flag: string) => string | undefined): HttpLimits {
  const limits: HttpLimits = { ...DEFAULT_CONNECTION_LIMITS, ...DEFAULT_SESSION_LIMITS };
  for (const flag of HTTP_LIMIT_FLAGS) {
    const raw = value(flag);
    if (raw === undefined) continue;
    const { field, unit, max } = HTTP_LIMITS[flag];
    const n = Number(raw);
    const whole = unit !== "seconds";
    if (!/^\d+(\.\d+)?$/.test(raw) || !(n > 0) || n > max || (whole && !Number.isInteger(n))) {
      throw new StartupError(
        `--${flag} takes ${whole ? "a whole number of" : "a number of"} ${unit} from ${
          whole ? 1 : "0"
        } to ${max}, not ${JSON.stringify(raw)}`,
      );
    }
    limits[field] = whole ? n : Math.round(n * 1000);
  }
  return limits;
}

/** The sign-in and profile flags, as {@link Flags} holds them. */
export interface SignInFlags {
  redirectPort?: number;
  profile?: string;
  configFile?: string;
  allProfiles: boolean;
}

/**
 * `--redirect-port`, `--profile`, `--config` and `--all-profiles`, checked:
 * a port from 1 to 65535, a profile's name, `--all-profiles` with check only
 * and not beside `--profile`.
 */
export function parseSignInFlags(
  command: string,
  values: {
    "redirect-port"?: string;
    profile?: string;
    config?: string;
    "all-profiles"?: boolean;
  },
): SignInFlags {
  const raw = values["redirect-port"];
  let redirectPort: number | undefined;
  if (raw !== undefined) {
    redirectPort = Number(raw);
    if (!/^\d{1,5}$/.test(raw) || redirectPort < 1 || redirectPort > 65535) {
      throw new StartupError(
        `--redirect-port takes a port from 1 to 65535, not ${JSON.stringify(raw)}`,
      );
    }
  }
  const profile = values.profile;
  if (profile !== undefined && !PROFILE_NAME.test(profile)) {
    throw new StartupError(
      `--profile takes a profile's name (letters, digits, '.', '_', '-'), not ${
        JSON.stringify(profile)
      }`,
    );
  }
  if (values.config === "") throw new StartupError("--config needs a path");
  const allProfiles = values["all-profiles"] === true;
  if (allProfiles && command !== "check") {
    throw new StartupError("--all-profiles applies to check only");
  }
  if (allProfiles && profile !== undefined) {
    throw new StartupError("--all-profiles checks every profile: drop --profile");
  }
  return {
    ...(redirectPort === undefined ? {} : { redirectPort }),
    ...(profile === undefined ? {} : { profile }),
    ...(values.config === undefined ? {} : { configFile: values.config }),
    allProfiles,
  };
}

/** What a profile may be called. */
export const PROFILE_NAME = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Profiles: one file naming the Bitbucket instances a person works with
 * (`~/.config/bitbucket-mcp/config.json`, or `--config`), each with its URL
 * and where its token comes from (a variable holding a personal access token,
 * or the person's signed-in session through an incoming link), and optionally
 * a client certificate. `--profile NAME` (or BITBUCKET_PROFILE) picks one per
 * server; the profile then stands in for the variables it replaces, so the
 * rest of the program reads it as it reads the environment. A profile's
 * token is never another instance's: BITBUCKET_TOKEN counts under a profile
 * only when the profile names it.
 */
import { type EnvReader, parseBaseUrl, readNamedVariable, StartupError } from "../config.ts";
import { configDir, inDir } from "../auth/config_dir.ts";
import { PROFILE_NAME } from "./flag_values.ts";

/** One Bitbucket instance of the profiles file. */
export interface Profile {
  name: string;
  url: string;
  /** The variable holding a personal access token for this instance. */
  tokenEnv?: string;
  /** The incoming link's client id: the person's signed-in session is the token. */
  oauthClientId?: string;
  /** The variable holding the incoming link's secret, when it is confidential. */
  oauthClientSecretEnv?: string;
  /** The fixed loopback port of the link's redirect URL. */
  redirectPort?: number;
  /** The client certificate and key (PEM files), for an instance behind mutual TLS. */
  clientCert?: string;
  clientKey?: string;
}

/** The keys a profile may hold, and what each must be. */
const KEYS: Record<string, "string" | "port" | "variable"> = {
  url: "string",
  token_env: "variable",
  oauth_client_id: "string",
  oauth_client_secret_env: "variable",
  redirect_port: "port",
  client_cert: "string",
  client_key: "string",
};

/** The profiles file of the user's config directory, if the directory is known. */
export function defaultProfilesPath(env: EnvReader, os = Deno.build.os): string | undefined {
  const dir = configDir(env, os);
  return dir === undefined ? undefined : inDir(dir, "config.json", os);
}

/** The profiles of a file's text; a problem stops the start, naming the file and the key. */
export function parseProfiles(text: string, path: string): Map<string, Profile> {
  const bad = (why: string) => new StartupError(`the profiles file ${path} ${why}`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw bad(`is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const profiles = (raw as { profiles?: unknown } | null)?.profiles;
  if (typeof raw !== "object" || raw === null || Object.keys(raw).some((k) => k !== "profiles")) {
    throw bad(`must be {"profiles": {"NAME": {"url": …}, …}}`);
  }
  if (typeof profiles !== "object" || profiles === null || Array.isArray(profiles)) {
    throw bad(`must hold "profiles", an object of profiles by name`);
  }
  const found = new Map<string, Profile>();
  for (const [name, value] of Object.entries(profiles)) {
    const where = `profile ${JSON.stringify(name)}`;
    if (!PROFILE_NAME.test(name)) throw bad(`names a ${where}: use letters, digits, '.', '_', '-'`);
    if (typeof value !== "object" || value === null) throw bad(`has a ${where} that is no object`);
    const v = value as Record<string, unknown>;
    for (const [key, field] of Object.entries(v)) {
      const kind = KEYS[key];
      if (kind === undefined) {
        throw bad(`has ${key} in ${where}: the keys are ${Object.keys(KEYS).join(", ")}`);
      }
      const ok = kind === "port"
        ? Number.isInteger(field) && (field as number) >= 1 && (field as number) <= 65535
        : typeof field === "string" && field !== "" &&
          (kind !== "variable" || /^[A-Za-z_][A-Za-z0-9_]*$/.test(field));
      if (!ok) {
        const want = kind === "port"
          ? "a port from 1 to 65535"
          : kind === "variable"
          ? "an environment variable's name"
          : "a non-empty string";
        throw bad(`has ${key} in ${where} that is not ${want}`);
      }
    }
    if (typeof v.url !== "string") throw bad(`has no url in ${where}`);
    try {
      parseBaseUrl(v.url);
    } catch (error) {
      throw bad(`has a bad url in ${where}: ${(error as Error).message}`);
    }
    if ((v.token_env === undefined) === (v.oauth_client_id === undefined)) {
      throw bad(
        `needs exactly one token source in ${where}: token_env (a variable holding a personal access token) or oauth_client_id (sign in with bitbucket-mcp login)`,
      );
    }
    if ((v.client_cert === undefined) !== (v.client_key === undefined)) {
      throw bad(`needs both client_cert and client_key, or neither, in ${where}`);
    }
    found.set(name, {
      name,
      url: v.url,
      ...(v.token_env ? { tokenEnv: v.token_env as string } : {}),
      ...(v.oauth_client_id ? { oauthClientId: v.oauth_client_id as string } : {}),
      ...(v.oauth_client_secret_env
        ? { oauthClientSecretEnv: v.oauth_client_secret_env as string }
        : {}),
      ...(v.redirect_port ? { redirectPort: v.redirect_port as number } : {}),
      ...(v.client_cert
        ? { clientCert: v.client_cert as string, clientKey: v.client_key as string }
        : {}),
    });
  }
  if (found.size === 0) throw bad("holds no profile");
  return found;
}

/** The profiles file's path: `--config`, else the user's; a startup error when neither is known. */
export function profilesPath(flags: { configFile?: string }, env: EnvReader): string {
  const path = flags.configFile ?? defaultProfilesPath(env);
  if (path === undefined) {
    throw new StartupError(
      `cannot find the profiles file: HOME is not set or not readable (add HOME to --allow-env, or pass --config PATH)`,
    );
  }
  return path;
}

/** Reads the profiles file; a missing permission stops the start with the flag to add. */
export async function readProfiles(path: string): Promise<Map<string, Profile>> {
  if (Deno.permissions.querySync({ name: "read", path }).state !== "granted") {
    throw new StartupError(`cannot read the profiles file ${path}: run with --allow-read=${path}`);
  }
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new StartupError(
        `there is no profiles file ${path}: write one (see docs/configuration.md#profiles) or pass --config PATH`,
      );
    }
    throw new StartupError(`cannot read the profiles file ${path}: ${(error as Error).message}`);
  }
  return parseProfiles(text, path);
}

/** The profile `name` of `profiles`; a startup error naming the ones there are. */
export function pickProfile(profiles: Map<string, Profile>, name: string, path: string): Profile {
  const profile = profiles.get(name);
  if (profile === undefined) {
    throw new StartupError(
      `there is no profile ${JSON.stringify(name)} in ${path}: the profiles are ${
        [...profiles.keys()].join(", ")
      }`,
    );
  }
  return profile;
}

/**
 * The environment as the program reads it under `profile`: its URL, its
 * token (from the variable it names, read now and refused with the flag to
 * add when not permitted), its sign-in and its client certificate in place
 * of the variables; nothing of another instance's.
 */
export function profileEnv(profile: Profile, env: EnvReader): EnvReader {
  const token = profile.tokenEnv === undefined
    ? undefined
    : readNamedVariable(profile.tokenEnv, `the token of profile ${profile.name}`);
  const secret = profile.oauthClientSecretEnv === undefined ? undefined : readNamedVariable(
    profile.oauthClientSecretEnv,
    `the link's secret of profile ${profile.name}`,
  );
  const own: Partial<Record<Parameters<EnvReader>[0], string | undefined>> = {
    BITBUCKET_URL: profile.url,
    BITBUCKET_TOKEN: token,
    BITBUCKET_USERNAME: undefined,
    BITBUCKET_OAUTH_CLIENT_ID: profile.oauthClientId,
    BITBUCKET_OAUTH_CLIENT_SECRET: secret,
    BITBUCKET_CLIENT_CERT: profile.clientCert,
    BITBUCKET_CLIENT_KEY: profile.clientKey,
    BITBUCKET_PROFILE: profile.name,
  };
  return (name) => name in own ? own[name] : env(name);
}

/** The flags a profile works with: a fixed redirect port of its own, when the flags give none. */
interface ProfileFlags {
  url?: string;
  oauthClientId?: string;
  redirectPort?: number;
  profile?: string;
  configFile?: string;
}

/**
 * The flags and environment of this run under the profile `--profile` (or
 * BITBUCKET_PROFILE) names; as they are without one. `--url` and
 * `--oauth-client-id` beside a profile stop the start: the profile says both.
 */
export async function applyProfile<F extends ProfileFlags>(
  flags: F,
  env: EnvReader,
): Promise<{ flags: F; env: EnvReader; profile?: Profile }> {
  const name = flags.profile ?? (env("BITBUCKET_PROFILE") || undefined);
  if (name === undefined) return { flags, env };
  for (const [flag, given] of [["--url", flags.url], ["--oauth-client-id", flags.oauthClientId]]) {
    if (given !== undefined) {
      throw new StartupError(`${flag} and a profile (${name}) both say where to go: drop ${flag}`);
    }
  }
  const path = profilesPath(flags, env);
  const profile = pickProfile(await readProfiles(path), name, path);
  return {
    flags: { ...flags, redirectPort: flags.redirectPort ?? profile.redirectPort },
    env: profileEnv(profile, env),
    profile,
  };
}

/**
 * Which Bitbucket Data Center a client talks to. Real servers accept request
 * fields they do not know and ignore them (a draft flag below 8.18, a thread
 * resolution below 8.9, a multi-line anchor below 9.3), so a call that needs a
 * newer server "succeeds" without effect unless the version is known first.
 * The version is read from `application-properties` (which needs no login)
 * once per server and kept in a {@link ServerFacts} the clients of that server
 * share; a failed read is not kept, so the next call tries again.
 */

/** A Data Center version as `application-properties` states it: `9.4.2`, `10.2.0`, `8.19.1`. */
export interface ServerVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  /** As the server wrote it. */
  readonly text: string;
}

/** The REST resource that names Bitbucket's version; it needs no login. */
export const APPLICATION_PROPERTIES_PATH = "/api/latest/application-properties";

/** `9.4.2` (or `9.4`, `10.2.0-rc1`) as a version; undefined for anything else. */
export function parseVersion(text: unknown): ServerVersion | undefined {
  if (typeof text !== "string") return undefined;
  const match = /^(\d{1,4})\.(\d{1,4})(?:\.(\d{1,6}))?/.exec(text.trim());
  if (!match) return undefined;
  return {
    major: Number(match[1]),
    minor: Number(match[2]),
    patch: Number(match[3] ?? 0),
    text: text.trim(),
  };
}

/** True when `version` is `since` (`"9.3"`, `"8.15"`) or later. */
export function atLeast(version: ServerVersion, since: string): boolean {
  const wanted = parseVersion(since);
  if (!wanted) throw new TypeError(`not a version: ${since}`);
  if (version.major !== wanted.major) return version.major > wanted.major;
  if (version.minor !== wanted.minor) return version.minor > wanted.minor;
  return version.patch >= wanted.patch;
}

/** The version named by an `application-properties` body; undefined when it names none. */
export function versionOfProperties(body: unknown): ServerVersion | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  return parseVersion((body as Record<string, unknown>).version);
}

/**
 * What is known of one Bitbucket server for the life of the process: its
 * version, read at most once while reads succeed (concurrent callers share the
 * one read). One per server, shared by every client of it: each caller's
 * client in HTTP mode, and the clients one call derives.
 */
export class ServerFacts {
  #version: Promise<ServerVersion | undefined> | undefined;

  /** The server's version, read with `read` the first time (and again after a failed read). */
  version(read: () => Promise<ServerVersion | undefined>): Promise<ServerVersion | undefined> {
    if (this.#version === undefined) {
      const reading = read();
      this.#version = reading;
      // A failure is the caller's to report, and is not kept: the next call reads again.
      reading.catch(() => {
        if (this.#version === reading) this.#version = undefined;
      });
    }
    return this.#version;
  }
}

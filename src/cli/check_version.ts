/**
 * `check`'s word on the Bitbucket version: whether the server has every
 * feature the tools use (src/bitbucket/features.ts), and which toolsets refuse
 * calls on it when it does not.
 */
import { atLeast, type ServerVersion } from "../bitbucket/transport/server_version.ts";
import { missingFeatures, OLDEST_SUPPORTED } from "../bitbucket/features.ts";

/** What the bitbucket line says of a version. */
export interface VersionVerdict {
  status: "pass" | "warn" | "fail";
  detail: string;
  fix?: string;
}

/**
 * The bitbucket line for a server that named its version: a pass when it has
 * every feature the tools use; a warning naming what it lacks and the toolsets
 * that then refuse it; a failure below the oldest supported version.
 */
export function versionLine(found: string, version: ServerVersion | undefined): VersionVerdict {
  if (version === undefined) return { status: "pass", detail: found };
  if (!atLeast(version, OLDEST_SUPPORTED)) {
    return {
      status: "fail",
      detail: `${found}: older than ${OLDEST_SUPPORTED}, the oldest version this server supports`,
      fix: `upgrade Bitbucket to ${OLDEST_SUPPORTED} or later`,
    };
  }
  const missing = missingFeatures(version);
  if (missing.length === 0) return { status: "pass", detail: found };
  const lacks = missing.map((f) => `${f.what} (${f.since}, ${f.toolset})`).join(", ");
  return {
    status: "warn",
    detail: `${found}; it lacks ${lacks}: the tools refuse calls that need them`,
  };
}

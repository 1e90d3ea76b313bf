/**
 * The fixture Bitbucket's version: what `application-properties` answers, as
 * the recorded 9.4 server (`fixtures/system/application-properties.json`) or
 * as an older server, for the tests of features a version lacks.
 */
import { readFixture, type Route } from "../fixture_bitbucket.ts";

/** What Bitbucket says about itself; it needs no login. */
export const APPLICATION_PROPERTIES = "/api/latest/application-properties";

/** The recorded server's answer. */
const RECORDED = "system/application-properties.json";

/** The version the recorded server states (`9.4.2`). */
export function recordedVersion(): string {
  return JSON.parse(readFixture(RECORDED)).version;
}

/**
 * `application-properties` as the recorded server answers it, or, given
 * `version`, as a server of that version would (the recording with its
 * version and build number replaced).
 */
export function versionRoute(version?: string): Route {
  if (version === undefined) {
    return { method: "GET", path: APPLICATION_PROPERTIES, fixture: RECORDED };
  }
  const [major = 0, minor = 0, patch = 0] = version.split(".").map(Number);
  const body = {
    ...JSON.parse(readFixture(RECORDED)),
    version,
    buildNumber: String(major * 1_000_000 + minor * 1000 + patch),
  };
  return { method: "GET", path: APPLICATION_PROPERTIES, body };
}

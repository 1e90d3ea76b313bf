/**
 * `check --all-profiles`: every profile of the profiles file checked in turn,
 * each under a heading line, as `check --profile NAME` would check it alone.
 * One process serves one instance; this is the one command that looks at all.
 */
import type { EnvReader } from "../config.ts";
import type { PolicyState } from "../policy/admin_policy.ts";
import { formatCheckLine, runChecks } from "./check.ts";
import type { Flags } from "./flags.ts";
import type { Logger } from "./log.ts";
import { writeOut } from "./output.ts";
import { profileEnv, profilesPath, readProfiles } from "./profiles.ts";

/** Checks each profile; 0 when every check of every profile passed, else 1. */
export async function checkAllProfiles(
  flags: Flags,
  env: EnvReader,
  logger: Logger,
  policy: PolicyState,
): Promise<number> {
  const path = profilesPath(flags, env);
  const profiles = await readProfiles(path);
  let passed = true;
  let first = true;
  for (const profile of profiles.values()) {
    writeOut(`${first ? "" : "\n"}profile ${profile.name} (${path})`);
    first = false;
    let profiled: EnvReader;
    try {
      profiled = profileEnv(profile, env);
    } catch (error) {
      writeOut(
        formatCheckLine({ name: "profile", status: "fail", detail: (error as Error).message }),
      );
      passed = false;
      continue;
    }
    const ok = await runChecks(
      {
        flags: { ...flags, redirectPort: flags.redirectPort ?? profile.redirectPort },
        env: profiled,
        logger,
        policy,
      },
      (line) => writeOut(formatCheckLine(line)),
    );
    passed &&= ok;
  }
  return passed ? 0 : 1;
}

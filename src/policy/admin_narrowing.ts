/**
 * The administrator's policy applied to what the flags ask for: flags can
 * only narrow it. `read_only` wins over every selection flag, `no_yolo`
 * over `--yolo`, and `confine` is intersected with `--project`/`--repo`
 * (a flag naming something outside it stops start-up).
 */
import { StartupError } from "../config.ts";
import type { AdminPolicy, PolicyState } from "./admin_policy.ts";
import { Confinement, type RepoRef } from "./confinement.ts";

/** What of the command line a policy narrows. */
export interface Narrowable {
  readOnly: boolean;
  yolo: boolean;
  confinement?: Confinement;
}

/**
 * `flags` under the policy in `state` (unchanged under none), and a line for
 * each flag the policy overrode, for stderr.
 */
export function narrowByPolicy<T extends Narrowable>(
  flags: T,
  state: PolicyState,
): { flags: T; notes: string[] } {
  if (state.kind !== "in force") return { flags, notes: [] };
  const { policy, path } = state;
  const notes: string[] = [];
  if (policy.noYolo && flags.yolo) {
    notes.push(
      `--yolo has no effect: the administrator's policy ${path} makes every unsafe write ask the person`,
    );
  }
  return {
    flags: {
      ...flags,
      readOnly: flags.readOnly || policy.readOnly,
      yolo: flags.yolo && !policy.noYolo,
      confinement: narrowConfinement(policy, path, flags.confinement),
    },
    notes,
  };
}

/**
 * The intersection of the policy's confinement and the flags': each
 * `--project` the policy allows whole, or else the policy's repositories in
 * it; each `--repo` the policy allows. Something the flags name that the
 * policy reaches none of is a startup error naming it.
 */
export function narrowConfinement(
  policy: Pick<AdminPolicy, "confinement">,
  path: string,
  asked: Confinement | undefined,
): Confinement | undefined {
  const allowed = policy.confinement;
  if (allowed === undefined) return asked;
  if (asked === undefined) return allowed;
  const outside = (what: string) =>
    new StartupError(
      `${what} is outside the administrator's policy ${path}, which confines this server to ${allowed.describe()}`,
    );
  const projects: string[] = [];
  const repos: RepoRef[] = [];
  for (const project of asked.projects) {
    if (allowed.allowsProject(project)) {
      projects.push(project);
      continue;
    }
    const within = allowed.repos.filter((r) => r.project.toUpperCase() === project.toUpperCase());
    if (within.length === 0) throw outside(`--project ${project}`);
    repos.push(...within);
  }
  for (const ref of asked.repos) {
    if (!allowed.allowsRepo(ref.project, ref.repo)) {
      throw outside(`--repo ${ref.project}/${ref.repo}`);
    }
    repos.push(ref);
  }
  const whole = new Confinement(projects, []);
  const seen = new Set<string>();
  const kept = repos.filter((r) => {
    const key = `${r.project.toUpperCase()}/${r.repo.toLowerCase()}`;
    if (whole.allowsProject(r.project) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return new Confinement(projects, kept);
}

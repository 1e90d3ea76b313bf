/**
 * Confinement (`--project`, `--repo`): the projects and repositories a server
 * may touch. One function, {@link Confinement.bound}, fills in or refuses the
 * `project`/`repo` of every tool call, resource URI, prompt and completion,
 * so the rule is stated once.
 */

/** Project keys and repository slugs as Bitbucket's REST paths take them. */
export const KEY_PATTERN = /^[~\w.-]{1,256}$/;

/** A `PROJECT/slug` pair. */
export interface RepoRef {
  readonly project: string;
  readonly repo: string;
}

/**
 * Tools not listed under a confinement: they look commits up server-wide
 * (by commit id, in every repository), so no project or repository bounds them.
 */
export const UNBOUNDED_TOOLS: readonly string[] = ["get_build_status", "get_build_summary"];

/** The projects and repositories a confined server may touch. */
export class Confinement {
  readonly projects: readonly string[];
  readonly repos: readonly RepoRef[];

  constructor(projects: readonly string[], repos: readonly RepoRef[]) {
    this.projects = projects;
    this.repos = repos;
  }

  /** What is allowed, as a refusal names it. */
  describe(): string {
    return [
      ...this.projects.map((p) => `project ${p}`),
      ...this.repos.map((r) => `${r.project}/${r.repo}`),
    ].join(", ");
  }

  /** The one project every allowed thing lives in, if there is exactly one. */
  get oneProject(): string | undefined {
    const keys = new Set([...this.projects, ...this.repos.map((r) => r.project)].map(upper));
    if (keys.size !== 1) return undefined;
    return this.projects[0] ?? this.repos[0]?.project;
  }

  /** The one repository allowed, when the confinement is exactly one `--repo` and no project. */
  get oneRepo(): RepoRef | undefined {
    return this.projects.length === 0 && this.repos.length === 1 ? this.repos[0] : undefined;
  }

  /** The whole of `project` is allowed (`--project`). */
  allowsProject(project: string): boolean {
    return this.projects.some((p) => upper(p) === upper(project));
  }

  /** Something in `project` is allowed: the project, or one of its repositories. */
  touchesProject(project: string): boolean {
    return this.allowsProject(project) ||
      this.repos.some((r) => upper(r.project) === upper(project));
  }

  /** The repository `project`/`repo` is allowed. */
  allowsRepo(project: string, repo: string): boolean {
    return this.allowsProject(project) ||
      this.repos.some((r) => upper(r.project) === upper(project) && lower(r.repo) === lower(repo));
  }

  /**
   * `args` with `project`/`repo` filled in where the confinement names exactly
   * one (only the keys in `takes`), or the reason the call is refused: a project
   * or repository outside it, or no project/repository where leaving them out
   * would reach beyond it (`wide` keys may be absent: the caller filters).
   */
  bound(
    args: Record<string, unknown>,
    takes: ReadonlySet<string>,
    wide = false,
  ): { args: Record<string, unknown> } | { refused: string } {
    const out = { ...args };
    const one = this.oneRepo;
    if (takes.has("project") && out.project === undefined) {
      const project = one?.project ?? this.oneProject;
      if (project !== undefined) out.project = project;
    }
    if (
      takes.has("repo") && out.repo === undefined && one !== undefined &&
      typeof out.project === "string" && upper(out.project) === upper(one.project)
    ) out.repo = one.repo;
    const project = typeof out.project === "string" ? out.project : undefined;
    const repo = typeof out.repo === "string" ? out.repo : undefined;
    const refuse = (what: string) => ({
      refused: `${what} is outside this server's confinement (hint: it allows ${this.describe()})`,
    });
    if (project === undefined) {
      if (takes.has("project") && !wide) return refuse("a call naming no project");
      return { args: out };
    }
    if (!this.touchesProject(project)) return refuse(`project ${project}`);
    if (repo !== undefined) {
      return this.allowsRepo(project, repo) ? { args: out } : refuse(`${project}/${repo}`);
    }
    if (takes.has("repo") && !wide && !this.allowsProject(project)) {
      return refuse(`every repository of project ${project}`);
    }
    return { args: out };
  }
}

/**
 * A search-query word that names a scope (`project:`, `repo:`), in any case
 * and wherever it stands: at the start, after a space, an operator, a
 * parenthesis, a quote or a minus, even with a backslash or spaces before its
 * colon. Undefined when the query names none. Bitbucket ignores punctuation
 * between words, so anything but a letter or digit before the word counts.
 */
export function scopeWordIn(query: string): string | undefined {
  const match = /(?<![\p{L}\p{N}])(project|repo)\s*\\?\s*[:\uFF1A]/iu.exec(query);
  return match ? `${match[1]!.toLowerCase()}:` : undefined;
}

function upper(s: string): string {
  return s.toUpperCase();
}

function lower(s: string): string {
  return s.toLowerCase();
}

/** The tools a server under `confinement` lists: those that no project or repository bounds are left out. */
export function withinConfinement<T extends { readonly name: string }>(
  tools: readonly T[],
  confinement: Confinement | undefined,
): T[] {
  return confinement ? tools.filter((t) => !UNBOUNDED_TOOLS.includes(t.name)) : [...tools];
}

/** What the server instructions say of the confinement in force. */
export function confinementInstructions(confinement: Confinement | undefined): string | undefined {
  if (!confinement) return undefined;
  const one = confinement.oneRepo;
  if (one) {
    return `This server is confined to ${one.project}/${one.repo}: tools take no project or repo.`;
  }
  return `This server is confined to ${confinement.describe()}; other projects and repositories are refused.`;
}

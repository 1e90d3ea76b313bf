/**
 * Confinement (`--project`, `--repo`): the projects and repositories a server
 * may touch. One function, {@link Confinement.bound}, fills in or refuses the
 * `project`/`repo` of every tool call, resource URI, prompt and completion,
 * so the rule is stated once; {@link Confinement.contains} is what a
 * server-wide tool's listed items are kept by. What it does with each tool
 * derives from the tool's declared reach (`src/tools/kit/reach.ts`).
 */
import { OUTSIDE_KEY, type Place, type Reach } from "../tools/kit/reach.ts";
import type { ToolEntry } from "../tools/kit/define.ts";

/** Project keys and repository slugs as Bitbucket's REST paths take them. */
export const KEY_PATTERN = /^[~\w.-]{1,256}$/;

/** A `PROJECT/slug` pair. */
export interface RepoRef {
  readonly project: string;
  readonly repo: string;
}

/**
 * How much of a place a call may leave unnamed: a `repository` call names its
 * project and repository (the repository may be left out when the whole
 * project is allowed); a `project` call names a project it reads as a whole;
 * a `wide` call may name neither, its results alone bounding it.
 */
export type Span = Exclude<Reach, "server"> | "wide";

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

  /** An item living at `place` may be shown: its repository is allowed, or, for a project, something in it. */
  contains(place: Place): boolean {
    return place.repo === undefined
      ? this.touchesProject(place.project)
      : this.allowsRepo(place.project, place.repo);
  }

  /**
   * `args` with `project`/`repo` filled in where the confinement names exactly
   * one (only the keys in `takes`), or the reason the call is refused: a project
   * or repository outside it, or no project/repository where leaving them out
   * would reach beyond it (`span` says how much may be left out: under `wide`,
   * both; the caller filters).
   */
  bound(
    args: Record<string, unknown>,
    takes: ReadonlySet<string>,
    span: Span = "repository",
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
      if (takes.has("project") && span !== "wide") return refuse("a call naming no project");
      return { args: out };
    }
    if (!this.touchesProject(project)) return refuse(`project ${project}`);
    if (repo !== undefined) {
      return this.allowsRepo(project, repo) ? { args: out } : refuse(`${project}/${repo}`);
    }
    const whole = span === "project" || (span === "repository" && takes.has("repo"));
    if (whole && !this.allowsProject(project)) {
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

/**
 * The tools a server under `confinement` lists: a server-wide tool that
 * declares nothing bounds it (`confine: { withheld }`) is left out.
 */
export function withinConfinement<T extends Pick<ToolEntry, "bounding">>(
  tools: readonly T[],
  confinement: Confinement | undefined,
): T[] {
  return confinement ? tools.filter((t) => t.bounding?.mode !== "withhold") : [...tools];
}

/** The tools `withinConfinement` leaves out of `tools`, by the reason each declares. */
export function withheldByConfinement<T extends Pick<ToolEntry, "name" | "bounding">>(
  tools: readonly T[],
): Map<string, string[]> {
  const byWhy = new Map<string, string[]>();
  for (const tool of tools) {
    if (tool.bounding?.mode !== "withhold") continue;
    byWhy.set(tool.bounding.why, [...byWhy.get(tool.bounding.why) ?? [], tool.name]);
  }
  return byWhy;
}

/** How much of a place a call of `tool` may leave unnamed under a confinement. */
export function spanOf(tool: Pick<ToolEntry, "reach" | "bounding">): Span {
  if (tool.reach !== "server") return tool.reach;
  return tool.bounding?.mode === "drop" && !tool.bounding.wide ? "repository" : "wide";
}

/** What the server instructions say of the confinement in force. */
export function confinementInstructions(confinement: Confinement | undefined): string | undefined {
  if (!confinement) return undefined;
  const one = confinement.oneRepo;
  const first = one
    ? `This server is confined to ${one.project}/${one.repo}: tools take no project or repo.`
    : `This server is confined to ${confinement.describe()}; other projects and repositories are refused.`;
  return `${first} ${DROPPED_NOTE}`;
}

/** What the instructions say of items a server-wide tool dropped. */
const DROPPED_NOTE =
  `A result's ${OUTSIDE_KEY} counts the items left out of it as outside this confinement.`;

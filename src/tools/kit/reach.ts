/**
 * Where a tool reads and writes, declared on the tool itself (`reach`), and,
 * for a tool that reaches the whole server, how a confinement (`--project`,
 * `--repo`) bounds it (`confine`). The policy derives everything it does
 * under a confinement from these two facts: no list of tool names decides
 * what escapes it. Types and plain data only, so the start-up path (the
 * manifest) pays nothing for them.
 */

/**
 * Where a tool's requests read and write: one repository (it takes `project`
 * and `repo`), one project as a whole (it takes `project`), or anywhere on
 * the server (some request names no repository: a listing across projects,
 * a commit looked up by id, the dashboard).
 */
export type Reach = "repository" | "project" | "server";

/** Every reach, for the checks that a declared one is valid. */
export const REACHES: readonly Reach[] = ["repository", "project", "server"];

/** Where an item lives: a project, or a repository in it. */
export interface Place {
  readonly project: string;
  readonly repo?: string;
}

/**
 * How a confinement bounds a server-wide tool, one of:
 * - `item`: where each listed value lives; under a confinement every value
 *   outside it is dropped before the result is built, and the result says
 *   how many (`outsideConfinement`). `wide`: a call may leave `project` out
 *   (the dropping alone bounds it); otherwise a call names its project (and
 *   repository, unless the whole project is allowed), as a repository tool's
 *   does. `query`: the argument holding a search query, in which a
 *   `project:`/`repo:` word is refused, since it would widen the scope.
 * - `withheld`: not listed under a confinement; says why nothing bounds it.
 * - `unplaced`: what it lists lives in no project (the user directory), so
 *   a confinement leaves it as it is; says why.
 */
export type Confine<V> =
  | {
    readonly item: (value: V) => Place;
    readonly wide?: boolean;
    readonly query?: string;
  }
  | { readonly withheld: string }
  | { readonly unplaced: string };

/**
 * A tool's reach and, for a server-wide one, its {@link Confine}: required
 * together, so a server-wide tool that does not say how it is bounded does
 * not compile, and neither does one that names no reach.
 */
export type Reached<V> =
  | { readonly reach: "repository" | "project"; readonly confine?: never }
  | { readonly reach: "server"; readonly confine: Confine<V> };

/** What a confinement does with a server-wide tool, as plain data (the manifest holds it). */
export type Bounding =
  | { readonly mode: "drop"; readonly wide?: true; readonly query?: string }
  | { readonly mode: "withhold"; readonly why: string }
  | { readonly mode: "unplaced"; readonly why: string };

/** The plain-data form of `confine` (undefined for a tool that is not server-wide). */
export function boundingOf<V>(confine: Confine<V> | undefined): Bounding | undefined {
  if (confine === undefined) return undefined;
  if ("withheld" in confine) return { mode: "withhold", why: confine.withheld };
  if ("unplaced" in confine) return { mode: "unplaced", why: confine.unplaced };
  return {
    mode: "drop",
    ...(confine.wide ? { wide: true as const } : {}),
    ...(confine.query === undefined ? {} : { query: confine.query }),
  };
}

/** The output key of how many values a confinement dropped: absent when none. */
export const OUTSIDE_KEY = "outsideConfinement";

/** Where a value naming its repository (Bitbucket's `{ slug, project: { key } }`) lives. */
export function inRepository(repository: { slug: string; project: { key: string } }): Place {
  return { project: repository.project.key, repo: repository.slug };
}

/**
 * The `default` set: what a server lists when no `--toolsets` is given, small
 * enough for every client's cap (Cursor passes its model the first 40 tools)
 * and whole for the review loop. A tool is in it by declaring the step of the
 * loop it serves (`defaultFor`), next to its access and reach, so the fact
 * and its reason are stated once, on the tool: no list of names keeps the
 * set. Types and plain data only, so the start-up path pays nothing for them.
 */

/** The steps of the review loop, each with what it is for: why a tool serving one is in the set. */
export const LOOP_STEPS = {
  find: "find and read pull requests",
  diff: "read the diff and its commits",
  discuss: "read threads, comment and reply",
  review: "review and approve",
  checks: "builds and merge checks",
  code: "read and search code",
  change: "create, update and merge a pull request",
  view: "show it to the person, where the host draws views",
} as const;

/** A step of the review loop (see {@link LOOP_STEPS}). */
export type LoopStep = keyof typeof LOOP_STEPS;

/** The most tools the `default` set may hold, views included: Cursor's cap, the lowest known. */
export const DEFAULT_SET_LIMIT = 40;

/**
 * Refuses a `defaultFor` that is not a step, which a cast or a
 * plain-JavaScript caller could get past the types.
 */
export function checkedStep(tool: string, step: unknown): void {
  if (step === undefined || (typeof step === "string" && Object.hasOwn(LOOP_STEPS, step))) return;
  throw new Error(
    `Cannot define tool ${tool}: its defaultFor must be one of ${
      Object.keys(LOOP_STEPS).join(", ")
    }, not ${JSON.stringify(step)}`,
  );
}

/**
 * Fixture routes for many repositories at once, each answering get_commit
 * with a commit of its own (its id and message name the repository), after a
 * seeded random delay so concurrent answers come back out of order. Used to
 * prove that concurrent calls never get each other's answers.
 */
import type { Route } from "./fixture_bitbucket.ts";
import { readFixture } from "./fixture_bitbucket.ts";
import { Prng } from "./prng.ts";

/** The commit id repository `n` answers with: 40 hex digits that encode n. */
export function commitIdFor(n: number): string {
  return n.toString(16).padStart(8, "0").repeat(5);
}

/** The repository slug of case `n`. */
export function repoFor(n: number): string {
  return `repo-${n}`;
}

/** The get_commit arguments of case `n`. */
export function commitArgs(n: number): { project: string; repo: string; commit_id: string } {
  return { project: "PROJ", repo: repoFor(n), commit_id: commitIdFor(n) };
}

/** One route per repository 0..count-1, answering after up to `maxDelayMs`. */
export function distinctCommitRoutes(count: number, maxDelayMs: number, seed = 8): Route[] {
  const base = JSON.parse(readFixture("commits/commit.json"));
  const rng = new Prng(seed);
  return Array.from({ length: count }, (_, n): Route => {
    const delay = rng.int(0, maxDelayMs);
    return {
      method: "GET",
      path: `/api/latest/projects/PROJ/repos/${repoFor(n)}/commits/${commitIdFor(n)}`,
      respond: async () => {
        await new Promise((resolve) => setTimeout(resolve, delay));
        return { ...base, id: commitIdFor(n), message: `the commit of ${repoFor(n)}` };
      },
    };
  });
}

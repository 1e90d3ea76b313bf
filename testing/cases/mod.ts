/**
 * The contract cases of every domain in one place: all their routes (one
 * fixture Bitbucket that answers every tool) and the contract table, keyed by
 * tool name. Shared by the tests, the demo and the benchmarks.
 */
import type { Route } from "../fixture_bitbucket.ts";
import { builds } from "./builds.ts";
import { commits } from "./commits.ts";
import { jira } from "./jira.ts";
import { projects } from "./projects.ts";
import { pullRequests } from "./pull_requests.ts";
import { refs } from "./refs.ts";
import { repositories } from "./repositories.ts";
import { search } from "./search.ts";
import { source } from "./source.ts";
import { system } from "./system.ts";
import type { ContractCase, DomainCases } from "./types.ts";
import { users } from "./users.ts";
import { views } from "./views.ts";

/**
 * Every domain's cases: one entry per Bitbucket domain the tools cover, and
 * `system` for the check command. A test file imports the domains it
 * exercises itself; this list is for what needs them all.
 */
const DOMAINS: DomainCases[] = [
  repositories,
  projects,
  refs,
  commits,
  pullRequests,
  jira,
  builds,
  source,
  search,
  users,
  views,
  system,
];

/**
 * The routes of every domain, in domain order. Only for what genuinely calls
 * every domain in one fixture: the fuzz test, the end-to-end and
 * compatibility tests that call every tool, bench/ and demo/.
 */
export const ALL_ROUTES: Route[] = DOMAINS.flatMap((d) => d.routes);

/** A contract case with the routes it runs against: its own, or else its domain's. */
export interface ContractEntry extends ContractCase {
  routes: Route[];
}

/** The contract table: every tool's arguments, the requests they must produce, and its routes. */
export const toolArguments: Record<string, ContractEntry> = Object.fromEntries(
  DOMAINS.flatMap((domain) =>
    Object.entries(domain.toolArguments).map(([name, entry]) => [
      name,
      { ...entry, routes: entry.routes ?? domain.routes },
    ])
  ),
);

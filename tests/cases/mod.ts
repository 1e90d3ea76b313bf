import type { Route } from "../support/fixture_bitbucket.ts";
import { branches } from "./branches.ts";
import { builds } from "./builds.ts";
import { commits } from "./commits.ts";
import { projects } from "./projects.ts";
import { pullRequests } from "./pull_requests.ts";
import { refs } from "./refs.ts";
import { repositories } from "./repositories.ts";
import { source } from "./source.ts";
import { system } from "./system.ts";
import type { ContractCase, DomainCases } from "./types.ts";

/** Every domain's cases: one entry per file under src/tools/, and `system` for the check command. */
const DOMAINS: DomainCases[] = [
  repositories,
  projects,
  refs,
  branches,
  commits,
  pullRequests,
  builds,
  source,
  system,
];

/** The routes of every domain, in domain order. */
export const ALL_ROUTES: Route[] = DOMAINS.flatMap((d) => d.routes);

/** The contract table: every tool's arguments and the requests they must produce. */
export const toolArguments: Record<string, ContractCase> = Object.assign(
  {},
  ...DOMAINS.map((d) => d.toolArguments),
);

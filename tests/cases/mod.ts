import type { Route } from "../support/fixture_bitbucket.ts";
import { commits } from "./commits.ts";
import { refs } from "./refs.ts";
import { repositories } from "./repositories.ts";
import type { ContractCase, DomainCases } from "./types.ts";

/** Every domain's cases, one entry per file under src/tools/. */
const DOMAINS: DomainCases[] = [repositories, refs, commits];

/** The routes of every domain, in domain order. */
export const ALL_ROUTES: Route[] = DOMAINS.flatMap((d) => d.routes);

/** The contract table: every tool's arguments and the requests they must produce. */
export const toolArguments: Record<string, ContractCase> = Object.assign(
  {},
  ...DOMAINS.map((d) => d.toolArguments),
);

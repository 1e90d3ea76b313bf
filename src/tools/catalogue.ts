/**
 * Every tool, by toolset, in the order `tools/list` shows them. Each toolset
 * is one folder under `src/tools/` whose `mod.ts` lists its tools; this file
 * lists only the toolsets. Listing needs no credentials. The docs' tables,
 * `--help` and the manifest a starting server serves from are made from this
 * list (`deno task generate`).
 */
import type { Tool } from "./kit/define.ts";
import type { Toolset } from "./kit/toolset.ts";
import { BUILDS } from "./builds/mod.ts";
import { COMMITS } from "./commits/mod.ts";
import { JIRA } from "./jira/mod.ts";
import { PULL_REQUESTS } from "./pull_requests/mod.ts";
import { REFS } from "./refs/mod.ts";
import { REPOSITORIES } from "./repositories/mod.ts";
import { SOURCE } from "./source/mod.ts";
import { VIEWS } from "./views/mod.ts";

/** Every toolset, in `tools/list` order. */
export const TOOLSETS: readonly Toolset[] = [
  REPOSITORIES,
  REFS,
  COMMITS,
  PULL_REQUESTS,
  JIRA,
  BUILDS,
  SOURCE,
  VIEWS,
];

/** Every tool, in `tools/list` order. */
export const CATALOGUE: readonly Tool[] = TOOLSETS.flatMap((set) => set.tools);

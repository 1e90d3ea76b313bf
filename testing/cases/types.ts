/**
 * The shape of the contract cases: a domain's fixture routes, and for each
 * tool the arguments to call it with and the requests that must follow.
 */
import type { Route } from "../fixture_bitbucket.ts";

/** A request the fixture Bitbucket must see: query and body compared exactly when given. */
export interface ExpectedRequest {
  method: Route["method"];
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** The fields of a multipart form body, compared exactly when given. */
  form?: Record<string, string>;
}

/** A tool's entry in the contract table: the arguments to call it with and the requests that must follow. */
export interface ContractCase {
  args: Record<string, unknown>;
  requests: ExpectedRequest[];
  /** The routes the case runs against, when its domain's routes are not the right ones. */
  routes?: Route[];
  /** The client declares MCP Apps (a view tool fetches nothing for one that does not). */
  apps?: boolean;
}

/** One Bitbucket domain's share of the fixtures and contract table. */
export interface DomainCases {
  /** Everything the domain's tools ask Bitbucket in its tests and contract cases. */
  routes: Route[];
  toolArguments: Record<string, ContractCase>;
}

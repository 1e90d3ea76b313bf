/**
 * Build statuses, their counts, and the required-builds merge checks, as Bitbucket
 * sends them (parsed tolerantly: a field a later Bitbucket adds or drops breaks nothing).
 */
import { z } from "../../deps/zod.ts";

/** The states Bitbucket accepts for a build status, in the order tools list them. */
export const BUILD_STATES = ["SUCCESSFUL", "FAILED", "INPROGRESS", "CANCELLED", "UNKNOWN"] as const;

/** Test counts a build reported with its status. */
export const TestResults = z.object({
  successful: z.number().int().optional(),
  failed: z.number().int().optional(),
  skipped: z.number().int().optional(),
});

/**
 * A build status on a commit (RestBuildStatus). `state` is read as any string so a
 * state added by a later Bitbucket does not break parsing. Dates are epoch milliseconds.
 */
export const BuildStatus = z.object({
  key: z.string(), // Build key, unique per commit
  state: z.string(), // SUCCESSFUL, FAILED, INPROGRESS, CANCELLED or UNKNOWN
  name: z.string().optional(),
  url: z.string().optional(), // The build's page in the CI tool
  description: z.string().optional(),
  ref: z.string().optional(), // Ref the build ran for, e.g. refs/heads/main
  buildNumber: z.string().optional(),
  parent: z.string().optional(), // Key of the plan or job that ran this build
  duration: z.number().int().optional(), // Milliseconds
  testResults: TestResults.optional(),
  createdDate: z.number().int().optional(),
  updatedDate: z.number().int().optional(),
});

/** How many builds of a commit are in each state (RestBuildStats). */
export const BuildStats = z.object({
  successful: z.number().int().optional(),
  failed: z.number().int().optional(),
  inProgress: z.number().int().optional(),
  cancelled: z.number().int().optional(),
  unknown: z.number().int().optional(),
});

/** Which refs a setting applies to (RestRefMatcher): `type.id` is ANY_REF, BRANCH, PATTERN, MODEL_CATEGORY or MODEL_BRANCH. */
export const RefMatcher = z.object({
  id: z.string(),
  displayId: z.string(),
  type: z.object({ id: z.string(), name: z.string().optional() }),
});

/** A required-builds merge check (RestRequiredBuildCondition). */
export const RequiredBuildCondition = z.object({
  id: z.number().int(),
  buildParentKeys: z.array(z.string()),
  refMatcher: RefMatcher,
  exemptRefMatcher: RefMatcher.nullish(),
});

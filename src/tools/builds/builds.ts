/** Build results on commits, and the builds a repository requires before a merge. */
import { z } from "../../deps/zod.ts";
import {
  BUILD_STATES,
  BuildStats,
  BuildStatus,
  RequiredBuildCondition,
} from "../../bitbucket/entities/build.ts";
import { apiPath } from "../../bitbucket/transport/path.ts";
import {
  BuildStatusOut,
  buildStatusOut,
  choiceArg,
  CommitIdArg,
  defineListTool,
  defineTool,
  FullCommitIdArg,
  identifierArg,
  READ_ONLY,
  RepoArgs,
  RequiredBuildOut,
  requiredBuildOut,
  textArg,
  unsafeWrite,
} from "../kit/mod.ts";
import { fullCommitId } from "../../bitbucket/commits.ts";
import type { BitbucketClient } from "../../bitbucket/transport/client.ts";
import { BitbucketError } from "../../bitbucket/transport/errors.ts";
import { quoted } from "../../bitbucket/text/untrusted_text.ts";
import { quotedId, visibleId } from "../../bitbucket/text/visible_id.ts";

/** Why the server-wide build reads are not listed under a confinement. */
const BY_COMMIT_ID = "build statuses are looked up by commit id in every repository";

export const getBuildStatus = defineListTool({
  name: "get_build_status",
  defaultFor: "checks",
  reach: "server",
  confine: { withheld: BY_COMMIT_ID },
  title: "Get build statuses",
  description: "Every build status reported on a commit.",
  access: READ_ONLY,
  input: z.object({ commit_id: FullCommitIdArg }),
  key: "buildStatuses",
  item: BuildStatusOut,
  entity: BuildStatus,
  map: buildStatusOut,
  // Only the deprecated server-wide resource lists every status of a commit: the
  // repository-scoped `.../commits/{commitId}/builds` GET returns one status and requires its key.
  request: ({ commit_id }) => ({
    path: apiPath`/build-status/latest/commits/${commit_id.toLowerCase()}`,
  }),
});

export const getBuildSummary = defineTool({
  name: "get_build_summary",
  reach: "server",
  confine: { withheld: BY_COMMIT_ID },
  title: "Get build summary",
  description: "How many builds of a commit are in each state.",
  access: READ_ONLY,
  input: z.object({ commit_id: FullCommitIdArg }),
  output: z.object({
    buildSummary: z.object({
      successful: z.number().int(),
      failed: z.number().int(),
      inProgress: z.number().int(),
      cancelled: z.number().int(),
      unknown: z.number().int(),
    }),
  }),
  async handler({ commit_id }, { bitbucket }) {
    const { body: stats } = await bitbucket.request({
      path: apiPath`/build-status/latest/commits/stats/${commit_id.toLowerCase()}`,
      schema: BuildStats,
    });
    return {
      buildSummary: {
        successful: stats.successful ?? 0,
        failed: stats.failed ?? 0,
        inProgress: stats.inProgress ?? 0,
        cancelled: stats.cancelled ?? 0,
        unknown: stats.unknown ?? 0,
      },
    };
  },
});

export const listRequiredBuilds = defineListTool({
  name: "list_required_builds",
  defaultFor: "checks",
  reach: "repository",
  title: "List required builds",
  description: "Required-builds merge checks: build keys that must pass, by target branch.",
  access: READ_ONLY,
  input: RepoArgs,
  key: "requiredBuilds",
  item: RequiredBuildOut,
  entity: RequiredBuildCondition,
  map: requiredBuildOut,
  request: ({ project, repo }) => ({
    path: apiPath`/required-builds/latest/projects/${project}/repos/${repo}/conditions`,
  }),
});

/** Reports a build result on a commit: the status merge checks and reviewers see. */
export const setBuildStatus = defineTool({
  name: "set_build_status",
  reach: "repository",
  title: "Set a build status",
  description: "Store a build status on a commit, replacing one with the same key.",
  access: unsafeWrite(
    "it changes the CI signal others rely on: a status can unblock or block merges and misreport a build",
  ),
  idempotent: true,
  input: RepoArgs.extend({
    commit_id: CommitIdArg,
    key: identifierArg(z.string().min(1).max(255).describe("Unique per commit")),
    state: choiceArg(BUILD_STATES, "Build state"),
    url: z.string().min(1).max(450).describe("The build's page"),
    name: z.string().max(255).optional(),
    description: textArg(undefined, 2000).optional(),
    build_number: z.string().max(255).optional(),
  }),
  output: z.object({
    buildStatus: BuildStatusOut.pick({
      key: true,
      state: true,
      url: true,
      name: true,
      description: true,
      buildNumber: true,
    }).extend({ commitId: z.string() }).describe("The status as stored"),
  }),
  async confirm({ project, repo, commit_id, key, state, url, name }, { bitbucket }) {
    const commitId = await fullCommitId(bitbucket, project, repo, commit_id);
    const current = await buildStatusOf(bitbucket, project, repo, commitId, key);
    const replacing = current === undefined
      ? "where it has none yet"
      : `replacing its ${quoted(current.state)} status`;
    return {
      message: `Report build ${quotedId(key)}${
        name === undefined ? "" : ` ${quoted(name)}`
      } (linking ${quotedId(url)}) as ${state} on commit ${
        commitId.slice(0, 12)
      } in ${project}/${repo}, ${replacing}; merge checks and reviewers rely on it`,
      // Setting it changes what is read here, so a replayed yes finds it changed.
      binding: {
        what: `the build status ${quotedId(key)} of commit ${commitId.slice(0, 12)}`,
        state: current === undefined ? "none" : JSON.stringify([
          current.state,
          current.url,
          current.updatedDate ?? current.createdDate,
        ]),
      },
    };
  },
  async handler(
    { project, repo, commit_id, key, state, url, name, description, build_number },
    { bitbucket },
  ) {
    const commitId = await fullCommitId(bitbucket, project, repo, commit_id);
    const status = {
      key,
      state,
      url,
      name,
      description,
      buildNumber: build_number,
    };
    // The repository-scoped resource (since 7.14) answers 204 with no body, so
    // what is reported back is what was sent and accepted.
    await bitbucket.request({
      method: "POST",
      path: apiPath`/api/latest/projects/${project}/repos/${repo}/commits/${commitId}/builds`,
      schema: z.unknown(),
      body: status,
    });
    return { buildStatus: { commitId, ...status, key: visibleId(key) } };
  },
});

/** The status stored under `key` on the commit (full id), or undefined when there is none. */
async function buildStatusOf(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  commitId: string,
  key: string,
): Promise<z.infer<typeof BuildStatus> | undefined> {
  try {
    const { body } = await bitbucket.request({
      path: apiPath`/api/latest/projects/${project}/repos/${repo}/commits/${commitId}/builds`,
      query: { key },
      schema: BuildStatus,
    });
    return body;
  } catch (error) {
    if (error instanceof BitbucketError && error.kind === "not_found") return undefined;
    throw error;
  }
}

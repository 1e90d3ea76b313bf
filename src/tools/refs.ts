import { z } from "zod";
import type { BitbucketClient } from "../bitbucket/client.ts";
import { Branch, Tag } from "../bitbucket/entities/ref.ts";
import { apiPath } from "../bitbucket/path.ts";
import { collectPages, pageOf } from "../bitbucket/paging.ts";
import { defineTool } from "./define.ts";
import { named, PageTail, PagingArgs, RepoArgs } from "./fragments.ts";

/** A branch as tools return it: whether it is the default is always stated. */
const BranchOut = Branch.pick({ id: true, displayId: true, latestCommit: true }).extend({
  isDefault: z.boolean(),
});

function branchOut(branch: z.infer<typeof Branch>): z.infer<typeof BranchOut> {
  return {
    id: branch.id,
    displayId: branch.displayId,
    latestCommit: branch.latestCommit,
    isDefault: branch.isDefault ?? branch.default ?? false,
  };
}

const FilterArg = z.string().min(1).max(1024).optional().describe(
  "Only names containing this text",
);

/** Lists branches, saying which one is the default. */
export const listBranches = defineTool({
  name: "list_branches",
  title: "List branches",
  description: "Branches of a repository with their head commits; the default branch is marked.",
  readOnly: true,
  safe: true,
  input: RepoArgs.extend({ filter: FilterArg }).extend(PagingArgs.shape),
  output: z.object({ branches: z.array(BranchOut) }).extend(PageTail.shape),
  async handler({ project, repo, filter, limit, start }, { bitbucket, signal }) {
    const page = await collectPages(
      bitbucket,
      apiPath`/api/latest/projects/${project}/repos/${repo}/branches`,
      Branch,
      { start, limit },
      { filterText: filter, boostMatches: filter === undefined ? undefined : true },
      signal,
    );
    return named("branches", { ...page, values: page.values.map(branchOut) });
  },
});

/** Lists tags. */
export const listTags = defineTool({
  name: "list_tags",
  title: "List tags",
  description: "Tags of a repository with the commits they point at.",
  readOnly: true,
  safe: true,
  input: RepoArgs.extend({ filter: FilterArg }).extend(PagingArgs.shape),
  output: z.object({ tags: z.array(Tag) }).extend(PageTail.shape),
  async handler({ project, repo, filter, limit, start }, { bitbucket, signal }) {
    const page = await collectPages(
      bitbucket,
      apiPath`/api/latest/projects/${project}/repos/${repo}/tags`,
      Tag,
      { start, limit },
      { filterText: filter },
      signal,
    );
    return named("tags", page);
  },
});

const ResolvedRef = z.object({
  id: z.string().describe("Fully qualified ref"),
  displayId: z.string(),
  type: z.enum(["BRANCH", "TAG"]),
  latestCommit: z.string().optional(),
});

/** A branch or tag by name and head commit: all resolve_ref reads from either listing. */
const NamedRef = Branch.pick({ id: true, displayId: true, latestCommit: true });

/** Looks a name up among branches or tags by exact display name (Bitbucket's filter is a substring match). */
async function findExact(
  bitbucket: BitbucketClient,
  path: string,
  name: string,
  signal: AbortSignal,
): Promise<{ id: string; displayId: string; latestCommit?: string } | undefined> {
  const schema = pageOf(NamedRef);
  const page = await bitbucket.get(path, schema, { filterText: name, limit: 100 }, signal);
  return page.values.find((ref) => ref.displayId === name);
}

/** Turns a branch or tag name into its qualified ref and head commit. */
export const resolveRef = defineTool({
  name: "resolve_ref",
  title: "Resolve a ref",
  description:
    "Resolve a branch or tag name (or refs/heads/..., refs/tags/...) to its ref and commit. A name that is both resolves to the branch.",
  readOnly: true,
  safe: true,
  input: RepoArgs.extend({
    ref: z.string().min(1).max(1024).describe("Branch or tag name, e.g. main or refs/tags/v1.0"),
  }),
  output: z.object({ ref: ResolvedRef }),
  async handler({ project, repo, ref }, { bitbucket, signal }) {
    const kinds: { type: "BRANCH" | "TAG"; prefix: string; path: string }[] = [
      {
        type: "BRANCH",
        prefix: "refs/heads/",
        path: apiPath`/api/latest/projects/${project}/repos/${repo}/branches`,
      },
      {
        type: "TAG",
        prefix: "refs/tags/",
        path: apiPath`/api/latest/projects/${project}/repos/${repo}/tags`,
      },
    ];
    const qualified = kinds.find((k) => ref.startsWith(k.prefix));
    for (const kind of qualified ? [qualified] : kinds) {
      const name = qualified ? ref.slice(kind.prefix.length) : ref;
      const found = await findExact(bitbucket, kind.path, name, signal);
      if (found) return { ref: { ...found, type: kind.type } };
    }
    throw new Error(
      `Cannot resolve ref ${JSON.stringify(ref)} in ${project}/${repo}: no ${
        qualified ? qualified.type.toLowerCase() : "branch or tag"
      } has that name (list_branches and list_tags show the names)`,
    );
  },
});

/** Creates a tag at a branch, tag or commit. */
export const createTag = defineTool({
  name: "create_tag",
  title: "Create a tag",
  description: "Create a tag at a branch, tag or commit; annotated when a message is given.",
  readOnly: false,
  safe: true,
  why: "adds a new ref; nothing existing is changed, and an existing tag name is refused",
  input: RepoArgs.extend({
    name: z.string().min(1).max(1024).describe("Tag name, e.g. v1.2.0"),
    start_point: z.string().min(1).max(1024).describe("Branch, tag or commit id to tag"),
    message: z.string().max(65536).optional().describe("Annotation message"),
  }),
  output: z.object({ tag: Tag }),
  async handler({ project, repo, name, start_point, message }, { bitbucket, signal }) {
    const tag = await bitbucket.send(
      "POST",
      apiPath`/api/latest/projects/${project}/repos/${repo}/tags`,
      Tag,
      { name, startPoint: start_point, message },
      signal,
    );
    return { tag };
  },
});

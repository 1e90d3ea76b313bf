/** A repository's branches and tags: listing, resolving, creating and deleting them. */
import { z } from "../../deps/zod.ts";
import { rethrowDuring } from "../../bitbucket/transport/errors.ts";
import type { BitbucketClient } from "../../bitbucket/transport/client.ts";
import { Branch, Tag } from "../../bitbucket/entities/ref.ts";
import { apiPath, segments } from "../../bitbucket/transport/path.ts";
import { pageOf } from "../../bitbucket/transport/paging.ts";
import {
  BranchOut,
  branchOut,
  CommitIdArg,
  defineListTool,
  defineTool,
  NameFilterArg,
  READ_ONLY,
  refArg,
  refPathArg,
  RefTipOut,
  refTipOut,
  RepoArgs,
  safeWrite,
  TagOut,
  tagOut,
  textArg,
  unsafeWrite,
} from "../kit/mod.ts";
import { qualifyBranch, refsPath } from "../../bitbucket/refs.ts";
import { quotedId, visibleId } from "../../bitbucket/text/visible_id.ts";

export const listBranches = defineListTool({
  name: "list_branches",
  defaultFor: "change",
  reach: "repository",
  title: "List branches",
  description: "Branches with their head commits; the default one is marked.",
  access: READ_ONLY,
  input: RepoArgs.extend({ filter: NameFilterArg }),
  key: "branches",
  item: BranchOut,
  entity: Branch,
  map: branchOut,
  request: ({ project, repo, filter }) => ({
    path: refsPath(project, repo, "branches"),
    query: { filterText: filter, boostMatches: filter === undefined ? undefined : true },
  }),
});

export const listTags = defineListTool({
  name: "list_tags",
  reach: "repository",
  title: "List tags",
  description: "Tags with the commits they point at.",
  access: READ_ONLY,
  input: RepoArgs.extend({ filter: NameFilterArg }),
  key: "tags",
  item: TagOut,
  entity: Tag,
  map: tagOut,
  request: ({ project, repo, filter }) => ({
    path: refsPath(project, repo, "tags"),
    query: { filterText: filter },
  }),
});

/** A resolved ref: its qualified name, kind and commit. */
const ResolvedRefOut = z.object({
  id: z.string().describe("Fully qualified ref"),
  displayId: z.string(),
  type: z.enum(["BRANCH", "TAG"]),
  latestCommit: z.string().optional(),
});

/** Looks a name up among branches or tags by exact display name (Bitbucket's filter is a substring match). */
async function findExact(
  bitbucket: BitbucketClient,
  path: string,
  name: string,
): Promise<z.infer<typeof Branch> | undefined> {
  const { body: page } = await bitbucket.request({
    path,
    schema: pageOf(Branch),
    query: { filterText: name, limit: 100 },
  });
  return page.values.find((ref) => ref.displayId === name);
}

export const resolveRef = defineTool({
  name: "resolve_ref",
  reach: "repository",
  title: "Resolve a ref",
  description:
    "A branch or tag name (or refs/heads/..., refs/tags/...) as its ref and commit; a branch wins over a tag.",
  access: READ_ONLY,
  input: RepoArgs.extend({ ref: refArg("e.g. main or refs/tags/v1.0") }),
  output: z.object({ ref: ResolvedRefOut }),
  async handler({ project, repo, ref }, { bitbucket }) {
    const kinds = [
      { type: "BRANCH", prefix: "refs/heads/", path: refsPath(project, repo, "branches") },
      { type: "TAG", prefix: "refs/tags/", path: refsPath(project, repo, "tags") },
    ] as const;
    const qualified = kinds.find((k) => ref.startsWith(k.prefix));
    for (const kind of qualified ? [qualified] : kinds) {
      const name = qualified ? ref.slice(kind.prefix.length) : ref;
      const found = await findExact(bitbucket, kind.path, name);
      if (found) return { ref: { ...refTipOut(found), type: kind.type } };
    }
    throw new Error(
      `Cannot resolve ref ${JSON.stringify(ref)} in ${project}/${repo}: no ${
        qualified ? qualified.type.toLowerCase() : "branch or tag"
      } has that name (list_branches and list_tags show the names)`,
    );
  },
});

export const createTag = defineTool({
  name: "create_tag",
  reach: "repository",
  title: "Create a tag",
  description: "Tag a branch, tag or commit; annotated when given a message.",
  access: safeWrite(
    "adds a new ref; nothing existing is changed, and an existing tag name is refused",
  ),
  input: RepoArgs.extend({
    name: refArg(),
    start_point: refArg("Branch, tag or commit"),
    message: textArg("Annotation", 65_536).optional(),
  }),
  output: z.object({ tag: TagOut }),
  async handler({ project, repo, name, start_point, message }, { bitbucket }) {
    const { body: tag } = await bitbucket.request({
      method: "POST",
      path: refsPath(project, repo, "tags"),
      schema: Tag,
      body: { name, startPoint: start_point, message },
    });
    return { tag: tagOut(tag) };
  },
});

export const createBranch = defineTool({
  name: "create_branch",
  reach: "repository",
  title: "Create a branch",
  description: "Create a branch from a branch, tag or commit.",
  access: safeWrite(
    "adds a new ref; nothing existing is changed, and an existing branch name is refused",
  ),
  input: RepoArgs.extend({
    name: refArg(),
    start_point: refArg("Branch, tag or commit"),
  }),
  output: z.object({ branch: RefTipOut }),
  async handler({ project, repo, name, start_point }, { bitbucket }) {
    // The core branches POST (createBranchForRepository, REPO_WRITE), like create_tag's
    // tags POST: its startPoint takes any ref or commit, where the spec limits
    // branch-utils' startPoint to a commit id.
    const { body: branch } = await bitbucket.request({
      method: "POST",
      path: refsPath(project, repo, "branches"),
      schema: Branch,
      body: { name, startPoint: start_point },
    });
    return { branch: refTipOut(branch) };
  },
});

export const deleteBranch = defineTool({
  name: "delete_branch",
  reach: "repository",
  title: "Delete a branch",
  description: "Delete a branch; with end_point, only if it points there.",
  access: unsafeWrite("a deleted branch cannot be restored from Bitbucket"),
  idempotent: true,
  input: RepoArgs.extend({
    name: refArg(),
    end_point: CommitIdArg.optional().describe("Expected head commit"),
  }),
  output: z.object({ deleted: z.string().describe("The ref deleted") }),
  async confirm({ project, repo, name, end_point }, { bitbucket }) {
    const ref = qualifyBranch(name);
    const { at: head } = await headOf(bitbucket, project, repo, "branches", ref);
    if (end_point !== undefined && !head.toLowerCase().startsWith(end_point.toLowerCase())) {
      throw new Error(
        `Cannot delete branch ${
          quotedId(name)
        } in ${project}/${repo}: it points at ${head}, not at end_point ${end_point}; nothing was deleted (hint: look at the branch, then give its head as end_point or leave it out)`,
      );
    }
    return {
      message: `Delete branch ${quotedId(name)} from ${project}/${repo}, at commit ${
        head.slice(0, 12)
      }; Bitbucket cannot restore it`,
      // Sent as endPoint, so Bitbucket refuses the delete once the branch moved on.
      binding: { what: `the head of branch ${quotedId(name)}`, state: head },
    };
  },
  async handler({ project, repo, name, end_point }, { bitbucket, confirmed }) {
    const ref = qualifyBranch(name);
    // branch-utils deletes by name in the body; it answers 204 whether or not the branch existed.
    await bitbucket.request({
      method: "DELETE",
      path: apiPath`/branch-utils/latest/projects/${project}/repos/${repo}/branches`,
      body: { name: ref, endPoint: end_point ?? confirmed?.binding?.state },
      schema: z.unknown(),
    }).catch(rethrowDuring(`delete branch ${JSON.stringify(name)} in ${project}/${repo}`));
    return { deleted: visibleId(ref) };
  },
});

export const deleteTag = defineTool({
  name: "delete_tag",
  reach: "repository",
  title: "Delete a tag",
  description: "Delete a tag.",
  access: unsafeWrite("a deleted tag cannot be restored from Bitbucket"),
  idempotent: true,
  input: RepoArgs.extend({ name: refPathArg("Tag") }),
  output: z.object({ deleted: z.string().describe("The ref deleted") }),
  async confirm({ project, repo, name }, { bitbucket }) {
    const tag = tagName(name);
    const { at, commit } = await headOf(bitbucket, project, repo, "tags", `refs/tags/${tag}`);
    return {
      message: `Delete tag ${quotedId(tag)} from ${project}/${repo}, at commit ${
        commit.slice(0, 12)
      }; Bitbucket cannot restore it`,
      // Bitbucket's tag delete takes no expected object: the re-read after the yes checks it.
      binding: { what: `tag ${quotedId(tag)}`, state: at },
    };
  },
  async handler({ project, repo, name }, { bitbucket }) {
    const tag = tagName(name);
    await bitbucket.request({
      method: "DELETE",
      path: apiPath`/git/latest/projects/${project}/repos/${repo}/tags/${segments(tag)}`,
      schema: z.unknown(),
    }).catch(rethrowDuring(`delete tag ${JSON.stringify(tag)} in ${project}/${repo}`));
    return { deleted: visibleId(`refs/tags/${tag}`) };
  },
});

/** A tag's short name: `refs/tags/v1` is `v1`. */
function tagName(name: string): string {
  return name.startsWith("refs/tags/") ? name.slice("refs/tags/".length) : name;
}

/**
 * What the branch or tag `ref` (fully qualified) points at now: `at`, a
 * branch's head commit or a tag's object (the tag object of an annotated tag,
 * else its commit), and `commit`. Throws when there is no such ref, so nothing
 * is asked or deleted.
 */
async function headOf(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  kind: "branches" | "tags",
  ref: string,
): Promise<{ at: string; commit: string }> {
  const prefix = kind === "branches" ? "refs/heads/" : "refs/tags/";
  const name = ref.slice(prefix.length);
  const { body: page } = await bitbucket.request({
    path: refsPath(project, repo, kind),
    schema: pageOf(Tag),
    query: { filterText: name, limit: 100 },
  });
  const found = page.values.find((r) => r.id === ref || r.displayId === name);
  const commit = found?.latestCommit;
  if (commit === undefined) {
    const what = kind === "branches" ? "branch" : "tag";
    throw new Error(
      `Cannot delete ${what} ${
        quotedId(name)
      } in ${project}/${repo}: there is no such ${what} (now); nothing was deleted (hint: list_${kind} shows the names)`,
    );
  }
  return { at: found?.hash ?? commit, commit };
}

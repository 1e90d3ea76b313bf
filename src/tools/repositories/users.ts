import { z } from "../../deps/zod.ts";
import { ApplicationUser } from "../../bitbucket/entities/user.ts";
import { nameArg, PagingArgs } from "../kit/args.ts";
import { defineTool, READ_ONLY } from "../kit/define.ts";
import { listing } from "../kit/list_tool.ts";
import { pagedOutput } from "../kit/shapes/page.ts";

/** A user as find_users returns one: the names a reviewer list or a mention takes. */
const FoundUserOut = z.object({
  name: z.string().describe("Username, as reviewers take it"),
  slug: z.string().optional(),
  displayName: z.string().optional(),
  emailAddress: z.string().optional(),
});

/** Finds users by part of their username, name or email address. */
export const findUsers = defineTool({
  name: "find_users",
  toolset: "repositories",
  title: "Find users",
  description: "Users by part of their username, name or email.",
  access: READ_ONLY,
  input: z.object({ filter: nameArg() }).extend(
    PagingArgs.shape,
  ),
  output: pagedOutput("users", FoundUserOut),
  handler: listing(
    "users",
    ApplicationUser,
    ({ name, slug, displayName, emailAddress }) => ({ name, slug, displayName, emailAddress }),
    ({ filter }) => ({ path: "/api/latest/users", query: { filter } }),
  ),
});

/** Finding users by name, for reviewer lists and mentions. */
import { z } from "../../deps/zod.ts";
import { ApplicationUser } from "../../bitbucket/entities/user.ts";
import { cleanText } from "../../bitbucket/text/untrusted_text.ts";
import { defineListTool, nameArg, READ_ONLY } from "../kit/mod.ts";
import { visibleId } from "../../bitbucket/text/visible_id.ts";

/** A user as find_users returns one: the names a reviewer list or a mention takes. */
const FoundUserOut = z.object({
  name: z.string().describe("Username, as reviewers take it"),
  slug: z.string().optional(),
  displayName: z.string().optional(),
  emailAddress: z.string().optional(),
});

export const findUsers = defineListTool({
  name: "find_users",
  defaultFor: "change",
  reach: "server",
  confine: { unplaced: "users live in no project" },
  title: "Find users",
  description: "Users by part of their username, name or email.",
  access: READ_ONLY,
  input: z.object({ filter: nameArg() }),
  key: "users",
  item: FoundUserOut,
  entity: ApplicationUser,
  map: ({ name, slug, displayName, emailAddress }) => ({
    name: visibleId(name),
    slug: visibleId(slug),
    displayName: cleanText(displayName),
    emailAddress: visibleId(emailAddress),
  }),
  request: ({ filter }) => ({ path: "/api/latest/users", query: { filter } }),
});

/** Branch permissions (ref restrictions), as Bitbucket sends them. */
import { z } from "../../deps/zod.ts";
import { RefMatcher } from "./build.ts";

/**
 * A branch permission (RestRefRestriction): what it forbids (`type`: read-only,
 * no-deletes, fast-forward-only or pull-request-only), on which refs
 * (`matcher`), and who is exempt from it (`users`, `groups`; SSH access keys
 * too, which are left unread).
 */
export const RefRestriction = z.object({
  id: z.number().int(),
  type: z.string(),
  matcher: RefMatcher,
  scope: z.object({ type: z.string(), resourceId: z.number().int().optional() }).optional(),
  users: z.array(z.object({ name: z.string() })).default([]),
  groups: z.array(z.string()).default([]),
});

/** A person as tools return them. */
import { z } from "../../../deps/zod.ts";
import type { ApplicationUser } from "../../../bitbucket/entities/user.ts";
import { cleanText } from "../../../bitbucket/text/untrusted_text.ts";
import { visibleId } from "../../../bitbucket/text/visible_id.ts";

/** A Bitbucket user by username and display name. */
export const UserOut = z.object({
  name: z.string().describe("Username"),
  displayName: z.string().optional(),
});

/** Trims a Bitbucket user to {@link UserOut}. */
export function userOut(user: z.infer<typeof ApplicationUser>): z.infer<typeof UserOut> {
  return { name: visibleId(user.name), displayName: cleanText(user.displayName) };
}

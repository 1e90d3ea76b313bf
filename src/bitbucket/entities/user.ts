/** Bitbucket users, as the REST API sends them. */
import { z } from "../../deps/zod.ts";

/** A Bitbucket user as the REST API returns it (RestApplicationUser). */
export const ApplicationUser = z.object({
  name: z.string(), // Username
  displayName: z.string().optional(),
  emailAddress: z.string().optional(),
  id: z.number().int().optional(),
  slug: z.string().optional(),
  active: z.boolean().optional(),
  type: z.string().optional(), // NORMAL or SERVICE
});

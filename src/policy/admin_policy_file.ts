/**
 * The administrator's policy file as written: its zod schema and the parse
 * into an {@link AdminPolicy}. Loaded by `readPolicy` only when a file is
 * there to parse (zod stays off the start-up path of every other run).
 */
import { z } from "../deps/zod.ts";
import { Confinement, KEY_PATTERN } from "./confinement.ts";

/** The policy a valid file sets. */
export interface AdminPolicy {
  disabled: boolean;
  reason?: string;
  contact?: string;
  readOnly: boolean;
  noYolo: boolean;
  confinement?: Confinement;
}

const projectKey = z.string().regex(KEY_PATTERN, "a project key, e.g. PROJ");
const repoRef = z.string().refine((value) => {
  const parts = value.split("/");
  return parts.length === 2 && parts.every((part) => KEY_PATTERN.test(part));
}, "PROJECT/slug, e.g. PROJ/web");
const words = (max: number) => z.string().trim().min(1).max(max);

/**
 * The file's keys. Strict: a key this version does not know might be a
 * restriction it cannot apply, so the file is refused rather than served
 * looser than its writer meant.
 */
export const PolicyFile = z.strictObject({
  /** Refuse to serve at all. */
  disabled: z.boolean().optional(),
  /** Why: shown when serving is refused, and by `check`. */
  reason: words(500).optional(),
  /** Whom to ask: shown with the reason. */
  contact: words(200).optional(),
  /** List read-only tools only, whatever the flags. */
  read_only: z.boolean().optional(),
  /** Every unsafe write asks the person, `--yolo` or not. */
  no_yolo: z.boolean().optional(),
  /** The projects and repositories the server may touch; flags narrow it further. */
  confine: z.strictObject({
    projects: z.array(projectKey).optional(),
    repos: z.array(repoRef).optional(),
  }).refine(
    (c) => (c.projects?.length ?? 0) + (c.repos?.length ?? 0) > 0,
    "names no project or repository (leave confine out to confine nothing)",
  ).optional(),
});

/** The policy `text` sets, or what is wrong with it (one line). Pure. */
export function parsePolicy(text: string): { policy: AdminPolicy } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problem: `not JSON: ${oneLine(error instanceof Error ? error.message : error)}` };
  }
  const parsed = PolicyFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    return { problem: oneLine(`${where}${issue?.message ?? "not a policy"}`) };
  }
  const file = parsed.data;
  const repos = (file.confine?.repos ?? []).map((value) => {
    const [project, repo] = value.split("/") as [string, string];
    return { project, repo };
  });
  return {
    policy: {
      disabled: file.disabled ?? false,
      reason: file.reason,
      contact: file.contact,
      readOnly: file.read_only ?? false,
      noYolo: file.no_yolo ?? false,
      confinement: file.confine ? new Confinement(file.confine.projects ?? [], repos) : undefined,
    },
  };
}

function oneLine(value: unknown): string {
  return String(value).replace(/\s+/g, " ").trim();
}

/**
 * Every argument more than one tool takes, with its one limit. A tool builds
 * its input from these (`RepoArgs.extend({ ... })`) and declares none of its
 * own copies. Limits are published in the schema (`maxLength`, `maximum`)
 * wherever zod can say them; a refinement checks only what a schema cannot.
 * Every argument naming something Bitbucket names (a key, a slug, a ref, a
 * path, a username) takes it as results show it: an escape `\u{202E}` is the
 * hidden character it stands for ({@link identifierArg}).
 */
import { z } from "../../deps/zod.ts";
import { isUnsafeSegment } from "../../bitbucket/transport/path.ts";
import { MAX_LIMIT } from "../../bitbucket/transport/paging.ts";
import { FULL_COMMIT_ID } from "../../bitbucket/commits.ts";
import { realId } from "../../bitbucket/text/visible_id.ts";

// The limits are the tools' too: every module that builds arguments finds them here.
export * from "./limits.ts";
import {
  DEFAULT_DOCUMENT_BYTES,
  MAX_DOCUMENT_BYTES,
  MAX_PATH,
  MAX_REF,
  MAX_SEGMENT,
  MAX_TEXT,
  MAX_TITLE,
} from "./limits.ts";

/** A string of 1 to `max` characters: `abort` stops at the first failed limit, so the message is given once. */
function limitedString(max: number, message?: string) {
  const params = message === undefined ? { abort: true } : { abort: true, message };
  return z.string().min(1, params).max(max, params);
}

/** The schema with `description`, or as it is when the argument's name says it all. */
function described<T extends z.ZodType>(schema: T, description: string | undefined): T {
  return description === undefined ? schema : schema.describe(description);
}

/**
 * A string argument naming something Bitbucket names, taken as results show
 * it: identifiers holding hidden characters are returned with each written as
 * `\u{HEX}` (`bitbucket/text/visible_id.ts`), and each such escape here becomes its
 * character again before any check or request. The published schema is the
 * string's own (a transform adds nothing to it).
 */
export function identifierArg(schema: z.ZodString) {
  return schema.transform(realId);
}

/**
 * A value that becomes one path segment: 1 to 256 characters of well-formed
 * Unicode (a lone surrogate cannot be percent-encoded), never `.` or `..`.
 */
export function segmentArg(description?: string) {
  const message = `must be 1-${MAX_SEGMENT} characters and not '.' or '..', in valid Unicode`;
  return identifierArg(described(limitedString(MAX_SEGMENT, message), description))
    .refine((v) => v.isWellFormed() && !isUnsafeSegment(v), { message });
}

/**
 * The repository every repository-scoped tool takes. The server's
 * instructions say once that `project` is a project key and `repo` a
 * repository slug, so no schema repeats it.
 */
export const RepoArgs = z.object({
  project: segmentArg(),
  repo: segmentArg(),
});

/** A name, key or part of one, sent as a query value (not a path segment). */
export function nameArg(description?: string) {
  return identifierArg(described(limitedString(MAX_SEGMENT), description));
}

/** A branch, tag or commit, by name or id. */
export function refArg(description?: string) {
  return identifierArg(described(limitedString(MAX_REF), description));
}

/** The ref to read at; the default branch when left out. */
export const AtArg = refArg("Default: the default branch").optional();

/** A substring filter on branch or tag names. */
export const NameFilterArg = identifierArg(limitedString(MAX_REF)).optional().describe(
  "Part of the name",
);

/** A path sent as a query value or in a body (a diff's or a comment's file). */
export function pathArg(description?: string) {
  return identifierArg(described(limitedString(MAX_PATH), description));
}

/**
 * A path that becomes several URL segments. It is refused before any request
 * unless every segment is a real name.
 */
export function filePathArg(description?: string) {
  const message =
    `must be 1-${MAX_PATH} characters, relative to the repository root, with no empty, '.' or '..' segments (no leading, trailing or doubled '/'), in valid Unicode`;
  return identifierArg(described(limitedString(MAX_PATH, message), description))
    .refine((v) => v.isWellFormed() && !v.split("/").some(isUnsafeSegment), { message });
}

/**
 * A ref name that becomes URL segments (a tag deleted by name). Git refuses
 * empty, `.` and `..` components in ref names, and so does this, before any
 * request.
 */
export function refPathArg(description: string) {
  const message =
    `must be 1-${MAX_REF} characters with no empty, '.' or '..' segments (no leading, trailing or doubled '/'), in valid Unicode`;
  return identifierArg(limitedString(MAX_REF, message).describe(description))
    .refine((v) => v.isWellFormed() && !v.split("/").some(isUnsafeSegment), { message });
}

/** A 1-based line number of a file. */
export function lineArg(description?: string) {
  return described(z.number().int().min(1), description);
}

/** Free text: a comment, a description, a message. */
export function textArg(description?: string, max: number = MAX_TEXT) {
  return described(z.string().max(max), description);
}

/**
 * A positive integer id. A string of digits is refused, not coerced: the
 * message says how to pass it, and the SDK prefixes it with the argument name.
 * Published as `minimum: 1`, the same bound in fewer bytes than `positive()`'s
 * `exclusiveMinimum: 0`, on every tool that takes an id.
 */
export function idArg(description?: string) {
  const id = z.number({
    error: (issue) =>
      issue.input === undefined
        ? "required: a positive integer"
        : `must be a positive integer given as a JSON number, e.g. 42 (not the string "42")`,
  }).int().min(1);
  return described(id, description);
}

/** A full or abbreviated commit id. */
export const CommitIdArg = z.string().regex(/^[0-9a-fA-F]{4,64}$/, {
  message: "must be a full or abbreviated hexadecimal commit id",
});

/**
 * A full commit id, for server-wide resources that take no repository and so
 * cannot expand an abbreviation: Bitbucket would silently find nothing.
 */
export const FullCommitIdArg = z.string().regex(FULL_COMMIT_ID, {
  message:
    "must be a full commit id (40 hex digits): build statuses are recorded against full ids; get_commit gives the full id of an abbreviated one",
});

/**
 * Paging for list tools, its limit capped. Bounds and default are in the schema, and
 * the server's instructions say once that `start` takes a `nextPageStart`.
 */
export const PagingArgs = z.object({
  limit: z.number().int().min(1).max(MAX_LIMIT).default(25),
  start: z.number().int().min(0).optional(),
});

/** The cap on a returned document: a diff or a file's text. */
export function maxBytesArg(min: number) {
  return z.number().int().min(min).max(MAX_DOCUMENT_BYTES).default(DEFAULT_DOCUMENT_BYTES);
}

/** How many unchanged lines a diff shows around each change. */
export const ContextLinesArg = z.number().int().min(0).max(100).optional().describe(
  "Context lines",
);

/** The options every diff tool (a commit's, a comparison's, a pull request's) takes beside what it diffs. */
export const DiffArgs = z.object({
  path: pathArg("Only this file").optional(),
  context_lines: ContextLinesArg,
  max_bytes: maxBytesArg(256),
});

/** How the words of a choice are normalised by default: upper case, `-` and spaces as `_`. */
const upperSnake = (raw: string) => raw.trim().toUpperCase().replace(/[-\s]+/g, "_");

/**
 * One of a fixed set of words, accepted in any case (and, by default, with
 * `-` or spaces for `_`) and normalised by `normalise`. An unknown word is
 * refused with the permitted values; they are listed in the description, not
 * as a JSON enum, since the schema would refuse the spellings we accept.
 */
export function choiceArg<const T extends readonly string[]>(
  values: T,
  description: string,
  normalise: (raw: string) => string = upperSnake,
) {
  return z.string().transform((raw, ctx): T[number] => {
    const value = normalise(raw);
    if ((values as readonly string[]).includes(value)) return value as T[number];
    ctx.addIssue({
      code: "custom",
      message: `must be one of ${values.join(", ")} (any case), not ${JSON.stringify(raw)}`,
    });
    return z.NEVER;
  }).describe(`${description}: ${values.join(", ")}`);
}

/** The arguments that name one pull request; `pr_id` says what it is. */
export const PrArgs = RepoArgs.extend({ pr_id: idArg() });

/** The pull request version a write acts on. */
export const VersionArg = z.number().int().min(0).optional().describe(
  "Version you saw (default: current)",
);

/** A pull request title. */
export const TitleArg = limitedString(MAX_TITLE);

/** A pull request's reviewers, by username. */
export const ReviewersArg = z.array(identifierArg(limitedString(MAX_TITLE))).max(50).describe(
  "Reviewers' usernames",
);

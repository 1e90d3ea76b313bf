/**
 * The one flow every diff tool answers with: read the diff from its start,
 * then either pick out one file or cut the whole at `max_bytes`, naming the
 * files a cut leaves out from the changes listing (every page of it, bounded,
 * and saying so when the bound left some unnamed). Only where the bytes come
 * from differs between a pull request, a commit and a comparison.
 */
import type { BitbucketClient, Query } from "../transport/client.ts";
import { Change, pathText } from "../entities/pull_request.ts";
import { collectPages, MAX_LIMIT } from "../transport/paging.ts";
import { type CappedDiff, cutDiff, fileDiff, LOOKAHEAD_BYTES, PATH_SCAN_BYTES } from "./unified.ts";

/** Where one diff's bytes come from, and what it is, for messages. */
export interface DiffSource {
  /** Reads the diff from its start: at least `maxBytes` of it when it is that long, and whether that is all. */
  read(maxBytes: number): Promise<{ bytes: Uint8Array; complete: boolean }>;
  /** The paths the diff changes, in Bitbucket's order, up to {@link MAX_CHANGED_PATHS}. */
  changedPaths(): Promise<ChangedPaths>;
  /** What the diff is of, e.g. `pull request #42 of PROJ/web`. */
  what: string;
  /** The same as a subject, e.g. `the pull request`. */
  subject: string;
  /** Where to find the changed paths, for the hint when a path is not among them. */
  hint: string;
}

/** The diff `source` gives: one file's (by new or old path), or the whole, held to `maxBytes`. */
export async function readCappedDiff(
  source: DiffSource,
  path: string | undefined,
  maxBytes: number,
): Promise<CappedDiff> {
  const read = await source.read(path === undefined ? maxBytes + LOOKAHEAD_BYTES : PATH_SCAN_BYTES);
  if (path !== undefined) {
    const one = fileDiff(read.bytes, read.complete, path, maxBytes);
    if (one) return one;
    throw new Error(
      `Cannot show ${JSON.stringify(path)} in ${source.what}: ${
        read.complete
          ? `${source.subject} does not change it`
          : `it is not in the first ${PATH_SCAN_BYTES} bytes of the diff`
      } (hint: ${source.hint})`,
    );
  }
  const cut = cutDiff(read.bytes, read.complete, maxBytes);
  if (!cut.truncated) return cut;
  const changed = await source.changedPaths();
  return {
    diff: cut.diff,
    truncated: true,
    omittedFiles: changed.paths.filter((file) => !cut.wholeFiles.has(file)),
    ...(changed.complete ? {} : { omittedFilesComplete: false }),
  };
}

/**
 * The most changed paths read to name what a cut diff left out: ten pages of
 * the changes listing. A longer diff's list says it is partial.
 */
export const MAX_CHANGED_PATHS = 10 * MAX_LIMIT;

/** The paths a changes listing names, and whether that is all of them. */
export interface ChangedPaths {
  paths: string[];
  /** False when the listing goes on past {@link MAX_CHANGED_PATHS}. */
  complete: boolean;
}

/**
 * The paths a changes listing names (a pull request's, a commit's, a
 * comparison's), in its order: every page, up to {@link MAX_CHANGED_PATHS}.
 */
export async function changedPaths(
  bitbucket: BitbucketClient,
  path: string,
  query: Query,
): Promise<ChangedPaths> {
  const page = await collectPages(bitbucket, path, Change, { limit: MAX_CHANGED_PATHS }, query);
  return { paths: page.values.map((c) => pathText(c.path)), complete: page.isLastPage };
}

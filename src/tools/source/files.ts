/** A repository's files at a ref: listing them, and reading one's text. */
import { z } from "../../deps/zod.ts";
import { ListedFile } from "../../bitbucket/entities/source.ts";
import { filesListing, readFileText } from "../../bitbucket/files.ts";
import {
  AtArg,
  defineListTool,
  defineTool,
  fileDocument,
  FileOut,
  filePathArg,
  lineArg,
  MAX_DOCUMENT_BYTES,
  maxBytesArg,
  READ_ONLY,
  RepoArgs,
  withHiddenFileCharacters,
} from "../kit/mod.ts";
import { visibleId } from "../../bitbucket/text/visible_id.ts";

export const listFiles = defineListTool({
  name: "list_files",
  defaultFor: "code",
  reach: "repository",
  title: "List files",
  description: "Files under a directory (default: all), recursively.",
  access: READ_ONLY,
  input: RepoArgs.extend({
    path: filePathArg("Directory").optional(),
    at: AtArg,
  }),
  key: "files",
  item: z.string().describe("Path from the repository root"),
  entity: ListedFile,
  // Bitbucket names each file relative to the directory listed.
  map: (file, { path }) => visibleId(path ? `${path}/${file}` : file),
  request: ({ project, repo, path, at }) => filesListing(project, repo, path, at),
});

/** The most lines one windowed read may ask for. */
const MAX_WINDOW_LINES = 10_000;

export const getFileContent = defineTool({
  name: "get_file_content",
  defaultFor: "code",
  reach: "repository",
  title: "Get file content",
  description:
    "A text file, whole or numbered lines from start_line, cut at max_bytes; with the commit read.",
  access: READ_ONLY,
  input: RepoArgs.extend({
    path: filePathArg(),
    at: AtArg,
    start_line: lineArg().optional(),
    line_count: z.number().int().min(1).max(MAX_WINDOW_LINES).optional(),
    max_bytes: maxBytesArg(1),
  }),
  output: z.object({ file: FileOut }),
  document: ({ file }) => fileDocument(file),
  async handler(args, { bitbucket }) {
    // A window is looked for within the most bytes a caller may ask for.
    return {
      file: withHiddenFileCharacters(
        await readFileText(bitbucket, { ...args, windowScanBytes: MAX_DOCUMENT_BYTES }),
      ),
    };
  },
});

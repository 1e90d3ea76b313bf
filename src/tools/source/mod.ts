/**
 * The `source` toolset: files at any ref: read, search, blame, history, commit. Its tools, in `tools/list` order; listing
 * a tool here puts it in this toolset.
 */
import { defineToolset, type Toolset } from "../kit/mod.ts";
import { getFileContent, listFiles } from "./files.ts";
import { searchCode } from "./search_code.ts";
import { getFileBlame, getFileHistory, listLastModified } from "./history.ts";
import { commitFile } from "./commit_file.ts";

/** The `source` toolset. */
export const SOURCE: Toolset = defineToolset({
  name: "source",
  description: "files at any ref: read, search, blame, history, commit",
  tools: [
    listFiles,
    getFileContent,
    searchCode,
    getFileBlame,
    getFileHistory,
    listLastModified,
    commitFile,
  ],
});

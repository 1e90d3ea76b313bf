import { readFixture } from "../support/fixture_bitbucket.ts";
import type { DomainCases } from "./types.ts";

const REPO = "/api/latest/projects/PROJ/repos/web";

/** The text file the fixtures serve at src/app.ts, and its size in bytes. */
export const APP_TS = readFixture("source/app.ts.txt");
export const APP_TS_BYTES = new TextEncoder().encode(APP_TS).length;

/** Fixtures and contract entries for src/tools/source.ts. */
export const source: DomainCases = {
  routes: [
    { method: "GET", path: `${REPO}/files`, fixture: "source/files.json" },
    {
      method: "GET",
      path: `${REPO}/files/src`,
      query: { start: "2" },
      fixture: "source/files-src-page2.json",
    },
    { method: "GET", path: `${REPO}/files/src`, fixture: "source/files-src.json" },
    {
      method: "GET",
      path: `${REPO}/raw/src/app.ts`,
      fixture: "source/app.ts.txt",
      headers: { "content-type": "text/plain;charset=UTF-8" },
    },
    {
      method: "GET",
      path: `${REPO}/browse/src/app.ts`,
      query: { size: "true" },
      body: { size: APP_TS_BYTES },
    },
    {
      method: "GET",
      path: `${REPO}/raw/src/nope.ts`,
      status: 404,
      fixture: "errors/path-not-found.json",
    },
    {
      method: "GET",
      path: `${REPO}/raw/assets/logo.png`,
      // A PNG's signature and first chunk header: binary, with NUL bytes.
      body: "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\b\x06\0\0\0",
      headers: { "content-type": "image/png" },
    },
  ],
  toolArguments: {
    list_files: {
      args: { project: "PROJ", repo: "web", path: "src", at: "main", limit: 2 },
      requests: [{
        method: "GET",
        path: `${REPO}/files/src`,
        query: { at: "main", start: "0", limit: "2" },
      }],
    },
    get_file_content: {
      args: { project: "PROJ", repo: "web", path: "src/app.ts", at: "main" },
      requests: [{ method: "GET", path: `${REPO}/raw/src/app.ts`, query: { at: "main" } }],
    },
  },
};

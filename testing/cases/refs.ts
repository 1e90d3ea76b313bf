/**
 * The refs domain's contract cases: the fixture routes the branch, tag and
 * branch restriction tools (src/tools/refs/) are answered from, and each
 * tool's contract arguments with the requests they must produce.
 */
import type { DomainCases } from "./types.ts";

const REPO = "/api/latest/projects/PROJ/repos/web";
/** Where branches are deleted (by name, in the body). */
export const BRANCH_UTILS = "/branch-utils/latest/projects/PROJ/repos/web/branches";
const GIT = "/git/latest/projects/PROJ/repos/web";
/** The repository's branch permissions. */
export const RESTRICTIONS = "/branch-permissions/latest/projects/PROJ/repos/web/restrictions";

/**
 * Fixtures and contract entries for src/tools/refs/refs.ts (branches and tags,
 * read, created and deleted) and src/tools/refs/branch_restrictions.ts.
 */
export const refs: DomainCases = {
  routes: [
    {
      method: "GET",
      path: `${REPO}/branches`,
      query: { filterText: "v1.0.0" },
      fixture: "refs/branches-none.json",
    },
    {
      method: "GET",
      path: `${REPO}/branches`,
      query: { filterText: "no-such-ref" },
      fixture: "refs/branches-none.json",
    },
    {
      method: "GET",
      path: `${REPO}/branches`,
      query: { start: "3" },
      fixture: "refs/branches-page2.json",
    },
    { method: "GET", path: `${REPO}/branches`, fixture: "refs/branches.json" },
    {
      method: "GET",
      path: `${REPO}/tags`,
      query: { filterText: "no-such-ref" },
      fixture: "refs/branches-none.json",
    },
    { method: "GET", path: `${REPO}/tags`, fixture: "refs/tags.json" },
    { method: "POST", path: `${REPO}/tags`, fixture: "refs/tag-created.json" },
    { method: "POST", path: `${REPO}/branches`, fixture: "branches/branch-created.json" },
    { method: "DELETE", path: BRANCH_UTILS, status: 204 },
    { method: "DELETE", path: `${GIT}/tags/v1.0.0`, status: 204 },
    { method: "GET", path: RESTRICTIONS, fixture: "refs/branch-restrictions.json" },
  ],
  toolArguments: {
    list_branches: {
      args: { project: "PROJ", repo: "web", limit: 3 },
      requests: [{ method: "GET", path: `${REPO}/branches`, query: { start: "0", limit: "3" } }],
    },
    resolve_ref: {
      args: { project: "PROJ", repo: "web", ref: "feature/login" },
      requests: [{
        method: "GET",
        path: `${REPO}/branches`,
        query: { filterText: "feature/login", limit: "100" },
      }],
    },
    list_tags: {
      args: { project: "PROJ", repo: "web", filter: "v1" },
      requests: [{
        method: "GET",
        path: `${REPO}/tags`,
        query: { filterText: "v1", start: "0", limit: "25" },
      }],
    },
    create_tag: {
      args: {
        project: "PROJ",
        repo: "web",
        name: "v2.0.0",
        start_point: "main",
        message: "Release 2.0.0",
      },
      requests: [{
        method: "POST",
        path: `${REPO}/tags`,
        query: {},
        body: { name: "v2.0.0", startPoint: "main", message: "Release 2.0.0" },
      }],
    },
    create_branch: {
      args: { project: "PROJ", repo: "web", name: "feature/search", start_point: "main" },
      requests: [{
        method: "POST",
        path: `${REPO}/branches`,
        query: {},
        body: { name: "feature/search", startPoint: "main" },
      }],
    },
    delete_branch: {
      args: { project: "PROJ", repo: "web", name: "feature/login" },
      requests: [{
        method: "DELETE",
        path: BRANCH_UTILS,
        query: {},
        body: { name: "refs/heads/feature/login" },
      }],
    },
    delete_tag: {
      args: { project: "PROJ", repo: "web", name: "v1.0.0" },
      requests: [{ method: "DELETE", path: `${GIT}/tags/v1.0.0`, query: {} }],
    },
    list_branch_restrictions: {
      args: { project: "PROJ", repo: "web", branch: "main" },
      requests: [{
        method: "GET",
        path: RESTRICTIONS,
        query: { start: "0", limit: "1000" },
      }],
    },
  },
};

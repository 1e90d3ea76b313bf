/**
 * A real Bitbucket Data Center for tests/e2e/datacenter_test.ts: where it is
 * (the environment .github/workflows/datacenter.yml sets), which version it
 * runs, and seeding it through its REST API as its administrator (a project,
 * a repository with commits on two branches, a reviewer with an HTTP access
 * token, pull requests), plus the raw reads a test checks the server's writes
 * against. Nothing here runs where those variables are unset.
 */

/** The variables that say where the Bitbucket is and who administers it. */
export const DATACENTER_VARS = {
  url: "BITBUCKET_E2E_URL",
  user: "BITBUCKET_E2E_ADMIN_USER",
  password: "BITBUCKET_E2E_ADMIN_PASSWORD",
} as const;

/** Why the suite is listed as ignored where there is no Bitbucket to run against. */
export const NO_DATACENTER =
  "(ignored: needs a real Bitbucket Data Center container: no container runtime or network here; runs in .github/workflows/datacenter.yml)";

/** The Bitbucket to run against and its administrator, as the environment gives them. */
export interface DataCenterTarget {
  url: string;
  user: string;
  password: string;
}

/** Reads one variable; unset when empty or when this process may not read it. */
function readVar(name: string): string | undefined {
  if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") {
    return undefined;
  }
  return Deno.env.get(name) || undefined;
}

/**
 * The target when {@link DATACENTER_VARS} are all set; undefined when none is
 * (the suite is ignored). Some but not all is a broken set-up, never a reason
 * to skip: an Error naming the missing ones.
 */
export function datacenterTarget(): DataCenterTarget | undefined {
  const url = readVar(DATACENTER_VARS.url);
  const user = readVar(DATACENTER_VARS.user);
  const password = readVar(DATACENTER_VARS.password);
  if (url === undefined && user === undefined && password === undefined) return undefined;
  if (url === undefined || user === undefined || password === undefined) {
    const missing = Object.values(DATACENTER_VARS).filter((name) => readVar(name) === undefined);
    throw new Error(
      `Cannot run the Data Center suite: ${missing.join(", ")} unset (hint: set all of ${
        Object.values(DATACENTER_VARS).join(", ")
      }, or none)`,
    );
  }
  return { url: url.replace(/\/+$/, ""), user, password };
}

/** A request body: JSON, or a multipart form (the file-edit API takes one). */
type Body = { json: unknown } | { form: FormData };

/**
 * Bitbucket's REST API as one identity (Basic credentials: the seeding is done
 * as people, not as the token under test). Every write carries the XSRF
 * opt-out Bitbucket asks of non-browser clients.
 */
export class DataCenterRest {
  readonly #authorization: string;

  constructor(readonly baseUrl: string, user: string, password: string) {
    this.#authorization = `Basic ${btoa(`${user}:${password}`)}`;
  }

  /** Sends one request; the parsed JSON answer (undefined when empty), or an Error naming the call. */
  async send<T>(
    method: string,
    path: string,
    body?: Body,
    query: Record<string, string> = {},
  ): Promise<T> {
    const text = await this.#exchange(method, path, body, query, "application/json");
    return (text === "" ? undefined : JSON.parse(text)) as T;
  }

  /** A file's raw content at a ref. */
  raw(project: string, repo: string, path: string, ref: string): Promise<string> {
    return this.#exchange(
      "GET",
      `/rest/api/latest/projects/${project}/repos/${repo}/raw/${path}`,
      undefined,
      { at: ref },
      "text/plain",
    );
  }

  async #exchange(
    method: string,
    path: string,
    body: Body | undefined,
    query: Record<string, string>,
    accept: string,
  ): Promise<string> {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    const headers: Record<string, string> = {
      Authorization: this.#authorization,
      Accept: accept,
      "X-Atlassian-Token": "no-check",
    };
    let payload: BodyInit | undefined;
    if (body !== undefined && "json" in body) {
      headers["Content-Type"] = "application/json";
      payload = JSON.stringify(body.json);
    } else if (body !== undefined) {
      payload = body.form;
    }
    const response = await fetch(url, { method, headers, body: payload });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(
        `Cannot ${method} ${url.pathname}: Bitbucket answered ${response.status}: ${
          text.slice(0, 600)
        }`,
      );
    }
    return text;
  }
}

/** A Bitbucket version, as `application-properties` reports it. */
export interface DataCenterVersion {
  text: string;
  major: number;
  minor: number;
}

/** The version the Bitbucket reports. */
export async function versionOf(admin: DataCenterRest): Promise<DataCenterVersion> {
  const { version } = await admin.send<{ version: string }>(
    "GET",
    "/rest/api/latest/application-properties",
  );
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return { text: version, major, minor };
}

/** Whether `v` is `major.minor` or later. */
export function atLeast(v: DataCenterVersion, major: number, minor: number): boolean {
  return v.major > major || (v.major === major && v.minor >= minor);
}

/** The file every pull request changes, and the branch it starts on. */
export const FILE = "src/greeting.ts";
export const BASE_BRANCH = "main";

/** The file on the base branch. */
export const BASE_LINES = [
  "/** Greetings for the end-to-end review loop. */",
  "export function hello(name: string): string {",
  "  return `Hello, ${name}!`;",
  "}",
] as const;

/** What each pull request's branch appends to it: the lines its diff adds. */
export const ADDED_LINES = [
  "",
  "export function farewell(name: string): string {",
  "  const trimmed = name.trim();",
  '  const shown = trimmed.length > 0 ? trimmed : "friend";',
  "  return `Goodbye, ${shown}!`;",
  "}",
] as const;

/** The file on a pull request's branch. */
export const BRANCH_LINES: readonly string[] = [...BASE_LINES, ...ADDED_LINES];

/** A file's text from its lines. */
export function fileText(lines: readonly string[]): string {
  return lines.join("\n") + "\n";
}

/** The 1-based number, on the branch's side, of the line starting (after indentation) with `start`. */
export function lineOf(start: string): number {
  const index = BRANCH_LINES.findIndex((line) => line.trimStart().startsWith(start));
  if (index < 0) throw new Error(`no line of ${FILE} starts with ${start}`);
  return index + 1;
}

/** The people and places one run seeds: fresh names each run, so a reused container is no obstacle. */
export interface Seeded {
  project: string;
  repo: string;
  /** The base branch's head commit. */
  baseCommit: string;
  /** The second user, who reviews: the server under test runs with their token. */
  reviewer: { name: string; token: string };
}

/** Commits `content` to `path` on `branch` through the file-edit API; the new commit's id. */
async function commitFile(
  as: DataCenterRest,
  project: string,
  repo: string,
  change: { branch: string; content: string; message: string; from?: string; parent?: string },
): Promise<string> {
  const form = new FormData();
  form.append("branch", change.branch);
  // As a file part: a form's text fields go out with every line ending turned into CRLF.
  form.append("content", new Blob([change.content]), FILE.split("/").at(-1));
  form.append("message", change.message);
  if (change.parent !== undefined) form.append("sourceCommitId", change.parent);
  if (change.from !== undefined) form.append("sourceBranch", change.from);
  const commit = await as.send<{ id: string }>(
    "PUT",
    `/rest/api/latest/projects/${project}/repos/${repo}/browse/${FILE}`,
    { form },
  );
  return commit.id;
}

/**
 * Seeds one run as the administrator: a project and repository, the file on
 * the base branch, a second user with write access to the project, and an
 * HTTP access token that user creates for themselves (repository write, as
 * the README tells users to grant for the writing tools).
 */
export async function seed(target: DataCenterTarget): Promise<Seeded> {
  const admin = new DataCenterRest(target.url, target.user, target.password);
  const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`
    .toUpperCase();
  const project = `MCP${run}`;
  const repo = "review-loop";
  await admin.send("POST", "/rest/api/latest/projects", {
    json: { key: project, name: `bitbucket-mcp e2e ${run}` },
  });
  await admin.send("POST", `/rest/api/latest/projects/${project}/repos`, {
    json: { name: repo, scmId: "git", defaultBranch: BASE_BRANCH },
  });
  const baseCommit = await commitFile(admin, project, repo, {
    branch: BASE_BRANCH,
    content: fileText(BASE_LINES),
    message: "Add the greeting",
  });

  const name = `reviewer-${run.toLowerCase()}`;
  const password = crypto.randomUUID();
  await admin.send("POST", "/rest/api/latest/admin/users", undefined, {
    name,
    password,
    displayName: `Reviewer ${run}`,
    emailAddress: `${name}@example.com`,
    addToDefaultGroup: "true",
  });
  await admin.send("PUT", `/rest/api/latest/projects/${project}/permissions/users`, undefined, {
    name,
    permission: "PROJECT_WRITE",
  });
  const self = new DataCenterRest(target.url, name, password);
  const { token } = await self.send<{ token: string }>(
    "PUT",
    `/rest/access-tokens/latest/users/${name}`,
    { json: { name: "bitbucket-mcp e2e", permissions: ["PROJECT_READ", "REPO_WRITE"] } },
  );
  return { project, repo, baseCommit, reviewer: { name, token } };
}

/** A pull request one test works on, alone: its own branch, off the base branch. */
export interface OpenedPullRequest {
  id: number;
  title: string;
  branch: string;
  /** The branch's head commit when the pull request was opened. */
  head: string;
}

/**
 * As the administrator: a branch `branch` off the base branch that appends
 * {@link ADDED_LINES} to the file, and a pull request from it into the base
 * branch with the seeded reviewer as its reviewer.
 */
export async function openPullRequest(
  target: DataCenterTarget,
  seeded: Seeded,
  branch: string,
  title: string,
): Promise<OpenedPullRequest> {
  const admin = new DataCenterRest(target.url, target.user, target.password);
  const { project, repo } = seeded;
  const head = await commitFile(admin, project, repo, {
    branch,
    from: BASE_BRANCH,
    parent: seeded.baseCommit,
    content: fileText(BRANCH_LINES),
    message: "Say goodbye too",
  });
  const ref = (id: string) => ({
    id: `refs/heads/${id}`,
    repository: { slug: repo, project: { key: project } },
  });
  const pr = await admin.send<{ id: number }>(
    "POST",
    `/rest/api/latest/projects/${project}/repos/${repo}/pull-requests`,
    {
      json: {
        title,
        description: "Opened by the end-to-end suite.",
        fromRef: ref(branch),
        toRef: ref(BASE_BRANCH),
        reviewers: [{ user: { name: seeded.reviewer.name } }],
      },
    },
  );
  return { id: pr.id, title, branch, head };
}

/** One comment as Bitbucket stores it: the fields the tests read. */
export interface StoredComment {
  id: number;
  text: string;
  state?: string;
  anchor?: {
    path?: string;
    line?: number;
    lineType?: string;
    multilineMarker?: { startLine: number; startLineType?: string };
    multilineSpan?: {
      dstSpanStart?: number;
      dstSpanEnd?: number;
      srcSpanStart?: number;
      srcSpanEnd?: number;
    };
  };
}

/** The REST path of a pull request, or of something under it. */
export function prRestPath(seeded: Seeded, id: number, rest = ""): string {
  return `/rest/api/latest/projects/${seeded.project}/repos/${seeded.repo}/pull-requests/${id}${rest}`;
}

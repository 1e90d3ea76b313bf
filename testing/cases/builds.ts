/**
 * The builds domain's contract cases: the fixture routes the build and Code
 * Insights tools (src/tools/builds/) are answered from, and each tool's
 * contract arguments with the requests they must produce.
 */
import type { DomainCases } from "./types.ts";

const REPO = "/api/latest/projects/PROJ/repos/web";
/** The commit with three builds (one failed) and a Code Insights report. */
export const BUILT = "8d51122def5632836d1cb1026e879069e10a1e13";
/** The head commit of pull request #42 (feature/login): two successful builds. */
export const PR_42_HEAD = "a3c7e0f4b9d2e1f08c6b5a4d3e2f1a0b9c8d7e6f";

/** Fixtures and contract entries for src/tools/builds/builds.ts. */
/** The first finding of fixtures' code insights annotations, as list_code_insights_annotations gives it. */
export const FIRST_ANNOTATION = {
  reportKey: "com.example.sonar",
  path: "src/login/validate.ts",
  line: 3,
  severity: "HIGH",
  type: "VULNERABILITY",
  message: "A minimum password length of 1 accepts any single character; raise it.",
  link: "https://sonar.example.com/project/issues?id=web&open=AZK3-web-1",
};

/** Where the Code Insights report com.example.lint of {@link BUILT} is written. */
export const LINT_REPORT =
  `/insights/latest/projects/PROJ/repos/web/commits/${BUILT}/reports/com.example.lint`;

export const builds: DomainCases = {
  routes: [
    {
      method: "GET",
      path: `/build-status/latest/commits/${BUILT}`,
      fixture: "builds/build-statuses.json",
    },
    {
      method: "GET",
      path: `/build-status/latest/commits/${PR_42_HEAD}`,
      fixture: "builds/build-statuses-pr-42.json",
    },
    {
      method: "GET",
      path: `/build-status/latest/commits/stats/${BUILT}`,
      fixture: "builds/build-stats.json",
    },
    {
      method: "GET",
      path: `/build-status/latest/commits/stats/${PR_42_HEAD}`,
      fixture: "builds/build-stats-pr-42.json",
    },
    {
      method: "GET",
      path: "/required-builds/latest/projects/PROJ/repos/web/conditions",
      fixture: "builds/required-builds.json",
    },
    {
      method: "GET",
      path: `/insights/latest/projects/PROJ/repos/web/commits/${BUILT}/reports`,
      fixture: "builds/insights-reports.json",
    },
    {
      method: "GET",
      path: `/insights/latest/projects/PROJ/repos/web/commits/${PR_42_HEAD}/annotations`,
      fixture: "builds/insights-annotations.json",
    },
    // An abbreviated id is looked up before a repository-scoped build or insights call.
    { method: "GET", path: `${REPO}/commits/8d51122def5`, fixture: "commits/commit.json" },
    { method: "POST", path: `${REPO}/commits/${BUILT}/builds`, status: 204 },
    // Code Insights writes: the report com.example.lint on the built commit.
    {
      method: "PUT",
      path: LINT_REPORT,
      fixture: "builds/insights-report-created.json",
    },
    { method: "POST", path: `${LINT_REPORT}/annotations`, status: 204 },
    { method: "DELETE", path: LINT_REPORT, status: 204 },
    // No status stored under the key yet (set_build_status reads it before asking).
    {
      method: "GET",
      path: `${REPO}/commits/${BUILT}/builds`,
      status: 404,
      fixture: "errors/build-status-not-found.json",
    },
  ],
  toolArguments: {
    list_code_insights_annotations: {
      args: { project: "PROJ", repo: "web", commit_id: PR_42_HEAD },
      requests: [{
        method: "GET",
        path: `/insights/latest/projects/PROJ/repos/web/commits/${PR_42_HEAD}/annotations`,
        query: {},
      }],
    },
    get_build_status: {
      args: { commit_id: BUILT },
      requests: [{
        method: "GET",
        path: `/build-status/latest/commits/${BUILT}`,
        query: { start: "0", limit: "25" },
      }],
    },
    get_build_summary: {
      args: { commit_id: BUILT },
      requests: [{ method: "GET", path: `/build-status/latest/commits/stats/${BUILT}`, query: {} }],
    },
    list_required_builds: {
      args: { project: "PROJ", repo: "web", limit: 10 },
      requests: [{
        method: "GET",
        path: "/required-builds/latest/projects/PROJ/repos/web/conditions",
        query: { start: "0", limit: "10" },
      }],
    },
    list_code_insights_reports: {
      args: { project: "PROJ", repo: "web", commit_id: BUILT },
      requests: [{
        method: "GET",
        path: `/insights/latest/projects/PROJ/repos/web/commits/${BUILT}/reports`,
        query: { start: "0", limit: "25" },
      }],
    },
    create_code_insights_report: {
      args: {
        project: "PROJ",
        repo: "web",
        commit_id: "8d51122def5",
        report_key: "com.example.lint",
        title: "ESLint",
        result: "fail",
        details: "2 problems on lines this commit changed.",
        reporter: "ESLint 9.15",
        link: "https://ci.example.com/job/web-lint/311/eslint/",
        data: {
          Errors: 1,
          Warnings: 1,
          "Full report": "https://ci.example.com/job/web-lint/311/eslint/",
        },
      },
      requests: [
        { method: "GET", path: `${REPO}/commits/8d51122def5`, query: {} },
        {
          method: "PUT",
          path: LINT_REPORT,
          query: {},
          body: {
            title: "ESLint",
            result: "FAIL",
            details: "2 problems on lines this commit changed.",
            reporter: "ESLint 9.15",
            link: "https://ci.example.com/job/web-lint/311/eslint/",
            data: [
              { title: "Errors", type: "NUMBER", value: 1 },
              { title: "Warnings", type: "NUMBER", value: 1 },
              {
                title: "Full report",
                type: "LINK",
                value: {
                  linktext: "https://ci.example.com/job/web-lint/311/eslint/",
                  href: "https://ci.example.com/job/web-lint/311/eslint/",
                },
              },
            ],
          },
        },
      ],
    },
    add_code_insights_annotations: {
      args: {
        project: "PROJ",
        repo: "web",
        commit_id: "8d51122def5",
        report_key: "com.example.lint",
        annotations: [{
          path: "src/login/validate.ts",
          line: 3,
          message: "'minLength' is assigned a value but never used.",
          severity: "low",
          type: "code smell",
          link: "https://eslint.org/docs/latest/rules/no-unused-vars",
          external_id: "no-unused-vars:3",
        }],
      },
      requests: [
        { method: "GET", path: `${REPO}/commits/8d51122def5`, query: {} },
        {
          method: "POST",
          path: `${LINT_REPORT}/annotations`,
          query: {},
          body: {
            annotations: [{
              path: "src/login/validate.ts",
              line: 3,
              message: "'minLength' is assigned a value but never used.",
              severity: "LOW",
              type: "CODE_SMELL",
              link: "https://eslint.org/docs/latest/rules/no-unused-vars",
              externalId: "no-unused-vars:3",
            }],
          },
        },
      ],
    },
    delete_code_insights_report: {
      args: {
        project: "PROJ",
        repo: "web",
        commit_id: "8d51122def5",
        report_key: "com.example.lint",
      },
      requests: [
        { method: "GET", path: `${REPO}/commits/8d51122def5`, query: {} },
        { method: "DELETE", path: LINT_REPORT, query: {} },
      ],
    },
    set_build_status: {
      args: {
        project: "PROJ",
        repo: "web",
        commit_id: BUILT,
        key: "web-ci",
        state: "successful",
        url: "https://ci.example.com/job/web-ci/1842/",
        name: "Unit tests",
        description: "134 tests passed",
        build_number: "1842",
      },
      requests: [{
        method: "POST",
        path: `${REPO}/commits/${BUILT}/builds`,
        query: {},
        body: {
          key: "web-ci",
          state: "SUCCESSFUL",
          url: "https://ci.example.com/job/web-ci/1842/",
          name: "Unit tests",
          description: "134 tests passed",
          buildNumber: "1842",
        },
      }],
    },
  },
};

/**
 * Code Insights, read and written: the reports on a commit and their
 * annotations, and what an analysis tool posts (a report, its annotations,
 * deleting it); a required report feeds a merge check.
 */
import { z } from "../../deps/zod.ts";
import { fullCommitId } from "../../bitbucket/commits.ts";
import { InsightAnnotations, InsightReport } from "../../bitbucket/entities/insights.ts";
import { BitbucketError } from "../../bitbucket/transport/errors.ts";
import { apiPath } from "../../bitbucket/transport/path.ts";
import { quotedId, visibleId } from "../../bitbucket/text/visible_id.ts";
import {
  choiceArg,
  CommitIdArg,
  defineListTool,
  defineTool,
  identifierArg,
  InsightReportOut,
  insightReportOut,
  nameArg,
  pagedResult,
  pathArg,
  READ_ONLY,
  RepoArgs,
  safeWrite,
  segmentArg,
} from "../kit/mod.ts";
import { AnnotationOut, annotationOut, SEVERITIES } from "./_annotation_shape.ts";

const ReportArgs = RepoArgs.extend({ commit_id: CommitIdArg, report_key: segmentArg() });
const MERGE_CHECKS = "a report a merge check requires can block or allow merges";

/** The REST path of one report, or of what follows it (`/annotations`). */
function reportPath(project: string, repo: string, commitId: string, key: string): string {
  return apiPath`/insights/latest/projects/${project}/repos/${repo}/commits/${commitId}/reports/${key}`;
}

/**
 * Sends a write to a report, turning Bitbucket's refusal of a report created
 * by someone else (a 401 or 403 naming AuthorisationException, as the 9.4
 * spec documents for a non-author) and of a missing report into fixes.
 */
async function reportWrite<T>(
  action: string,
  key: string,
  write: () => Promise<T>,
  missing = "check the commit id",
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof BitbucketError)) throw error;
    const denied = (error.status === 401 || error.status === 403) &&
      error.details.some((d) => /\.AuthorisationException$/.test(d.exceptionName ?? ""));
    if (denied) {
      throw error.during(
        action,
        `only the user that created report ${
          quotedId(key)
        } may change it (deleting also takes repository admin): it may be another app's; use a key of your own, e.g. com.example.lint`,
      );
    }
    if (error.kind === "not_found") throw error.during(action, missing);
    throw error;
  }
}

/**
 * A report's data as Bitbucket takes it (at most 6, RestInsightReportData),
 * each typed by its value: a number, a boolean, an http(s) URL as a LINK, or text.
 */
function reportData(data: Record<string, string | number | boolean>) {
  return Object.entries(data).map(([title, value]) => {
    if (typeof value === "number") return { title, type: "NUMBER", value };
    if (typeof value === "boolean") return { title, type: "BOOLEAN", value };
    if (/^https?:\/\//i.test(value)) {
      return { title, type: "LINK", value: { linktext: value, href: value } };
    }
    return { title, type: "TEXT", value };
  });
}

export const listCodeInsightsReports = defineListTool({
  name: "list_code_insights_reports",
  defaultFor: "checks",
  reach: "repository",
  title: "List Code Insights reports",
  description: "Code Insights reports on a commit: analysis, coverage, scans.",
  access: READ_ONLY,
  input: RepoArgs.extend({ commit_id: CommitIdArg }),
  key: "reports",
  item: InsightReportOut,
  entity: InsightReport,
  map: insightReportOut,
  async request({ project, repo, commit_id }, { bitbucket }) {
    const commitId = await fullCommitId(bitbucket, project, repo, commit_id);
    return {
      path: apiPath`/insights/latest/projects/${project}/repos/${repo}/commits/${commitId}/reports`,
    };
  },
});

export const listCodeInsightsAnnotations = defineListTool({
  name: "list_code_insights_annotations",
  defaultFor: "checks",
  reach: "repository",
  title: "List Code Insights annotations",
  description: "Code analysis findings on a commit's lines.",
  access: READ_ONLY,
  input: RepoArgs.extend({
    commit_id: CommitIdArg,
    report_key: nameArg().optional(),
    path: pathArg("Only this file").optional(),
    severity: choiceArg(SEVERITIES, "Only this severity").optional(),
  }),
  key: "annotations",
  item: AnnotationOut,
  async handler(args, { bitbucket }) {
    const { project, repo, report_key, path, severity, limit, start = 0 } = args;
    const commitId = await fullCommitId(bitbucket, project, repo, args.commit_id);
    const { body } = await bitbucket.request({
      path:
        apiPath`/insights/latest/projects/${project}/repos/${repo}/commits/${commitId}/annotations`,
      query: { key: report_key, path, severity },
      schema: InsightAnnotations,
    });
    // One unpaged list: paged and filtered here (a server may ignore a filter).
    const all = body.annotations.filter((a) =>
      (report_key === undefined || a.reportKey === report_key) &&
      (path === undefined || a.path === path) &&
      (severity === undefined || a.severity?.toUpperCase() === severity)
    );
    const values = all.slice(start, start + limit);
    const more = start + values.length < all.length;
    return pagedResult(
      "annotations",
      more
        ? { values, isLastPage: false, nextPageStart: start + values.length }
        : { values, isLastPage: true },
      annotationOut,
    );
  },
});

export const createCodeInsightsReport = defineTool({
  name: "create_code_insights_report",
  reach: "repository",
  title: "Create a Code Insights report",
  description: "Create or replace a commit's Code Insights report.",
  access: safeWrite(
    `adds or replaces only the caller's own report and changes no code, but ${MERGE_CHECKS}`,
  ),
  idempotent: true,
  input: ReportArgs.extend({
    title: z.string().min(1).max(450),
    result: choiceArg(["PASS", "FAIL"], "Verdict").optional(),
    details: z.string().max(2000).optional(),
    data: z.object({}).catchall(z.union([z.string(), z.number(), z.boolean()]))
      .refine((d) => Object.keys(d).length <= 6, "at most 6 entries").optional()
      .describe("Title to value; an http(s) URL is a link"),
    reporter: z.string().max(450).optional(),
    link: z.string().max(2000).optional(),
  }),
  output: z.object({ report: InsightReportOut.describe("The report as stored") }),
  async handler(args, { bitbucket }) {
    const { project, repo, report_key, title, result, details, reporter, link } = args;
    const action = `create Code Insights report ${JSON.stringify(report_key)}`;
    const data = reportData(args.data ?? {});
    const commitId = await fullCommitId(bitbucket, project, repo, args.commit_id);
    const { body } = await reportWrite(action, report_key, () =>
      bitbucket.request({
        method: "PUT",
        path: reportPath(project, repo, commitId, report_key),
        schema: InsightReport,
        body: { title, result, details, reporter, link, data },
      }));
    return { report: insightReportOut(body) };
  },
});

const TYPES = ["BUG", "CODE_SMELL", "VULNERABILITY"] as const;

export const addCodeInsightsAnnotations = defineTool({
  name: "add_code_insights_annotations",
  reach: "repository",
  title: "Add Code Insights annotations",
  description: "Add line findings to a Code Insights report.",
  access: safeWrite(
    `adds findings to the caller's own report and changes no code, but ${MERGE_CHECKS}`,
  ),
  input: ReportArgs.extend({
    annotations: z.array(z.object({
      message: z.string().min(1).max(2000),
      severity: choiceArg(SEVERITIES, "Severity"),
      path: identifierArg(z.string()).optional(),
      line: z.number().int().optional(),
      type: choiceArg(TYPES, "Type").optional(),
      link: z.string().optional(),
      external_id: z.string().optional(),
    })).min(1),
  }),
  output: z.object({
    annotationsAdded: z.object({
      reportKey: z.string(),
      commitId: z.string(),
      count: z.number().int(),
    }),
  }),
  async handler({ project, repo, commit_id, report_key, annotations }, { bitbucket }) {
    const commitId = await fullCommitId(bitbucket, project, repo, commit_id);
    await reportWrite(
      `add annotations to Code Insights report ${JSON.stringify(report_key)}`,
      report_key,
      () =>
        bitbucket.request({
          method: "POST",
          path: reportPath(project, repo, commitId, report_key) + "/annotations",
          schema: z.unknown(),
          body: {
            annotations: annotations.map(({ external_id, ...a }) => ({
              ...a,
              externalId: external_id,
            })),
          },
        }),
      "check the commit id; the report must exist first (create_code_insights_report)",
    );
    return {
      annotationsAdded: { reportKey: visibleId(report_key), commitId, count: annotations.length },
    };
  },
});

export const deleteCodeInsightsReport = defineTool({
  name: "delete_code_insights_report",
  reach: "repository",
  title: "Delete a Code Insights report",
  description: "Delete a commit's Code Insights report and its annotations.",
  access: safeWrite(
    `removes only a report (the caller's own, or as an admin), which its tool can post again; ${MERGE_CHECKS}`,
  ),
  idempotent: true,
  input: ReportArgs,
  output: z.object({ deleted: z.object({ reportKey: z.string(), commitId: z.string() }) }),
  async handler({ project, repo, commit_id, report_key }, { bitbucket }) {
    const commitId = await fullCommitId(bitbucket, project, repo, commit_id);
    await reportWrite(
      `delete Code Insights report ${JSON.stringify(report_key)}`,
      report_key,
      () =>
        bitbucket.request({
          method: "DELETE",
          path: reportPath(project, repo, commitId, report_key),
          schema: z.unknown(),
        }),
      "check the commit id and report key (list_code_insights_reports lists them)",
    );
    return { deleted: { reportKey: visibleId(report_key), commitId } };
  },
});

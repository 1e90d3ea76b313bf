/** Code Insights reports and annotations on a commit, as Bitbucket sends them. */
import { z } from "../../deps/zod.ts";

/**
 * One datum of a Code Insights report (RestInsightReportData). `value`'s shape
 * follows `type`: a number for NUMBER, PERCENTAGE, DATE (epoch ms) and DURATION (ms),
 * a boolean for BOOLEAN, a string for TEXT, `{ linktext, href }` for LINK.
 */
export const InsightReportData = z.object({
  title: z.string(),
  type: z.string().optional(), // BOOLEAN, DATE, DURATION, LINK, NUMBER, PERCENTAGE or TEXT
  value: z.unknown(),
});

/** A Code Insights report on a commit (RestInsightReport), without its logo. */
export const InsightReport = z.object({
  key: z.string(),
  title: z.string(),
  result: z.string().optional(), // PASS or FAIL; absent when the report has no verdict
  reporter: z.string().optional(),
  link: z.string().optional(),
  details: z.string().optional(),
  createdDate: z.number().optional(),
  data: z.array(InsightReportData).default([]),
});

/** One line-level finding of a Code Insights report (RestInsightAnnotation). */
export const InsightAnnotation = z.object({
  reportKey: z.string().optional(),
  externalId: z.string().optional(),
  path: z.string().optional(), // absent for a finding on the whole commit
  line: z.number().int().optional(), // 0 or absent for a finding on the whole file
  severity: z.string().optional(), // LOW, MEDIUM or HIGH
  type: z.string().optional(), // BUG, CODE_SMELL or VULNERABILITY
  message: z.string(),
  link: z.string().optional(),
});

/** The annotations of a commit or report (RestInsightAnnotationsResponse): one list, not paged. */
export const InsightAnnotations = z.object({
  totalCount: z.number().int().optional(),
  annotations: z.array(InsightAnnotation).default([]),
});

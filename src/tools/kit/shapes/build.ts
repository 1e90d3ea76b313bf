/** Build statuses, required builds and Code Insights reports as tools return them. */
import { z } from "../../../deps/zod.ts";
import type {
  BuildStatus,
  RefMatcher,
  RequiredBuildCondition,
} from "../../../bitbucket/entities/build.ts";
import type { InsightReport } from "../../../bitbucket/entities/insights.ts";
import { cleanText } from "../../../bitbucket/text/untrusted_text.ts";
import { visibleId } from "../../../bitbucket/text/visible_id.ts";
import { DateOut, isoDate } from "./date.ts";

/** A build status on a commit. */
export const BuildStatusOut = z.object({
  key: z.string().describe("Build key, unique per commit"),
  state: z.string().describe("SUCCESSFUL, FAILED, INPROGRESS, CANCELLED or UNKNOWN"),
  name: z.string().optional(),
  url: z.string().optional().describe("The build's page in the CI tool"),
  description: z.string().optional(),
  ref: z.string().optional().describe("Ref the build ran for, e.g. refs/heads/main"),
  buildNumber: z.string().optional(),
  parent: z.string().optional().describe("Key of the plan or job that ran this build"),
  duration: z.number().int().optional().describe("Milliseconds"),
  testResults: z.object({
    successful: z.number().int().optional(),
    failed: z.number().int().optional(),
    skipped: z.number().int().optional(),
  }).optional(),
  createdDate: DateOut.optional(),
  updatedDate: DateOut.optional(),
});

/** Trims a Bitbucket build status to {@link BuildStatusOut}. */
export function buildStatusOut(
  status: z.infer<typeof BuildStatus>,
): z.infer<typeof BuildStatusOut> {
  const { key, state, name, url, description, ref, buildNumber, parent, duration } = status;
  const tests = status.testResults;
  return {
    key: visibleId(key),
    state,
    name: cleanText(name),
    url: visibleId(url),
    description: cleanText(description),
    ref: visibleId(ref),
    buildNumber: visibleId(buildNumber),
    parent: visibleId(parent),
    duration,
    testResults: tests && {
      successful: tests.successful,
      failed: tests.failed,
      skipped: tests.skipped,
    },
    createdDate: isoDate(status.createdDate),
    updatedDate: isoDate(status.updatedDate),
  };
}

/** A ref matcher: its kind flattened to the kind's id. */
export const RefMatcherOut = z.object({
  type: z.string().describe("ANY_REF, BRANCH, PATTERN, MODEL_CATEGORY or MODEL_BRANCH"),
  id: z.string(),
  displayId: z.string(),
});

/** Flattens a Bitbucket ref matcher to {@link RefMatcherOut}. */
export function refMatcherOut(
  matcher: z.infer<typeof RefMatcher>,
): z.infer<typeof RefMatcherOut> {
  return {
    type: matcher.type.id,
    id: visibleId(matcher.id),
    displayId: visibleId(matcher.displayId),
  };
}

/** A required-builds merge check. */
export const RequiredBuildOut = z.object({
  id: z.number().int(),
  buildParentKeys: z.array(z.string()).describe("Build keys that must be green to merge"),
  refMatcher: RefMatcherOut.describe("Target branches the check applies to"),
  exemptRefMatcher: RefMatcherOut.optional().describe("Source branches exempt from the check"),
});

/** Trims a required-builds condition to {@link RequiredBuildOut}. */
export function requiredBuildOut(
  condition: z.infer<typeof RequiredBuildCondition>,
): z.infer<typeof RequiredBuildOut> {
  const exempt = condition.exemptRefMatcher;
  return {
    id: condition.id,
    buildParentKeys: condition.buildParentKeys.map((key) => visibleId(key)),
    refMatcher: refMatcherOut(condition.refMatcher),
    exemptRefMatcher: exempt ? refMatcherOut(exempt) : undefined,
  };
}

/** A LINK datum's value. */
const InsightLinkOut = z.object({ linktext: z.string().optional(), href: z.string().optional() });

/** A Code Insights report on a commit, without its logo. */
export const InsightReportOut = z.object({
  key: z.string(),
  title: z.string(),
  result: z.string().optional().describe("PASS or FAIL; absent when the report has no verdict"),
  reporter: z.string().optional(),
  link: z.string().optional(),
  details: z.string().optional(),
  createdDate: DateOut.optional(),
  data: z.array(z.object({
    title: z.string(),
    type: z.string().optional().describe(
      "BOOLEAN, DATE, DURATION, LINK, NUMBER, PERCENTAGE or TEXT",
    ),
    value: z.union([z.string(), z.number(), z.boolean(), InsightLinkOut]).describe(
      "As type says; LINK is { linktext, href }, DATE ISO 8601",
    ),
  })),
});

/** Trims a Code Insights report to {@link InsightReportOut}. */
export function insightReportOut(
  report: z.infer<typeof InsightReport>,
): z.infer<typeof InsightReportOut> {
  const { key, title, result, reporter, link, details, createdDate } = report;
  const data = report.data.map((d) => ({
    title: cleanText(d.title),
    type: d.type,
    value: insightValue(d.type, d.value),
  }));
  return {
    key: visibleId(key),
    title: cleanText(title),
    result,
    reporter: cleanText(reporter),
    link: visibleId(link),
    details: cleanText(details),
    createdDate: isoDate(createdDate),
    data,
  };
}

/**
 * A report datum's value: text cleaned (a LINK's text too, its address made
 * visible), a DATE as ISO 8601; anything else Bitbucket sends (a null, a
 * list) as its JSON text, cleaned, so the value keeps to its published types.
 */
function insightValue(
  type: string | undefined,
  value: unknown,
): z.infer<typeof InsightReportOut>["data"][number]["value"] {
  if (typeof value === "string") return cleanText(value);
  if (type === "DATE" && typeof value === "number") return isoDate(value);
  if (typeof value === "number" || typeof value === "boolean") return value;
  if (type === "LINK" && typeof value === "object" && value !== null && !Array.isArray(value)) {
    const { linktext, href } = value as Record<string, unknown>;
    return {
      linktext: typeof linktext === "string" ? cleanText(linktext) : undefined,
      href: typeof href === "string" ? visibleId(href) : undefined,
    };
  }
  return cleanText(JSON.stringify(value) ?? "null");
}

/**
 * The `builds` toolset: build statuses, required builds, Code Insights. Its tools, in `tools/list` order; listing
 * a tool here puts it in this toolset.
 */
import { defineToolset, type Toolset } from "../kit/mod.ts";
import { getBuildStatus, getBuildSummary, listRequiredBuilds, setBuildStatus } from "./builds.ts";
import {
  addCodeInsightsAnnotations,
  createCodeInsightsReport,
  deleteCodeInsightsReport,
  listCodeInsightsAnnotations,
  listCodeInsightsReports,
} from "./insights.ts";

/** The `builds` toolset. */
export const BUILDS: Toolset = defineToolset({
  name: "builds",
  description: "build statuses, required builds, Code Insights",
  tools: [
    getBuildStatus,
    getBuildSummary,
    listRequiredBuilds,
    listCodeInsightsReports,
    listCodeInsightsAnnotations,
    createCodeInsightsReport,
    addCodeInsightsAnnotations,
    deleteCodeInsightsReport,
    setBuildStatus,
  ],
});

import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import type { Branch } from "./graph";
import "./texts";

/** The branches the canvas words itself; any other is a switch's case, named by its author. */
const worded = new Set<string>(["", "true", "false", "timeout", "default", "error", "each", "done", "approved", "rejected"]);

/** useBranchLabel names a branch in the person's language: "true", "on error", or a
 * switch case's own name. */
export function useBranchLabel(): (branch: Branch) => string {
  const { t } = useTranslation("canvas");
  return useCallback((branch: Branch) => (worded.has(branch) ? t(`branch_${branch}` as "branch_") : branch), [t]);
}

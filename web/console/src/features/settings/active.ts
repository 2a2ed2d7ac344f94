import { useCompanies, useWorkspace } from "../workspace/workspace";
import type { Role } from "./company";

/** Active is the company and project the settings pages work on, and the person's role in
 * that company; empty while the person has chosen none. */
export type Active = { companyId: string; projectId: string; role: Role | undefined; pending: boolean; error: unknown };

/** useActive is the workspace the header's switcher chose, as the settings pages need it. */
export function useActive(): Active {
  const workspace = useWorkspace();
  const companies = useCompanies();
  const companyId = workspace.data?.active_company_id ?? "";
  return {
    companyId,
    projectId: workspace.data?.active_project_id ?? "",
    role: companies.data?.items.find((c) => c.company_id === companyId)?.role,
    pending: workspace.isPending || companies.isPending,
    error: workspace.error ?? companies.error,
  };
}

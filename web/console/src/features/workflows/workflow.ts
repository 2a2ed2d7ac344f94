import { useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";

export const workflowKey = (workflowId: string) => ["workflows", workflowId] as const;

/** useWorkflow is one workflow with its draft and the draft's diagnostics. */
export function useWorkflow(workflowId: string) {
  return useQuery({
    queryKey: workflowKey(workflowId),
    queryFn: () => data(api.GET("/api/v1/workflows/{workflow_id}", { params: { path: { workflow_id: workflowId } } })),
  });
}

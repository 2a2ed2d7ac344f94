// The approval.wait approvals: a run's (GET /runs/{id}/approvals), what waits for the
// signed-in person (GET /approvals), deciding as a member, and the signed link's page, all
// through the query cache.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import type { components } from "../../api/schema.gen";

export type Approval = components["schemas"]["ApprovalView"];
export type ApprovalLink = components["schemas"]["ApprovalLinkView"];
export type DecisionBody = components["schemas"]["ApprovalDecision"];

export const approvalsKey = ["approvals"] as const;
const runApprovalsKey = (runId: string) => ["runs", runId, "approvals"] as const;

// While a run runs, its approvals are read again this often: a decision taken elsewhere (a
// link, another approver) shows without the person reloading.
const liveRefresh = 3000;

/** useRunApprovals are a run's approvals, in the order they began. */
export function useRunApprovals(runId: string, live: boolean) {
  return useQuery({
    queryKey: runApprovalsKey(runId),
    refetchInterval: live ? liveRefresh : false,
    queryFn: () => data(api.GET("/api/v1/runs/{workflow_run_id}/approvals", { params: { path: { workflow_run_id: runId } } })),
  });
}

/** useWaitingApprovals is what waits for the signed-in person's decision. */
export function useWaitingApprovals() {
  return useQuery({
    queryKey: approvalsKey,
    refetchInterval: liveRefresh,
    queryFn: () => data(api.GET("/api/v1/approvals")),
  });
}

/** useDecide decides an approval as the signed-in member. */
export function useDecide(approvalId: string, runId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: DecisionBody) =>
      data(api.POST("/api/v1/approvals/{approval_id}/decision", { params: { path: { approval_id: approvalId } }, body })),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: approvalsKey });
      void qc.invalidateQueries({ queryKey: ["runs", runId] });
    },
  });
}

const linkKey = (approvalId: string, token: string) => ["approval-links", approvalId, token] as const;
const linkPath = (approvalId: string, token: string) => ({ params: { path: { approval_id: approvalId, token } } });

/** useApprovalLink is what a signed link decides. */
export function useApprovalLink(approvalId: string, token: string) {
  return useQuery({
    queryKey: linkKey(approvalId, token),
    retry: false,
    queryFn: () =>
      data(api.GET("/api/v1/approval-links/{approval_id}/{token}", { ...linkPath(approvalId, token), headers: { Accept: "application/json" } })),
  });
}

/** useDecideByLink decides through the signed link. */
export function useDecideByLink(approvalId: string, token: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: DecisionBody) => data(api.POST("/api/v1/approval-links/{approval_id}/{token}", { ...linkPath(approvalId, token), body })),
    onSuccess: (decided) => qc.setQueryData(linkKey(approvalId, token), decided),
  });
}

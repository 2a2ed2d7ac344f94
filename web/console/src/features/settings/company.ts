// The active company's settings: members and their roles, projects and their hook secrets,
// and the party lookup settings of the company and of a project.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import type { components } from "../../api/schema.gen";

export type Role = components["schemas"]["Role"];
export type MemberView = components["schemas"]["MemberView"];
export type InvitationView = components["schemas"]["InvitationView"];
export type ProjectView = components["schemas"]["ProjectView"];
export type PartyLookupSave = components["schemas"]["PartyLookupIntegrationSave"];

/** roles in the order of their power, strongest first. */
export const roles: readonly Role[] = ["owner", "admin", "member", "viewer"];

/** canManage: owners and admins change members, hook secrets and lookup settings. */
export const canManage = (role: Role | undefined) => role === "owner" || role === "admin";

const membersKey = (companyId: string) => ["companies", companyId, "members"] as const;

/** useMembers is the company's members; an agency has few, so one page holds them. */
export function useMembers(companyId: string) {
  return useQuery({
    queryKey: membersKey(companyId),
    queryFn: () =>
      data(api.GET("/api/v1/companies/{company_id}/members", { params: { path: { company_id: companyId }, query: { limit: 200 } } })),
  });
}

export function useAddMember(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components["schemas"]["MemberCreateRequest"]) =>
      data(api.POST("/api/v1/companies/{company_id}/members", { params: { path: { company_id: companyId } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: membersKey(companyId) }),
  });
}

export function useChangeRole(companyId: string, userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (role: Role) =>
      data(api.PATCH("/api/v1/companies/{company_id}/members/{user_id}", { params: { path: { company_id: companyId, user_id: userId } }, body: { role } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: membersKey(companyId) }),
  });
}

export function useRemoveMember(companyId: string, userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => data(api.DELETE("/api/v1/companies/{company_id}/members/{user_id}", { params: { path: { company_id: companyId, user_id: userId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: membersKey(companyId) }),
  });
}

const invitationsKey = (companyId: string) => ["companies", companyId, "invitations"] as const;

/** useInvitations is the company's open invitations; like members, one page holds them. */
export function useInvitations(companyId: string) {
  return useQuery({
    queryKey: invitationsKey(companyId),
    queryFn: () =>
      data(api.GET("/api/v1/companies/{company_id}/invitations", { params: { path: { company_id: companyId }, query: { limit: 200 } } })),
  });
}

// Without mail the answer carries the link once; gcTime 0 as for secrets.
export function useInvite(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    gcTime: 0,
    mutationFn: (body: components["schemas"]["MemberCreateRequest"]) =>
      data(api.POST("/api/v1/companies/{company_id}/invitations", { params: { path: { company_id: companyId } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationsKey(companyId) }),
  });
}

export function useRevokeInvitation(companyId: string, invitationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      data(
        api.DELETE("/api/v1/companies/{company_id}/invitations/{invitation_id}", {
          params: { path: { company_id: companyId, invitation_id: invitationId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationsKey(companyId) }),
  });
}

const projectsKey = (companyId: string) => ["companies", companyId, "projects"] as const;

export function useRenameProject(project: ProjectView) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => data(api.PATCH("/api/v1/projects/{project_id}", { params: { path: { project_id: project.project_id } }, body: { name } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectsKey(project.company_id) }),
  });
}

// The new secret is in this answer only; gcTime 0 as for the other secrets.
export function useRotateHookSecret(project: ProjectView) {
  const queryClient = useQueryClient();
  return useMutation({
    gcTime: 0,
    mutationFn: () => data(api.POST("/api/v1/projects/{project_id}/hook-secret/rotate", { params: { path: { project_id: project.project_id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectsKey(project.company_id) }),
  });
}

/** Scope is whose party lookup settings a form edits: the company's or a project's. */
export type Scope = { kind: "company"; companyId: string } | { kind: "project"; projectId: string };

const partyLookupKey = (scope: Scope) => ["party-lookup", scope.kind === "company" ? scope.companyId : scope.projectId] as const;

export function usePartyLookupSettings(scope: Scope) {
  return useQuery({
    queryKey: partyLookupKey(scope),
    queryFn: () =>
      scope.kind === "company"
        ? data(api.GET("/api/v1/companies/{company_id}/integrations/party-lookup", { params: { path: { company_id: scope.companyId } } }))
        : data(api.GET("/api/v1/projects/{project_id}/integrations/party-lookup", { params: { path: { project_id: scope.projectId } } })),
  });
}

export function useSavePartyLookupSettings(scope: Scope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PartyLookupSave) =>
      scope.kind === "company"
        ? data(api.PUT("/api/v1/companies/{company_id}/integrations/party-lookup", { params: { path: { company_id: scope.companyId } }, body }))
        : data(api.PUT("/api/v1/projects/{project_id}/integrations/party-lookup", { params: { path: { project_id: scope.projectId } }, body })),
    // A project's effective scope follows the company's settings too.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["party-lookup"] }),
  });
}

// The project's e-mail and message templates and the calls that change them.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import type { components } from "../../api/schema.gen";

export type EmailTemplate = components["schemas"]["EmailTemplateView"];
export type MessageTemplate = components["schemas"]["MessageTemplateView"];
export type EmailTemplateFields = components["schemas"]["EmailTemplateCreateRequest"];
export type MessageTemplateFields = components["schemas"]["MessageTemplateCreateRequest"];
export type ParseMode = NonNullable<MessageTemplateFields["parse_mode"]>;
export const parseModes: readonly ParseMode[] = ["", "HTML", "MarkdownV2", "Markdown"];

const emailKey = (projectId: string) => ["projects", projectId, "email-templates"] as const;
const messageKey = (projectId: string) => ["projects", projectId, "message-templates"] as const;

/** useEmailTemplates is the project's e-mail templates; a project has few: one page. */
export function useEmailTemplates(projectId: string) {
  return useQuery({
    queryKey: emailKey(projectId),
    queryFn: () => data(api.GET("/api/v1/projects/{project_id}/email-templates", { params: { path: { project_id: projectId }, query: { limit: 200 } } })),
  });
}

/** useMessageTemplates is the project's message templates; a project has few: one page. */
export function useMessageTemplates(projectId: string) {
  return useQuery({
    queryKey: messageKey(projectId),
    queryFn: () => data(api.GET("/api/v1/projects/{project_id}/message-templates", { params: { path: { project_id: projectId }, query: { limit: 200 } } })),
  });
}

/** useSaveEmailTemplate creates the template (no id) or changes it. */
export function useSaveEmailTemplate(projectId: string, id: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EmailTemplateFields) =>
      id
        ? data(api.PATCH("/api/v1/projects/{project_id}/email-templates/{email_template_id}", { params: { path: { project_id: projectId, email_template_id: id } }, body }))
        : data(api.POST("/api/v1/projects/{project_id}/email-templates", { params: { path: { project_id: projectId } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: emailKey(projectId) }),
  });
}

/** useSaveMessageTemplate creates the template (no id) or changes it. */
export function useSaveMessageTemplate(projectId: string, id: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MessageTemplateFields) =>
      id
        ? data(api.PATCH("/api/v1/projects/{project_id}/message-templates/{message_template_id}", { params: { path: { project_id: projectId, message_template_id: id } }, body }))
        : data(api.POST("/api/v1/projects/{project_id}/message-templates", { params: { path: { project_id: projectId } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageKey(projectId) }),
  });
}

export function useDeleteEmailTemplate(projectId: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => data(api.DELETE("/api/v1/projects/{project_id}/email-templates/{email_template_id}", { params: { path: { project_id: projectId, email_template_id: id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: emailKey(projectId) }),
  });
}

export function useDeleteMessageTemplate(projectId: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => data(api.DELETE("/api/v1/projects/{project_id}/message-templates/{message_template_id}", { params: { path: { project_id: projectId, message_template_id: id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageKey(projectId) }),
  });
}

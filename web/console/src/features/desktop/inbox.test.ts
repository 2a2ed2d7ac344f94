import { describe, expect, it } from "vitest";
import { subjectPath } from "./inbox";

describe("subjectPath", () => {
  const project = "7d0f6a7e-3c1b-4d8e-9a55-2f0c1e9b4a10";
  it("opens the page of each subject the console shows", () => {
    expect(subjectPath({ subject_type: "workflow_run", subject_id: "r1", project_id: project })).toBe("/runs/r1");
    expect(subjectPath({ subject_type: "task", subject_id: "t1", project_id: null })).toBe("/work/tasks/t1");
    expect(subjectPath({ subject_type: "payment_action", subject_id: "p1", project_id: project })).toBe("/payment-actions/p1");
    expect(subjectPath({ subject_type: "site_chat_conversation", subject_id: "c1", project_id: project })).toBe(
      "/site-chat/conversations/c1",
    );
    expect(subjectPath({ subject_type: "ai_tool_call", subject_id: "a1", project_id: project })).toBe(
      `/projects/${project}/ai?tool_call_id=a1`,
    );
  });
  it("opens nothing for a message about nothing, or about what it cannot place", () => {
    expect(subjectPath({ subject_type: "", subject_id: "", project_id: null })).toBeUndefined();
    expect(subjectPath({ subject_type: "ai_tool_call", subject_id: "a1", project_id: null })).toBeUndefined();
    expect(subjectPath({ subject_type: "something_new", subject_id: "x", project_id: project })).toBeUndefined();
  });
  it("keeps an id inside its path segment", () => {
    expect(subjectPath({ subject_type: "task", subject_id: "../settings", project_id: null })).toBe("/work/tasks/..%2Fsettings");
  });
});

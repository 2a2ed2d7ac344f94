// Saving the draft: explicitly and ~2 s after the last change, one save at a time, each
// conditional on the revision this editor last saw (If-Match), so a save made elsewhere in
// between is a conflict the person resolves, never something silently overwritten.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { api, data, ProblemError } from "../../api/client";
import { workflowKey } from "../workflows/workflow";
import type { Draft } from "./document";

export const AUTOSAVE_DELAY = 2000;

export type SaveState = "saved" | "saving" | "unsaved" | "failed" | "conflict";

function putDraft(workflowId: string, draft: Draft, revision: number) {
  return data(
    api.PUT("/api/v1/workflows/{workflow_id}/draft", {
      params: { path: { workflow_id: workflowId }, header: { "If-Match": `"${revision}"` } },
      body: {
        actions: draft.actions,
        connections: draft.connections,
        test_input_json: draft.test_input_json,
        change_description: draft.change_description,
      },
    }),
  );
}

/** useDraftSave saves `present`; `loaded` is the draft as loaded, at `loadedRevision`. */
export function useDraftSave(workflowId: string, present: Draft, loaded: Draft, loadedRevision: number) {
  const queryClient = useQueryClient();
  // What the server holds: the draft last loaded or saved.
  const [saved, setSaved] = useState(loaded);
  // Its revision, and whether a save is in flight, as of now rather than of the last
  // render: a click landing between an autosave's start (or end) and the render that
  // follows must neither send a second save nor one at the revision the first replaced.
  const latest = useRef({ revision: loadedRevision, inFlight: false });
  // A draft whose save failed is not tried again by autosave until it changes.
  const [failed, setFailed] = useState<Draft>();
  // Only the server's 409 makes a conflict: a newer revision read in between (on focus,
  // say) may be this editor's own save, and a clean draft has nothing to lose.
  const [conflict, setConflict] = useState(false);
  const put = useMutation({
    mutationFn: ({ draft, revision }: { draft: Draft; revision: number }) => putDraft(workflowId, draft, revision),
    onSuccess: (view, { draft }) => {
      queryClient.setQueryData(workflowKey(workflowId), view);
      latest.current.revision = view.draft.revision;
      setSaved(draft);
      setFailed(undefined);
      setConflict(false);
    },
    onError: (error, { draft }) => {
      if (error instanceof ProblemError && error.status === 409) setConflict(true);
      else setFailed(draft);
    },
  });
  const saving = put.isPending;
  const dirty = present !== saved;
  const { mutateAsync } = put;

  const save = useCallback(
    async (draft: Draft = present) => {
      if (conflict || latest.current.inFlight) return false;
      if (draft === saved) return true;
      latest.current.inFlight = true;
      try {
        await mutateAsync({ draft, revision: latest.current.revision });
        return true;
      } catch {
        return false;
      } finally {
        latest.current.inFlight = false;
      }
    },
    [present, conflict, saved, mutateAsync],
  );

  useEffect(() => {
    if (!dirty || saving || conflict || present === failed) return;
    const timer = setTimeout(() => void save(present), AUTOSAVE_DELAY);
    return () => clearTimeout(timer);
  }, [present, dirty, saving, conflict, failed, save]);

  /** keepMine saves this draft over theirs: at their revision, read again now. */
  const keepMine = useCallback(async () => {
    const theirs = await queryClient.fetchQuery({
      queryKey: workflowKey(workflowId),
      queryFn: () => data(api.GET("/api/v1/workflows/{workflow_id}", { params: { path: { workflow_id: workflowId } } })),
      staleTime: 0,
    });
    setConflict(false);
    latest.current.revision = theirs.draft.revision;
    await mutateAsync({ draft: present, revision: theirs.draft.revision }).catch(() => undefined);
  }, [queryClient, workflowId, present, mutateAsync]);

  const state: SaveState = conflict ? "conflict" : saving ? "saving" : !dirty ? "saved" : present === failed ? "failed" : "unsaved";
  return { state, dirty, save, keepMine, error: failed ? put.error : null };
}

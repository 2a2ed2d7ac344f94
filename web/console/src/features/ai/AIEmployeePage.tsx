import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useParams, useSearchParams } from "react-router";
import { ProblemError } from "../../api/problem";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useDisclosure } from "../../components/useDisclosure";
import { useNarrowScreen } from "../../lib/narrowScreen";
import { useMe } from "../auth/session";
import { useRun } from "../runs/run";
import { AboutNote } from "./AboutNote";
import { openSession, sessionKey, useCancelTurn, useEmployee, useLiveTurn, useSession } from "./ai";
import { CapabilityPanel } from "./CapabilityPanel";
import { pageContext, sessionOpening, type Looking } from "./context";
import { ConversationList } from "./ConversationList";
import { MessageForm } from "./MessageForm";
import { useRecentSessions } from "./recent";
import { Transcript } from "./Transcript";
import { turnGoesOn, type Session } from "./transcript";
import "./ai.css";
import "./texts";

/** AIEmployeePage is the project's AI employee: what it can do and lacks, the person's
 * conversations, and the one on screen, whose replies stream in as they are written. The
 * address holds the conversation (`session`) and what it is about (`workflow_id`,
 * `run_id`), so a reload or a link comes back to it. On a phone what it can do and the
 * conversations open above the conversation from a button, so the message box is on the
 * first screen. */
export function AIEmployeePage() {
  const { t } = useTranslation("ai");
  const { projectId = "" } = useParams();
  const [params, setParams] = useSearchParams();
  const sessionId = params.get("session") || undefined;
  const workflowId = params.get("workflow_id") || undefined;
  const runId = params.get("run_id") || undefined;
  const queryClient = useQueryClient();
  const me = useMe().data;
  const recent = useRecentSessions(me?.user_id, projectId);
  const employee = useEmployee(projectId);
  const live = useLiveTurn(projectId);
  const session = useSession(projectId, sessionId, live.streaming);
  const runWorkflowId = useRun(runId).data?.workflow_id;
  const looking: Looking = { projectId, workflowId, runId, runWorkflowId };

  const gone = session.error instanceof ProblemError && session.error.status === 404;
  const { forget } = recent;
  useEffect(() => {
    if (gone && sessionId) forget(sessionId);
  }, [gone, sessionId, forget]);

  const setParam = useCallback(
    (change: (p: URLSearchParams) => void) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          change(next);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const send = useMutation({
    mutationFn: async (content: string) => {
      const now = new Date();
      let id = sessionId;
      if (!id) {
        id = (await openSession(queryClient, projectId, sessionOpening(looking, now))).ai_chat_session_id;
        const opened = id;
        setParam((p) => p.set("session", opened));
      }
      recent.remember(id);
      const revision = queryClient.getQueryData<Session>(sessionKey(projectId, id))?.session_revision;
      await live.send(id, { content, ...(revision ? { session_revision: revision } : {}), page_context_json: pageContext(looking, now) });
    },
    onError: (error) => {
      // A refusal for a stale revision or a busy session: read the conversation again.
      if (sessionId && error instanceof ProblemError && error.status === 409) {
        void queryClient.invalidateQueries({ queryKey: sessionKey(projectId, sessionId) });
      }
    },
  });
  const cancel = useCancelTurn(projectId, sessionId ?? "", live);

  const leave = () => {
    live.stop();
    send.reset();
    cancel.reset();
  };
  const busy = live.streaming || (!!session.data && turnGoesOn(session.data));
  const running = live.streaming || (!!session.data && session.data.status !== "idle");
  const envelope = employee.data;
  const narrow = useNarrowScreen();
  const side = useDisclosure();

  return (
    <div className="page ai-page">
      {narrow && (
        <button {...side.button} className="ai-side-toggle">
          {t("sideToggle")}
        </button>
      )}
      <div className="ai-side" {...(narrow ? { ...side.panel, hidden: !side.open } : {})}>
        <ProblemAlert error={employee.error} />
        {envelope && <CapabilityPanel envelope={envelope} />}
        <ConversationList
          projectId={projectId}
          ids={recent.ids}
          current={sessionId}
          onLeave={leave}
          onNew={() => {
            leave();
            side.close();
            setParam((p) => p.delete("session"));
          }}
          forget={forget}
        />
      </div>
      <section className="ai-chat" aria-labelledby="ai-title">
        <h1 id="ai-title">{t("title")}</h1>
        {envelope && <p className="muted ai-project">{t("projectOf", { name: envelope.project.name })}</p>}
        <AboutNote
          workflowId={workflowId}
          runId={runId}
          leaveOut={() =>
            setParam((p) => {
              p.delete("workflow_id");
              p.delete("run_id");
            })
          }
        />
        <ProblemAlert error={session.error} />
        <Transcript projectId={projectId} session={session.data} live={live} />
        <MessageForm
          send={(content) => send.mutateAsync(content)}
          sending={send.isPending}
          busy={busy}
          disabled={envelope?.capability.state === "disabled"}
          stop={running && sessionId ? () => cancel.mutate() : undefined}
          stopping={cancel.isPending}
          error={send.error ?? cancel.error}
        />
      </section>
    </div>
  );
}

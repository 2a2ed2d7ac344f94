import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useNow } from "../../lib/now";
import { useTask } from "./queries";
import { clock, elapsedSeconds } from "./time";
import { useActiveTimer, useTimerControls } from "./timer";
import "./texts";
import "./work.css";

/** TimerBadge is the header's view of the person's running timer: the task it runs on,
 * its time ticking, and a button that stops it. Nothing shows while none runs. */
export function TimerBadge() {
  const { timer, receivedAt } = useActiveTimer();
  if (!timer) return null;
  return <RunningTimer taskId={timer.task_id} elapsed={timer.elapsed_seconds} receivedAt={receivedAt} />;
}

function RunningTimer({ taskId, elapsed, receivedAt }: { taskId: string; elapsed: number; receivedAt: number }) {
  const { t } = useTranslation("work");
  const task = useTask(taskId).data;
  const { stop } = useTimerControls();
  const now = useNow(true);
  return (
    <div role="group" aria-label={t("runningTimer")} className="timer-badge">
      <span aria-hidden="true" className="timer-dot" />
      <Link to={`/work/tasks/${taskId}`}>{task?.title ?? t("task")}</Link>
      <time className="timer-clock">{clock(elapsedSeconds({ elapsed_seconds: elapsed }, receivedAt, now))}</time>
      <button type="button" onClick={() => stop.mutate()} disabled={stop.isPending}>
        {t("stopTimer")}
      </button>
    </div>
  );
}

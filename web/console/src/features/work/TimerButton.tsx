import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useNow } from "../../lib/now";
import { clock, elapsedSeconds } from "./time";
import { useActiveTimer, useTimerControls } from "./timer";
import "./texts";

/** TimerButton starts the person's timer on this task (stopping the one running elsewhere)
 * or, while it runs here, shows its time and stops it. */
export function TimerButton({ taskId }: { taskId: string }) {
  const { t } = useTranslation("work");
  const { timer, receivedAt } = useActiveTimer();
  const { start, stop } = useTimerControls();
  const runningHere = timer?.task_id === taskId;
  const now = useNow(runningHere);
  return (
    <div className="timer-button">
      {runningHere ? (
        <>
          <time className="timer-clock">{clock(elapsedSeconds(timer, receivedAt, now))}</time>
          <button type="button" onClick={() => stop.mutate()} disabled={stop.isPending}>
            {t("stopTimer")}
          </button>
        </>
      ) : (
        <button type="button" className="primary" onClick={() => start.mutate(taskId)} disabled={start.isPending}>
          {t("startTimer")}
        </button>
      )}
      <ProblemAlert error={start.error ?? stop.error} />
    </div>
  );
}

import { memo } from "react";
import { useTranslation } from "react-i18next";
import { durationMs, useRunFormat } from "./format";
import { shownStatus } from "./status";
import { StatusWord } from "./StatusWord";
import { timelineRows } from "./timeline";
import type { ActionRun, ActionWithState } from "./types";
import "./texts";

type AttemptsText = (key: "attemptsOf" | "attemptsOfRetry", o: { count: number; max: number; retry: number }) => string;

/** attempts is "n of max" of the current series, after a manual retry "retry r, attempt n of
 * max", or a dash for what is decided inside the workflow without one. */
export function attempts(receipt: ActionRun | undefined, action: ActionWithState, t: AttemptsText): string {
  const count = receipt?.attempt_count ?? action.attempt_count;
  const retry = receipt?.retry_count ?? action.retry_count ?? 0;
  const max = receipt?.max_attempts ?? action.max_attempts;
  if (count === 0) return "—";
  return t(retry > 0 ? "attemptsOfRetry" : "attemptsOf", { count, max, retry });
}

type RunTimelineProps = {
  actions: ActionWithState[];
  receipts: Map<string, ActionRun>;
  now: number;
  selected?: string;
  onSelect: (actionKey: string) => void;
};

/** RunTimeline is the run's actions along time: a table whose rows are each an action's
 * button, status, duration, attempts and bar. */
export function RunTimeline({ actions, receipts, now, selected, onSelect }: RunTimelineProps) {
  const { t } = useTranslation("runs");
  const rows = timelineRows(actions, receipts, now);
  return (
    <table className="list run-timeline">
      <caption className="visually-hidden">{t("timelineCaption")}</caption>
      <thead>
        <tr>
          <th scope="col">{t("action")}</th>
          <th scope="col">{t("status")}</th>
          <th scope="col">{t("duration")}</th>
          <th scope="col">{t("attempts")}</th>
          <th scope="col" className="timeline-bar-cell">
            {t("timeline")}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ action, receipt, bar }) => (
          <TimelineRow
            key={action.action_key}
            action={action}
            receipt={receipt}
            left={bar?.left}
            width={bar?.width}
            // Only a running action's duration follows the clock; the others stay drawn.
            now={receipt?.started_at && !receipt.finished_at ? now : 0}
            selected={action.action_key === selected}
            onSelect={onSelect}
          />
        ))}
      </tbody>
    </table>
  );
}

type TimelineRowProps = {
  action: ActionWithState;
  receipt: ActionRun | undefined;
  left?: number;
  width?: number;
  now: number;
  selected: boolean;
  onSelect: (actionKey: string) => void;
};

// Rows are drawn again only when their own action changes: a run of hundreds of actions
// sends events about a few at a time.
const TimelineRow = memo(function TimelineRow({ action, receipt, left, width, now, selected, onSelect }: TimelineRowProps) {
  const { t } = useTranslation("runs");
  const format = useRunFormat();
  const status = shownStatus(receipt?.status ?? action.status, receipt?.retry_class);
  const key = action.action_key;
  return (
    <tr className={selected ? "selected" : undefined}>
      <td>
        <button type="button" className="link" aria-pressed={selected} onClick={() => onSelect(key)}>
          {action.label || key}
        </button>
      </td>
      <td>
        <StatusWord status={status} />
      </td>
      <td>{width === undefined ? t("notRun") : format.duration(durationMs(receipt?.started_at, receipt?.finished_at, now || undefined))}</td>
      <td>{attempts(receipt, action, t)}</td>
      <td className="timeline-bar-cell" aria-hidden="true">
        {width !== undefined && <div className={`timeline-bar status-${status}`} style={{ marginLeft: `${left}%`, width: `${width}%` }} />}
      </td>
    </tr>
  );
});

import { useId, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../components/ProblemAlert";
import { Fact } from "./Fact";
import { useRunFormat } from "./format";
import { itemPreview, itemStatuses, loopCounts, useLoopItems, type ChosenItem, type ItemStatus, type LoopItem } from "./loops";
import { PayloadView } from "./PayloadView";
import { StatusWord } from "./StatusWord";
import type { ActionRun } from "./types";
import "./texts";

type LoopPanelProps = {
  runId: string;
  /** loopKey is the loop's key in the run (lines, or lines[2].parts for an inner loop). */
  loopKey: string;
  /** output is the loop action's output: its counts once every item has finished. */
  output: Record<string, unknown> | undefined;
  chosen: ChosenItem | undefined;
  onChoose: (index: number) => void;
  /** live is true while the run runs: the items are read again as they move. */
  live: boolean;
};

/** LoopPanel is a loop.for_each of the run: its counts, and its items, filtered by status
 * and paged, each chosen to see its own actions. */
export function LoopPanel({ runId, loopKey, output, chosen, onChoose, live }: LoopPanelProps) {
  const { t } = useTranslation("runs");
  const [status, setStatus] = useState<"" | ItemStatus>("");
  const items = useLoopItems(runId, loopKey, status, live);
  const counts = loopCounts(output);
  const filterId = useId();
  const titleId = useId();
  const rows = items.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section className="loop-panel" aria-labelledby={titleId}>
      <h3 id={titleId}>{t("loopItems")}</h3>
      {counts ? (
        <dl className="run-facts loop-counts">
          <Fact term={t("loopCount")}>{counts.count}</Fact>
          <Fact term={t("loopSucceeded")}>{counts.succeeded}</Fact>
          <Fact term={t("loopFailed")}>{counts.failed}</Fact>
        </dl>
      ) : (
        <p className="muted">{t("loopCountsLater")}</p>
      )}
      <div className="field loop-filter">
        <label htmlFor={filterId}>{t("itemFilter")}</label>
        <select id={filterId} value={status} onChange={(e) => setStatus(e.target.value as "" | ItemStatus)}>
          {itemStatuses.map((s) => (
            <option key={s} value={s}>
              {t(`itemStatus_${s || "all"}`)}
            </option>
          ))}
        </select>
      </div>
      <ProblemAlert error={items.error} />
      {rows.length === 0 && !items.isLoading ? (
        <p className="muted">{status ? t("noItems") : t("noItemsYet")}</p>
      ) : (
        <ItemTable rows={rows} chosen={chosen?.loop === loopKey ? chosen.index : undefined} onChoose={onChoose} />
      )}
      {items.hasNextPage && (
        <button type="button" onClick={() => void items.fetchNextPage()} disabled={items.isFetchingNextPage}>
          {t("loadMore", { ns: "common" })}
        </button>
      )}
    </section>
  );
}

/** ItemTable lists items, each row's button choosing it; Up and Down move between them. */
function ItemTable({ rows, chosen, onChoose }: { rows: LoopItem[]; chosen: number | undefined; onChoose: (index: number) => void }) {
  const { t } = useTranslation("runs");
  const move = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    const buttons = [...e.currentTarget.querySelectorAll<HTMLButtonElement>("button.item-choose")];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next = buttons[at + (e.key === "ArrowDown" ? 1 : -1)];
    if (at < 0 || !next) return;
    e.preventDefault();
    next.focus();
  };
  return (
    <table className="list loop-items">
      <caption className="visually-hidden">{t("itemsCaption")}</caption>
      <thead>
        <tr>
          <th scope="col">{t("itemIndex")}</th>
          <th scope="col">{t("status")}</th>
          <th scope="col">{t("itemValue")}</th>
        </tr>
      </thead>
      <tbody onKeyDown={move}>
        {rows.map((it) => (
          <tr key={it.item_index} className={it.item_index === chosen ? "selected" : undefined} data-item-index={it.item_index}>
            <td>
              <button type="button" className="link item-choose" aria-pressed={it.item_index === chosen} aria-label={t("itemNumber", { index: it.item_index })} onClick={() => onChoose(it.item_index)}>
                {it.item_index}
              </button>
            </td>
            <td>
              <StatusWord status={it.status} />
            </td>
            <td className="item-preview">
              <code>{itemPreview(it.item_json)}</code>
              {it.error && <div className="item-error">{it.error}</div>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type ItemDetailsProps = {
  item: LoopItem;
  loopLabel: string;
  /** labels names the body's actions as the graph does. */
  labels: Map<string, string>;
  onSelectAction: (actionKey: string) => void;
};

/** ItemDetails is one item of a loop: its status, the item, and what each of its body's
 * actions did (each chosen opens its details, as an action of the run's). */
export function ItemDetails({ item, loopLabel, labels, onSelectAction }: ItemDetailsProps) {
  const { t } = useTranslation("runs");
  const format = useRunFormat();
  const titleId = useId();
  const actions: ActionRun[] = item.actions ?? [];
  return (
    <section className="item-details" aria-labelledby={titleId}>
      <h3 id={titleId}>{t("itemTitle", { index: item.item_index, loop: loopLabel })}</h3>
      <dl className="run-facts">
        <Fact term={t("status")}>
          <StatusWord status={item.status} />
        </Fact>
        <Fact term={t("started")}>{format.date(item.started_at)}</Fact>
        <Fact term={t("finished")}>{format.date(item.finished_at)}</Fact>
        {item.failed_action_key && (
          <Fact term={t("failedAction")}>
            <code>{labels.get(item.failed_action_key) ?? item.failed_action_key}</code>
          </Fact>
        )}
        {item.error && <Fact term={t("error")}>{item.error}</Fact>}
      </dl>
      <PayloadView title={t("itemJson")} value={item.item_json} name={`item-${item.item_index}`} open />
      <h4>{t("itemActions")}</h4>
      {actions.length === 0 ? (
        <p className="muted">{t("noItemActions")}</p>
      ) : (
        <ul className="item-actions">
          {actions.map((a) => (
            <li key={a.action_key} data-action-key={a.action_key}>
              <button type="button" className="link" onClick={() => onSelectAction(a.action_key)}>
                {labels.get(a.action_key) ?? a.action_key}
              </button>{" "}
              <StatusWord status={a.status} retryClass={a.retry_class} />
              {a.error && <div className="item-error">{a.error}</div>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

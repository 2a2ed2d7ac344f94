import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useBranchLabel } from "../../canvas/branchLabel";
import { handlesOf, type Action, type Branch, type Connection } from "../../canvas/graph";
import type { ActionType } from "../../canvas/catalog";
import "../../canvas/texts";
import "./texts";

type SelectionBarProps = {
  actions: Action[];
  types: Map<string, ActionType>;
  selected: Action[];
  onConnect: (c: Connection) => void;
  onDuplicate: () => void;
  onDelete: () => void;
};

/** SelectionBar names what is selected and what can be done to it by keyboard as well as
 * by mouse: connect the one selected action to another, duplicate, delete. */
export function SelectionBar({ actions, types, selected, onConnect, onDuplicate, onDelete }: SelectionBarProps) {
  const { t } = useTranslation("editor");
  if (selected.length === 0) return null;
  const one = selected.length === 1 ? selected[0] : undefined;
  return (
    <div className="selection-bar row" role="toolbar" aria-label={t("selection", { count: selected.length })}>
      <span className="muted">{one ? t("selectedAction", { label: one.label || one.action_key }) : t("selection", { count: selected.length })}</span>
      {one && <ConnectTo key={one.action_key} from={one} actions={actions} types={types} onConnect={onConnect} />}
      <button type="button" onClick={onDuplicate}>
        {t("duplicate")}
      </button>
      <button type="button" className="danger" onClick={onDelete}>
        {t("delete")}
      </button>
    </div>
  );
}

/** ConnectTo connects an action to another chosen from a list, from one of its outputs. */
function ConnectTo({ from, actions, types, onConnect }: { from: Action; actions: Action[]; types: Map<string, ActionType>; onConnect: (c: Connection) => void }) {
  const { t } = useTranslation("editor");
  const branchLabel = useBranchLabel();
  const outputs = handlesOf(from, types.get(from.action_type_key)?.trigger ?? false);
  const [to, setTo] = useState("");
  const [branch, setBranch] = useState<Branch>(outputs[0]);
  const toId = useId();
  const branchId = useId();
  const targets = actions.filter((a) => a.action_key !== from.action_key && !types.get(a.action_type_key)?.trigger);
  return (
    <form
      className="row connect-to"
      onSubmit={(e) => {
        e.preventDefault();
        if (to) onConnect({ from: from.action_key, to, branch });
      }}
    >
      <label htmlFor={toId}>{t("connectTo")}</label>
      <select id={toId} value={to} onChange={(e) => setTo(e.target.value)}>
        <option value="">{t("chooseTarget")}</option>
        {targets.map((a) => (
          <option key={a.action_key} value={a.action_key}>
            {a.label ? `${a.label} (${a.action_key})` : a.action_key}
          </option>
        ))}
      </select>
      {outputs.length > 1 && (
        <>
          <label htmlFor={branchId}>{t("connectBranch")}</label>
          <select id={branchId} value={branch} onChange={(e) => setBranch(e.target.value as Branch)}>
            {outputs.map((b) => (
              <option key={b} value={b}>
                {branchLabel(b)}
              </option>
            ))}
          </select>
        </>
      )}
      <button type="submit" disabled={!to}>
        {t("connect")}
      </button>
    </form>
  );
}

import { memo, useId, useMemo, useState, type DragEvent, type RefObject } from "react";
import { useTranslation } from "react-i18next";
import type { ActionType } from "../../canvas/catalog";
import "../../canvas/texts";
import "./texts";

/** ACTION_TYPE_MIME carries a palette item's type key in a drag onto the canvas. */
export const ACTION_TYPE_MIME = "application/x-action-type";

const categories = ["trigger", "integration", "logic", "control"] as const;
const categoryText = {
  trigger: "categoryTrigger",
  integration: "categoryIntegration",
  logic: "categoryLogic",
  control: "categoryControl",
} as const;

type ActionPaletteProps = {
  types: ActionType[];
  /** target says where an added action goes; onCancelTarget, when given, forgets a "+". */
  target: string;
  onCancelTarget?: () => void;
  onAdd: (typeKey: string) => void;
  searchRef: RefObject<HTMLInputElement | null>;
};

/** ActionPalette lists the action types a draft may use, by category, with a search (Enter in
 * it adds the only match); each is a button (Enter or a click adds it) that can also be
 * dragged onto the canvas. */
export const ActionPalette = memo(function ActionPalette({ types, target, onCancelTarget, onAdd, searchRef }: ActionPaletteProps) {
  const { t } = useTranslation("editor");
  const tc = useTranslation("canvas").t;
  const [query, setQuery] = useState("");
  const headingId = useId();
  const groups = useMemo(() => {
    const q = query.trim().toLowerCase();
    const matches = (a: ActionType) =>
      !q ||
      a.display_name.toLowerCase().includes(q) ||
      a.action_key.toLowerCase().includes(q) ||
      a.category.includes(q) ||
      tc(categoryText[a.category]).toLowerCase().includes(q);
    const importable = types.filter((a) => a.importable && matches(a));
    return categories.map((c) => ({ category: c, items: importable.filter((a) => a.category === c) })).filter((g) => g.items.length > 0);
  }, [types, query, tc]);
  const drag = (e: DragEvent, key: string) => {
    e.dataTransfer.setData(ACTION_TYPE_MIME, key);
    e.dataTransfer.effectAllowed = "copy";
  };
  return (
    <section className="palette" aria-labelledby={headingId}>
      <h2 id={headingId}>{t("palette")}</h2>
      <p className="palette-target" role="status">
        {target}
        {onCancelTarget && (
          <>
            {" "}
            <button type="button" className="link" onClick={onCancelTarget}>
              {t("cancelTarget")}
            </button>
          </>
        )}
      </p>
      <label className="field">
        <span className="visually-hidden">{t("paletteSearch")}</span>
        <input
          ref={searchRef}
          type="search"
          onKeyDown={(e) => {
            if (e.key === "Escape" && onCancelTarget) onCancelTarget();
            // Enter adds the one action type the search leaves, as a click on it would.
            const only = groups.length === 1 && groups[0].items.length === 1 ? groups[0].items[0] : undefined;
            if (e.key === "Enter" && only) {
              e.preventDefault();
              onAdd(only.action_key);
            }
          }}
          placeholder={t("paletteSearch")}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </label>
      {groups.length === 0 && <p className="muted">{t("paletteEmpty")}</p>}
      {groups.map((g) => (
        <div key={g.category} className="palette-group">
          <h3>{tc(categoryText[g.category])}</h3>
          <ul>
            {g.items.map((a) => (
              <li key={a.action_key}>
                <button
                  type="button"
                  className={`palette-item category-${a.category}`}
                  draggable
                  onDragStart={(e) => drag(e, a.action_key)}
                  onClick={() => onAdd(a.action_key)}
                  data-action-type={a.action_key}
                >
                  {a.display_name}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ))}
      <p className="muted palette-hint">{t("paletteHint")}</p>
    </section>
  );
});

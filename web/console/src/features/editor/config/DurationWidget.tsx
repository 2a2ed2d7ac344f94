import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ariaDescribedByIds, type WidgetProps } from "@rjsf/utils";
import { bestUnit, unitSeconds as factor, UNITS, type Unit } from "./duration";
import "./texts";

/** DurationWidget edits whole seconds as a number and a unit; the config keeps seconds. */
export function DurationWidget(props: WidgetProps) {
  const { id, value, label, required, readonly, disabled, rawErrors } = props;
  const { t } = useTranslation("config");
  const [unit, setUnit] = useState<Unit>(() => bestUnit(value));
  const amount = typeof value === "number" ? value / factor(unit) : "";
  const emit = (n: number | "", u: Unit) => props.onChange(n === "" ? props.options.emptyValue : Math.round(n * factor(u)));
  return (
    <div className="duration">
      <input
        id={id}
        type="number"
        inputMode="decimal"
        min={0}
        step="any"
        value={amount}
        required={required}
        disabled={disabled || readonly}
        aria-invalid={(rawErrors?.length ?? 0) > 0}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(e) => emit(e.target.value === "" ? "" : Number(e.target.value), unit)}
        onBlur={() => props.onBlur(id, value)}
        onFocus={() => props.onFocus(id, value)}
      />
      <select
        aria-label={`${label}: ${t("unit")}`}
        value={unit}
        disabled={disabled || readonly}
        onChange={(e) => {
          const next = e.target.value as Unit;
          setUnit(next);
          if (amount !== "") emit(amount, next);
        }}
      >
        {UNITS.map(([u]) => (
          <option key={u} value={u}>
            {t(u)}
          </option>
        ))}
      </select>
    </div>
  );
}

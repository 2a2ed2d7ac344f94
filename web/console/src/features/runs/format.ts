// Times and durations as the inspector and the runs list write them, in the person's language.
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import "./texts";

/** durationMs is the time from start to end, or to now while it runs; undefined before start. */
export function durationMs(started: string | null | undefined, finished: string | null | undefined, now = Date.now()): number | undefined {
  if (!started) return undefined;
  return Math.max(0, (finished ? Date.parse(finished) : now) - Date.parse(started));
}

/** useRunFormat gives the page's date and duration writers in the current language. */
export function useRunFormat() {
  const { t, i18n } = useTranslation("runs");
  return useMemo(() => {
    const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "medium" });
    const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
    return {
      date: (iso: string | null | undefined) => (iso ? dates.format(new Date(iso)) : t("notYet")),
      duration: (ms: number | undefined) => {
        if (ms === undefined) return "—";
        if (ms < 1000) return t("dur_ms", { n: Math.round(ms) });
        if (ms < 60_000) return t("dur_s", { n: number.format(ms / 1000) });
        const s = Math.floor(ms / 1000);
        if (s < 3600) return t("dur_min", { m: Math.floor(s / 60), s: s % 60 });
        return t("dur_h", { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
      },
    };
  }, [t, i18n.language]);
}

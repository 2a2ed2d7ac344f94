// The next five times a schedule trigger fires, as the server works them out from the cron
// or interval being typed, shown in the person's language and time zone.
import { useEffect, useId, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api, data, ProblemError } from "../../../api/client";
import type { components } from "../../../api/schema.gen";
import "./texts";

type PreviewRequest = components["schemas"]["SchedulePreviewRequest"];

/** previewRequest is the schedule the config describes, or undefined while it names none. */
function previewRequest(config: Record<string, unknown>): PreviewRequest | undefined {
  const timezone = typeof config.timezone === "string" && config.timezone !== "" ? config.timezone : "UTC";
  if (typeof config.cron === "string" && config.cron.trim() !== "") return { cron: config.cron, timezone, count: 5 };
  if (typeof config.interval_seconds === "number") return { interval_seconds: config.interval_seconds, timezone, count: 5 };
  return undefined;
}

/** useSettled is the value once it has not changed for a moment: one request per pause in typing. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function SchedulePreview({ config }: { config: Record<string, unknown> }) {
  const { t, i18n } = useTranslation("config");
  const titleId = useId();
  const request = useSettled(JSON.stringify(previewRequest(config) ?? null), 400);
  const body = JSON.parse(request) as PreviewRequest | null;
  const preview = useQuery({
    queryKey: ["schedule-preview", request],
    enabled: body !== null,
    retry: false,
    staleTime: 30_000,
    queryFn: () => data(api.POST("/api/v1/schedules/preview", { body: body! })),
  });
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const format = new Intl.DateTimeFormat(i18n.language, { weekday: "short", year: "numeric", month: "long", day: "numeric", hour: "2-digit", minute: "2-digit" });

  return (
    <section className="config-schedule" aria-labelledby={titleId}>
      <h3 id={titleId}>{t("nextRuns")}</h3>
      {body === null && <p className="config-hint">{t("nextRunsNeed")}</p>}
      {body !== null && preview.isError && (
        <p className="field-error" role="alert">
          {t("nextRunsFailed", { detail: preview.error instanceof ProblemError ? preview.error.message : "" })}
        </p>
      )}
      {body !== null && preview.isSuccess && (
        <>
          <ol>
            {preview.data.fire_times.map((at) => (
              <li key={at}>
                <time dateTime={at}>{format.format(new Date(at))}</time>
              </li>
            ))}
          </ol>
          <p className="config-hint">{t("nextRunsZone", { zone })}</p>
        </>
      )}
    </section>
  );
}

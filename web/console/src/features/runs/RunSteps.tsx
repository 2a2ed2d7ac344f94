import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { TextAreaField } from "../../components/TextAreaField";
import { ConfirmedButton } from "./ConfirmDialog";
import { useCancelRun, useReplayRun, useRetryAction, type ReplayChanges, type ReplayVersion } from "./run";
import { futileRetry, retryAfterFix } from "./retry";
import type { ActionRun, RunView } from "./types";
import "./texts";

/** CancelRun is the button that cancels a run still going, after asking. */
export function CancelRun({ run }: { run: RunView }) {
  const { t } = useTranslation("runs");
  const cancel = useCancelRun(run.workflow_run_id);
  if (run.terminal) return null;
  return (
    <ConfirmedButton label={t("cancel")} className="danger" title={t("cancel")} confirm={t("cancel")} step={cancel} onConfirm={(done) => cancel.mutate(undefined, { onSuccess: done })}>
      <p>{t("cancelConfirm")}</p>
    </ConfirmedButton>
  );
}

/** ReplayRun starts a new run of the same version and input, or of the latest version or
 * an edited input, after showing what will act again, and opens the new run. */
export function ReplayRun({ run }: { run: RunView }) {
  const { t } = useTranslation("runs");
  const replay = useReplayRun(run.workflow_run_id);
  const navigate = useNavigate();
  const [version, setVersion] = useState<ReplayVersion>("original");
  const [editing, setEditing] = useState(false);
  const [input, setInput] = useState(() => JSON.stringify(run.input_json ?? {}, null, 2));
  const [unreadable, setUnreadable] = useState(false);
  const id = useId();
  return (
    <ConfirmedButton
      label={t("replay")}
      title={t("previewReplayTitle")}
      confirm={t("confirmReplay")}
      step={replay}
      effects={{ runId: run.workflow_run_id, version }}
      onConfirm={(done) => {
        const changes: ReplayChanges = { version };
        if (editing) {
          const edited = readObject(input);
          setUnreadable(!edited);
          if (!edited) return;
          changes.input_json = edited;
        }
        replay.mutate(changes, {
          onSuccess: (next) => {
            done();
            void navigate(`/runs/${next.workflow_run_id}`);
          },
        });
      }}
    >
      <p>{t("previewReplayIntro")}</p>
      <fieldset className="replay-version">
        <legend>{t("replayVersion")}</legend>
        {(["original", "latest"] as const).map((v) => (
          <label key={v}>
            <input type="radio" name={`${id}-version`} value={v} checked={version === v} onChange={() => setVersion(v)} /> {t(`replayVersion_${v}`)}
          </label>
        ))}
      </fieldset>
      <label className="inline">
        <input type="checkbox" checked={editing} onChange={(e) => setEditing(e.target.checked)} /> {t("replayEditInput")}
      </label>
      {editing && (
        <>
          <TextAreaField
            label={t("replayInput")}
            name="input_json"
            rows={8}
            spellCheck={false}
            className="replay-input"
            value={input}
            error={replay.error}
            // The field marks a Problem the server names it in; an input that is no object, here.
            {...(unreadable && { "aria-invalid": true })}
            onChange={(e) => {
              setInput(e.target.value);
              setUnreadable(false);
              replay.reset(); // a refusal of the input before is no longer about this one
            }}
          />
          {unreadable && (
            <p className="field-error" role="alert">
              {t("replayInputUnreadable")}
            </p>
          )}
        </>
      )}
    </ConfirmedButton>
  );
}

/** readObject is text as a JSON object, or undefined when it is not one. */
function readObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** RetryAction re-executes a failed or dead-lettered action of a failed run, after showing
 * what will act again; the run continues from it. */
function RetryAction({ run, actionKey, label }: { run: RunView; actionKey: string; label: string }) {
  const { t } = useTranslation("runs");
  const retry = useRetryAction(run.workflow_run_id);
  return (
    <ConfirmedButton
      label={t("retry")}
      className="primary"
      title={t("previewRetryTitle", { action: label })}
      confirm={t("confirmRetry")}
      step={retry}
      effects={{ runId: run.workflow_run_id, actionKey }}
      onConfirm={(done) => retry.mutate(actionKey, { onSuccess: done })}
    >
      <p>{t("previewRetryIntro")}</p>
    </ConfirmedButton>
  );
}

/** RetryOrWhyNot is the retry of a failed action where it may help; where the same call
 * would fail the same way it says why, and what to do instead. */
export function RetryOrWhyNot({ run, receipt, actionKey, label }: { run: RunView; receipt: ActionRun | undefined; actionKey: string; label: string }) {
  const { t } = useTranslation("runs");
  const futile = futileRetry(receipt);
  return (
    <>
      {futile && (
        <p className="retry-futile" role="note">
          {t(futile)}
        </p>
      )}
      {retryAfterFix(futile) && <RetryAction run={run} actionKey={actionKey} label={label} />}
    </>
  );
}

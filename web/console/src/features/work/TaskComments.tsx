import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { api, data } from "../../api/client";
import { ProblemAlert } from "../../components/ProblemAlert";
import { TextAreaField } from "../../components/TextAreaField";
import { personName, useTaskChange, type TaskDetail, type WorkEmployee } from "./queries";
import "./texts";

/** TaskComments lists a task's comments, oldest first, as plain text, and adds one. */
export function TaskComments({ task, people }: { task: TaskDetail; people: WorkEmployee[] }) {
  const { t, i18n } = useTranslation("work");
  const headingId = useId();
  const [body, setBody] = useState("");
  const add = useTaskChange(task.task_id, (text: string) =>
    data(api.POST("/api/v1/work/tasks/{task_id}/comments", { params: { path: { task_id: task.task_id } }, body: { body: text } })),
  );
  const author = (id?: string) => {
    const p = people.find((p) => p.user_id === id);
    return p ? personName(p) : t("workflowAuthor");
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    add.mutate(body, { onSuccess: () => setBody("") });
  }

  return (
    <section className="work-card" aria-labelledby={headingId}>
      <h2 id={headingId}>{t("comments")}</h2>
      {task.comments.length === 0 && <p className="muted">{t("noComments")}</p>}
      <ol className="comments">
        {task.comments.map((c) => (
          <li key={c.task_comment_id}>
            <div className="muted">
              <strong>{author(c.author_user_id)}</strong> · <time dateTime={c.created_at}>{new Date(c.created_at).toLocaleString(i18n.language)}</time>
            </div>
            <p className="comment-body">{c.body}</p>
          </li>
        ))}
      </ol>
      <form className="stack" onSubmit={submit}>
        <TextAreaField label={t("newComment")} name="body" required maxLength={10000} rows={3} value={body} onChange={(e) => setBody(e.target.value)} error={add.error} />
        <ProblemAlert error={add.error} />
        <div className="row">
          <button type="submit" disabled={add.isPending}>
            {t("addComment")}
          </button>
        </div>
      </form>
    </section>
  );
}

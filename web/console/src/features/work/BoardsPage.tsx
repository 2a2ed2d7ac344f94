import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useProjects, useWorkspace } from "../workspace/workspace";
import { NewBoardForm } from "./NewBoardForm";
import { useBoards } from "./queries";
import "./texts";

/** BoardsPage lists the company's boards with their columns' task counts, and creates one. */
export function BoardsPage() {
  const { t } = useTranslation("work");
  const { t: common } = useTranslation();
  const boards = useBoards();
  const projects = useProjects(useWorkspace().data?.active_company_id || undefined).data?.items ?? [];
  const [creating, setCreating] = useState(false);
  const projectName = (id?: string) => (id ? (projects.find((p) => p.project_id === id)?.name ?? "") : t("wholeCompany"));
  return (
    <section className="page work-page">
      <div className="page-head">
        <h1>{t("boards")}</h1>
        {!creating && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            {t("newBoard")}
          </button>
        )}
      </div>
      {creating && <NewBoardForm onCancel={() => setCreating(false)} />}
      <ProblemAlert error={boards.error} />
      {boards.isPending ? (
        <p className="muted">{common("loading")}</p>
      ) : boards.data?.length ? (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">{common("name")}</th>
              <th scope="col">{common("project")}</th>
              <th scope="col">{t("columns")}</th>
            </tr>
          </thead>
          <tbody>
            {boards.data.map((b) => (
              <tr key={b.task_board_id}>
                <td>
                  <Link to={`/work/boards/${b.task_board_id}`}>{b.name}</Link>
                </td>
                <td>{projectName(b.project_id)}</td>
                <td>{b.columns.map((c) => `${c.name} ${c.task_count}`).join(" · ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        !boards.error && <p className="muted">{t("noBoards")}</p>
      )}
    </section>
  );
}

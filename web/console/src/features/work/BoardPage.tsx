import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { ProblemAlert } from "../../components/ProblemAlert";
import { KanbanBoard } from "./KanbanBoard";
import { useBoard, useBoardTasks, useEmployees } from "./queries";
import "./texts";

/** BoardPage is one board as kanban columns. */
export function BoardPage() {
  const { boardId = "" } = useParams();
  const { t } = useTranslation("work");
  const { t: common } = useTranslation();
  const board = useBoard(boardId);
  const tasks = useBoardTasks(boardId);
  const people = useEmployees();
  const error = board.error ?? tasks.error;
  return (
    <section className="page board-page">
      <p className="crumbs">
        <Link to="/work/boards">{t("boards")}</Link>
      </p>
      <h1>{board.data?.name ?? t("board")}</h1>
      <ProblemAlert error={error} />
      {board.data && tasks.data ? (
        <KanbanBoard board={board.data} tasks={tasks.data} people={people.data ?? []} />
      ) : (
        !error && <p className="muted">{common("loading")}</p>
      )}
    </section>
  );
}

import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { api, data } from "../../api/client";
import { ProblemAlert } from "../../components/ProblemAlert";
import { SelectField } from "../../components/SelectField";
import { useProjects } from "../workspace/workspace";
import { useClientChange, useClientProjects, type Client } from "./clients";
import "./texts";

/** ProjectsSection lists the projects the client is linked to, each leading to its billing,
 * and links or unlinks projects of the company. A service in a project links it too. */
export function ProjectsSection({ client }: { client: Client }) {
  const { t } = useTranslation("clients");
  const { t: common } = useTranslation();
  const linked = useClientProjects(client.client_id);
  const projects = useProjects(client.company_id).data?.items ?? [];
  const open = projects.filter((p) => !linked.items?.some((l) => l.project_id === p.project_id));
  const [choice, setChoice] = useState("");
  const chosen = open.some((p) => p.project_id === choice) ? choice : (open[0]?.project_id ?? "");
  const path = (project_id: string) => ({ params: { path: { client_id: client.client_id, project_id } } });
  const link = useClientChange(client.client_id, ["projects"], (id: string) => data(api.POST("/api/v1/clients/{client_id}/projects/{project_id}", path(id))));
  const unlink = useClientChange(client.client_id, ["projects"], (id: string) => data(api.DELETE("/api/v1/clients/{client_id}/projects/{project_id}", path(id))));

  function submit(e: FormEvent) {
    e.preventDefault();
    if (chosen) link.mutate(chosen);
  }

  return (
    <section className="panel client-part" aria-labelledby="projects-title">
      <h2 id="projects-title">{t("projects")}</h2>
      <ProblemAlert error={linked.error ?? link.error ?? unlink.error} />
      {linked.isPending && <p className="muted">{common("loading")}</p>}
      {linked.items?.length === 0 && <p className="muted">{t("noProjects")}</p>}
      <ul className="part-list">
        {linked.items?.map((p) => (
          <li key={p.project_id}>
            <Link to={`/projects/${p.project_id}/billing`}>{p.project_name}</Link>
            <div className="row-actions">
              <button
                type="button"
                className="link"
                aria-label={t("unlinkNamed", { name: p.project_name })}
                onClick={() => unlink.mutate(p.project_id)}
                disabled={unlink.isPending}
              >
                {t("unlink")}
              </button>
            </div>
          </li>
        ))}
      </ul>
      {open.length > 0 && (
        <form className="row part-form align-end" onSubmit={submit} aria-label={t("linkProject")}>
          <SelectField label={t("project")} name="project_id" value={chosen} onChange={(e) => setChoice(e.target.value)} error={link.error}>
            {open.map((p) => (
              <option key={p.project_id} value={p.project_id}>
                {p.name}
              </option>
            ))}
          </SelectField>
          <button type="submit" disabled={link.isPending}>
            {t("linkProject")}
          </button>
        </form>
      )}
    </section>
  );
}

import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { Field } from "../../components/Field";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useCreateCompany, useCreateProject, useSelectWorkspace, useWorkspace } from "./workspace";

/** SetupWorkspace creates a company, then a project in it, makes them active and opens the
 * project's workflows. */
export function SetupWorkspace() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const context = useWorkspace().data;
  const companyId = context?.active_company_id || undefined;
  const createCompany = useCreateCompany();
  const createProject = useCreateProject(companyId);
  const select = useSelectWorkspace();
  const [name, setName] = useState("");
  const creating = companyId ? createProject : createCompany;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (companyId) {
      const project = await createProject.mutateAsync(name);
      await select.mutateAsync({ active_project_id: project.project_id });
      void navigate("/workflows");
    } else {
      const company = await createCompany.mutateAsync(name);
      await select.mutateAsync({ active_company_id: company.company_id });
    }
    setName("");
  }

  return (
    <section className="page narrow">
      <h1>{t("setupTitle")}</h1>
      <p>{companyId ? t("setupProject") : t("setupCompany")}</p>
      <form onSubmit={(e) => void submit(e).catch(() => {})} className="stack">
        <Field
          label={companyId ? t("projectName") : t("companyName")}
          name="name"
          required
          maxLength={200}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={creating.error}
        />
        <ProblemAlert error={creating.error ?? select.error} />
        <button type="submit" className="primary" disabled={creating.isPending || select.isPending}>
          {t("create")}
        </button>
      </form>
    </section>
  );
}

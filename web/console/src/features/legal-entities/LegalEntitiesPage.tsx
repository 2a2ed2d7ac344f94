import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { AskFirst } from "../../components/AskFirst";
import { ProblemAlert } from "../../components/ProblemAlert";
import { LegalEntityForm } from "./LegalEntityForm";
import { useDeleteLegalEntity, useLegalEntities, type LegalEntity } from "./legalEntities";
import "../../components/taxIdTexts";
import "./texts";

/** LegalEntitiesPage lists the company's own legal entities, the organisations and sole
 * proprietors it bills as, and adds, changes and deletes them. */
export function LegalEntitiesPage() {
  const { t } = useTranslation("legalEntities");
  const { t: common } = useTranslation();
  const companyId = useParams().companyId!;
  const entities = useLegalEntities(companyId);
  const [editing, setEditing] = useState<string | "new" | null>(null);
  return (
    <section className="page back-office" aria-labelledby="entities-title">
      <p className="crumbs">
        <Link to={`/companies/${companyId}/clients`}>{t("clients")}</Link>
      </p>
      <div className="page-head">
        <h1 id="entities-title">{t("title")}</h1>
        {editing === null && (
          <button type="button" className="primary" onClick={() => setEditing("new")}>
            {t("newEntity")}
          </button>
        )}
      </div>
      <p className="muted">{t("intro")}</p>
      {editing === "new" && <LegalEntityForm companyId={companyId} onDone={() => setEditing(null)} />}
      <ProblemAlert error={entities.error} />
      {entities.isPending && <p className="muted">{common("loading")}</p>}
      {entities.data?.items.length === 0 && editing !== "new" && <p className="muted">{t("noEntities")}</p>}
      {entities.data?.items.map((e) =>
        editing === e.company_legal_entity_id ? (
          <LegalEntityForm key={e.company_legal_entity_id} companyId={companyId} entity={e} onDone={() => setEditing(null)} />
        ) : (
          <EntityCard key={e.company_legal_entity_id} companyId={companyId} entity={e} onEdit={() => setEditing(e.company_legal_entity_id)} />
        ),
      )}
    </section>
  );
}

function EntityCard({ companyId, entity, onEdit }: { companyId: string; entity: LegalEntity; onEdit: () => void }) {
  const { t } = useTranslation("legalEntities");
  const { t: common } = useTranslation();
  const remove = useDeleteLegalEntity(companyId, entity);
  const { t: tt } = useTranslation("taxid");
  const rows = (
    [
      [tt("inn"), entity.inn],
      [tt("kpp"), entity.kpp],
      [tt("ogrn"), entity.ogrn],
      [tt("ogrnip"), entity.ogrnip],
      [t("legalAddress"), entity.legal_address],
      [t("bankName"), entity.bank_name],
      [tt("bik"), entity.bik],
      [tt("settlement_account"), entity.settlement_account],
      [tt("correspondent_account"), entity.correspondent_account],
    ] as const
  ).filter(([, v]) => v);
  return (
    <article className="panel entity-card" aria-labelledby={`entity-${entity.company_legal_entity_id}`}>
      <div className="part-head">
        <h2 id={`entity-${entity.company_legal_entity_id}`}>{entity.name}</h2>
        <span className="badge">{t(`type_${entity.entity_type}`)}</span>
      </div>
      <dl className="details">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="row">
        <button type="button" onClick={onEdit} aria-label={t("editNamed", { name: entity.name })}>
          {t("edit")}
        </button>
        <AskFirst
          label={common("delete")}
          name={t("deleteNamed", { name: entity.name })}
          question={t("deleteAsk")}
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </div>
      <ProblemAlert error={remove.error} />
    </article>
  );
}
